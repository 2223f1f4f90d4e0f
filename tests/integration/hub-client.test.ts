// The hub client against the simulator over real sockets.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { createBus, HUB_CONNECTED, HUB_DISCONNECTED } from '../../src/bus.js';
import { HubClient, type HubClientOptions } from '../../src/hub/client.js';
import { websocketUrl } from '../../src/hub/socket.js';
import type { HubEvent, StateChangedData } from '../../src/hub/types.js';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function capture() {
  const lines: string[] = [];
  const log = pino(
    { level: 'debug' },
    new Writable({
      write: (c, _e, cb) => {
        lines.push(String(c));
        cb();
      },
    }),
  );
  return { log, lines };
}

async function sim(opts: Parameters<typeof startSimulator>[0] = {}): Promise<Simulator> {
  const s = await startSimulator({ logger: pino({ level: 'silent' }), ...opts });
  cleanup.push(() => s.stop());
  return s;
}

function client(s: Simulator, extra: Partial<HubClientOptions> = {}) {
  const bus = createBus();
  const events: HubEvent[] = [];
  bus.on('event', (e) => events.push(e));
  const { log, lines } = capture();
  const { hub, acting } = HubClient.open({
    wsUrl: websocketUrl(s.url),
    token: s.token,
    displayUrl: s.url,
    mode: 'simulator',
    bus,
    log,
    backoff: { baseMs: 50, maxMs: 400 },
    ...extra,
  });
  hub.start();
  cleanup.push(() => hub.close());
  return { hub, acting, bus, events, lines };
}

