// TOOLS_EXPOSED_ONLY: tools see and act on only what Home Assistant exposes to Assist, by its
// explicit choices and its default rule; the simulator answers Home Assistant's exposure commands,
// as 2026.11 (its list names only what is exposed) and as 2024.3.3 (its list names every choice).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { serviceEvent } from '../../src/bus.js';
import { RawClient, type Simulator, startSimulator } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSse } from '../helpers/sse.js';

let s: TestServer;
let sim: RawClient;
const tool = async (name: string, args: Record<string, unknown>) => (await s.call('/api/tools/call', 'POST', { name, arguments: args })).body;
const found = async (args: Record<string, unknown>) =>
  (((await tool('search_entities', { ...args, limit: 100 })).structuredContent?.entities ?? []) as { entity_id: string }[]).map((e) => e.entity_id);

beforeAll(async () => {
  s = await startTestServer({ TOOLS_EXPOSED_ONLY: 'true' });
  await s.app.hub.ready();
  sim = await RawClient.connect(s.app.simulator!.wsUrl, s.app.simulator!.token);
  await s.app.services.exposure!.refresh();
});
afterAll(async () => {
  await sim?.close();
  await s?.close();
});

test('the simulator answers the exposure commands as Home Assistant 2026.11 does: the list names only what is exposed', async () => {
  const list = await sim.command<{ exposed_entities: Record<string, Record<string, boolean>> }>({ type: 'homeassistant/expose_entity/list' });
  expect(list.success).toBe(true);
  expect(list.result!.exposed_entities['light.office_desk']).toEqual({ conversation: true });
  expect(list.result!.exposed_entities).not.toHaveProperty('weather.home');
  expect(Object.values(list.result!.exposed_entities).flatMap((x) => Object.values(x))).not.toContain(false);
  expect((await sim.command({ type: 'homeassistant/expose_new_entities/get', assistant: 'conversation' })).result).toEqual({ expose_new: true });
  const bad = await sim.command({ type: 'homeassistant/expose_entity', assistants: ['nobody'], entity_ids: ['light.office_desk'], should_expose: true });
  expect(bad.success).toBe(false);
});

test("by 2026.11's default rule: lights, switches and media players are seen; locks, weather, input booleans and a power sensor are not", async () => {
  expect(await found({ domain: 'light' })).toContain('light.office_desk');
  expect(await found({ domain: 'switch' })).toContain('switch.coffee_maker');
  expect(await found({ domain: 'media_player' })).toContain('media_player.living_room_tv');
  expect(await found({ domain: 'lock' })).toEqual([]);
  expect(await found({ domain: 'weather' })).toEqual([]);
  expect(await found({ domain: 'input_boolean' })).toEqual([]);
  expect(await found({ query: 'power' })).not.toContain('sensor.power_consumption');
  expect(await found({ domain: 'sensor' })).toContain('sensor.outdoor_temperature');
  const hidden = await tool('describe_entity', { entity_id: 'weather.home' });
  expect(hidden.isError).toBe(true);
});

test('an entity Home Assistant stops exposing disappears from every tool and cannot be controlled', async () => {
  expect(
    (await sim.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ['light.office_desk'], should_expose: false })).success,
  ).toBe(true);
  await s.app.services.exposure!.refresh();
  expect(await found({ domain: 'light' })).not.toContain('light.office_desk');
  const refused = await tool('control_lights', { entity_id: 'light.office_desk', command: 'on' });
  expect(refused).toMatchObject({ isError: true, structuredContent: { error: { code: 'FORBIDDEN', details: { exposed: false } } } });
  expect(refused.content[0].text).toMatch(/expose/i);
  // Exposed explicitly, a weather entity becomes visible.
  await sim.command({
    type: 'homeassistant/expose_entity',
    assistants: ['conversation'],
    entity_ids: ['weather.home', 'light.office_desk'],
    should_expose: true,
  });
  await s.app.services.exposure!.refresh();
  expect(await found({ domain: 'weather' })).toEqual(['weather.home']);
  expect((await tool('control_lights', { entity_id: 'light.office_desk', command: 'on', dry_run: true })).isError).toBeFalsy();
});

