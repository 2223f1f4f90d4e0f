import { describe, expect, test } from 'vitest';
import type { AppError } from '../../src/errors.js';
import { Policy, type Caller, type GuardedAction, type PolicySettings } from '../../src/policy/policy.js';

const policy = (s: Partial<PolicySettings> = {}) => new Policy({ readOnly: false, allow: [], deny: [], requireConfirmation: true, ...s });
/** The old guard's shape over the policy, for the local caller. */
const guard = (s: Partial<PolicySettings> = {}) => {
  const p = policy(s);
  return {
    mayTouch: (id: string) => p.mayTouch(id),
    check: (list: GuardedAction[], opts: { confirm?: boolean } = {}) => p.authorize({ confirm: opts.confirm }, list),
  };
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
    expect(refusal(() => policy().authorize({ ...read, confirm: true }, light))).toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
      details: { scope: ['read'] },
    });
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
    expect(() =>
      new Policy({ readOnly: false, allow: [], deny: [], requireConfirmation: true, exposedOnly: true }, exposed).authorize({}, notify),
    ).not.toThrow();
    expect(refusal(() => policy({ deny: ['notify'] }).authorize({}, notify)).code).toBe('FORBIDDEN');
  });
});

describe('config edits', () => {
  const edit = { what: 'creating script let_in', subject: 'script.let_in', subjectIsEntity: false };
  const unlock: GuardedAction = { entity_id: 'lock.front_door', service: 'unlock', data: {} };
  const refs = (actions: GuardedAction[] = [], entities: string[] = actions.map((a) => a.entity_id)) => ({ entities, actions, templated: [] });
  const grant = (scope: string[]): Caller => ({ principal: { sub: 'client', iat: 0, via: 'oauth', scope } });

  test('off until CONFIG_EDITING; then always confirmed, also with REQUIRE_CONFIRMATION off, naming what opens the home', () => {
    expect(refusal(() => policy().authorizeConfigEdit({}, edit, refs())).details).toEqual({ config_editing: false });
    const p = policy({ configEditing: true, requireConfirmation: false });
    expect(refusal(() => p.authorizeConfigEdit({}, edit, refs())).details).toEqual({ needs_confirmation: ['creating script let_in'] });
    expect(p.authorizeConfigEdit({ confirm: true }, edit, refs())).toEqual({ needs_confirmation: ['creating script let_in'] });
    expect(policy({ configEditing: true }).authorizeConfigEdit({}, edit, refs([unlock]), { planOnly: true })).toEqual({
      needs_confirmation: ['creating script let_in', 'unlocking lock.front_door'],
    });
  });

  test('the config scope, separate from control; a config that acts needs control too', () => {
    const p = policy({ configEditing: true });
    expect(refusal(() => p.authorizeConfigEdit({ ...grant(['read', 'control']), confirm: true }, edit, refs())).details).toEqual({
      scope: ['read', 'control'],
    });
    expect(() => p.authorizeConfigEdit({ ...grant(['read', 'config']), confirm: true }, edit, refs())).not.toThrow();
    expect(refusal(() => p.authorizeConfigEdit({ ...grant(['read', 'config']), confirm: true }, edit, refs([unlock]))).details).toEqual({
      scope: ['read', 'config'],
    });
    expect(() => p.authorizeConfigEdit({ ...grant(['read', 'control', 'config']), confirm: true }, edit, refs([unlock]))).not.toThrow();
  });

  test('read-only, the item, what it names and what it does pass the lists; templates are refused', () => {
    expect(refusal(() => policy({ configEditing: true, readOnly: true }).authorizeConfigEdit({ confirm: true }, edit, refs())).details).toEqual({
      read_only: true,
    });
    expect(refusal(() => policy({ configEditing: true, deny: ['script'] }).authorizeConfigEdit({ confirm: true }, edit, refs())).details).toEqual({
      entity_ids: ['script.let_in'],
    });
    expect(
      refusal(() =>
        policy({ configEditing: true, deny: ['lovelace'] }).authorizeConfigEdit(
          { confirm: true },
          { what: 'x', subject: 'lovelace.default', subjectIsEntity: false },
          refs(),
        ),
      ).details,
    ).toEqual({ entity_ids: ['lovelace.default'] });
    expect(
      refusal(() => policy({ configEditing: true, deny: ['lock'] }).authorizeConfigEdit({ confirm: true }, edit, refs([], ['lock.front_door']))).details,
    ).toEqual({ entity_ids: ['lock.front_door'], domain: 'lock' });
    expect(
      refusal(() => policy({ configEditing: true, deny: ['lock'] }).authorizeConfigEdit({ confirm: true }, edit, refs([unlock], []))).details,
    ).toMatchObject({ entity_ids: ['lock.front_door'] });
    expect(
      refusal(() => policy({ configEditing: true }).authorizeConfigEdit({ confirm: true }, edit, { entities: [], actions: [], templated: ['sequence[0]'] }))
        .details,
    ).toEqual({ templated: ['sequence[0]'] });
  });

  test('exposure: what the config names and the item itself must be exposed', () => {
    const exposure = { isExposed: (id: string) => id !== 'lock.front_door' && id !== 'script.secret' };
    const p = new Policy({ readOnly: false, allow: [], deny: [], requireConfirmation: true, exposedOnly: true, configEditing: true }, exposure);
    expect(refusal(() => p.authorizeConfigEdit({ confirm: true }, edit, refs([], ['lock.front_door']))).details).toEqual({
      entity_ids: ['lock.front_door'],
      exposed: false,
    });
    expect(refusal(() => p.authorizeConfigEdit({ confirm: true }, { what: 'x', subject: 'script.secret', subjectIsEntity: true }, refs())).details).toEqual({
      entity_ids: ['script.secret'],
      exposed: false,
    });
    expect(refusal(() => p.authorizeConfigRead(null, ['lock.front_door'])).code).toBe('FORBIDDEN');
    expect(refusal(() => p.authorizeConfigRead('script.secret', [])).code).toBe('NOT_FOUND');
  });
});

