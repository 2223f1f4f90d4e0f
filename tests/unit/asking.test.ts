// The pure parts of asking the caller: the sealed request state (changed, foreign, late or replayed
// state is refused) and a round's answers (only for questions asked, only in the shape of an answer).
import { describe, expect, test } from 'vitest';
import { ProtocolError } from '@modelcontextprotocol/server';
import { RequestStateSeal } from '../../src/mcp/request-state.js';
import { askingChannel, FIRST_ROUND, InputNeeded, type Round } from '../../src/plugin-host/asking.js';

const binding = { caller: 'alice', method: 'tools/call', name: 'control_locks', args: { entity_id: 'lock.back_door', command: 'unlock' } };

describe('request state', () => {
  const seal = new RequestStateSeal(60_000);
  const carried = { asked: ['confirm'], answers: { earlier: { action: 'accept' } } };

  test('opens once, for the same caller and request, carrying what was sealed', () => {
    const state = seal.mint(carried, binding);
    // Argument order does not matter; their values do.
    expect(seal.open(state, { ...binding, args: { command: 'unlock', entity_id: 'lock.back_door' } })).toEqual(carried);
    expect(() => seal.open(state, binding)).toThrow(/used already/);
  });

  test('refuses a changed state, another caller, request or arguments, and a late one', () => {
    const state = seal.mint(carried, binding);
    const [payload, mac] = state.split('.');
    const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), c: 'mallory' })).toString('base64url')}.${mac}`;
    expect(() => seal.open(forged, binding)).toThrow(/changed/);
    expect(() => seal.open(`${state}x`, binding)).toThrow(ProtocolError);
    expect(() => seal.open('not-a-state', binding)).toThrow(/not one this bridge made/);
    expect(() => seal.open(seal.mint(carried, binding), { ...binding, caller: 'mallory' })).toThrow(/another request/);
    expect(() => seal.open(seal.mint(carried, binding), { ...binding, name: 'control_alarm' })).toThrow(/another request/);
    expect(() => seal.open(seal.mint(carried, binding), { ...binding, args: { entity_id: 'lock.front_door', command: 'unlock' } })).toThrow(/another request/);
    const old = seal.mint(carried, binding, Date.now() - 61_000);
    expect(() => seal.open(old, binding)).toThrow(/too old/);
  });

  test('another bridge (another key) cannot make one', () => {
    expect(() => new RequestStateSeal().open(seal.mint(carried, binding), binding)).toThrow(/changed/);
  });
});

describe('a round of questions', () => {
  const parts = (round: Round) => askingChannel({ round, can: () => true, progress: async () => undefined, log: async () => undefined });
  const yes = { action: 'accept', content: { confirm: true } };

  test('the first round asks, carrying nothing', async () => {
    const err = await parts({ ...FIRST_ROUND })
      .confirm('Allow unlocking lock.back_door?')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputNeeded);
    expect((err as InputNeeded).questions).toMatchObject({ confirm: { method: 'elicitation/create', params: { message: 'Allow unlocking lock.back_door?' } } });
    expect((err as InputNeeded).answers).toEqual({});
  });

  test('an answer counts only for a question asked in the round before, and only as an explicit yes', async () => {
    expect(await parts({ answers: {}, asked: ['confirm'], responses: { confirm: yes } }).confirm('?')).toBe(true);
    // Not asked: asked again, not taken.
    await expect(parts({ answers: {}, asked: [], responses: { confirm: yes } }).confirm('?')).rejects.toBeInstanceOf(InputNeeded);
    // Not the shape of an answer: asked again.
    await expect(parts({ answers: {}, asked: ['confirm'], responses: { confirm: 12345 } }).confirm('?')).rejects.toBeInstanceOf(InputNeeded);
    expect(await parts({ answers: {}, asked: ['confirm'], responses: { confirm: { action: 'accept', content: { confirm: false } } } }).confirm('?')).toBe(
      false,
    );
    expect(await parts({ answers: {}, asked: ['confirm'], responses: { confirm: { action: 'decline' } } }).confirm('?')).toBe(false);
  });

  test('answers of earlier rounds return at once; the next question carries them', async () => {
    const c = parts({ answers: { step1: { action: 'accept', content: { name: 'Alice' } } }, asked: ['step2'], responses: {} });
    expect(await c.elicit({ message: 'name?', requestedSchema: {} }, 'step1')).toMatchObject({ content: { name: 'Alice' } });
    const err = (await c.elicit({ message: 'colour?', requestedSchema: {} }, 'step2').catch((e: unknown) => e)) as InputNeeded;
    expect(Object.keys(err.questions)).toEqual(['step2']);
    expect(err.answers).toEqual({ step1: { action: 'accept', content: { name: 'Alice' } } });
  });

  test('a choice must be one of the options', async () => {
    const options = [
      { value: 'light.a', label: 'A' },
      { value: 'light.b', label: 'B' },
    ];
    expect(
      await parts({ answers: {}, asked: ['choose'], responses: { choose: { action: 'accept', content: { choice: 'light.b' } } } }).choose('Which?', options),
    ).toBe('light.b');
    expect(
      await parts({ answers: {}, asked: ['choose'], responses: { choose: { action: 'accept', content: { choice: 'light.z' } } } }).choose('Which?', options),
    ).toBeUndefined();
  });
});
