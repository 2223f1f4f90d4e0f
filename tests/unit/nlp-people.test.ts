// The rules of issue 39, one test each, in English and German against the corpus's fixture homes:
// a question never acts, whatever its form; positions in names; "it", "the one(s) in ..."; a place
// or thing the home lacks is said so; words of a name pick the sensor asked about; everyday verbs;
// mistyped number words and slips onto the next key.
import { describe, expect, test } from 'vitest';
import type { Outcome } from '../../src/nlp/plan.js';
import { confidence, distance } from '../../src/nlp/recover.js';
import { loadHome } from '@home-mcp-bridge/sim/testing';
import { fixture } from '../helpers/nl-cases.js';
import { plannedCalls as calls, plannerFor } from '../helpers/nlp-home.js';

const en = plannerFor(loadHome(fixture('home.yaml')));
const de = plannerFor(loadHome(fixture('de/home.yaml')), 'de');

type Planner = typeof en;

const reasonOf = (p: Planner, command: string) =>
  p.plan(command).find((o): o is Extract<Outcome, { kind: 'not_understood' }> => o.kind === 'not_understood')?.reason;
const asked = (p: Planner, command: string) => p.plan(command).find((o): o is Extract<Outcome, { kind: 'query' }> => o.kind === 'query')?.entities;
const acts = (p: Planner, command: string) => p.plan(command).some((o) => o.kind === 'act' || o.kind === 'scene' || o.kind === 'group');

describe('a question never acts', () => {
  test('should I, shall we, what would happen if, soll ich, was würde passieren', () => {
    for (const c of [
      'should I switch off the kitchen lights?',
      'shall we close the curtains',
      'what would happen if I turned off the tv',
      'can I turn off the tv?',
      'do you want me to turn off the lights?',
    ]) {
      expect(acts(en, c), c).toBe(false);
      expect(reasonOf(en, c), c).toBe('asked');
    }
    for (const c of [
      'soll ich das Licht im Schlafzimmer ausmachen?',
      'was würde passieren, wenn ich den Fernseher ausmache',
      'sollen wir die Rollos runtermachen',
    ]) {
      expect(acts(de, c), c).toBe(false);
      expect(reasonOf(de, c), c).toBe('asked');
    }
  });
  test('a command said with a question mark is a question; a request with one still acts', () => {
    expect(reasonOf(en, 'turn off the tv?')).toBe('asked');
    expect(calls(en, 'can you turn off the tv?')).toEqual(['media_player.tv turn_off']);
    expect(calls(de, 'kannst du den Fernseher ausschalten?')).toEqual(['media_player.tv turn_off']);
  });
  test('a statement with a tag or a question mark asks about the state', () => {
    expect(asked(en, 'the garage light is on, right?')).toEqual(['light.garage']);
    expect(asked(en, 'the garage light is still on?')).toEqual(['light.garage']);
    expect(asked(de, 'die Schlafzimmerlampe ist an, oder?')).toEqual(['light.bedroom_lamp']);
  });
  test('past tense and how questions are answered from the state', () => {
    expect(asked(en, 'did I leave the garage light on?')).toEqual(['light.garage']);
    expect(asked(en, 'have the curtains been left open')).toEqual(['cover.curtain_left', 'cover.curtain_right', 'cover.bedroom']);
    expect(asked(en, 'how loud is the tv')).toEqual(['media_player.tv']);
    expect(asked(de, 'hab ich die Schlafzimmerlampe angelassen?')).toEqual(['light.bedroom_lamp']);
  });
  test('a period asked about is answered only by a reading kept for it', () => {
    expect(reasonOf(en, 'how much gas did we use today')).toBe('period');
    expect(asked(en, "what's the water pump usage today")).toEqual(['sensor.water_pump_usage_today']);
    // A time in a command still refuses it.
    expect(reasonOf(en, 'turn on the garage light today')).toBe('time');
  });
});

