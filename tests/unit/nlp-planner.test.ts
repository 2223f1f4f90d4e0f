// The command planner against the simulator's demo home, one test per form the issue lists: what
// each sentence plans (entity, service, data), asks, finds ambiguous or does not understand.
import { describe, expect, test } from 'vitest';
import type { Outcome } from '../../src/nlp/plan.js';
import { demoHome } from '@home-mcp-bridge/sim/testing';
import { plannedCalls, plannerFor } from '../helpers/nlp-home.js';

const p = plannerFor(demoHome());

/** Each planned call as "entity service data", sorted; throws on anything but actions. */
const calls = (command: string, area?: string): string[] => plannedCalls(p, command, area);
const one = (command: string, area?: string): Outcome => {
  const out = p.plan(command, area);
  expect(out).toHaveLength(1);
  return out[0]!;
};
const LIGHTS = [
  'light.bedroom_lamp',
  'light.garden_lights',
  'light.hallway',
  'light.kitchen_ceiling',
  'light.kitchen_strip',
  'light.living_room_ceiling',
  'light.living_room_lamp',
  'light.office_desk',
];

describe('on, off, toggle', () => {
  test('by name, with the verb before or after', () => {
    expect(calls('turn on the kitchen ceiling')).toEqual(['light.kitchen_ceiling turn_on']);
    expect(calls('kitchen ceiling off')).toEqual(['light.kitchen_ceiling turn_off']);
    expect(calls('switch the coffee maker on please')).toEqual(['switch.coffee_maker turn_on']);
    expect(calls('toggle the christmas lights')).toEqual(['switch.christmas_lights toggle']);
  });
});

describe('all, every, areas and floors', () => {
  test('all the lights, every light in the house', () => {
    expect(calls('turn off all the lights')).toEqual(LIGHTS.map((id) => `${id} turn_off`));
    expect(calls('switch off every light in the house')).toEqual(LIGHTS.map((id) => `${id} turn_off`));
  });
  test('an area by name or alias, a floor by name or alias', () => {
    expect(calls('turn off the lights in the kitchen')).toEqual(['light.kitchen_ceiling turn_off', 'light.kitchen_strip turn_off']);
    expect(calls('turn on the lounge lights')).toEqual(['light.living_room_ceiling turn_on', 'light.living_room_lamp turn_on']);
    expect(calls('turn on the lights downstairs')).toEqual([
      'light.hallway turn_on',
      'light.kitchen_ceiling turn_on',
      'light.kitchen_strip turn_on',
      'light.living_room_ceiling turn_on',
      'light.living_room_lamp turn_on',
    ]);
    expect(calls('turn off the first floor lights')).toEqual(['light.bedroom_lamp turn_off', 'light.office_desk turn_off']);
  });
});

describe('here and the speaker’s area', () => {
  test('"here" and kinds of thing alone take context.area', () => {
    expect(calls('turn on the lights here', 'Bedroom')).toEqual(['light.bedroom_lamp turn_on']);
    expect(calls('lights off', 'Kitchen')).toEqual(['light.kitchen_ceiling turn_off', 'light.kitchen_strip turn_off']);
    expect(calls('pause', 'Kitchen')).toEqual(['media_player.kitchen_speaker media_pause']);
    expect(calls('turn on the lamp', 'Living Room')).toEqual(['light.living_room_lamp turn_on']);
  });
});

describe('brightness', () => {
  test('in percent, in words, relative', () => {
    expect(calls('set the living room lamp to 40%')).toEqual(['light.living_room_lamp turn_on {"brightness_pct":40}']);
    expect(calls('set the bedroom lamp to fifty percent')).toEqual(['light.bedroom_lamp turn_on {"brightness_pct":50}']);
    expect(calls('bedroom lamp twenty five percent')).toEqual(['light.bedroom_lamp turn_on {"brightness_pct":25}']);
    expect(calls('dim the kitchen ceiling')).toEqual(['light.kitchen_ceiling turn_on {"brightness_step_pct":-10}']);
    expect(calls('make the living room lamp brighter by 20%')).toEqual(['light.living_room_lamp turn_on {"brightness_step_pct":20}']);
    expect(calls('dim the office desk lamp by thirty percent')).toEqual(['light.office_desk turn_on {"brightness_step_pct":-30}']);
  });
});

