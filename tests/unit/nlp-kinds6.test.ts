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
