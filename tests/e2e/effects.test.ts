// What an action will do, judged against the real Home Assistant: a script and a scene made in
// Home Assistant's own config that unlock a door, a light group (a group helper) holding a denied
// light, the garage door's toggle, homeassistant.turn_on of a script, scene.apply and upper-case
// ids. With TOOLS_DENY=lock,alarm_control_panel,light.ceiling_lights and REQUIRE_CONFIRMATION each
// is refused or asks, and Home Assistant's states stay as they were.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { HA_VERSION } from './ha-control.js';
import { eventually, haCall, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

/** Scripts written with `action:` from 2024.8 on; the older release takes `service:`. */
const ACTION = HA_VERSION === '2024.3.3' ? 'service' : 'action';
const SCENE_ID = '1764201600001';
const DENIED_LIGHT = 'light.ceiling_lights';

let s: TestServer;
let groupEntry: string | undefined;

async function haRest(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${HASS_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${HASS_TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(200);
  return text ? JSON.parse(text) : null;
}

/** A light group made as a group helper (its config flow), the way a person makes one in the UI. */
async function lightGroup(name: string, entities: string[]): Promise<string> {
  const flow = await haRest('POST', '/api/config/config_entries/flow', { handler: 'group' });
  const form = await haRest('POST', `/api/config/config_entries/flow/${flow.flow_id}`, { next_step_id: 'light' });
  const done = await haRest('POST', `/api/config/config_entries/flow/${form.flow_id}`, { name, entities, hide_members: false });
  expect(done.type).toBe('create_entry');
  return done.result.entry_id as string;
}

const watched = ['lock.front_door', 'lock.kitchen_door', 'cover.garage_door', DENIED_LIGHT, 'alarm_control_panel.security'];
const snapshot = async () => Object.fromEntries(await Promise.all(watched.map(async (id) => [id, (await haStateOf(id)).state])));

beforeAll(async () => {
  await haCall('lock', 'lock', { entity_id: ['lock.front_door', 'lock.kitchen_door'] });
  await eventually(
    () => haStateOf('lock.kitchen_door'),
    (x) => x.state === 'locked',
    'the kitchen door locked',
  );
  await haRest('POST', '/api/config/script/config/e2e_unlocker', {
    alias: 'E2E unlocker',
    sequence: [{ [ACTION]: 'lock.unlock', target: { entity_id: 'lock.front_door' } }],
  });
  await haRest('POST', `/api/config/scene/config/${SCENE_ID}`, { name: 'E2E open house', entities: { 'lock.kitchen_door': { state: 'unlocked' } } });
  groupEntry = await lightGroup('E2E upstairs', ['light.bed_light', DENIED_LIGHT]);
  await eventually(
    () => haStateOf('scene.e2e_open_house'),
    (x) => Array.isArray(x.attributes.entity_id),
    'the scene in Home Assistant',
  );
  await eventually(
    () => haStateOf('light.e2e_upstairs'),
    (x) => Array.isArray(x.attributes.entity_id),
    'the light group',
  );
  s = await startTestServer({
    HASS_URL,
    HASS_TOKEN,
    CONFIG_EDITING: 'true',
    REQUIRE_CONFIRMATION: 'true',
    TOOLS_DENY: `lock,alarm_control_panel,${DENIED_LIGHT}`,
  });
  await s.app.hub.ready(30_000);
  await eventually(
    () => s.app.hub.cache.has('script.e2e_unlocker') && s.app.hub.cache.has('scene.e2e_open_house') && s.app.hub.cache.has('light.e2e_upstairs'),
    (x) => x,
    'the bridge sees them',
  );
}, 120_000);

afterAll(async () => {
  await s?.close();
  await fetch(`${HASS_URL}/api/config/script/config/e2e_unlocker`, { method: 'DELETE', headers: { authorization: `Bearer ${HASS_TOKEN}` } }).catch(
    () => undefined,
  );
  await fetch(`${HASS_URL}/api/config/scene/config/${SCENE_ID}`, { method: 'DELETE', headers: { authorization: `Bearer ${HASS_TOKEN}` } }).catch(
    () => undefined,
  );
  if (groupEntry)
    await fetch(`${HASS_URL}/api/config/config_entries/entry/${groupEntry}`, { method: 'DELETE', headers: { authorization: `Bearer ${HASS_TOKEN}` } }).catch(
      () => undefined,
    );
});

async function refused(path: string, body: unknown): Promise<{ status: number; code: string; details: Record<string, any> }> {
  const r = await s.call(path, 'POST', body);
  expect([403, 409], `${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).toContain(r.status);
  return { status: r.status, code: r.body.code, details: r.body.details ?? {} };
}
async function toolRefused(name: string, args: Record<string, unknown>) {
  const r = await s.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.body.isError, JSON.stringify(r.body)).toBe(true);
  return r.body.structuredContent.error as { code: string; details: Record<string, any> };
}
const written = (sequence: unknown[]) =>
  refused('/api/ha-config-changes', { kind: 'script', op: 'create', id: 'e2e_sneaky', config: { sequence }, dry_run: true });

describe(`effects against Home Assistant ${HA_VERSION}`, () => {
  test('the script and the scene that unlock are refused by what they do; the group by its denied member; the toggle asks', async () => {
    const before = await snapshot();
    const denied = ['lock.front_door'];
    expect(await toolRefused('run_automation', { entity_id: 'script.e2e_unlocker' })).toMatchObject({ code: 'FORBIDDEN', details: { entity_ids: denied } });
    expect(await toolRefused('run_automation', { entity_id: 'scene.e2e_open_house' })).toMatchObject({
      code: 'FORBIDDEN',
      details: { entity_ids: ['lock.kitchen_door'] },
    });
    expect(await refused('/api/device/control', { entity_id: 'script.e2e_unlocker', action: 'turn_on' })).toMatchObject({
      code: 'FORBIDDEN',
      details: { entity_ids: denied },
    });
    expect(await refused('/api/device/control', { entity_id: 'SCRIPT.E2E_UNLOCKER', action: 'turn_on' })).toMatchObject({
      code: 'FORBIDDEN',
      details: { entity_ids: denied },
    });
    expect(await refused('/api/device/control', { entity_id: 'light.e2e_upstairs', action: 'turn_on' })).toMatchObject({
      code: 'FORBIDDEN',
      details: { entity_ids: [DENIED_LIGHT] },
    });
    expect(await refused('/api/device/control', { entity_id: 'cover.garage_door', action: 'toggle' })).toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      details: { needs_confirmation: ['toggling cover.garage_door opens the garage cover.garage_door'] },
    });
    expect(await snapshot()).toEqual(before);
  });

  test('configs that would do it another way are refused before anything is written', async () => {
    const before = await snapshot();
    for (const step of [
      { [ACTION]: 'homeassistant.turn_on', target: { entity_id: 'script.e2e_unlocker' } },
      { [ACTION]: 'scene.apply', data: { entities: { 'lock.kitchen_door': 'unlocked' } } },
      { [ACTION]: 'scene.turn_on', target: { entity_id: 'scene.e2e_open_house' } },
      { [ACTION]: 'lock.unlock', target: { entity_id: 'LOCK.FRONT_DOOR' } },
      { [ACTION]: 'light.turn_on', target: { entity_id: 'light.e2e_upstairs' } },
    ]) {
      const r = await written([step]);
      expect(r.code, JSON.stringify(step)).toBe('FORBIDDEN');
      expect(r.details.entity_ids?.length, JSON.stringify(r.details)).toBeGreaterThan(0);
    }
    const template = await written([{ [ACTION]: 'light.turn_on', target: "{{ {'entity_id': 'lock.front_door'} }}" }]);
    expect(template.details.templated).toBeDefined();
    expect((await fetch(`${HASS_URL}/api/config/script/config/e2e_sneaky`, { headers: { authorization: `Bearer ${HASS_TOKEN}` } })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });
});
