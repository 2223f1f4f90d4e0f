import { describe, expect, test } from 'vitest';
import { AppError } from '../../src/errors.js';
import { Policy, type Caller, type GuardedAction, type PolicySettings } from '../../src/policy/policy.js';

const policy = (s: Partial<PolicySettings> = {}) => new Policy({ readOnly: false, allow: [], deny: [], requireConfirmation: true, ...s });
/** The old guard's shape over the policy, for the local caller. */
const guard = (s: Partial<PolicySettings> = {}) => {
  const p = policy(s);
  return { mayTouch: (id: string) => p.mayTouch(id), check: (list: GuardedAction[], opts: { confirm?: boolean } = {}) => p.authorize({ confirm: opts.confirm }, list) };
};
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

describe('the caller', () => {
  const read: Caller = { principal: { sub: 'oauth:g', iat: 0, via: 'oauth', scope: ['read'] } };
  const control: Caller = { principal: { sub: 'oauth:g', iat: 0, via: 'oauth', scope: ['read', 'control'] } };
  const light = [{ entity_id: 'light.x', service: 'turn_on', data: {} }];

  test('a caller without the control scope may change nothing, not even a confirmed action or a stored scene', () => {
    expect(refusal(() => policy().authorize({ ...read, confirm: true }, light))).toMatchObject({ code: 'FORBIDDEN', status: 403, details: { scope: ['read'] } });
    expect(refusal(() => policy().authorizeWrite(read, 'storing a scene')).code).toBe('FORBIDDEN');
    expect(() => policy().authorize(control, light)).not.toThrow();
    expect(() => policy().authorize({}, light)).not.toThrow();
  });

  test('nothing to change is never refused (a question in read-only mode)', () => {
    expect(() => policy({ readOnly: true }).authorize(read, [])).not.toThrow();
  });

  test('a plan only marks confirmation; the lists and read-only still hold for it', () => {
    const unlock = [{ entity_id: 'lock.front_door', service: 'unlock', data: {} }];
    expect(() => policy().authorize({}, unlock, { planOnly: true })).not.toThrow();
    expect(policy().confirmationOf(unlock[0]!)).toBe('unlocking lock.front_door');
    expect(policy({ requireConfirmation: false }).confirmationOf(unlock[0]!)).toBeUndefined();
    expect(refusal(() => policy({ deny: ['lock'] }).authorize({}, unlock, { planOnly: true })).code).toBe('FORBIDDEN');
    expect(refusal(() => policy({ readOnly: true }).authorize({}, unlock, { planOnly: true })).code).toBe('FORBIDDEN');
  });

  test('a call with no entity is judged by its service name, with no exposure check', () => {
    const notify = [{ entity_id: 'notify.mobile_app_phone', service: 'mobile_app_phone', data: {}, targetless: true }];
    const exposed = { isExposed: () => false };
    expect(() => new Policy({ readOnly: false, allow: [], deny: [], requireConfirmation: true, exposedOnly: true }, exposed).authorize({}, notify)).not.toThrow();
    expect(refusal(() => policy({ deny: ['notify'] }).authorize({}, notify)).code).toBe('FORBIDDEN');
  });
});
