import { describe, expect, test } from 'vitest';
import { AppError } from '../../src/errors.js';
import { Guard, type GuardSettings } from '../../src/guard.js';

const guard = (s: Partial<GuardSettings> = {}) => new Guard({ readOnly: false, allow: [], deny: [], requireConfirmation: true, ...s });
const refusal = (fn: () => void): AppError => {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('not refused');
};

describe('allow and deny', () => {
  test('empty lists allow everything; a domain or a pattern narrows; deny wins', () => {
    expect(guard().mayTouch('lock.front_door')).toBe(true);
    const g = guard({ allow: ['light', 'switch.garden_*'], deny: ['light.nursery'] });
    expect(g.mayTouch('light.kitchen')).toBe(true);
    expect(g.mayTouch('switch.garden_pump')).toBe(true);
    expect(g.mayTouch('switch.kitchen')).toBe(false);
    expect(g.mayTouch('light.nursery')).toBe(false);
    expect(g.mayTouch('lighting.x')).toBe(false);
  });
});

describe('confirmation', () => {
  test('unlocking needs confirm: true, and the refusal says how to confirm', () => {
    const e = refusal(() => guard().check([{ entity_id: 'lock.front_door', service: 'unlock', data: {} }]));
    expect(e.code).toBe('CONFIRMATION_REQUIRED');
    expect(e.message).toBe('Unlocking lock.front_door needs confirmation: ask the person, then call again with confirm: true');
    expect(() => guard().check([{ entity_id: 'lock.front_door', service: 'unlock', data: {} }], { confirm: true })).not.toThrow();
    expect(() => guard({ requireConfirmation: false }).check([{ entity_id: 'lock.front_door', service: 'unlock', data: {} }])).not.toThrow();
    expect(() => guard().check([{ entity_id: 'lock.front_door', service: 'lock', data: {} }])).not.toThrow();
  });

  test('read-only refuses even a confirmed action', () => {
    expect(refusal(() => guard({ readOnly: true }).check([{ entity_id: 'light.x', service: 'turn_on', data: {} }], { confirm: true })).code).toBe('FORBIDDEN');
  });
});
