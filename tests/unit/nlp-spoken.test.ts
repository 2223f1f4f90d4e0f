// Issue 39, third round: rules for sentences as people say them, in English and German, each shown with
// sentences of our own (not the held-out sets'): everyday verbs and particles as data, statements and
// questions that never act, "how often"/"how long" refused naming the history, a part that keeps things
// as they are, "but" before a verb, exclusions the home has, sides as positions, an article before a
// unit, a place that does not exist.
import { describe, expect, test } from 'vitest';
import { loadHome } from '@home-mcp-bridge/sim/testing';
import type { Outcome } from '../../src/nlp/plan.js';
import { fixture } from '../helpers/nl-cases.js';
import { plannedCalls as calls, plannerFor } from '../helpers/nlp-home.js';

const en = plannerFor(loadHome(fixture('home.yaml')));
const de = plannerFor(loadHome(fixture('de/home.yaml')), 'de');
type Planner = typeof en;

/** The one outcome of a command that plans no action. */
function only(p: Planner, command: string, area?: string): Outcome {
  const out = p.plan(command, area);
  expect(
    out.some((o) => o.kind === 'act'),
    `${command}: ${JSON.stringify(out)}`,
  ).toBe(false);
  return out.find((o) => o.kind === 'not_understood') ?? out[0]!;
}

const KITCHEN = ['light.kitchen_cabinets', 'light.kitchen_ceiling', 'light.kitchen_countertop'];

describe('everyday verbs and particles are data', () => {
  test('English: pop, douse, pull ... down, and "shut ... off" is off', () => {
    expect(calls(en, 'pop the garage light on')).toEqual(['light.garage turn_on']);
    expect(calls(en, 'douse the garage light')).toEqual(['light.garage turn_off']);
    expect(calls(en, 'pull the bedroom curtain down')).toEqual(['cover.bedroom close_cover']);
    expect(calls(en, 'shut the telly off')).toEqual(['media_player.tv turn_off']);
    expect(calls(en, 'set the ceiling fan to full blast')).toEqual(['fan.ceiling set_percentage {"percentage":100}']);
  });
  test('German: hol ... rein, fahr ... raus, Vollgas', () => {
    expect(calls(de, 'hol das rollo vorne rein')).toEqual(['cover.kueche_rollo_vorn close_cover']);
    expect(calls(de, 'fahr den schirm raus')).toEqual(['cover.terrasse_schirm open_cover']);
    expect(calls(de, 'deckenventilator auf vollgas')).toEqual(['fan.ceiling set_percentage {"percentage":100}']);
  });
  test('a verb with nothing that says which way is not guessed', () => {
    expect(only(en, 'pull the bedroom curtain')).toMatchObject({ kind: 'not_understood' });
  });
});

describe('statements and questions never act', () => {
  test('a statement with a tag, or alone, is answered', () => {
    expect(only(en, "you switched the garage light off, didn't you")).toMatchObject({ kind: 'query', entities: ['light.garage'] });
    expect(only(en, 'I left the garage light on')).toMatchObject({ kind: 'query', entities: ['light.garage'] });
  });
  test('a thing and a state with no verb, then a tag, are asked', () => {
    expect(only(en, 'you switched off the garage light right')).toMatchObject({ kind: 'query', entities: ['light.garage'] });
    expect(calls(en, 'close the curtain right')).toEqual(['cover.curtain_right close_cover']);
  });
  test('a statement before a command is what its "it" or "them" stands for', () => {
    expect(calls(en, 'we left the kitchen lights on, turn them off')).toEqual(KITCHEN.map((id) => `${id} turn_off`));
    expect(calls(de, 'ich hab die schreibtischlampe angelassen, mach sie bitte aus')).toEqual(['light.bedroom_desk_lamp turn_off']);
  });
  test('a part joined to a question asks too', () => {
    expect(only(en, 'did you lock the front door and turn off the tv')).toMatchObject({ reason: 'asked' });
  });
  test('"was ... left": after a whole name, before a state, left is the verb', () => {
    expect(only(en, 'was the front door left unlocked')).toMatchObject({ kind: 'query', entities: ['lock.front_door'] });
  });
  test('how often and how long are asked of the recorder (issue 39, sixth round), never acted on', () => {
    for (const [p, c, id, measure] of [
      [en, 'how often did the front door open this week', 'lock.front_door', 'how_often'],
      [en, 'how long has the tv been on today', 'media_player.tv', 'how_long'],
      [de, 'wie lange war der fernseher heute an', 'media_player.tv', 'how_long'],
      [de, 'wie oft ging die haustür heute auf', 'lock.front_door', 'how_often'],
    ] as const) {
      expect(only(p, c), c).toMatchObject({ kind: 'query', entities: [id], history: { measure } });
    }
  });
  test('a reading kept for the period answers, found by its name even of another class', () => {
    expect(only(en, 'how much water did the pump use today')).toMatchObject({ kind: 'query', entities: ['sensor.water_pump_usage_today'] });
    // No reading kept for today: whether it was opened is the recorder's to answer.
    expect(only(en, 'was the back door opened today')).toMatchObject({ kind: 'query', entities: ['lock.back_door'], history: { window: 'today' } });
    expect(only(en, 'how much gas did we use today')).toMatchObject({ reason: 'period' });
  });
});