describe('which things', () => {
  test('a position picks among things of the kind, in either order and in German forms', () => {
    expect(calls(en, 'open the left curtain')).toEqual(['cover.curtain_left open_cover']);
    expect(calls(en, 'close the left and right curtains')).toEqual(['cover.curtain_left close_cover', 'cover.curtain_right close_cover']);
    expect(calls(en, 'close the left curtain and the right one')).toEqual(['cover.curtain_left close_cover', 'cover.curtain_right close_cover']);
    expect(calls(de, 'mach das linke Rollo zu')).toEqual(['cover.wohnzimmer_rollo_links close_cover']);
    expect(calls(de, 'schließ den linken Vorhang und den rechten')).toEqual([
      'cover.wohnzimmer_vorhang_links close_cover',
      'cover.wohnzimmer_vorhang_rechts close_cover',
    ]);
  });
  test('"it", "the one in ...", "den im ..." stand for what was said before', () => {
    expect(calls(en, 'turn on the tv and mute it')).toEqual(['media_player.tv turn_on', 'media_player.tv volume_mute {"is_volume_muted":true}']);
    expect(calls(en, 'turn on the bedroom lamp and the one in the living room')).toEqual(['light.bedroom_lamp turn_on', 'light.living_room_lamp turn_on']);
    expect(calls(de, 'schalte den Küchenschalter ein und den im Flur aus')).toEqual(['switch.corridor turn_off', 'switch.kitchen turn_on']);
    // One meant where several fit: asked, never all of them.
    expect(en.plan('turn on the garage light and the one in the kitchen')).toEqual([expect.objectContaining({ kind: 'ambiguous' })]);
  });
  test('a word both verb and thing before "it" or "them" is the verb', () => {
    expect(calls(en, 'the kitchen lights, switch them off')).toEqual(
      ['light.kitchen_cabinets', 'light.kitchen_ceiling', 'light.kitchen_countertop'].map((id) => `${id} turn_off`),
    );
  });
  test('a position with no kind said stands for one thing: several fit, so it is asked', () => {
    expect(de.plan('mach links zu', 'Wohnzimmer')[0]).toMatchObject({ kind: 'ambiguous' });
    expect(calls(de, 'mach den linken Vorhang zu')).toEqual(['cover.wohnzimmer_vorhang_links close_cover']);
  });
  test('except a position, except what carries a word', () => {
    expect(calls(en, 'close all the curtains except the left one')).toEqual(['cover.bedroom close_cover', 'cover.curtain_right close_cover']);
    expect(calls(en, 'turn off the lights in the living room except the lamp')).toEqual(['light.play_corner turn_off']);
  });
  test('a garage door, a gate or an awning the home lacks is not another cover', () => {
    expect(reasonOf(en, 'open the garage door')).toBe('no_target');
    expect(reasonOf(en, 'open the awning')).toBe('no_target');
  });
  test('a place or thing the home lacks is said so, never answered from another', () => {
    expect(reasonOf(en, 'how warm is it in the sauna')).toBe('no_place');
    expect(['no_target', 'unsure']).toContain(reasonOf(en, 'how warm is the attic'));
    expect(reasonOf(de, 'wie ist die Temperatur im Gästezimmer')).toBe('no_place');
    expect(reasonOf(de, 'ist die Sauna an')).toBe('no_target');
    // A zone someone is in is no place of the home.
    expect(asked(de, 'ist Madlen auf der Arbeit')).toEqual(['person.madlen']);
    // A kind of sensor a room lacks: refused, saying so.
    expect(reasonOf(en, "what's the humidity in the bedroom")).toBe('no_such');
  });
  test('someone in a room: its occupancy sensor says; a room without one is said to lack it', () => {
    expect(asked(en, 'is somebody in the kitchen')).toEqual(['binary_sensor.kitchen_occupancy']);
    expect(reasonOf(en, 'is anyone in the office')).toBe('no_such');
    expect(asked(en, 'is anyone home')).toContain('person.ada');
  });
  test('readings of one name that measure different things are asked between', () => {
    expect(en.plan('what is the outside rain sensor showing')[0]).toMatchObject({
      kind: 'ambiguous',
      candidates: ['sensor.rain_sensor_total', 'sensor.rain_sensor_intensity'],
    });
    expect(asked(en, 'what is the rain intensity')).toEqual(['sensor.rain_sensor_intensity']);
  });
  test('a sensor question answers about the sensor named', () => {
    expect(asked(en, "what's the signal strength on my phone")).toEqual(['sensor.my_phone_gsm_signal']);
    expect(asked(en, 'what is the bed sensor reading')).toEqual(['sensor.bed_sensor_weight']);
    expect(asked(en, 'how much energy is stored in the battery')).toEqual(['sensor.powerwall_stored_energy']);
    // "my phone" names the phone's battery reading; charging is said by the phone's charging sensor.
    expect(asked(en, 'is my phone charging')).toEqual(['binary_sensor.phone_battery_charging']);
    // British and American spellings are one word (grammar data: spelling).
    expect(asked(en, 'what is the tire pressure')).toEqual(['sensor.tyre_pressure']);
  });
});

