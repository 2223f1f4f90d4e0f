// The rules behind the fresh held-out set's safety cases (issue 39), each with sentences of our own in
// both test homes (English: °F, two thermostats; German: °C): a question never acts, a target the
// thermostat does not take is refused, a pronoun with nothing before it is not "everything here", a
// precise singular noun that fits several asks, and no value is guessed out of a word.
import { describe, expect, test } from 'vitest';
import { loadHome } from '@home-mcp-bridge/sim/testing';
import { temperatureRange } from '../../src/nlp/act.js';
import type { Outcome } from '../../src/nlp/plan.js';
import { fixture } from '../helpers/nl-cases.js';
import { plannerFor, stepCalls } from '../helpers/nlp-home.js';

const en = plannerFor(loadHome(fixture('home.yaml')));
const de = plannerFor(loadHome(fixture('de/home.yaml')), 'de');
type Planner = typeof en;

const one = (p: Planner, command: string, area?: string): Outcome => {
  const out = p.plan(command, area);
  expect(out, command).toHaveLength(1);
  return out[0]!;
};
const reason = (p: Planner, command: string, area?: string) => {
  const o = one(p, command, area);
  return o.kind === 'not_understood' ? o.reason : o.kind;
};
const asked = (p: Planner, command: string, area?: string) => {
  const o = one(p, command, area);
  return o.kind === 'ambiguous' ? [...o.candidates].sort() : o.kind;
};
const acted = (p: Planner, command: string, area?: string) =>
  p
    .plan(command, area)
    .flatMap((o) => (o.kind === 'act' ? o.steps.flatMap(stepCalls) : [o.kind]))
    .sort();

describe('a question that opens with a preposition still asks', () => {
  test('"auf wie viel …", "to what …" are questions, never settings', () => {
    expect(one(de, 'auf wie viel Grad ist die Küche eingestellt').kind).toBe('query');
    expect(one(de, 'auf welche Temperatur ist das Küchenthermostat eingestellt').kind).toBe('query');
    expect(one(en, 'to what temperature is the office thermostat set').kind).toBe('query');
    expect(one(en, 'at what temperature is the office thermostat').kind).toBe('query');
  });
  test('the same preposition before a value still sets it', () => {
    expect(acted(de, 'stell das Küchenthermostat auf 21 Grad')).toEqual(['climate.kitchen set_temperature {"temperature":21}']);
  });
});

describe('a thermostat target outside what it takes is refused', () => {
  test('Home Assistant’s climate defaults (7 to 35 °C) in the home’s unit when the thermostat reports none', () => {
    expect(temperatureRange('climate', {}, { temperature: '°C' })).toEqual({ min: 7, max: 35 });
    expect(temperatureRange('climate', {}, { temperature: '°F' })).toEqual({ min: 45, max: 95 });
    expect(temperatureRange('climate', { min_temp: 5, max_temp: 30 }, { temperature: '°C' })).toEqual({ min: 5, max: 30 });
    // A water heater's range is not a room's: only what it reports.
    expect(temperatureRange('water_heater', {}, { temperature: '°C' })).toEqual({ min: undefined, max: undefined });
  });
  test('too high or too low, in °C and °F, with the range in the refusal', () => {
    for (const c of ['stell das Küchenthermostat auf 40 Grad', 'stell das Küchenthermostat auf 5 Grad']) expect(reason(de, c), c).toBe('range');
    for (const c of ['set the office thermostat to 100 degrees', 'set the thermostat to 40']) expect(reason(en, c), c).toBe('range');
    expect(one(en, 'set the thermostat to 40')).toMatchObject({ detail: { value: 40, min: 45, max: 95 } });
  });
  test('a step that leaves the range is refused where the thermostat is named; with two and none named it asks', () => {
    expect(reason(en, 'turn up the heat in the office')).toBe('range');
    expect(asked(en, 'turn the heating down')).toEqual(['climate.office_thermostat', 'climate.thermostat']);
  });
});

describe('a word standing for things said before needs something said before', () => {
  test('nothing before it: refused, never everything in the room', () => {
    expect(reason(en, 'open them', 'Bedroom')).toBe('no_antecedent');
    expect(reason(en, 'switch the bedroom ones on')).toBe('no_antecedent');
    expect(reason(de, 'mach es an', 'Schlafzimmer')).toBe('no_antecedent');
    expect(reason(de, 'mach die im Wohnzimmer zu')).toBe('no_antecedent');
  });
  test('a follow-up in the same command still refers back', () => {
    expect(acted(en, 'turn on the garage light and dim it to 30%')).toEqual(['light.garage turn_on {"brightness_pct":30}']);
    expect(acted(de, 'mach die Schreibtischlampe an und dimm sie auf 30 Prozent')).toEqual(['light.bedroom_desk_lamp turn_on {"brightness_pct":30}']);
  });
  test('a position says which without anything before ("the left one")', () => {
    expect(one(en, 'shut the left one').kind).toBe('ambiguous');
  });
});

describe('a precise singular noun that fits several things in the room asks', () => {
  test('"the bulb", "die Leuchte" with several lights in the speaker’s room: which one?', () => {
    expect(asked(en, 'switch off the bulb', 'Kitchen')).toEqual(['light.kitchen_cabinets', 'light.kitchen_ceiling', 'light.kitchen_countertop']);
    expect(asked(de, 'mach die Leuchte aus', 'Schlafzimmer')).toEqual(['light.bedroom_desk_lamp', 'light.bedroom_lamp']);
  });
  test('the everyday word, a plural or "all" still means all of them there (Home Assistant’s own reading)', () => {
    expect(acted(en, 'switch off the light', 'Kitchen')).toHaveLength(3);
    expect(acted(en, 'switch off the bulbs', 'Kitchen')).toHaveLength(3);
    expect(acted(de, 'mach das Licht an', 'Schlafzimmer')).toEqual(['light.bedroom_desk_lamp turn_on', 'light.bedroom_lamp turn_on']);
    expect(acted(de, 'mach alle Leuchten aus', 'Schlafzimmer')).toEqual(['light.bedroom_desk_lamp turn_off', 'light.bedroom_lamp turn_off']);
  });
});

describe('no value is guessed out of a word', () => {
  test('a word that only looks like a number word is not one ("nice" is not nine)', () => {
    expect(acted(en, 'make it nice in here', 'Kitchen').some((a) => a.includes('brightness'))).toBe(false);
    expect(one(en, 'make it nice in here', 'Kitchen').kind).toBe('not_understood');
  });
  test('a guessed word never stands for all things ("schön" is not "Sachen", "thngs" not "things")', () => {
    expect(one(de, 'mach es schön gemütlich', 'Wohnzimmer').kind).toBe('not_understood');
    expect(one(en, 'turn off all the thngs').kind).toBe('not_understood');
  });
  test('a mistyped number word where a number stands is still read', () => {
    expect(acted(en, 'set the kitchen lights to fourty percent')).toHaveLength(3);
    expect(acted(en, 'set the kitchen lights to fourty percent')[0]).toContain('"brightness_pct":40');
    expect(acted(de, 'stell die Schlafzimmerlampe auf fümfzig Prozent')).toEqual(['light.bedroom_lamp turn_on {"brightness_pct":50}']);
  });
});