describe('a part that keeps things as they are', () => {
  test('lets the other parts act on other things', () => {
    expect(calls(en, 'leave the right curtain closed and open the left one')).toEqual(['cover.curtain_left open_cover']);
    expect(calls(de, 'mach den rechten vorhang auf, der linke bleibt zu')).toEqual(['cover.wohnzimmer_vorhang_rechts open_cover']);
  });
  test('alone, or about the things acted on, refuses', () => {
    expect(only(de, 'lass das rollo links offen')).toMatchObject({ reason: 'keep' });
    // A refused part refuses the whole command (the service answers the first refusal).
    expect(en.plan('keep the tv on and turn it off')).toContainEqual(expect.objectContaining({ kind: 'not_understood', reason: 'keep' }));
  });
  test('"leave ... open" never opens', () => {
    expect(only(en, 'leave the bedroom curtain open')).toMatchObject({ reason: 'keep' });
  });
});

describe('which things', () => {
  test('"but" before a verb starts a command of its own', () => {
    expect(calls(en, 'open the left curtain but close the right one')).toEqual(['cover.curtain_left open_cover', 'cover.curtain_right close_cover']);
  });
  test('an exclusion the home has but the command did not take leaves nothing out; one it lacks refuses', () => {
    expect(calls(en, 'open all the curtains apart from the shade')).toEqual([
      'cover.bedroom open_cover',
      'cover.curtain_left open_cover',
      'cover.curtain_right open_cover',
    ]);
    expect(only(en, 'open all the curtains apart from the gazebo')).toMatchObject({ kind: 'not_understood' });
  });
  test('a kind left out is the things meant of that kind, whichever reading of the word fits them', () => {
    // "lights" also names light sensors (binary_sensor class light): the exclusion used to resolve to those,
    // leave nothing out of the kitchen, and so turn its lights off too.
    expect(calls(en, 'shut everything off in the kitchen apart from the lights')).toEqual(['switch.kitchen turn_off']);
    expect(calls(en, 'turn off everything in the kitchen except the lights')).toEqual(['switch.kitchen turn_off']);
    expect(calls(en, 'turn off everything in the living room except the lamp')).toEqual([
      'fan.ceiling turn_off',
      'light.play_corner turn_off',
      'media_player.tv turn_off',
    ]);
    // The room's lights less its lights is nothing: refused, never the lights.
    expect(only(en, 'turn off the kitchen except the lights').kind).not.toBe('act');
    expect(calls(de, 'mach alles in der Küche aus außer dem Licht')).toEqual(['switch.kitchen turn_off']);
    expect(calls(de, 'schalte alles im Wohnzimmer aus bis auf die Lampen')).toEqual(['fan.ceiling turn_off', 'media_player.tv turn_off']);
  });
  test('"lock up" is every lock only when nothing is named', () => {
    const all = ['lock.back_door', 'lock.front_door', 'lock.side_door', 'lock.sliding_doors'].map((id) => `${id} lock`);
    expect(calls(en, 'lock up', 'Entrance')).toEqual(all);
    expect(calls(en, 'lock up the doors')).toEqual(all);
    expect(calls(en, 'lock up the door', 'Entrance')).toEqual(['lock.front_door lock']);
    expect(calls(en, 'lock up the back door')).toEqual(['lock.back_door lock']);
    expect(only(en, 'lock up the door')).toMatchObject({ kind: 'ambiguous' });
  });
  test('"the tv is on" says how things are: answered, never acted on; a later "it" stands for its things', () => {
    for (const said of ['the tv is on', 'the kitchen cabinets are on', 'the front door is unlocked']) {
      expect(
        en.plan(said).some((o) => o.kind === 'act'),
        said,
      ).toBe(false);
    }
    expect(calls(en, 'the tv is on, turn it off')).toEqual(['media_player.tv turn_off']);
    expect(calls(en, 'the kitchen cabinets are on, switch them off')).toEqual(['light.kitchen_cabinets turn_off']);
    expect(calls(en, 'make sure the tv is off')).toEqual(['media_player.tv turn_off']);
    expect(de.plan('der Fernseher ist an').some((o) => o.kind === 'act')).toBe(false);
    expect(calls(de, 'der Fernseher ist an, mach ihn aus')).toEqual(['media_player.tv turn_off']);
  });
  test('"start" with nothing named is not guessed to be the one robot', () => {
    for (const said of ['start', 'get going'])
      expect(
        en.plan(said).some((o) => o.kind === 'act'),
        said,
      ).toBe(false);
    const steps = en.plan('turn off the bedroom lamp and the fan but keep the kitchen going').flatMap((o) => (o.kind === 'act' ? o.steps : []));
    expect(steps.some((st) => st.service === 'start')).toBe(false);
    expect(calls(en, 'get the vacuum going')).toEqual(['vacuum.rover start']);
    expect(calls(en, 'clean the kitchen')).toEqual(['vacuum.rover start']);
    expect(de.plan('starte').some((o) => o.kind === 'act')).toBe(false);
  });
  test('"apart from this room" is the rest of the home', () => {
    expect(calls(en, 'turn off the lights apart from this room', 'Kitchen')).toEqual(
      ['light.bedroom_lamp', 'light.garage', 'light.living_room_lamp', 'light.play_corner'].map((id) => `${id} turn_off`),
    );
    expect(only(en, 'turn off the lights apart from this room')).toMatchObject({ reason: 'exception' });
  });
  test('"the lamp in <room>": the one there whose name carries the word, and "the one in ..." of that kind', () => {
    expect(calls(en, 'switch off the lamp in the living room and the one in the bedroom')).toEqual([
      'light.bedroom_lamp turn_off',
      'light.living_room_lamp turn_off',
    ]);
    expect(calls(en, 'turn on the lamp in the living room')).toEqual(['light.living_room_lamp turn_on']);
  });
  test('sides are positions', () => {
    expect(calls(en, 'open the curtain on the left')).toEqual(['cover.curtain_left open_cover']);
    expect(calls(de, 'mach den vorhang auf der linken seite zu')).toEqual(['cover.wohnzimmer_vorhang_links close_cover']);
  });
  test('unknown words after "in the" are a place the home lacks, never guessed at', () => {
    expect(only(en, 'how humid is it in the wine cellar')).toMatchObject({ reason: 'no_place' });
  });
});