describe('colours and whites', () => {
  test('a colour by name, warm white, kelvin', () => {
    expect(calls('turn the garden lights blue')).toEqual(['light.garden_lights turn_on {"color_name":"blue"}']);
    expect(calls('set the living room lamp to warm white')).toEqual(['light.living_room_lamp turn_on {"color_temp_kelvin":2700}']);
    expect(calls('set the bedroom lamp to 4000 kelvin')).toEqual(['light.bedroom_lamp turn_on {"color_temp_kelvin":4000}']);
  });
});

describe('temperatures', () => {
  test('absolute and relative', () => {
    expect(calls('set the hallway thermostat to 22 degrees')).toEqual(['climate.hallway set_temperature {"temperature":22}']);
    expect(calls('set the heating to 19.5', 'Hallway')).toEqual(['climate.hallway set_temperature {"temperature":19.5}']);
    expect(calls('make it two degrees warmer', 'Hallway')).toEqual(['climate.hallway set_temperature {"temperature":23}']);
    expect(calls('make the hallway thermostat one degree cooler')).toEqual(['climate.hallway set_temperature {"temperature":20}']);
  });
});

describe('covers', () => {
  test('open, close, a position, half open', () => {
    expect(calls('open the living room blinds')).toEqual(['cover.living_room_blinds open_cover']);
    expect(calls('close the blinds', 'Living Room')).toEqual(['cover.living_room_blinds close_cover']);
    expect(calls('close the garage door')).toEqual(['cover.garage_door close_cover']);
    expect(calls('set the bedroom curtains to 30%')).toEqual(['cover.bedroom_curtains set_cover_position {"position":30}']);
    expect(calls('half open the living room blinds')).toEqual(['cover.living_room_blinds set_cover_position {"position":50}']);
  });
});

describe('locks', () => {
  test('lock and unlock; a door name shared with a sensor goes to the lock', () => {
    expect(calls('lock the back door')).toEqual(['lock.back_door lock']);
    expect(calls('unlock the front door')).toEqual(['lock.front_door unlock']);
    expect(calls('lock all the doors')).toEqual(['lock.back_door lock', 'lock.front_door lock', 'lock.garage_side_door lock', 'lock.garden_gate lock']);
  });
});

describe('fans', () => {
  test('speed in percent and by name', () => {
    expect(calls('set the living room fan to 50%')).toEqual(['fan.living_room_fan set_percentage {"percentage":50}']);
    expect(calls('set the bedroom fan speed to high')).toEqual(['fan.bedroom_fan set_percentage {"percentage":100}']);
  });
});

describe('media', () => {
  test('pause, resume, next, previous, volume', () => {
    expect(calls('pause the kitchen speaker')).toEqual(['media_player.kitchen_speaker media_pause']);
    expect(calls('resume the kitchen speaker')).toEqual(['media_player.kitchen_speaker media_play']);
    expect(calls('next track on the kitchen speaker')).toEqual(['media_player.kitchen_speaker media_next_track']);
    expect(calls('play the previous song on the kitchen speaker')).toEqual(['media_player.kitchen_speaker media_previous_track']);
    expect(calls('set the bedroom speaker volume to 30%')).toEqual(['media_player.bedroom_speaker volume_set {"volume_level":0.3}']);
    expect(calls('turn up the volume on the kitchen speaker')).toEqual(['media_player.kitchen_speaker volume_up']);
    expect(calls('turn the kitchen speaker volume down by 10 percent')).toEqual(['media_player.kitchen_speaker volume_set {"volume_level":0.3}']);
  });
});

describe('vacuums', () => {
  test('start, and back to the dock', () => {
    expect(calls('start the vacuum')).toEqual(['vacuum.robot_vacuum start']);
    expect(calls('vacuum the kitchen')).toEqual(['vacuum.robot_vacuum start']);
    expect(calls('send the hoover back to the dock')).toEqual(['vacuum.robot_vacuum return_to_base']);
  });
});

describe('alarm', () => {
  test('arm home, away, night; disarm with a code', () => {
    expect(calls('arm the alarm')).toEqual(['alarm_control_panel.security alarm_arm_away']);
    expect(calls('arm the alarm in home mode')).toEqual(['alarm_control_panel.security alarm_arm_home']);
    expect(calls('set the alarm to away')).toEqual(['alarm_control_panel.security alarm_arm_away']);
    expect(calls('arm the security system for the night with code 1234')).toEqual(['alarm_control_panel.security alarm_arm_night {"code":"1234"}']);
    expect(calls('disarm the alarm with code 0042')).toEqual(['alarm_control_panel.security alarm_disarm {"code":"0042"}']);
  });
});

