// The simulator as a process-level peer: stopping and restarting on the same port with the home
// intact, the load generator, the official client library, and the CLI.
import { fileURLToPath } from 'node:url';
import {
  type Connection,
  type ConnectionOptions,
  type HassEntities,
  type HaWebSocket,
  ERR_CANNOT_CONNECT,
  ERR_INVALID_AUTH,
  callService,
  createConnection,
  createLongLivedTokenAuth,
  getStates,
  subscribeEntities,
} from 'home-assistant-js-websocket';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { runSimCli } from '../cli.js';
import { RawClient, type Simulator, startSimulator } from '../testing.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/home.yaml', import.meta.url));

async function waitUntil(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('stop and restart', () => {
  test('stop closes every socket; start listens again on the same port with the same states', async () => {
    const sim = await startSimulator({ port: 0 });
    const port = sim.port;
    expect(port).toBeGreaterThan(0);
    const c = await RawClient.connect(sim.wsUrl, sim.token);
    await c.command({
      type: 'call_service',
      domain: 'light',
      service: 'turn_on',
      service_data: { brightness: 77 },
      target: { entity_id: 'light.office_desk' },
    });
    expect(sim.connections).toBe(1);

    await sim.stop();
    expect((await c.closed).code).toBe(1001);
    expect(sim.connections).toBe(0);
    await expect(fetch(`${sim.url}/api/`)).rejects.toThrow();
    await sim.stop();

    await sim.start();
    expect(sim.port).toBe(port);
    const again = await RawClient.connect(sim.wsUrl, sim.token);
    const states = (await again.command({ type: 'get_states' })).result as Array<Record<string, any>>;
    expect(states.find((s) => s.entity_id === 'light.office_desk')?.attributes.brightness).toBe(77);
    await again.close();

    await sim.restart();
    expect(sim.port).toBe(port);
    expect(sim.getState('light.office_desk')?.attributes.brightness).toBe(77);
    await sim.stop();
  });
});

describe('a hung hub', () => {
  test('pauseResponses holds answers and events until resumed, then delivers them in order', async () => {
    const sim = await startSimulator();
    const c = await RawClient.connect(sim.wsUrl, sim.token);
    const sub = c.send({ type: 'subscribe_entities', entity_ids: ['switch.coffee_maker'] });
    await c.waitFor((m) => m.id === sub && m.type === 'event');
    sim.pauseResponses(true);
    sim.setState('switch.coffee_maker', 'on');
    const ping = c.send({ type: 'ping' });
    await new Promise((r) => setTimeout(r, 50));
    expect(c.messages.some((m) => m.id === ping)).toBe(false);
    expect(c.events(sub)).toHaveLength(1);
    sim.pauseResponses(false);
    await c.waitFor((m) => m.id === ping && m.type === 'pong');
    const order = c.messages.filter((m) => m.id === ping || (m.id === sub && m.type === 'event')).map((m) => m.type);
    expect(order).toEqual(['event', 'event', 'pong']);
    await c.close();
    await sim.stop();
  });
});

describe('load generator', () => {
  test('changes N entities at a rate and every change reaches a subscriber', async () => {
    const sim = await startSimulator({ home: { entities: [] } });
    const c = await RawClient.connect(sim.wsUrl, sim.token);
    await c.command({ type: 'supported_features', features: { coalesce_messages: 1 } });
    const load = sim.startLoad({ entities: 200, rate: 10_000 });
    expect(load.entityIds).toHaveLength(200);
    expect(load.entityIds[0]).toBe('sensor.load_0');
    const sub = c.send({ type: 'subscribe_entities' });
    await c.waitFor((m) => m.id === sub && m.type === 'event');
    await waitUntil(() => load.fired >= 3000);
    load.stop();
    const fired = load.fired;
    const changesSeen = () => c.events(sub).reduce((n, e) => n + ('c' in e ? 1 : 0), 0);
    // Every change made after the subscription reached the client (coalesced into fewer frames).
    const initial = c.events(sub)[0] as { a: Record<string, { s: string }> };
    const before = Object.values(initial.a).reduce((n, s) => n + Number(s.s), 0);
    await waitUntil(() => changesSeen() === fired - before);
    expect(c.frames).toBeLessThan(fired);
    expect(sim.getState('sensor.load_0')?.attributes.unit_of_measurement).toBe('W');
    load.stop({ remove: true });
    expect(sim.getState('sensor.load_0')).toBeUndefined();
    await c.close();
    await sim.stop();
  });

  test('stopping the server stops its load', async () => {
    const sim = await startSimulator({ home: { entities: [] } });
    const load = sim.startLoad({ entities: 5, rate: 1000 });
    await waitUntil(() => load.fired > 10);
    await sim.stop();
    expect(load.running).toBe(false);
    const fired = load.fired;
    await new Promise((r) => setTimeout(r, 30));
    expect(load.fired).toBe(fired);
  });
});

/** createSocket for home-assistant-js-websocket on Node: the same handshake over `ws`. */
function wsSocket(options: ConnectionOptions): Promise<HaWebSocket> {
  const auth = options.auth;
  if (!auth) throw new Error('auth required');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(auth.wsUrl) as unknown as HaWebSocket & WebSocket;
    let done = false;
    const fail = (err: number) => {
      if (done) return;
      done = true;
      reject(err);
    };
    ws.onerror = () => fail(ERR_CANNOT_CONNECT);
    ws.onclose = () => fail(ERR_CANNOT_CONNECT);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data)) as { type: string; ha_version?: string };
      if (msg.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: auth.accessToken }));
      else if (msg.type === 'auth_invalid') {
        fail(ERR_INVALID_AUTH);
        ws.close();
      } else if (msg.type === 'auth_ok') {
        done = true;
        ws.onerror = null;
        ws.onclose = null;
        ws.onmessage = null;
        ws.haVersion = msg.ha_version ?? '';
        ws.send(JSON.stringify({ type: 'supported_features', id: 1, features: { coalesce_messages: 1 } }));
        resolve(ws);
      }
    };
  });
}