describe('how questions name what they ask of', () => {
  test('wind and rain, whatever the verb', () => {
    expect(only(en, 'how strong is the wind blowing')).toMatchObject({ kind: 'query', entities: ['sensor.mistral_speed'] });
    expect(only(en, 'how heavily is it raining out there')).toMatchObject({ kind: 'query', entities: ['sensor.rain_sensor_intensity'] });
  });
  test('"have left" is no position', () => {
    expect(only(en, 'how much battery does my phone have left')).toMatchObject({ kind: 'query', entities: ['sensor.my_phone_battery'] });
  });
});

describe('values', () => {
  test('an article before a unit is one of it, never a particle', () => {
    expect(calls(de, 'mach die heizung im wohnzimmer einen grad kühler')).toEqual(['climate.living_room set_temperature {"temperature":21}']);
    expect(calls(de, 'Heizung im Wohnzimmer ein Grad runter')).toEqual(['climate.living_room set_temperature {"temperature":21}']);
    expect(calls(en, 'turn the heat up a degree in the living room')).toEqual(['climate.thermostat set_temperature {"temperature":69}']);
  });
  test('a share said to dim is the level; "by" a share is refused, never a plain step', () => {
    expect(calls(en, 'dim the garage light to a quarter')).toEqual(['light.garage turn_on {"brightness_pct":25}']);
    expect(calls(de, 'dimm die schreibtischlampe auf die hälfte')).toEqual(['light.bedroom_desk_lamp turn_on {"brightness_pct":50}']);
    expect(only(en, 'dim the garage light by half')).toMatchObject({ kind: 'not_understood' });
  });
});

