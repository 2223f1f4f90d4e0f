// `connect --home-assistant`: the official SDK client over stdio, through the proxy, through the
// simulator playing Home Assistant with its Supervisor (ingress session, ingress proxy), to the
// bridge's /mcp. The session is renewed, lapses and is replaced, Home Assistant restarts: the client
// notices none of it. What the user must fix is said as a JSON-RPC error, not a hang.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import { requestFrom } from '../helpers/request-from.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PROXY = '127.0.0.2';
const SLUG = 'local_home_mcp_bridge';
let sim: Simulator;
let server: TestServer;

const connect = async (haUrl: string, token: string, extra: string[] = []) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['dist/src/main.js', 'connect', '--home-assistant', haUrl, ...extra],
    env: { PATH: process.env.PATH ?? '', HASS_TOKEN: token },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ingress-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
};

/** The error a client gets when the proxy cannot set up the way in. */
const refusal = async (haUrl: string, token: string) => {
  const client = new Client({ name: 'ingress-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['dist/src/main.js', 'connect', '--home-assistant', haUrl],
    env: { PATH: process.env.PATH ?? '', HASS_TOKEN: token },
    stderr: 'pipe',
  });
  const err = await client.connect(transport).then(
    () => new Error('connected, but should not have'),
    (e: Error) => e,
  );
  await client.close().catch(() => undefined);
  return err.message;
};

beforeAll(async () => {
  sim = await startSimulator({ userToken: 'user-token', supervisor: { ingressSourceAddress: PROXY, sessionLifetimeMs: 1500 } });
  server = await startTestServer({ HASS_URL: sim.url, HASS_TOKEN: sim.token, INGRESS_PROXY: PROXY });
  sim.supervisor!.installAddon({ slug: SLUG, name: 'Home MCP Bridge', url: server.url });
});
afterAll(async () => {
  await server?.close();
  await sim?.stop();
});

describe('connect --home-assistant', () => {
  let client: Client;
  afterAll(() => client?.close());

  it('reaches the add-on through Home Assistant: tools listed, a light turned on in the hub', async () => {
    client = await connect(sim.url, sim.token, ['--renew-seconds', '0.4']);
    expect(client.getServerVersion()).toMatchObject({ name: 'home-mcp-bridge' });
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    const result = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.bedroom_lamp', command: 'on' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(sim.getState('light.bedroom_lamp')?.state).toBe('on');
    // The bridge saw the Home Assistant user, through the ingress proxy.
    expect(sim.supervisor!.sessions()).toHaveLength(1);
    expect(sim.supervisor!.sessions()[0]!.user?.id).toBe(sim.hub.user.id);
  });

  it('renews the session before it lapses: the same session, still valid after several lifetimes', async () => {
    const [first] = sim.supervisor!.sessions();
    await new Promise((r) => setTimeout(r, 3500));
    const still = sim.supervisor!.sessions().map((s) => s.session);
    expect(still).toContain(first!.session);
    expect((await client.callTool({ name: 'list_areas', arguments: {} })).isError).toBeFalsy();
  });

  it('a session that lapses anyway is replaced, and the call goes through', async () => {
    const before = sim.supervisor!.sessions().map((s) => s.session);
    sim.supervisor!.expireSessions();
    const result = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.bedroom_lamp', command: 'off' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(sim.getState('light.bedroom_lamp')?.state).toBe('off');
    const after = sim.supervisor!.sessions().map((s) => s.session);
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((s) => !before.includes(s))).toBe(true);
  });

  it('Home Assistant restarts: the proxy signs in again and carries on', async () => {
    await sim.restart();
    // The bridge's own connection to the hub comes back too (it is not what this test is about).
    await server.app.hub.ready(10_000);
    const result = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.bedroom_lamp', command: 'on' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(sim.getState('light.bedroom_lamp')?.state).toBe('on');
  });

  it('headers naming a user, from anywhere but the proxy, are ignored', async () => {
    const forged = await requestFrom('127.0.0.1', `${server.url}/api/me`, {
      headers: { 'x-remote-user-id': sim.hub.user.id, 'x-remote-user-name': 'simulator' },
    });
    expect(forged.status).toBe(401);
  });
});

describe('connect --home-assistant, 2026-07-28', () => {
  it('relays a stateless client through ingress: the era, a confirmation asked and answered, the unlock in the hub', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['dist/src/main.js', 'connect', '--home-assistant', sim.url],
      env: { PATH: process.env.PATH ?? '', HASS_TOKEN: sim.token },
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'ingress-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push((req.params as { message: string }).message);
      return { action: 'accept', content: { confirm: true } } as never;
    });
    try {
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe('modern');
      const r = await client.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock' } });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(asked).toEqual([expect.stringContaining('lock.back_door')]);
      expect(sim.getState('lock.back_door')?.state).toBe('unlocked');
    } finally {
      await client.close();
    }
  });
});

describe('what the user must fix, said plainly', () => {
  it('a token that is not an administrator’s', async () => {
    expect(await refusal(sim.url, 'user-token')).toMatch(/not a Home Assistant administrator/);
  });

  it('a token Home Assistant refuses', async () => {
    expect(await refusal(sim.url, 'not-a-token')).toMatch(/refused the token in HASS_TOKEN/);
  });

  it('the add-on stopped, or not installed', async () => {
    sim.supervisor!.setAddonState(SLUG, 'stopped');
    try {
      expect(await refusal(sim.url, sim.token)).toMatch(/Home MCP Bridge is stopped; start it/);
    } finally {
      sim.supervisor!.setAddonState(SLUG, 'started');
    }
    const bare = await startSimulator({ supervisor: {} });
    try {
      expect(await refusal(bare.url, bare.token)).toMatch(/add-on is not installed/);
    } finally {
      await bare.stop();
    }
  });

  it('a Home Assistant without a Supervisor', async () => {
    const plain = await startSimulator();
    try {
      expect(await refusal(plain.url, plain.token)).toMatch(/has no Supervisor/);
    } finally {
      await plain.stop();
    }
  });
});
