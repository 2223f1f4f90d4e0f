// Editing Home Assistant's config through the bridge, against the simulator: an automation, a
// script, a helper and a dashboard card each created, run or seen, traced, changed (with its diff),
// restored to its first version and deleted; Home Assistant's refusals in plain words with nothing
// half-applied; a reload that fails undone; what is written held to the same rules as an action.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { configOf } from '@home-mcp-bridge/sim/testing';
import { configHomeFile } from '../helpers/config-home.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ CONFIG_EDITING: 'true', SIM_HOME: configHomeFile() });
});
afterAll(() => s?.close());

const change = (body: Record<string, unknown>) => s.call('/api/ha-config-changes', 'POST', body);
const state = (id: string) => s.app.hub.cache.get(id)?.state;
const until = async (ok: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 300; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never: ${what}`);
};
/** Someone switches something in Home Assistant. */
const callService = (domain: string, service: string, entity_id: string) => s.app.simulator!.hub.callService(domain, service, { entity_id });

describe('an automation: create, trigger, trace, change, restore, delete', () => {
  const v1 = {
    alias: 'Bed light at bedtime',
    triggers: [{ trigger: 'state', entity_id: 'input_boolean.bedtime', to: 'on' }],
    actions: [{ action: 'light.turn_on', target: { entity_id: 'light.bed' } }],
  };
  const v2 = { ...v1, actions: [{ action: 'light.turn_on', target: { entity_id: 'light.bed' }, data: { brightness_pct: 30 } }] };
  let first: number;

  test('a preview shows the diff and writes nothing; applying asks for confirmation, then a reason', async () => {
    const preview = await change({ kind: 'automation', op: 'create', config: v1, dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      kind: 'automation',
      id: 'bed_light_at_bedtime',
      dry_run: true,
      applied: false,
      change: 'created',
      words: ['new'],
      needs_confirmation: ['creating automation bed_light_at_bedtime ("Bed light at bedtime")'],
    });
    expect(preview.body.diff).toContain('+++ b/automation/bed_light_at_bedtime.yaml');
    expect(preview.body.diff).toContain('+alias: Bed light at bedtime');
    expect((await s.call('/api/ha-config/automation/bed_light_at_bedtime')).status).toBe(404);

    const unconfirmed = await change({ kind: 'automation', op: 'create', config: v1, reason: 'asked for it' });
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body).toMatchObject({ code: 'CONFIRMATION_REQUIRED', details: { preview_id: preview.body.preview_id, diff: preview.body.diff } });
    const noReason = await change({ kind: 'automation', op: 'create', config: v1, confirm: true });
    expect(noReason.status).toBe(200); // a person (a bridge user) need not give a reason
    first = noReason.body.version;
    expect(noReason.body).toMatchObject({ applied: true, change: 'created', entity_id: 'automation.bed_light_at_bedtime' });
  });

  test('the trigger runs it, the light comes on, the trace says so', async () => {
    await callService('input_boolean', 'turn_on', 'input_boolean.bedtime');
    await until(() => state('light.bed') === 'on', 'the bed light on');
    await until(async () => (await s.call('/api/ha-config/automation/bed_light_at_bedtime/trace')).body.runs?.length === 1, 'a run');
    const why = await s.call('/api/ha-config/automation/bed_light_at_bedtime/trace');
    expect(why.body.why).toMatch(/^Its last run, at .+ on state of input_boolean\.bedtime, ran to the end \(1 step\)\.$/);
    expect(why.body.runs[0]).toMatchObject({ trigger: 'state of input_boolean.bedtime', outcome: 'finished' });
  });

  test('a change shows its diff, and history keeps both versions with who and why', async () => {
    const preview = await change({ kind: 'automation', op: 'update', id: 'automation.bed_light_at_bedtime', config: v2, dry_run: true });
    expect(preview.body.words).toEqual(['actions: 1 changed']);
    expect(preview.body.diff).toContain('+      brightness_pct: 30');
    const done = await change({
      kind: 'automation',
      op: 'update',
      id: 'bed_light_at_bedtime',
      config: v2,
      confirm: true,
      reason: 'dimmer at night',
      preview_id: preview.body.preview_id,
    });
    expect(done.body).toMatchObject({ applied: true, change: 'updated' });
    expect((await s.call('/api/ha-config/automation/bed_light_at_bedtime')).body.config.actions[0].data).toEqual({ brightness_pct: 30 });
    const history = await s.call('/api/ha-config-versions?kind=automation&id=bed_light_at_bedtime');
    expect(history.body.versions.map((v: any) => [v.change, v.actor_kind, v.actor, v.reason])).toEqual([
      ['updated', 'user', 'tester', 'dimmer at night'],
      ['created', 'user', 'tester', null],
    ]);
    expect(history.body.versions[0].diff).toContain('+      brightness_pct: 30');
  });

  test('an apply whose preview no longer matches is refused', async () => {
    const stale = await change({
      kind: 'automation',
      op: 'update',
      id: 'bed_light_at_bedtime',
      config: v1,
      confirm: true,
      reason: 'x',
      preview_id: '0123456789abcdef',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('CONFLICT');
  });

  test('restoring the first version puts it back, as a new version', async () => {
    const preview = await s.call(`/api/ha-config-versions/${first}/restore`, 'POST', { dry_run: true });
    expect(preview.body).toMatchObject({ change: 'restored', restored_from: first, words: ['actions: 1 changed'] });
    const done = await s.call(`/api/ha-config-versions/${first}/restore`, 'POST', { confirm: true });
    expect(done.body).toMatchObject({ applied: true, change: 'restored' });
    expect((await s.call('/api/ha-config/automation/bed_light_at_bedtime')).body.config).toEqual({ id: 'bed_light_at_bedtime', ...v1 });
    expect((await s.call('/api/ha-config-versions?kind=automation&id=bed_light_at_bedtime')).body.versions[0]).toMatchObject({
      change: 'restored',
      restored_from: first,
    });
  });

  test('delete removes it from Home Assistant; its versions stay', async () => {
    const done = await change({ kind: 'automation', op: 'delete', id: 'bed_light_at_bedtime', confirm: true });
    expect(done.body).toMatchObject({ applied: true, change: 'deleted' });
    expect((await s.call('/api/ha-config/automation/bed_light_at_bedtime')).status).toBe(404);
    await until(() => state('automation.bed_light_at_bedtime') === undefined, 'the entity gone');
    expect((await s.call('/api/ha-config-versions?kind=automation&id=bed_light_at_bedtime')).body.versions).toHaveLength(4);
  });
});

describe('a script, a helper and a dashboard card', () => {
  test('script: create, run, trace, change, restore, delete', async () => {
    const made = await change({
      kind: 'script',
      op: 'create',
      id: 'desk_on',
      config: { alias: 'Desk on', sequence: [{ action: 'light.turn_on', target: { entity_id: 'light.desk' } }] },
      confirm: true,
    });
    expect(made.body).toMatchObject({ applied: true, id: 'desk_on', entity_id: 'script.desk_on' });
    await until(() => s.app.hub.services.script?.desk_on !== undefined, 'the script service');
    expect((await s.call('/api/tools/call', 'POST', { name: 'run_automation', arguments: { entity_id: 'script.desk_on' } })).status).toBe(200);
    await until(() => state('light.desk') === 'on', 'the desk light');
    await until(async () => (await s.call('/api/ha-config/script/desk_on/trace')).body.runs?.[0]?.outcome === 'finished', 'a finished run');
    const changed = await change({
      kind: 'script',
      op: 'update',
      id: 'script.desk_on',
      config: { alias: 'Desk on', sequence: [{ action: 'light.turn_on', target: { entity_id: 'light.desk' }, data: { brightness_pct: 50 } }] },
      confirm: true,
    });
    expect(changed.body.diff).toContain('+      brightness_pct: 50');
    const [, created] = (await s.call('/api/ha-config-versions?kind=script&id=desk_on')).body.versions;
    expect((await s.call(`/api/ha-config-versions/${created.id}/restore`, 'POST', { confirm: true })).body.applied).toBe(true);
    expect((await s.call('/api/ha-config/script/desk_on')).body.config.sequence[0].data).toBeUndefined();
    expect((await change({ kind: 'script', op: 'delete', id: 'desk_on', confirm: true })).body.applied).toBe(true);
    await until(() => state('script.desk_on') === undefined, 'the script gone');
  });

  test('helper: create, see its entity, change (its diff), restore, delete', async () => {
    const made = await change({ kind: 'helper', op: 'create', id: 'input_number', config: { name: 'Night level', min: 0, max: 100 }, confirm: true });
    expect(made.body).toMatchObject({ applied: true, id: 'input_number.night_level' });
    await until(() => state('input_number.night_level') === '0.0', 'its entity');
    const changed = await change({
      kind: 'helper',
      op: 'update',
      id: 'input_number.night_level',
      config: { name: 'Night level', min: 0, max: 50, step: 5 },
      dry_run: true,
    });
    expect(changed.body.words).toEqual(['max: 100 → 50', 'step: 1 → 5']);
    expect(
      (await change({ kind: 'helper', op: 'update', id: 'input_number.night_level', config: { name: 'Night level', min: 0, max: 50, step: 5 }, confirm: true }))
        .body.applied,
    ).toBe(true);
    await until(() => s.app.hub.cache.get('input_number.night_level')?.attributes.max === 50, 'the new max');
    const versions = (await s.call('/api/ha-config-versions?kind=helper&id=input_number.night_level')).body.versions;
    expect((await s.call(`/api/ha-config-versions/${versions.at(-1).id}/restore`, 'POST', { confirm: true })).body.applied).toBe(true);
    await until(() => s.app.hub.cache.get('input_number.night_level')?.attributes.max === 100, 'the first max back');
    expect((await change({ kind: 'helper', op: 'delete', id: 'input_number.night_level', confirm: true })).body.applied).toBe(true);
    await until(() => state('input_number.night_level') === undefined, 'the helper gone');
  });

  test('dashboard: add a card to a view, change it, restore, remove it; a YAML dashboard is refused with the reason', async () => {
    const view = await change({ kind: 'dashboard', op: 'create', id: 'default', config: { title: 'Home', path: 'home', cards: [] }, confirm: true });
    expect(view.body).toMatchObject({ applied: true, words: expect.arrayContaining(['adds view "Home"']) });
    const card = await change({ kind: 'dashboard', op: 'create', id: 'default', view: 'home', config: { type: 'tile', entity: 'light.bed' }, confirm: true });
    expect(card.body.words[0]).toBe('adds tile card (light.bed) to view "Home" at position 0');
    const moved = await change({
      kind: 'dashboard',
      op: 'update',
      id: 'default',
      view: 0,
      card: 0,
      config: { type: 'tile', entity: 'light.desk' },
      dry_run: true,
    });
    expect(moved.body.diff).toContain('-        entity: light.bed');
    expect(moved.body.diff).toContain('+        entity: light.desk');
    await change({ kind: 'dashboard', op: 'update', id: 'default', view: 0, card: 0, config: { type: 'tile', entity: 'light.desk' }, confirm: true });
    expect((await s.call('/api/ha-config/dashboard/default')).body.config.views[0].cards).toEqual([{ type: 'tile', entity: 'light.desk' }]);
    const versions = (await s.call('/api/ha-config-versions?kind=dashboard&id=default')).body.versions;
    expect((await s.call(`/api/ha-config-versions/${card.body.version}/restore`, 'POST', { confirm: true })).body.applied).toBe(true);
    expect((await s.call('/api/ha-config/dashboard/default')).body.config.views[0].cards).toEqual([{ type: 'tile', entity: 'light.bed' }]);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    const removed = await change({ kind: 'dashboard', op: 'delete', id: 'default', view: 'Home', card: 0, confirm: true });
    expect(removed.body.words[0]).toBe('removes card 0 (tile card (light.bed)) from view "Home"');

    const yaml = await change({ kind: 'dashboard', op: 'create', id: 'wall-panel', view: 0, config: { type: 'tile', entity: 'light.bed' }, dry_run: true });
    expect(yaml.status).toBe(409);
    expect(yaml.body.message).toBe(
      'The dashboard wall-panel is in YAML mode: Home Assistant reads it from wall-panel.yaml and never saves it, so it can only be changed in that file; the bridge changes dashboards Home Assistant stores itself (storage mode)',
    );
  });
});

describe("Home Assistant's refusals, a failed reload, and what may be written", () => {
  test('a config Home Assistant refuses comes back in plain words, and nothing is half-applied', async () => {
    const before = (await s.call('/api/ha-config-versions')).body.versions.length;
    const bad = await change({ kind: 'automation', op: 'create', id: 'broken', config: { alias: 'Broken', actions: [] }, confirm: true, reason: 'test' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: 'Home Assistant refused the automation: triggers is required and missing',
      details: { hub_message: "Message malformed: required key not provided at 'triggers'" },
    });
    expect((await s.call('/api/ha-config/automation/broken')).status).toBe(404);
    expect((await s.call('/api/ha-config-versions')).body.versions.length).toBe(before);
    const helper = await change({ kind: 'helper', op: 'create', id: 'input_number', config: { name: 'Bad', min: 10, max: 0 }, confirm: true });
    expect(helper.body.message).toBe('Home Assistant refused the input_number helper: Maximum (10.0) is not greater than minimum (0.0)');
  });

  test('an automation Home Assistant fails to load is put back as it was, and the answer says so', async () => {
    const v1 = {
      alias: 'Fragile',
      triggers: [{ trigger: 'event', event_type: 'poke' }],
      actions: [{ action: 'light.turn_on', target: { entity_id: 'light.desk' } }],
    };
    expect((await change({ kind: 'automation', op: 'create', id: 'fragile', config: v1, confirm: true })).body.applied).toBe(true);
    configOf(s.app.simulator!.hub).scripted.failNextReload.add('fragile');
    const failed = await change({ kind: 'automation', op: 'update', id: 'fragile', config: { ...v1, alias: 'Fragile 2' }, confirm: true });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe(
      'Home Assistant could not load it (automation.fragile is unavailable), so the bridge put the previous version back. Nothing else changed.',
    );
    expect(failed.body.details).toMatchObject({ undone: true });
    expect((await s.call('/api/ha-config/automation/fragile')).body.config.alias).toBe('Fragile');
    await until(() => state('automation.fragile') === 'on', 'loaded again');
    expect((await s.call('/api/ha-config-versions?kind=automation&id=fragile')).body.versions.map((v: any) => v.change)).toEqual(['created']);
  });

  test('a script that unlocks a denied lock cannot be written, nor one that runs a script that does; a templated action is refused', async () => {
    const denied = await startTestServer({ CONFIG_EDITING: 'true', TOOLS_DENY: 'lock', SIM_HOME: configHomeFile() });
    try {
      const direct = await denied.call('/api/ha-config-changes', 'POST', {
        kind: 'script',
        op: 'create',
        id: 'let_in',
        config: { sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }] },
        dry_run: true,
      });
      expect(direct.status).toBe(403);
      expect(direct.body.details.entity_ids).toEqual(['lock.front_door']);
      const nested = await denied.call('/api/ha-config-changes', 'POST', {
        kind: 'automation',
        op: 'create',
        config: { alias: 'Sneaky', triggers: [{ trigger: 'event', event_type: 'x' }], actions: [{ action: 'script.open_up' }] },
        dry_run: true,
      });
      expect(nested.status).toBe(403);
      expect(nested.body.details.entity_ids).toEqual(['lock.front_door']);
      const templated = await denied.call('/api/ha-config-changes', 'POST', {
        kind: 'script',
        op: 'create',
        id: 'tpl',
        config: { sequence: [{ action: "{{ 'lock' }}.unlock", target: { entity_id: 'lock.front_door' } }] },
        dry_run: true,
      });
      expect(templated.status).toBe(403);
      expect(templated.body.details.templated).toEqual(['sequence[0]']);
    } finally {
      await denied.close();
    }
  });

  test('unlocking in a script the lists allow still names the unlock in what the person confirms', async () => {
    const r = await change({
      kind: 'script',
      op: 'create',
      id: 'let_in',
      config: { sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }] },
      dry_run: true,
    });
    expect(r.body.needs_confirmation).toEqual(['creating script let_in', 'unlocking lock.front_door']);
  });
});