describe('scenes and scripts', () => {
  test('activate a scene, run a script', () => {
    expect(calls('activate movie night')).toEqual(['scene.movie_night turn_on']);
    expect(calls('run the goodnight script')).toEqual(['script.goodnight turn_on']);
    expect(calls('start welcome home')).toEqual(['script.welcome_home turn_on']);
  });
});

describe('compound commands', () => {
  test('two commands joined by "and" are two plans', () => {
    const out = p.plan('turn off the lights in the kitchen and lock the back door');
    expect(out.map((o) => o.kind)).toEqual(['act', 'act']);
    expect(calls('turn off the lights in the kitchen and lock the back door')).toEqual([
      'light.kitchen_ceiling turn_off',
      'light.kitchen_strip turn_off',
      'lock.back_door lock',
    ]);
    expect(calls('turn on the hallway light then close the garage door')).toEqual(['cover.garage_door close_cover', 'light.hallway turn_on']);
  });
});

describe('questions', () => {
  test('is the front door locked: the lock, not the door sensor', () => {
    const o = one('is the front door locked?');
    expect(o).toMatchObject({ kind: 'query', entities: ['lock.front_door'], matching: ['lock.front_door'] });
    expect((o as { answer: string }).answer).toMatch(/^Yes/);
  });
  test('which lights are on in the kitchen', () => {
    expect(one('which lights are on in the kitchen?')).toMatchObject({
      kind: 'query',
      entities: ['light.kitchen_ceiling', 'light.kitchen_strip'],
      matching: ['light.kitchen_ceiling'],
    });
  });
  test('what is the temperature in the hallway: the sensor, with its unit', () => {
    const o = one('what is the temperature in the hallway?');
    expect(o).toMatchObject({ kind: 'query', entities: ['sensor.hallway_temperature'] });
    expect((o as { answer: string }).answer).toContain('20.5 °C');
  });
  test('how many lights are on; is there smoke in the kitchen', () => {
    const on = LIGHTS.filter((id) => p.deps.state(id)?.state === 'on');
    expect(on.length).toBeGreaterThan(0);
    const o = one('how many lights are on?') as { entities: string[]; matching: string[]; answer: string };
    expect([...o.entities].sort()).toEqual(LIGHTS);
    expect([...o.matching].sort()).toEqual(on);
    expect(o.answer).toMatch(new RegExp(`^${on.length} of ${LIGHTS.length}`));
    expect(one('is there smoke in the kitchen?')).toMatchObject({ entities: ['binary_sensor.kitchen_smoke'], matching: [] });
  });
});

describe('what people mean beyond the words', () => {
  test('"next song" with several players goes to the one playing', () => {
    expect(calls('next song')).toEqual(['media_player.kitchen_speaker media_next_track']);
  });
  test('"lock up" locks every lock', () => {
    expect(calls('lock up')).toEqual(['lock.back_door lock', 'lock.front_door lock', 'lock.garage_side_door lock', 'lock.garden_gate lock']);
  });
  test('a name is not confused with another that shares its last word', () => {
    expect(calls('set living room ceiling brightness to 75')).toEqual(['light.living_room_ceiling turn_on {"brightness_pct":75}']);
    expect(calls('turn on the ceiling in the kitchen')).toEqual(['light.kitchen_ceiling turn_on']);
  });
  test('is the alarm armed: by its state, not a yes for being there', () => {
    expect(one('is the alarm armed?')).toMatchObject({ entities: ['alarm_control_panel.security'], matching: [], answer: expect.stringMatching(/^No\./) });
  });
});

describe('ambiguity and what is not understood', () => {
  test('"turn on the lamp" with three lamps and no context acts on nothing and names them', () => {
    expect(one('turn on the lamp')).toEqual({
      kind: 'ambiguous',
      noun: 'lamp',
      candidates: ['light.living_room_lamp', 'light.bedroom_lamp', 'light.office_desk'],
    });
  });
  test('an unknown word or no action is not understood', () => {
    expect(one('turn on the spaceship')).toMatchObject({ kind: 'not_understood', words: ['spaceship'] });
    expect(one('the kitchen ceiling')).toMatchObject({ kind: 'not_understood', reason: 'no_action' });
  });
});