test('events of an entity callers may not see reach no stream, no socket, no subscription and no history read', async () => {
  const marker = `exposure_${Date.now()}`;
  const changed = (entity_id: string, n: number) => serviceEvent(marker, { entity_id, n });
  const sub = await s.call('/api/events/subscribe', 'POST', { event_type: marker, entity_id: 'input_boolean.guest_mode' });
  const stream = await openSse(`${s.url}/api/events/stream?event_type=${marker}`, { authorization: `Bearer ${s.token}` });
  await stream.until((f) => f.some((x) => x.event === 'connected'));
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
  const got: any[] = [];
  ws.on('message', (d) => got.push(JSON.parse(d.toString())));
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ type: 'subscribe_events', id: 1, event_type: marker }));
  while (!got.some((m) => m.type === 'subscribe_events_result')) await new Promise((r) => setTimeout(r, 10));
  // input_boolean.guest_mode is not exposed by the default rule; light.office_desk is.
  s.app.bus.emit('event', changed('input_boolean.guest_mode', 1));
  s.app.bus.emit('event', changed('light.office_desk', 2));
  s.app.bus.emit('event', changed('input_boolean.guest_mode', 3));
  s.app.bus.emit('event', changed('light.office_desk', 4));
  const frames = await stream.until((f) => f.filter((x) => x.event === 'message').length >= 2);
  while (got.filter((m) => m.type === 'event').length < 2) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
  expect(stream.events().map((e) => e.data.n)).toEqual([2, 4]);
  expect(got.filter((m) => m.type === 'event').map((m) => m.event.data.n)).toEqual([2, 4]);
  const history = await s.call(`/api/events/history?event_type=${marker}&limit=1`);
  expect(history.body.data.events.map((e: any) => e.data.n)).toEqual([4]);
  const next = await s.call(`/api/events/history?event_type=${marker}&limit=1&cursor=${history.body.data.next_cursor}`);
  expect(next.body.data.events.map((e: any) => e.data.n)).toEqual([2]);
  expect(next.body.data.next_cursor).toBeNull();
  expect((await s.call(`/api/events/history?entity_id=input_boolean.guest_mode&event_type=${marker}`)).body.data.events).toEqual([]);
  // A stream that resumes is not replayed them either.
  const first = frames.find((f) => f.event === 'message')!;
  const resumed = await openSse(`${s.url}/api/events/stream?event_type=${marker}`, {
    authorization: `Bearer ${s.token}`,
    'last-event-id': String(Number(first.id) - 2),
  });
  await resumed.until((f) => f.filter((x) => x.event === 'message').length >= 2);
  await new Promise((r) => setTimeout(r, 50));
  expect(resumed.events().map((e) => e.data.n)).toEqual([2, 4]);
  // The stored subscription to the hidden entity never saw an event.
  const subs = (await s.call('/api/events/subscriptions')).body.data.subscriptions;
  expect(subs.find((x: any) => x.id === sub.body.data.subscription_id).last_event).toBeNull();
  stream.close();
  resumed.close();
  ws.close();
});

test('MCP clients of both eras hear that the tool list changed when locks are exposed, when none is any more, and again when one is', async () => {
  const connect = async (modern: boolean) => {
    const c = new Client({ name: 'exposure-test', version: '1' }, modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    let heard = 0;
    c.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
    return { c, heard: () => heard };
  };
  const modern = await connect(true);
  const legacy = await connect(false);
  const sub = await modern.c.listen({ toolsListChanged: true });
  const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
  // 2026.11 exposes no lock by default: the lock tool is listed once Home Assistant exposes one.
  expect(await names(modern.c)).not.toContain('control_locks');
  const locks = ['lock.front_door', 'lock.back_door', 'lock.garage_side_door', 'lock.garden_gate'];
  await sim.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: locks, should_expose: true });
  await s.app.services.exposure!.refresh();
  await expect.poll(() => modern.heard() > 0 && legacy.heard() > 0).toBe(true);
  expect(await names(modern.c)).toContain('control_locks');

  const [m0, l0] = [modern.heard(), legacy.heard()];
  await sim.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: locks, should_expose: false });
  await s.app.services.exposure!.refresh();
  await expect.poll(() => modern.heard() > m0 && legacy.heard() > l0).toBe(true);
  expect(await names(modern.c)).not.toContain('control_locks');
  expect(await names(legacy.c)).not.toContain('control_locks');

  const [m, l] = [modern.heard(), legacy.heard()];
  await sim.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ['lock.back_door'], should_expose: true });
  await s.app.services.exposure!.refresh();
  await expect.poll(() => modern.heard() > m && legacy.heard() > l).toBe(true);
  expect(await names(modern.c)).toContain('control_locks');
  await sub.close();
  await modern.c.close();
  await legacy.c.close();
});

describe('on Home Assistant 2024.3.3, whose list names every choice, true and false', () => {
  let old: Simulator;
  let t: TestServer;
  let ha: RawClient;
  const oldTool = async (name: string, args: Record<string, unknown>) => (await t.call('/api/tools/call', 'POST', { name, arguments: args })).body;
  const oldFound = async (args: Record<string, unknown>) =>
    (((await oldTool('search_entities', { ...args, limit: 100 })).structuredContent?.entities ?? []) as { entity_id: string }[]).map((e) => e.entity_id);
  beforeAll(async () => {
    old = await startSimulator({ legacy: true });
    t = await startTestServer({ HASS_URL: old.url, HASS_TOKEN: old.token, TOOLS_EXPOSED_ONLY: 'true' });
    await t.app.hub.ready(10_000);
    ha = await RawClient.connect(old.wsUrl, old.token);
    await t.app.services.exposure!.refresh();
  });
  afterAll(async () => {
    await ha?.close();
    await t?.close();
    await old?.stop();
  });

  test("an entity without a choice falls to 2024.3's default rule (locks in); one set to false is hidden and refused", async () => {
    expect(await oldFound({ domain: 'lock' })).toContain('lock.front_door');
    expect(await oldFound({ domain: 'weather' })).toEqual([]);
    await ha.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ['light.office_desk'], should_expose: false });
    await t.app.services.exposure!.refresh();
    expect(await oldFound({ domain: 'light' })).not.toContain('light.office_desk');
    expect(await oldTool('control_lights', { entity_id: 'light.office_desk', command: 'on' })).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'FORBIDDEN' } },
    });
  });
});