describe('admin changes', () => {
  const oauth = (scope: string[]): Caller => ({ principal: { sub: 'c', iat: 0, via: 'oauth', scope }, confirm: true });
  const rename = { what: 'renaming area kitchen to Cookery', subjects: ['area.kitchen'] };

  test('the admin scope, which neither control nor config gives; off until ADMIN_TOOLS', () => {
    const on = policy({ adminTools: true });
    for (const scope of [
      ['read', 'control'],
      ['read', 'config'],
      ['read', 'control', 'config'],
    ]) {
      const e = refusal(() => on.authorizeAdminChange(oauth(scope), rename));
      expect(e.status).toBe(403);
      expect(e.message).toContain('admin scope');
    }
    expect(on.authorizeAdminChange(oauth(['read', 'admin']), rename)).toEqual({ needs_confirmation: [rename.what] });
    const off = refusal(() => policy().authorizeAdminChange(oauth(['admin']), rename));
    expect(off.details).toMatchObject({ admin_tools: false });
    expect(() => policy().authorizeAdminUse({}, 'listing areas')).toThrow(/ADMIN_TOOLS/);
    expect(() => on.authorizeAdminUse({}, 'listing areas')).not.toThrow();
  });

  test('read-only mode and the lists refuse every change; what is not an entity is judged as <kind>.<id>; always confirmed', () => {
    expect(refusal(() => policy({ adminTools: true, readOnly: true }).authorizeAdminChange({ confirm: true }, rename)).details).toMatchObject({
      read_only: true,
    });
    const denied = policy({ adminTools: true, deny: ['area', 'light.nursery'] });
    expect(refusal(() => denied.authorizeAdminChange({ confirm: true }, rename)).message).toContain('TOOLS_DENY');
    expect(refusal(() => denied.authorizeAdminChange({ confirm: true }, { what: 'hiding light.nursery', subjects: ['light.nursery'] })).status).toBe(403);
    expect(denied.authorizeAdminChange({ confirm: true }, { what: 'renaming floor up', subjects: ['floor.up'] }).needs_confirmation).toEqual([
      'renaming floor up',
    ]);
    const asked = refusal(() => policy({ adminTools: true, requireConfirmation: false }).authorizeAdminChange({}, rename));
    expect(asked.code).toBe('CONFIRMATION_REQUIRED');
    expect(policy({ adminTools: true }).authorizeAdminChange({}, rename, { planOnly: true }).needs_confirmation).toEqual([rename.what]);
  });

  test('an entity subject passes exposure; a registry subject does not', () => {
    const p = new Policy(
      { readOnly: false, allow: [], deny: [], requireConfirmation: true, exposedOnly: true, adminTools: true },
      { isExposed: (id) => id === 'light.desk' },
    );
    expect(refusal(() => p.authorizeAdminChange({ confirm: true }, { what: 'renaming light.bed', subjects: ['light.bed'] })).details).toMatchObject({
      exposed: false,
    });
    expect(() => p.authorizeAdminChange({ confirm: true }, { what: 'renaming light.desk', subjects: ['light.desk', 'area.office'] })).not.toThrow();
  });

  test('what a change switches off through its subject (an integration’s entities) passes exposure and the lists; a hidden one is counted, not named', () => {
    const p = new Policy(
      { readOnly: false, allow: [], deny: ['lock.back'], requireConfirmation: true, exposedOnly: true, adminTools: true },
      { isExposed: (id) => id !== 'lock.front' },
    );
    const disable = (touches: string[]) => ({ what: 'changing integration e1', subjects: ['integration.zwave'], touches });
    const hidden = refusal(() => p.authorizeAdminChange({ confirm: true }, disable(['light.desk', 'lock.front'])));
    expect(hidden.details).toEqual({ exposed: false, count: 1 });
    expect(hidden.message).not.toContain('lock.front');
    expect(refusal(() => p.authorizeAdminChange({ confirm: true }, disable(['light.desk', 'lock.back']))).details).toEqual({ entity_ids: ['lock.back'] });
    expect(p.authorizeAdminChange({ confirm: true }, disable(['light.desk'])).needs_confirmation).toEqual(['changing integration e1']);
  });
});