describe('everyday words', () => {
  test('verbs and particles as data', () => {
    expect(calls(en, 'kick off the vacuum')).toEqual(['vacuum.rover start']);
    expect(calls(en, 'get the vacuum going')).toEqual(['vacuum.rover start']);
    expect(calls(en, 'pull down the shade')).toEqual(['cover.shade_left close_cover']);
    expect(calls(en, 'flip the garage light back on')).toEqual(['light.garage turn_on']);
    expect(calls(de, 'schmeiß den Staubsauger an')).toEqual(['vacuum.rover start']);
    // An awning is taken in (eingefahren) and let out (ausgefahren).
    expect(calls(de, 'die Markise einfahren')).toEqual(['cover.terrasse_markise close_cover']);
    expect(calls(de, 'fahr die Markise aus')).toEqual(['cover.terrasse_markise open_cover']);
    expect(asked(de, 'hat das Handy Empfang')).toEqual(['binary_sensor.phone_connectivity']);
    expect(asked(en, 'does my phone have reception')).toEqual(['binary_sensor.phone_connectivity']);
  });
  test('warm and cool it up or down mean the climate where there is one, from what the hub reports (no target: the reading)', () => {
    expect(calls(en, 'warm it up in here', 'Living Room')).toEqual(['climate.thermostat set_temperature {"temperature":69}']);
    expect(calls(en, 'cool it down in here', 'Living Room')).toEqual(['climate.thermostat set_temperature {"temperature":67}']);
    expect(calls(de, 'heiz das Wohnzimmer etwas auf')).toEqual(['climate.living_room set_temperature {"temperature":22.5}']);
    // "cool … off" is the climate too, never the lights off.
    expect(calls(en, 'cool it off in here', 'Living Room')).toEqual(['climate.thermostat set_temperature {"temperature":67}']);
    expect(calls(de, 'die Küche einen halben Grad wärmer')).toEqual(['climate.kitchen set_temperature {"temperature":24.5}']);
  });
  test('a mistyped number word is the number; a slip onto the next key costs half', () => {
    expect(calls(en, 'set the office thermostat to fourty five')).toEqual(['climate.office_thermostat set_temperature {"temperature":45}']);
    const near = new Set(['vc', 'cv'].map((x) => x.charCodeAt(0) * 65536 + x.charCodeAt(1)));
    expect(distance('kitvhen', 'kitchen', 2, near)).toBe(0.5);
    expect(distance('kitvhen', 'kitchen')).toBe(1);
    expect(confidence('garaj', 'garage', en.deps.lang)).toBeGreaterThanOrEqual(0.75);
  });
});
