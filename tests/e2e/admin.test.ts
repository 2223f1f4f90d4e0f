// The admin tools against the real Home Assistant 2026.11 over REST /api/tools/call, as a person
// with a bridge account does it (confirm: true after a dry run): areas, floors and labels made,
// renamed, put back and removed; an entity renamed and put back; a device renamed; an entity
// withdrawn from Assist drops out of TOOLS_EXPOSED_ONLY at once; a zone made, changed and removed;
// the demo's repairs explained and one dismissed and brought back; system health and a line of the
// error log read; a demo integration reloaded; a local calendar's integration entry disabled and
// enabled again (its calendar going and coming back), each first refused while an entity of the
// entry is hidden from Assist; homeassistant.reload_config_entry refused as a plain service call.
// (Its 2024.3.3 run skips these: the issue asks for 2026.11.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { HA_VERSION } from './ha-control.js';
import { configEntryFromFlow, eventually, haCall, haStateOf, haStateOrNull, HASS_TOKEN, HASS_URL, removeConfigEntry } from './ha-rest.js';

const CURRENT = HA_VERSION === '2026.11.0';
type Body = Record<string, any>;

let s: TestServer;
let ha: RawClient;
beforeAll(async () => {
  if (!CURRENT) return;
  s = await startTestServer({ HASS_URL, HASS_TOKEN, ADMIN_TOOLS: 'true', CONFIG_EDITING: 'true', TOOLS_EXPOSED_ONLY: 'true' });
  await s.app.hub.ready(30_000);
  ha = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
  await s.app.services.exposure!.refresh();
});
afterAll(async () => {
  // Other files see the demo as Home Assistant made it.
  await ha?.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ['light.kitchen_lights'], should_expose: true });
  await ha?.close();
  await s?.close();
});

async function tool(name: string, args: Record<string, unknown>): Promise<Body> {
  const r = await s.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.status).toBe(200);
  expect(r.body.isError, `${name} ${JSON.stringify(args)}: ${r.body.content?.[0]?.text}`).toBeFalsy();
  return r.body.structuredContent as Body;
}
async function change(name: string, args: Record<string, unknown>): Promise<Body> {
  const preview = await tool(name, { ...args, dry_run: true });
  expect(preview).toMatchObject({ dry_run: true, applied: false });
  const done = await tool(name, { ...args, confirm: true, preview_id: preview.preview_id, reason: 'end-to-end test' });
  expect(done).toMatchObject({ applied: true });
  return done;
}
const items = async (kind: string) => (await tool('admin_registry', { operation: 'list', kind })).items as Body[];

/**
 * Reloading or disabling an integration acts on its entities: while one is hidden from Assist the
 * change is refused (attack A3). So the entry's hidden entities are first shown refused, then exposed
 * as a person would in Home Assistant for `run`, and hidden again after.
 */
async function withEntryExposed(entryId: string, operation: string, run: () => Promise<void>): Promise<void> {
  const registry = (await ha.command({ type: 'config/entity_registry/list' })).result as Body[];
  const hidden = registry.filter((e) => e.config_entry_id === entryId && !s.app.services.policy.maySee(e.entity_id)).map((e) => String(e.entity_id));
  if (hidden.length) {
    const r = await s.call('/api/tools/call', 'POST', { name: 'admin_health', arguments: { operation, id: entryId, dry_run: true } });
    expect(r.body.structuredContent?.error, JSON.stringify(r.body)).toMatchObject({ code: 'FORBIDDEN', details: { exposed: false, count: hidden.length } });
  }
  const expose = async (should_expose: boolean) => {
    if (!hidden.length) return;
    const r = await ha.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: hidden, should_expose });
    expect(r.success, JSON.stringify(r)).toBe(true);
    await s.app.services.exposure!.refresh();
  };
  await expose(true);
  try {
    await run();
  } finally {
    await expose(false);
  }
}