async function official(sim: Simulator, token = sim.token): Promise<Connection> {
  return createConnection({ auth: createLongLivedTokenAuth(sim.url, token), createSocket: wsSocket });
}

describe('the official client (home-assistant-js-websocket)', () => {
  test('subscribeEntities sees the home and its changes, and recovers after a restart', async () => {
    const sim = await startSimulator({ timing: { coverTravelMs: 0 } });
    const conn = await official(sim);
    expect(conn.haVersion).toBe('2026.11.0');
    let entities: HassEntities = {};
    const unsub = subscribeEntities(conn, (e) => {
      entities = e;
    });
    await waitUntil(() => Object.keys(entities).length === sim.states().length);
    expect(entities['light.kitchen_ceiling']).toMatchObject({ state: 'on', attributes: { brightness: 255 } });

    await callService(conn, 'light', 'turn_on', { brightness_pct: 20 }, { entity_id: 'light.kitchen_ceiling' });
    await waitUntil(() => entities['light.kitchen_ceiling']?.attributes.brightness === 51);
    const viaClient = entities['light.kitchen_ceiling'];
    const viaSim = sim.getState('light.kitchen_ceiling');
    expect(viaClient?.last_changed).toBe(new Date(Date.parse(String(viaSim?.last_changed))).toISOString());
    expect(viaClient?.context.user_id).toBe(sim.hub.user.id);

    sim.setState('sensor.outdoor_temperature', '3.5', { unit_of_measurement: '°C' });
    await waitUntil(() => entities['sensor.outdoor_temperature']?.state === '3.5');
    sim.removeState('sensor.power_consumption');
    await waitUntil(() => !('sensor.power_consumption' in entities));

    await expect(callService(conn, 'light', 'explode', {}, { entity_id: 'light.kitchen_ceiling' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await getStates(conn)).toHaveLength(sim.states().length);

    // The hub goes away and comes back: the client reconnects and resubscribes.
    let reconnected = false;
    conn.addEventListener('ready', () => {
      reconnected = true;
    });
    await sim.restart();
    await waitUntil(() => reconnected);
    sim.setState('sensor.outdoor_temperature', '4.5');
    await waitUntil(() => entities['sensor.outdoor_temperature']?.state === '4.5');

    unsub();
    conn.close();
    await sim.stop();
  });

  test('works against a legacy hub and refuses a wrong token', async () => {
    const sim = await startSimulator({ legacy: true });
    const conn = await official(sim);
    expect(conn.haVersion).toBe('2024.3.3');
    let entities: HassEntities = {};
    subscribeEntities(conn, (e) => {
      entities = e;
    });
    await waitUntil(() => Object.keys(entities).length > 0);
    conn.close();
    await expect(official(sim, 'wrong')).rejects.toBe(ERR_INVALID_AUTH);
    await sim.stop();
  });
});

describe('CLI', () => {
  test('serves a home file, prints URL and token, runs a load, stops when told', async () => {
    const out: string[] = [];
    const controller = new AbortController();
    let sim: Simulator | undefined;
    const running = runSimCli(
      ['--home', FIXTURE, '--port', '0', '--token', 'cli-token', '--load-entities', '3', '--load-rate', '200', '--log-level', 'silent'],
      {
        signal: controller.signal,
        onReady: (s) => {
          sim = s;
        },
        out: { write: (t: string) => out.push(t) },
      },
    );
    await waitUntil(() => sim !== undefined);
    const s = sim as unknown as Simulator;
    expect(out.join('')).toContain(s.url);
    expect(out.join('')).toContain('access token: cli-token');
    const c = await RawClient.connect(s.wsUrl, 'cli-token');
    const states = (await c.command({ type: 'get_states' })).result as Array<{ entity_id: string }>;
    expect(states.map((x) => x.entity_id)).toEqual(expect.arrayContaining(['light.porch', 'lock.shed', 'sensor.load_0']));
    controller.abort();
    await running;
    expect((await c.closed).code).toBe(1001);
    expect(out.join('')).toContain('hub simulator stopped');
  });

  test('rejects bad options and prints help', async () => {
    await expect(runSimCli(['--port', 'x'])).rejects.toThrow('--port must be a whole number');
    await expect(runSimCli(['--bogus'])).rejects.toThrow('unknown option --bogus');
    await expect(runSimCli(['--load-rate', '5'])).rejects.toThrow('go together');
    const out: string[] = [];
    await runSimCli(['--help'], { out: { write: (t: string) => out.push(t) } });
    expect(out.join('')).toContain('--load-entities N');
  });
});