// Issue 39, fifth round: kinds of miss seen in heldout4 and the earlier sets, each taught as a rule and
// shown with sentences of our own.
describe('"not" in a question or beside what is left out', () => {
  test('a question never acts, so its "not" forbids nothing: it is answered', () => {
    expect(only(en, "the garage light isn't on, is it")).toMatchObject({ kind: 'query', entities: ['light.garage'] });
    expect(only(en, 'is the ceiling fan not on?')).toMatchObject({ kind: 'query', entities: ['fan.ceiling'] });
    expect(only(en, "Ada isn't home, is she?")).toMatchObject({ kind: 'query', entities: ['person.ada'] });
    expect(only(en, 'nobody left the side door unlocked, did they')).toMatchObject({ kind: 'query', entities: ['lock.side_door'] });
    expect(only(de, 'der Fernseher ist nicht an, oder?')).toMatchObject({ kind: 'query', entities: ['media_player.tv'] });
  });
  test('a "not" before a verb in a question is about an act, and refused', () => {
    expect(only(en, 'any reason not to close the bedroom curtain?')).toMatchObject({ kind: 'not_understood', reason: 'negation' });
  });
  test('a statement with "not", then a command: the command acts', () => {
    expect(calls(en, "the garage light isn't on, switch it on")).toEqual(['light.garage turn_on']);
  });
  test('"…, not the X", "nur X nicht", "aber X nicht", "nur nicht X" leave X out', () => {
    expect(calls(en, 'turn off the kitchen lights, not the cabinets')).toEqual(['light.kitchen_ceiling turn_off', 'light.kitchen_countertop turn_off']);
    expect(calls(en, 'lock every door, only not the front door please')).toEqual(['lock.back_door lock', 'lock.side_door lock', 'lock.sliding_doors lock']);
    expect(calls(en, 'switch on the kitchen lights, not the ceiling one')).toEqual(['light.kitchen_cabinets turn_on', 'light.kitchen_countertop turn_on']);
    expect(calls(de, 'mach im Wohnzimmer alles aus, nur den Deckenventilator nicht')).toEqual(['media_player.tv turn_off']);
    expect(calls(de, 'schalt alle Schalter aus, aber den in der Küche nicht')).toEqual(['switch.corridor turn_off']);
  });
  test('a "not" with no things after it still forbids the act', () => {
    expect(only(en, 'close all the curtains, not now')).toMatchObject({ kind: 'not_understood', reason: 'negation' });
    expect(only(en, "don't open the bedroom curtain")).toMatchObject({ kind: 'not_understood', reason: 'negation' });
    expect(only(de, 'mach alle Lichter aus, nur nicht jetzt')).toMatchObject({ kind: 'not_understood', reason: 'negation' });
    expect(only(de, 'mach den Fernseher nicht aus')).toMatchObject({ kind: 'not_understood', reason: 'negation' });
  });
});

describe('a verb or a position mistyped by one slip', () => {
  test('two letters swapped, a doubled letter once, a letter that sounds the same: taken when no other verb is that close', () => {
    expect(calls(en, 'unlcok the side door')).toEqual(['lock.side_door unlock']);
    expect(calls(en, 'lcok the side door')).toEqual(['lock.side_door lock']);
    expect(calls(en, 'swtich off the garage light')).toEqual(['light.garage turn_off']);
    expect(calls(en, 'close the rihgt curtain')).toEqual(['cover.curtain_right close_cover']);
    expect(calls(de, 'öfne das Garagentor')).toEqual(['cover.garage_garagentuer open_cover']);
    expect(calls(de, 'mach den rehcten Vorhang auf')).toEqual(['cover.wohnzimmer_vorhang_rechts open_cover']);
  });
  test('a short word is asked about; a slip beside a word not understood is not taken; both quote the word typed', () => {
    expect(only(en, 'tun off the garage light')).toMatchObject({ kind: 'not_understood', reason: 'unsure', words: ['tun'], detail: { guess: 'turn' } });
    expect(only(en, 'unlcok the blorp door')).toMatchObject({ kind: 'not_understood', words: ['unlcok', 'blorp'] });
  });
  test('a refusal names the word as typed, not as guessed', () => {
    const o = only(en, 'unlcok the curtain in the blorp');
    expect(JSON.stringify(o)).not.toContain('"unlock"');
  });
});