describe.runIf(CURRENT)('admin tools against Home Assistant 2026.11', () => {
  test('areas, floors and labels: made with aliases and icons, renamed, put back, removed', async () => {
    const floor = await change('admin_registry', {
      operation: 'create',
      kind: 'floor',
      fields: { name: 'E2E Attic', level: 3, icon: 'mdi:home-roof', aliases: ['loft'] },
    });
    const label = await change('admin_registry', { operation: 'create', kind: 'label', fields: { name: 'E2E Outdoor', color: 'green', icon: 'mdi:tree' } });
    const area = await change('admin_registry', {
      operation: 'create',
      kind: 'area',
      fields: { name: 'E2E Pantry', aliases: ['larder'], icon: 'mdi:fridge', floor_id: floor.id, labels: [label.id] },
    });
    expect((await items('area')).find((a) => a.id === area.id)!.fields).toMatchObject({
      name: 'E2E Pantry',
      aliases: ['larder'],
      icon: 'mdi:fridge',
      floor_id: floor.id,
      labels: [label.id],
    });
    const renamed = await change('admin_registry', { operation: 'update', kind: 'area', id: area.id, fields: { name: 'E2E Larder' } });
    expect(renamed.diff).toContain('+name: E2E Larder');
    await change('admin_registry', { operation: 'undo', version: renamed.version - 1 });
    expect((await items('area')).find((a) => a.id === area.id)!.name).toBe('E2E Pantry');
    await change('admin_registry', { operation: 'update', kind: 'label', id: label.id, fields: { description: 'Outside' } });
    for (const [kind, id] of [
      ['area', area.id],
      ['floor', floor.id],
      ['label', label.id],
    ] as const) {
      await change('admin_registry', { operation: 'delete', kind, id });
      expect((await items(kind)).some((x) => x.id === id)).toBe(false);
    }
  });

  test('an entity renamed and put back; a device renamed and put back', async () => {
    const renamed = await change('admin_registry', {
      operation: 'update',
      kind: 'entity',
      id: 'light.ceiling_lights',
      fields: { name: 'E2E Ceiling', labels: [] },
    });
    await eventually(
      () => haStateOf('light.ceiling_lights'),
      (st) => String(st.attributes.friendly_name).endsWith('E2E Ceiling'),
      'the new name',
    );
    await change('admin_registry', { operation: 'undo', version: renamed.version - 1 });
    await eventually(
      () => haStateOf('light.ceiling_lights'),
      (st) => !String(st.attributes.friendly_name).includes('E2E'),
      'the old name',
    );
    const device = (await items('device'))[0]!;
    const dev = await change('admin_registry', { operation: 'update', kind: 'device', id: device.id, fields: { name_by_user: 'E2E Device' } });
    expect((await items('device')).find((d) => d.id === device.id)!.name).toBe('E2E Device');
    await change('admin_registry', { operation: 'undo', version: dev.version - 1 });
    expect((await items('device')).find((d) => d.id === device.id)!.fields.name_by_user).toBeNull();
  });

  test('withdrawing an entity from Assist takes it out of TOOLS_EXPOSED_ONLY at once', async () => {
    const seen = async () =>
      (((await tool('search_entities', { domain: 'light', limit: 100 })).entities ?? []) as { entity_id: string }[]).map((e) => e.entity_id);
    expect(await seen()).toContain('light.kitchen_lights');
    await change('admin_registry', { operation: 'update', kind: 'entity', id: 'light.kitchen_lights', fields: { exposed: false } });
    expect(await seen()).not.toContain('light.kitchen_lights');
  });

  test('a zone made, changed and removed; the home zone is listed and read-only', async () => {
    const zone = await change('admin_registry', {
      operation: 'create',
      kind: 'zone',
      fields: { name: 'E2E Office', latitude: 52.1, longitude: 4.3, radius: 250 },
    });
    expect(zone.entity_id).toBe(`zone.${zone.id}`);
    await eventually(
      () => haStateOf(zone.entity_id),
      (st) => st?.attributes?.radius === 250,
      'the zone',
    );
    await change('admin_registry', { operation: 'update', kind: 'zone', id: zone.id, fields: { radius: 400 } });
    await eventually(
      () => haStateOf(zone.entity_id),
      (st) => st?.attributes?.radius === 400,
      'the wider zone',
    );
    expect((await items('zone')).find((z) => z.id === 'home')).toBeTruthy();
    const home = await s.call('/api/tools/call', 'POST', {
      name: 'admin_registry',
      arguments: { operation: 'update', kind: 'zone', id: 'home', fields: { radius: 1 }, dry_run: true },
    });
    expect(home.body.structuredContent.error.code).toBe('FORBIDDEN');
    await change('admin_registry', { operation: 'delete', kind: 'zone', id: zone.id });
    expect((await items('zone')).some((z) => z.id === zone.id)).toBe(false);
  });

  test("health: system health, an error log line summarised by integration, the demo's repairs explained, one dismissed and brought back; an integration reloaded", async () => {
    // A line in Home Assistant's error log, written by its own system_log.write: summarised under its integration.
    await haCall('system_log', 'write', { message: 'E2E probe failed', level: 'error', logger: 'homeassistant.components.e2e_probe' });
    const h = await tool('admin_health', { operation: 'overview' });
    expect(h.system.homeassistant.version).toBe('core-2026.11.0');
    const probe = h.log.find((l: Body) => l.integration === 'e2e_probe');
    expect(probe, JSON.stringify(h.log)).toMatchObject({ errors: 1, newest: [{ level: 'ERROR', message: 'E2E probe failed' }] });
    expect(h.repairs.length).toBeGreaterThan(0);
    const repair = h.repairs.find((r: Body) => !r.ignored)!;
    expect(repair.explanation).toContain(`in ${repair.domain}:`);
    const id = `${repair.domain}/${repair.issue_id}`;
    const dismissed = await change('admin_health', { operation: 'dismiss', id });
    expect(dismissed.diff).toContain('+ignored: true');
    expect((await tool('admin_health', { operation: 'overview' })).repairs.find((r: Body) => r.issue_id === repair.issue_id).ignored).toBe(true);
    await change('admin_health', { operation: 'restore', id });
    const entries = (await tool('admin_health', { operation: 'integrations' })).items as Body[];
    const demo = entries.find((e) => e.info.domain === 'demo' && e.info.state === 'loaded');
    expect(demo, JSON.stringify(entries.map((e) => e.info))).toBeTruthy();
    await withEntryExposed(demo!.id, 'reload', async () => {
      const reload = await change('admin_health', { operation: 'reload', id: demo!.id });
      expect(reload.version).toBeUndefined();
    });
  });

  test('homeassistant.reload_config_entry as a plain service call is refused (attack A5): admin_health reload does it', async () => {
    const demo = ((await tool('admin_health', { operation: 'integrations' })).items as Body[]).find((e) => e.info.domain === 'demo')!;
    for (const args of [{ data: { entry_id: demo.id } }, { data: { entry_id: demo.id }, dry_run: true }]) {
      const r = await s.call('/api/tools/call', 'POST', {
        name: 'call_service',
        arguments: { operation: 'call', domain: 'homeassistant', service: 'reload_config_entry', confirm: true, ...args },
      });
      expect(r.body.structuredContent?.error, JSON.stringify(r.body)).toMatchObject({
        code: 'FORBIDDEN',
        details: { admin_service: 'homeassistant.reload_config_entry', use: 'admin_health operation reload' },
      });
    }
  });

  test("an integration disabled and enabled again: its entry's state and its entity follow", async () => {
    // A local calendar: its own config entry, made here and removed after. (Not the shopping list: its
    // integration cannot unload, so disabling it leaves it failed_unload until Home Assistant restarts.)
    const entryId = await configEntryFromFlow('local_calendar', { calendar_name: 'E2E Admin' });
    try {
      const entry = async () => ((await tool('admin_health', { operation: 'integrations' })).items as Body[]).find((e) => e.id === entryId)!;
      expect(await entry()).toMatchObject({ fields: { disabled: false }, info: { domain: 'local_calendar', state: 'loaded' } });
      await eventually(
        () => haStateOrNull('calendar.e2e_admin'),
        (st) => st !== null,
        'the calendar',
      );
      await withEntryExposed(entryId, 'disable', async () => {
        const off = await change('admin_health', { operation: 'disable', id: entryId });
        expect(off.diff).toContain('+disabled: true');
        expect(await entry()).toMatchObject({ fields: { disabled: true }, info: { state: 'not_loaded', disabled_by: 'user' } });
        await eventually(
          () => haStateOrNull('calendar.e2e_admin'),
          (st) => st === null || st.state === 'unavailable',
          'the calendar gone with its integration',
        );
        await change('admin_health', { operation: 'enable', id: entryId });
        expect((await entry()).info).toEqual({ domain: 'local_calendar', state: 'loaded' });
        await eventually(
          () => haStateOrNull('calendar.e2e_admin'),
          (st) => st !== null && st.state !== 'unavailable',
          'the calendar back',
        );
      });
    } finally {
      await removeConfigEntry(entryId);
    }
  });

  test('a blueprint listed and used: the automation made from it runs through config editing, kept as a version', async () => {
    const listed = (await tool('admin_blueprint', { operation: 'list', domain: 'automation' })).blueprints as Body[];
    const motion = listed.find((b) => b.path === 'homeassistant/motion_light.yaml');
    expect(motion, JSON.stringify(listed.map((b) => b.path))).toBeTruthy();
    expect(Object.keys(motion!.inputs)).toEqual(expect.arrayContaining(['motion_entity', 'light_target']));
    const made = await change('admin_blueprint', {
      operation: 'use',
      domain: 'automation',
      path: 'homeassistant/motion_light.yaml',
      name: 'E2E motion light',
      inputs: { motion_entity: 'binary_sensor.movement_backyard', light_target: { entity_id: 'light.bed_light' } },
    });
    expect(made).toMatchObject({ kind: 'automation', change: 'created' });
    expect(made.entity_id).toMatch(/^automation\./);
    const versions = (await tool('config_history', { kind: 'automation', id: made.id })).versions as Body[];
    expect(versions[0]!.config.use_blueprint.path).toBe('homeassistant/motion_light.yaml');
    // Other files see Home Assistant's automations as they were (the bridge, with TOOLS_EXPOSED_ONLY, may not touch this one).
    const removed = await fetch(`${HASS_URL}/api/config/automation/config/${made.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${HASS_TOKEN}` },
    });
    expect(removed.status).toBe(200);
  });
});
