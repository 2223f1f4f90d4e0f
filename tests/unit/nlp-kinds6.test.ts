// Issue 39, sixth round: rules shown with sentences of our own (not the held-out sets'): a kind word
// with a name word ("the ceiling light") narrows to the names that carry it, also in an exception;
// a kind word after a name ("except the countertop light") only says what that thing is.
import { describe, expect, test } from 'vitest';
import { loadHome } from '@home-mcp-bridge/sim/testing';
import { fixture } from '../helpers/nl-cases.js';
import { plannerFor } from '../helpers/nlp-home.js';

const en = plannerFor(loadHome(fixture('home.yaml')));
type Planner = typeof en;

/** Each planned call as "entity service", sorted; throws on anything but actions. */
function calls(p: Planner, command: string, area?: string): string[] {
  return p
    .plan(command, area)
    .flatMap((o) => {
      if (o.kind !== 'act') throw new Error(`${command}: ${JSON.stringify(o)}`);
      return o.steps.flatMap((s) => s.entity_ids.map((id) => `${id} ${s.service}`));
    })
    .sort();
}

describe('a kind word with a name word', () => {
  test('leaves out only the things whose names carry the name word', () => {
    expect(calls(en, 'turn off all the lights in the kitchen but not the ceiling light')).toEqual([
      'light.kitchen_cabinets turn_off',
      'light.kitchen_countertop turn_off',
    ]);
    expect(calls(en, 'switch everything off in the kitchen apart from the ceiling light')).toEqual([
      'light.kitchen_cabinets turn_off',
      'light.kitchen_countertop turn_off',
      'switch.kitchen turn_off',
    ]);
  });
  test('a kind word after a name leaves out only that thing', () => {
    expect(calls(en, 'turn off everything in the kitchen except the countertop light')).toEqual([
      'light.kitchen_cabinets turn_off',
      'light.kitchen_ceiling turn_off',
      'switch.kitchen turn_off',
    ]);
  });
  test('names the one thing in the room that carries it', () => {
    expect(calls(en, 'switch the ceiling light off', 'Kitchen')).toEqual(['light.kitchen_ceiling turn_off']);
    expect(calls(en, "it's far too bright, switch off the ceiling light", 'Kitchen')).toEqual(['light.kitchen_ceiling turn_off']);
  });
});

describe('a number a speech recogniser may have misheard', () => {
  test('"sixty for", "thirty to": asked which, never acted on', () => {
    for (const c of ['set the thermostat to sixty for', 'bring the heat to seventy too degrees please', 'dim the garage light to thirty to']) {
      const out = en.plan(c);
      expect(out, c).toEqual([expect.objectContaining({ kind: 'not_understood', reason: 'unsure' })]);
    }
    expect(en.plan('set the thermostat to sixty for')[0]).toMatchObject({ words: ['sixty for'], detail: { guess: '64 or 60' } });
  });
  test('a plain number, or "to" before what follows, is no doubt', () => {
    expect(calls(en, 'set the thermostat to seventy eight')).toEqual(['climate.thermostat set_temperature']);
    expect(calls(en, 'turn the thermostat from sixty to seventy')).toEqual(['climate.thermostat set_temperature']);
  });
});