describe('pronouns and ellipsis', () => {
  test('"the side one" is a position like left and right', () => {
    expect(calls(en, 'unlock the back door and the side one')).toEqual(['lock.back_door unlock', 'lock.side_door unlock']);
  });
  test('"the other one", "die andere": the kind said before, where it was, less what was named', () => {
    expect(calls(en, 'close the right curtain and the other one too')).toEqual(['cover.curtain_left close_cover', 'cover.curtain_right close_cover']);
    expect(calls(de, 'die Schreibtischlampe aus, die andere an')).toEqual(['light.bedroom_desk_lamp turn_off', 'light.bedroom_lamp turn_on']);
    expect(calls(de, 'das rechte Rollo im Wohnzimmer runter und das andere hoch')).toEqual([
      'cover.wohnzimmer_rollo_links open_cover',
      'cover.wohnzimmer_rollo_rechts close_cover',
    ]);
  });
  test('"the other one" with nothing said before it stands for nothing', () => {
    expect(only(en, 'open the other one')).toMatchObject({ kind: 'not_understood', reason: 'no_antecedent' });
    expect(only(de, 'mach die andere aus')).toMatchObject({ kind: 'not_understood', reason: 'no_antecedent' });
  });
});

describe('everyday phrasings', () => {
  test('a question whose unknown words are all words of one name asks of that thing', () => {
    expect(only(en, 'how much charge is in the powerwall')).toMatchObject({ kind: 'query', entities: ['sensor.powerwall_stored_energy'] });
    expect(only(en, 'how much solar is there')).toMatchObject({ kind: 'query', entities: ['sensor.solar_production'] });
    expect(only(en, 'how warm is the sauna')).toMatchObject({ kind: 'not_understood' });
  });
  test('"out" after a cover in a yes/no question is its state, not the outdoors', () => {
    expect(only(de, 'ist die Markise noch draußen?')).toMatchObject({ kind: 'query', entities: ['cover.terrasse_markise'] });
    expect(only(de, 'wie kalt ist es draußen')).toMatchObject({ kind: 'query', entities: ['sensor.outside_temperature'] });
  });
  test('a request that does not say what to do is asked, never answered as a question', () => {
    expect(only(en, 'do something with the garage light')).toMatchObject({ kind: 'not_understood', reason: 'no_action' });
    expect(only(de, 'mach was mit dem Fernseher')).toMatchObject({ kind: 'not_understood', reason: 'no_action' });
  });
  test('chilly is too cold: the climate of a room that has one; a feeling before a command is only its reason', () => {
    expect(calls(en, "it's a bit chilly in here", 'Living Room')).toEqual(['climate.thermostat set_temperature {"temperature":69}']);
    expect(calls(en, 'bit nippy, turn the thermostat up a degree')).toEqual(['climate.thermostat set_temperature {"temperature":69}']);
    expect(only(en, "it's chilly in here", 'Garage')).toMatchObject({ kind: 'not_understood' });
  });
  test('"make it brighter in here": the "it" of a change said of a place is what the place has', () => {
    expect(calls(en, 'make it a bit brighter in here', 'Garage')).toEqual(['light.garage turn_on {"brightness_step_pct":5}']);
    expect(only(en, 'make it brighter')).toMatchObject({ kind: 'not_understood', reason: 'no_antecedent' });
  });
});

describe('everyday words for floors', () => {
  test('"downstairs", "Parterre" are the floor the home has of a name they stand for', () => {
    expect(calls(de, 'fahr im Parterre alle Rollos runter')).toEqual([
      'cover.kueche_rollo_vorn close_cover',
      'cover.wohnzimmer_rollo_links close_cover',
      'cover.wohnzimmer_rollo_rechts close_cover',
    ]);
    expect(only(en, 'how humid is it downstairs')).toMatchObject({ kind: 'not_understood', reason: 'no_such' });
  });
});

describe('when things last happened', () => {
  test('"when did", "wann war … zuletzt" ask the recorder for the latest change, never acted on', () => {
    expect(only(en, 'when did the garage light last go on')).toMatchObject({
      kind: 'query',
      entities: ['light.garage'],
      history: { measure: 'when', window: 'latest', state: 'on' },
    });
    expect(only(de, 'wann wurde das Garagentor zuletzt geöffnet')).toMatchObject({
      kind: 'query',
      entities: ['binary_sensor.garage_door'],
      history: { measure: 'when' },
    });
  });
});

