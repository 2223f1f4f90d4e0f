// Home Assistant's link: the MCP address the add-on announces through the Supervisor's discovery,
// which Home Assistant's `mcp` integration uses as it is (no OAuth). The key in the path is the
// credential, only from DISCOVERY_PEERS; anything else is a 404 like a path that does not exist;
// the key is never logged; rotation ends the old link at once and re-announces under the same
// uuid; the link's scope limits it like an OAuth grant's. The simulator plays the Supervisor.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import { requestFrom } from '../helpers/request-from.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
// @ts-expect-error: a plain .mjs helper shared with the process runners
import { freePort } from '../lib/bridge-process.mjs';

let sim: Simulator;
let s: TestServer;
let port: number;
let dataDir: string;
const logs: string[] = [];
const KEY = /\/mcp\/ha\/([A-Za-z0-9_-]{43})$/;

const until = async <T>(what: string, get: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** The announced URL, as Home Assistant would read it from the Supervisor. */
const announced = () => sim.supervisor!.discoveries().find((d) => d.service === 'mcp');
const linkUrl = () => String(announced()!.config.url);
const keyOf = (url: string) => KEY.exec(url)![1]!;

async function connect(url: string) {
  const client = new Client({ name: 'home-assistant-like', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
};
const mcpHeaders = { accept: 'application/json, text/event-stream' };

beforeAll(async () => {
  sim = await startSimulator({ supervisor: {} });
  port = (await freePort()) as number;
  // The add-on's host name is one this machine resolves, so the announced URL is usable as it is.
  sim.supervisor!.installAddon({
    slug: 'home_mcp_bridge',
    name: 'Home MCP Bridge',
    url: `http://127.0.0.1:${port}`,
    discovery: ['mcp'],
    hostname: '127.0.0.1',
  });
  dataDir = mkdtempSync(join(tmpdir(), 'hmb-link-'));
  s = await start();
  await until('the announcement', announced);
});
afterAll(async () => {
  await s?.close();
  await sim?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// Debug level: the access log's lines are there to be searched for the key.
const start = (env: Record<string, string> = {}) =>
  startTestServer(
    { PORT: String(port), SUPERVISOR_TOKEN: 'supervisor-token', SUPERVISOR_URL: sim.url, DISCOVERY_PEERS: '127.0.0.1', DATA_DIR: dataDir, ...env },
    {
      log: pino(
        { level: 'debug' },
        new Writable({
          write: (c, _e, cb) => {
            logs.push(String(c));
            cb();
          },
        }),
      ),
    },
  );

describe('the announced link', () => {
  test('a capability URL with 256 random bits, kept in DATA_DIR readable by the owner only', () => {
    const message = announced()!;
    expect(message).toMatchObject({ addon: 'home_mcp_bridge', service: 'mcp', config: { host: '127.0.0.1', port } });
    expect(linkUrl()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/mcp/ha/[A-Za-z0-9_-]{43}$`));
    const file = join(s.dataDir, 'discovery-link.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ key: keyOf(linkUrl()), scope: ['read', 'control'] });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('an MCP client holding nothing but the URL lists the tools and turns a light on', async () => {
    const client = await connect(linkUrl());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['control_lights', 'search_entities']));
    const before = sim.getState('light.office_desk')!.state;
    const target = before === 'on' ? 'off' : 'on';
    const call = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', command: target } });
    expect(call.isError).toBeFalsy();
    expect(sim.getState('light.office_desk')!.state).toBe(target);
    await client.close();
    // Its use shows, under its own principal; the key does not.
    const view = (await s.call('/api/discovery')).body;
    expect(view).toMatchObject({
      enabled: true,
      path: '/mcp/ha/…',
      scope: ['read', 'control'],
      peers: ['127.0.0.1'],
      announcement: { state: 'announced', uuid: announced()!.uuid, url: `http://127.0.0.1:${port}/mcp/ha/…` },
    });
    expect(view.last_used_at).toEqual(expect.any(String));
    expect(JSON.stringify(view)).not.toContain(keyOf(linkUrl()));
  });

  test('a wrong key, the right key from another address, or a bridge token there: 404 as for a path that does not exist', async () => {
    const key = keyOf(linkUrl());
    const wrong = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const missing = await fetch(`${s.url}/no/such/path`, {
      method: 'POST',
      headers: { ...mcpHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(initialize),
    });
    const missingBody = (await missing.json()) as Record<string, unknown>;
    for (const url of [`${s.url}/mcp/ha/${wrong}`, `${s.url}/mcp/ha/short`]) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...mcpHeaders, 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
        body: JSON.stringify(initialize),
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('www-authenticate')).toBeNull();
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(Object.keys(missingBody).sort());
      expect(body).toMatchObject({ error: true, code: 'NOT_FOUND' });
    }
    // All of 127/8 is this machine: 127.0.0.2 is another container as far as the bridge can tell.
    const other = await requestFrom('127.0.0.2', `${s.url}/mcp/ha/${key}`, { method: 'POST', headers: { ...mcpHeaders }, body: initialize });
    expect(other.status).toBe(404);
    const peer = await requestFrom('127.0.0.1', `${s.url}/mcp/ha/${key}`, { method: 'POST', headers: { ...mcpHeaders }, body: initialize });
    expect(peer.status).toBe(200);
  });

  test('assistants cannot see or change the link; people can', async () => {
    const made = (await s.call('/api/tokens', 'POST', { name: 'an assistant' })).body;
    for (const [method, path] of [
      ['GET', '/api/discovery'],
      ['POST', '/api/discovery/rotate'],
      ['PATCH', '/api/discovery'],
    ] as const) {
      const res = await s.api(path, {
        method,
        headers: { authorization: `Bearer ${made.token}` },
        ...(method === 'PATCH' ? { json: { scope: ['read'] } } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await s.call('/api/discovery', 'PATCH', { scope: ['write'] })).body).toMatchObject({ code: 'INVALID_PARAMETERS' });
    expect((await s.call('/api/discovery', 'PATCH', { scope: [] })).status).toBe(400);
  });

  test('scope read: Home Assistant sees the tools that read, and a call that acts is refused in words', async () => {
    expect((await s.call('/api/discovery', 'PATCH', { scope: ['read'] })).body).toMatchObject({ scope: ['read'] });
    const client = await connect(linkUrl());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('control_lights');
    // Tools that only read, and those that read by some operations (readOperations: calendar, todo).
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).every((t) => ['calendar', 'todo'].includes(t.name))).toBe(true);
    const before = sim.getState('light.office_desk')!.state;
    const refused = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', command: 'toggle' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/may only read/);
    expect(sim.getState('light.office_desk')!.state).toBe(before);
    await client.close();
    expect((await s.call('/api/discovery', 'PATCH', { scope: ['read', 'control'] })).body).toMatchObject({ scope: ['read', 'control'] });
    expect(JSON.parse(readFileSync(join(s.dataDir, 'discovery-link.json'), 'utf8')).scope).toEqual(['read', 'control']);
  });

  test('rotation: the old link stops at once, the new one is announced under the same uuid', async () => {
    const old = linkUrl();
    const uuid = announced()!.uuid;
    const client = await connect(old);
    const rotated = await s.call('/api/discovery/rotate', 'POST');
    expect(rotated.status).toBe(200);
    expect(rotated.body.announcement).toMatchObject({ state: 'announced', uuid });
    const fresh = linkUrl();
    expect(fresh).not.toBe(old);
    expect(announced()!.uuid).toBe(uuid);
    expect(sim.supervisor!.discoveries()).toHaveLength(1);
    // A session opened with the old key is refused too: every request shows the key again.
    await expect(client.listTools()).rejects.toThrow();
    expect(
      (await fetch(old, { method: 'POST', headers: { ...mcpHeaders, 'content-type': 'application/json' }, body: JSON.stringify(initialize) })).status,
    ).toBe(404);
    const again = await connect(fresh);
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
    await again.close();
  });

  test('the key survives a restart and is never in the log', async () => {
    const key = keyOf(linkUrl());
    await s.close();
    // Another port: keep-alive connections to the stopped server are no way to reach the new one.
    port = (await freePort()) as number;
    const seen = logs.length;
    s = await start();
    await until('the announcement after the restart', () => (logs.slice(seen).some((l) => l.includes('announced the MCP endpoint')) ? true : undefined));
    expect(linkUrl()).toBe(`http://127.0.0.1:${port}/mcp/ha/${key}`);
    const client = await connect(linkUrl());
    await client.listTools();
    await client.close();
    const all = logs.join('\n');
    // The access log names the path, without the key.
    expect(all).toMatch(/"url":"\/mcp\/ha\/…"/);
    for (const line of logs) expect(line).not.toMatch(/\/mcp\/ha\/[A-Za-z0-9_-]{20,}/);
  });
});

describe('MCP_ALLOWED_HOSTS', () => {
  test('names the hosts people use: /mcp refuses others, the link answers Home Assistant by the add-on host name', async () => {
    await s.close();
    port = (await freePort()) as number;
    const seen = logs.length;
    s = await start({ MCP_ALLOWED_HOSTS: 'homeassistant.local' });
    await until('the announcement', () => (logs.slice(seen).some((l) => l.includes('announced the MCP endpoint')) ? true : undefined));
    const refused = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
      body: JSON.stringify(initialize),
    });
    expect(refused.status).toBe(403);
    const client = await connect(linkUrl());
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe('without a Supervisor', () => {
  test('there is no link: the view says why, rotation is refused, the path is a 404', async () => {
    const plain = await startTestServer();
    try {
      expect((await plain.call('/api/discovery')).body).toMatchObject({
        enabled: false,
        announcement: { state: 'off', reason: expect.stringContaining('no Supervisor') },
      });
      expect((await plain.call('/api/discovery/rotate', 'POST')).body).toMatchObject({ code: 'CONFLICT' });
      expect((await plain.call('/api/discovery', 'PATCH', { scope: ['read'] })).status).toBe(409);
      const res = await fetch(`${plain.url}/mcp/ha/${'a'.repeat(43)}`, {
        method: 'POST',
        headers: { ...mcpHeaders, 'content-type': 'application/json' },
        body: JSON.stringify(initialize),
      });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
