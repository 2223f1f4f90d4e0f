// The hub connection's own events on the app's bus: hub_connected (first and after a reconnect)
// and hub_disconnected (the drop, then a failed attempt), over real sockets to the simulator.
import pino from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { HUB_CONNECTED, HUB_DISCONNECTED } from '../../src/bus.js';
import type { HubEvent, StateChangedData } from '../../src/hub/types.js';
import { startSimulator } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  const s = await startTestServer(env);
  cleanup.push(() => s.close());
  return s;
}

function record(s: TestServer): HubEvent[] {
  const events: HubEvent[] = [];
  s.app.bus.on('event', (e) => events.push(e));
  return events;
}

async function until(cond: () => boolean, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ofType = (events: HubEvent[], type: string) => events.filter((e) => e.event_type === type);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('hub connection events', () => {
  test('a hub that is down at start: hub_connected (initial) once it comes up, with the attempts it took', async () => {
    const sim = await startSimulator({ logger: pino({ level: 'silent' }) });
    cleanup.push(() => sim.stop());
    await sim.stop();
    const s = await server({ HASS_URL: sim.url, HASS_TOKEN: sim.token });
    const events = record(s);
    expect(s.app.hub.isConnected).toBe(false);
    await sim.start();
    await until(() => ofType(events, HUB_CONNECTED).length > 0, 'hub_connected');
    const [connected] = ofType(events, HUB_CONNECTED);
    expect(connected).toMatchObject({ event_type: 'hub_connected', origin: 'LOCAL', context: { id: expect.any(String), parent_id: null, user_id: null } });
    expect(connected!.time_fired).toMatch(ISO);
    // The first attempt found the port closed, so it took at least two.
    expect(connected!.data).toEqual({ kind: 'initial', version: sim.version, attempt: expect.any(Number), entities: sim.states().length, changed: 0 });
    expect(connected!.data.attempt).toBeGreaterThanOrEqual(2);
    expect(s.app.hub.isConnected).toBe(true);
  });

  test('the hub goes away and comes back: hub_disconnected (the drop, then a failed attempt), hub_connected (reconnect) with what changed', async () => {
    const s = await server();
    const sim = s.app.simulator!;
    await s.app.hub.ready();
    const events = record(s);

    await sim.stop();
    await until(() => ofType(events, HUB_DISCONNECTED).length >= 2, 'the drop and a failed attempt');
    const [drop, failed] = ofType(events, HUB_DISCONNECTED);
    expect(drop!.data).toEqual({ reason: 'connection_lost', message: expect.any(String), attempt: 0, since: s.app.hub.status().since });
    expect(drop!.data.since).toMatch(ISO);
    expect(failed!.data).toEqual({ reason: 'unreachable', message: expect.stringContaining('ECONNREFUSED'), attempt: 1, since: drop!.data.since });

    const id = 'light.kitchen_ceiling';
    const before = s.app.hub.cache.get(id)!.state;
    sim.setState(id, before === 'on' ? 'off' : 'on');
    sim.setState('sensor.appeared_while_away', '1');
    const from = events.length;
    await sim.start();
    await until(() => ofType(events, HUB_CONNECTED).length > 0, 'hub_connected');

    // Each change while away comes as a state_changed before hub_connected, which counts them.
    const catchUp = events.slice(
      from,
      events.findIndex((e) => e.event_type === HUB_CONNECTED),
    );
    const changed = catchUp.filter((e) => e.event_type === 'state_changed').map((e) => (e.data as unknown as StateChangedData).entity_id);
    expect(changed).toEqual(expect.arrayContaining([id, 'sensor.appeared_while_away']));
    const [connected] = ofType(events, HUB_CONNECTED);
    expect(connected!.data).toEqual({
      kind: 'reconnect',
      version: sim.version,
      attempt: expect.any(Number),
      entities: sim.states().length,
      changed: changed.length,
      disconnected_for_ms: expect.any(Number),
    });
    expect(connected!.data.attempt).toBeGreaterThanOrEqual(2);
    expect(connected!.data.disconnected_for_ms).toBeGreaterThanOrEqual(0);
    expect(s.app.hub.status()).toMatchObject({ connected: true });
    expect(ofType(events, HUB_DISCONNECTED)).toHaveLength(2);
  });
});
