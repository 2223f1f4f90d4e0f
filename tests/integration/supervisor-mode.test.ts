// Inside the add-on: with SUPERVISOR_TOKEN the hub is the Supervisor's /core/websocket, and the
// bridge announces its MCP endpoint through the Supervisor's discovery API. The simulator plays the
// Supervisor here (the real one cannot run on this machine).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';
// @ts-expect-error: a plain .mjs helper shared with the process runners
import { freePort } from '../lib/bridge-process.mjs';

let sim: Simulator;
let server: TestServer;
let port: number;

const until = async <T>(what: string, get: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const start = () => startTestServer({ PORT: String(port), SUPERVISOR_TOKEN: 'supervisor-token', SUPERVISOR_URL: sim.url });

beforeAll(async () => {
  sim = await startSimulator({ supervisor: {} });
  port = (await freePort()) as number;
  sim.supervisor!.installAddon({ slug: 'home_mcp_bridge', name: 'Home MCP Bridge', url: `http://127.0.0.1:${port}`, discovery: ['mcp'] });
  server = await start();
});
afterAll(async () => {
  await server?.close();
  await sim?.stop();
});

describe('Supervisor mode', () => {
  it('the hub is Home Assistant through the Supervisor, with the add-on’s token', async () => {
    const config = await until('the hub', async () => {
      const c = (await server.call('/api/config')).body;
      return c.hub.connected ? c : undefined;
    });
    expect(config.hub).toMatchObject({ mode: 'supervisor', url: `${sim.url}/core` });
    const res = await server.call('/api/device/control', 'POST', { entity_id: 'light.bedroom_lamp', action: 'turn_on' });
    expect(res.status).toBe(200);
    expect(sim.getState('light.bedroom_lamp')?.state).toBe('on');
  });

  it('announces the MCP endpoint through discovery, by the add-on’s host name', async () => {
    const [message] = await until('the discovery message', () => (sim.supervisor!.discoveries().length ? sim.supervisor!.discoveries() : undefined));
    // Home Assistant's link: the add-on's host name, then the key (tests/integration/discovery-link.test.ts has the rest).
    expect(message).toMatchObject({
      addon: 'home_mcp_bridge',
      service: 'mcp',
      config: { url: expect.stringMatching(new RegExp(`^http://home-mcp-bridge:${port}/mcp/ha/[A-Za-z0-9_-]{43}$`)), host: 'home-mcp-bridge', port },
    });
    expect(sim.supervisor!.discoveries()).toHaveLength(1);
  });

  it('every start announces again (Home Assistant may have dismissed the offer meanwhile)', async () => {
    const before = sim.supervisor!.discoveries()[0]!.uuid;
    sim.supervisor!.removeDiscovery(before);
    await server.close();
    server = await start();
    const [again] = await until('a new discovery message', () => (sim.supervisor!.discoveries().length ? sim.supervisor!.discoveries() : undefined));
    expect(again).toMatchObject({ service: 'mcp', config: { url: expect.stringMatching(new RegExp(`^http://home-mcp-bridge:${port}/mcp/ha/`)) } });
    expect(again!.uuid).not.toBe(before);
  });
});