describe('questions opened by a tag never act', () => {
  test('"did he …", "does she …", "is he …" ask, whatever follows', () => {
    expect(only(en, 'did he switch off the garage light')).toMatchObject({ kind: 'query', entities: ['light.garage'] });
    expect(only(en, 'does she have the side door unlocked')).toMatchObject({ kind: 'query', entities: ['lock.side_door'] });
    expect(only(en, 'did they open the bedroom curtain')).toMatchObject({ kind: 'query', entities: ['cover.bedroom'] });
  });
  test('"is it on" with nothing said before names nothing, and is answered about nothing', () => {
    expect(only(en, 'is it off?')).toMatchObject({ kind: 'not_understood', reason: 'no_antecedent' });
    expect(only(de, 'ist es aus?')).toMatchObject({ kind: 'not_understood', reason: 'no_antecedent' });
  });
  test('"would it be wise to", "wäre es klug": advice, never an act', () => {
    expect(only(en, 'would it be wise to unlock the side door')).toMatchObject({ kind: 'not_understood', reason: 'asked' });
    expect(only(de, 'wäre es klug, die Haustür aufzuschließen')).toMatchObject({ kind: 'not_understood', reason: 'asked' });
  });
  test('a feeling about a place or a thing: too dark, freezing, kalt hier', () => {
    expect(calls(en, "it's too dark in here", 'Garage')).toEqual(['light.garage turn_on {"brightness_step_pct":10}']);
    expect(calls(en, 'the tv is too quiet, turn it up to 40')).toEqual(['media_player.tv volume_set {"volume_level":0.4}']);
    expect(calls(de, 'es ist kalt hier', 'Küche')).toEqual(['climate.kitchen set_temperature {"temperature":25}']);
  });
});

describe('how things are, then what to do', () => {
  test('"the curtain is open, can you close it": the request after the comma is its own command', () => {
    expect(calls(en, 'the bedroom curtain is open, can you close it')).toEqual(['cover.bedroom close_cover']);
    expect(calls(en, 'I left the left curtain open, could you shut it please')).toEqual(['cover.curtain_left close_cover']);
    expect(calls(en, 'the garage light is on, please switch it off')).toEqual(['light.garage turn_off']);
    expect(calls(de, 'der linke Vorhang ist offen, kannst du ihn zumachen')).toEqual(['cover.wohnzimmer_vorhang_links close_cover']);
    // A list after a comma is still one command.
    expect(calls(en, 'turn off the garage light, the tv and the ceiling fan')).toEqual([
      'fan.ceiling turn_off',
      'light.garage turn_off',
      'media_player.tv turn_off',
    ]);
  });
  test('a feeling, then a verb that sets a state: the verb says what changes, where the feeling was', () => {
    expect(calls(en, "it's far too bright, turn off the kitchen ceiling")).toEqual(['light.kitchen_ceiling turn_off']);
    expect(calls(en, 'way too dark in the bedroom, switch on the lamp')).toEqual(['light.bedroom_lamp turn_on']);
    expect(calls(en, "it's too cold in the living room, turn up the heat")).toEqual(['climate.thermostat set_temperature {"temperature":69}']);
    // Without a verb of its own, a later part still takes the comparison: two changes.
    expect(calls(en, 'make the bedroom lamp brighter and the garage light too')).toEqual([
      'light.bedroom_lamp turn_on {"brightness_step_pct":10}',
      'light.garage turn_on {"brightness_step_pct":10}',
    ]);
  });
});

describe('a bare number said to a place', () => {
  test('"set the living room to 72": the lights or the thermostat is asked; a unit, a kind or a thing decides', () => {
    const asked = only(en, 'set the living room to 72');
    expect(asked).toMatchObject({ kind: 'ambiguous', candidates: expect.arrayContaining(['climate.thermostat', 'light.living_room_lamp']) });
    expect(calls(en, 'set the living room to 72 degrees')).toEqual(['climate.thermostat set_temperature {"temperature":72}']);
    expect(calls(en, 'set the living room lights to 72')).toEqual([
      'light.living_room_lamp turn_on {"brightness_pct":72}',
      'light.play_corner turn_on {"brightness_pct":72}',
    ]);
    expect(calls(en, 'set the living room to 40%')).toEqual([
      'light.living_room_lamp turn_on {"brightness_pct":40}',
      'light.play_corner turn_on {"brightness_pct":40}',
    ]);
    // A place with lights and no thermostat: the lights, as before.
    expect(calls(en, 'set the garage to 50')).toEqual(['light.garage turn_on {"brightness_pct":50}']);
  });
});