async function until(cond: () => boolean, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('hub client', () => {
  test('connects, authenticates and loads states, config, services and registries', async () => {
    const s = await sim();
    const { hub } = client(s);
    await hub.ready();
    expect(hub.status()).toMatchObject({ connected: true, version: '2026.11.0', mode: 'simulator' });
    expect(hub.cache.size).toBe(s.states().length);
    expect(hub.services.light?.turn_on).toBeDefined();
    expect(hub.registries.floorsSupported).toBe(true);
    expect(hub.registries.floors.size).toBeGreaterThan(0);
    expect(hub.registries.areaOf('light.bedroom_lamp')?.name).toBe('Bedroom');
  });

  test('the read-only view sends only read-only commands: a command that changes the hub is refused before it is sent', async () => {
    const s = await sim();
    const { hub, acting } = client(s);
    await hub.ready();
    type Exposed = { exposed_entities: Record<string, Record<string, boolean>> };
    const exposed = async () => (await hub.query<Exposed>('homeassistant/expose_entity/list')).exposed_entities['light.bedroom_lamp']?.conversation === true;
    const before = await exposed();
    const expose = { assistants: ['conversation'], entity_ids: ['light.bedroom_lamp'], should_expose: !before };
    for (const type of [
      'homeassistant/expose_entity',
      'call_service',
      'fire_event',
      'config/floor_registry/delete',
      'lovelace/config/save',
      'subscribe_events',
    ]) {
      await expect(hub.query(type, expose)).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403, details: { command: type } });
    }
    // A payload cannot change which command goes.
    await expect(hub.query('homeassistant/expose_entity/list', { type: 'homeassistant/expose_entity' })).resolves.toHaveProperty('exposed_entities');
    expect(await exposed()).toBe(before);
    // The acting handle sends it.
    await acting.command({ type: 'homeassistant/expose_entity', ...expose });
    expect(await exposed()).toBe(!before);
  });

  test("an entity without its own area takes its device's area", async () => {
    const s = await sim();
    const { hub } = client(s);
    await hub.ready();
    const viaDevice = [...hub.registries.entities.values()].filter((e) => !e.area_id && e.device_id && hub.registries.devices.get(e.device_id)?.area_id);
    expect(viaDevice.length).toBeGreaterThan(0);
    for (const e of viaDevice) expect(hub.registries.areaIdOf(e.entity_id)).toBe(hub.registries.devices.get(e.device_id!)!.area_id);
  });

  test('a hub still starting is connected but not ready until it says it started, then synced again', async () => {
    // Home Assistant answers its WebSocket API before every integration is set up: a snapshot
    // taken then lacks services registered later (found on a real 2024.3.3 restarting).
    const s = await sim();
    s.starting();
    const { hub } = client(s);
    await until(() => hub.isConnected, 'connected');
    expect(hub.isStarting).toBe(true);
    await expect(hub.ready(300)).rejects.toThrow(/not ready/);
    // Registered without a service_registered event the client would have reloaded on.
    s.hub.services.register('bridge_test', 'late', { name: 'Late', description: 'Set up after the snapshot', kind: 'plain', run: () => undefined });
    expect(hub.services.bridge_test).toBeUndefined();
    const ready = hub.ready(5_000);
    s.started();
    await ready;
    expect(hub.services.bridge_test?.late).toBeDefined();
    expect(hub.isStarting).toBe(false);
  });

  test('a refused token: one clear log line, not connected, retried, no crash', async () => {
    const s = await sim();
    const { hub, acting, lines } = client(s, { token: 'wrong-token', authRetryMs: 100 });
    await new Promise((r) => setTimeout(r, 700));
    expect(hub.status().connected).toBe(false);
    const refusals = lines.filter((l) => l.includes('hub refused the access token'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(/check HASS_TOKEN/);
    await expect(acting.callService('light', 'turn_on', {}, ['light.bedroom_lamp'])).rejects.toMatchObject({ code: 'CONNECTION_ERROR', status: 503 });
  });

  test('reconnects after the hub restarts and reports what changed while it was away', async () => {
    const s = await sim();
    const { hub, acting, events } = client(s);
    await hub.ready();
    await s.stop();
    await until(() => !hub.status().connected, 'disconnect');
    expect(hub.status().since).toBeDefined();
    // Reads still work from the cache; commands fail at once.
    expect(hub.cache.get('light.kitchen_ceiling')).toBeDefined();
    const started = Date.now();
    await expect(acting.callService('light', 'turn_on', {}, ['light.kitchen_ceiling'])).rejects.toMatchObject({ code: 'CONNECTION_ERROR' });
    expect(Date.now() - started).toBeLessThan(1000);

    const before = hub.cache.get('light.kitchen_ceiling')!.state;
    const changedTo = before === 'on' ? 'off' : 'on';
    s.setState('light.kitchen_ceiling', changedTo);
    events.length = 0;
    await s.start();
    await hub.ready();
    expect(hub.cache.get('light.kitchen_ceiling')!.state).toBe(changedTo);
    const resync = events.filter((e) => e.event_type === 'state_changed' && (e.data as unknown as StateChangedData).entity_id === 'light.kitchen_ceiling');
    expect(resync).toHaveLength(1);
    expect((resync[0]!.data as unknown as StateChangedData).old_state?.state).toBe(before);

    // Live events flow again after the reconnect (the subscription was renewed).
    s.setState('light.kitchen_ceiling', before);
    await until(() => hub.cache.get('light.kitchen_ceiling')!.state === before, 'live event after reconnect');
  });

  test('an old hub without floors or labels degrades to no floors', async () => {
    // Floor and label registries arrived in 2024.3; 2024.2 answers unknown_command.
    const s = await sim({ version: '2024.2.5' });
    const { hub } = client(s);
    await hub.ready();
    expect(hub.status()).toMatchObject({ connected: true, version: '2024.2.5' });
    expect(hub.registries.floorsSupported).toBe(false);
    expect(hub.registries.floors.size).toBe(0);
    expect(hub.registries.areas.size).toBeGreaterThan(0);
  });

  test('the cache stays exact through a burst of 10,000 state changes', async () => {
    const s = await sim();
    const { hub, events } = client(s);
    await hub.ready();
    const ids = Array.from({ length: 100 }, (_, i) => `sensor.burst_${i}`);
    const expected = new Map<string, string>();
    events.length = 0;
    for (let n = 0; n < 10_000; n++) {
      const id = ids[n % ids.length]!;
      s.setState(id, String(n), { unit_of_measurement: 'W' });
      expected.set(id, String(n));
    }
    await until(() => ids.every((id) => hub.cache.get(id)?.state === expected.get(id)), 'cache to catch up', 20_000);
    const changes = events.filter((e) => e.event_type === 'state_changed' && (e.data as unknown as StateChangedData).entity_id.startsWith('sensor.burst_'));
    expect(changes).toHaveLength(10_000);
    for (const id of ids) expect(hub.cache.get(id)).toMatchObject({ state: expected.get(id), attributes: { unit_of_measurement: 'W' } });
  });

  test('counts the events it receives, state_changed apart, as the hub fires them', async () => {
    const s = await sim();
    const { hub, events } = client(s);
    await hub.ready();
    const before = hub.status().events!;
    for (let i = 0; i < 25; i++) s.setState('sensor.counted', String(i));
    s.fireEvent('bench_ping');
    await until(() => events.some((e) => e.event_type === 'bench_ping'), 'the custom event');
    expect(hub.status().events).toEqual({ received: before.received + 26, state_changed: before.state_changed + 25 });
  });

  test('a refused token is one hub_disconnected (auth_invalid), however often it is retried', async () => {
    const s = await sim();
    const { hub, events, lines } = client(s, { token: 'wrong-token', authRetryMs: 50 });
    await until(() => lines.filter((l) => l.includes('hub refused')).length > 0 && events.length > 0, 'the refusal');
    const start = hub.status().since;
    // Several more refusals, not one more event.
    await new Promise((r) => setTimeout(r, 300));
    expect(events.map((e) => [e.event_type, e.data])).toEqual([
      [HUB_DISCONNECTED, { reason: 'auth_invalid', message: 'Invalid access token or password', attempt: 1, since: start }],
    ]);
  });

  test('a ping timeout is the reason of the hub_disconnected it causes', async () => {
    const s = await sim();
    const { hub, events } = client(s, { pingIntervalMs: 100, pingTimeoutMs: 150 });
    await hub.ready();
    s.pauseResponses(true);
    await until(() => events.some((e) => e.event_type === HUB_DISCONNECTED), 'hub_disconnected');
    s.pauseResponses(false);
    await until(() => events.filter((e) => e.event_type === HUB_CONNECTED).length === 2, 'hub_connected after the reconnect');
    const connection = events
      .filter((e) => e.event_type === HUB_CONNECTED || e.event_type === HUB_DISCONNECTED)
      .map((e) => [e.event_type, e.data.kind ?? e.data.reason, e.data.attempt]);
    expect(connection).toEqual([
      [HUB_CONNECTED, 'initial', 1],
      [HUB_DISCONNECTED, 'ping_timeout', 0],
      [HUB_CONNECTED, 'reconnect', 1],
    ]);
  });

  test('a hub that stops answering pings is dropped and reconnected', async () => {
    const s = await sim();
    const { hub, lines } = client(s, { pingIntervalMs: 100, pingTimeoutMs: 150 });
    await hub.ready();
    s.pauseResponses(true);
    await until(() => lines.some((l) => l.includes('did not answer a ping')), 'ping timeout');
    s.pauseResponses(false);
    await until(() => hub.status().connected, 'reconnect');
  });
});
