// MCP through the official SDK client: Streamable HTTP at /mcp (sessions, tools against the
// simulator, prompts, resources, a live resource subscription, session deletion, Origin and token
// refusals) and stdio (a child process whose standard output carries nothing but MCP).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ MCP_RESOURCE_DEBOUNCE: '50' });
});
afterAll(() => s?.close());

async function connect(headers: Record<string, string> = { authorization: `Bearer ${s.token}` }) {
  const client = new Client({ name: 'bridge-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

const sim = () => s.app.simulator!;
const hubState = async (id: string) =>
  (await (await fetch(`${sim().url}/api/states/${id}`, { headers: { authorization: `Bearer ${sim().token}` } })).json()) as { state: string };

describe('Streamable HTTP', () => {
  test('initialize, list and call tools against the hub, prompts and resources', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toMatchObject({ name: 'home-mcp-bridge' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: { subscribe: true }, logging: {} });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['control_lights', 'search_entities', 'list_areas']));
    expect(tools.find((t) => t.name === 'control_lights')).toMatchObject({ inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } });

    const before = (await hubState('light.office_desk')).state;
    const target = before === 'on' ? 'off' : 'on';
    const call = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', command: target } });
    expect(call.isError).toBeFalsy();
    expect((await hubState('light.office_desk')).state).toBe(target);

    const search = await client.callTool({ name: 'search_entities', arguments: { domain: 'lock' } });
    expect(JSON.stringify(search.structuredContent)).toContain('lock.front_door');
    // Arguments that do not fit the schema are a tool error the model can read, not a protocol error.
    const bad = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', brightness_pct: 500, command: 'on' } });
    expect(bad.isError).toBe(true);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/no_such_tool/);

    const { prompts } = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    const prompt = await client.getPrompt({ name: prompts[0]!.name, arguments: {} }).catch(() => undefined);
    if (prompt) expect(prompt.messages.length).toBeGreaterThan(0);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('home://areas');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain('home://entity/{entity_id}');
    const read = await client.readResource({ uri: 'home://entity/light.office_desk' });
    expect(read.contents[0]).toMatchObject({ uri: 'home://entity/light.office_desk' });
    await expect(client.readResource({ uri: 'home://nothing/here' })).rejects.toThrow();
    await client.close();
  });

  test('a subscribed resource is notified when a state it shows changes through the hub', async () => {
    const { client } = await connect();
    const updates: string[] = [];
    const got = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        updates.push(n.params.uri);
        resolve();
      }),
    );
    await client.subscribeResource({ uri: 'home://entity/light.bedroom_lamp' });
    const before = (await hubState('light.bedroom_lamp')).state;
    await fetch(`${sim().url}/api/states/light.bedroom_lamp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim().token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: before === 'on' ? 'off' : 'on' }),
    });
    await got;
    expect(updates).toEqual(['home://entity/light.bedroom_lamp']);
    await client.unsubscribeResource({ uri: 'home://entity/light.bedroom_lamp' });
    await client.close();
  });

  test('completions for resource-template parts (entity ids, areas); a new entity announces a changed resource list', async () => {
    const { client } = await connect();
    const entities = await client.complete({
      ref: { type: 'ref/resource', uri: 'home://entity/{entity_id}' },
      argument: { name: 'entity_id', value: 'lock.' },
    });
    expect(entities.completion.values).toEqual(expect.arrayContaining(['lock.front_door', 'lock.back_door']));
    expect(entities.completion.values.every((v) => v.startsWith('lock.'))).toBe(true);
    const areas = await client.complete({ ref: { type: 'ref/resource', uri: 'home://area/{area_id}' }, argument: { name: 'area_id', value: 'kit' } });
    expect(areas.completion.values).toEqual(['kitchen']);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/resources/list_changed', () => resolve()));
    await fetch(`${sim().url}/api/states/sensor.brand_new_thing`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim().token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: '1' }),
    });
    await changed;
    await client.close();
  });

  test('DELETE ends the session; an unknown or another client’s session is 404', async () => {
    const { client, transport } = await connect();
    const sid = transport.sessionId!;
    await transport.terminateSession();
    const after = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${s.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    await client.close();
  });

  test('no token is 401 with WWW-Authenticate; a foreign Origin is 403; a GET without a session is 400', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp"`);
    const evil = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${s.token}`, origin: 'https://evil.example' },
      body: JSON.stringify(init),
    });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/Origin/) } });
    const get = await fetch(`${s.url}/mcp`, { headers: { authorization: `Bearer ${s.token}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    await get.body?.cancel();
  });
});

describe('sessions', () => {
  const initialize = (version: string) =>
    fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
  const resultOf = async (res: Response) => {
    const text = await res.text();
    return JSON.parse(
      text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
    ).result;
  };

  test('the revisions 2025-11-25, 2025-06-18 and 2025-03-26 are each answered in kind', async () => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const res = await initialize(version);
      expect(res.status).toBe(200);
      expect((await resultOf(res)).protocolVersion).toBe(version);
    }
  });

  test('an idle session expires (MCP_SESSION_IDLE)', async () => {
    const own = await startTestServer({ MCP_SESSION_IDLE: '1' });
    try {
      const res = await fetch(`${own.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${own.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
      const sid = res.headers.get('mcp-session-id')!;
      await res.text();
      expect(own.app.services.mcp.size).toBe(1);
      // The sweeper runs every 250 ms with a 1 s idle time.
      const end = Date.now() + 10_000;
      while (own.app.services.mcp.size > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(own.app.services.mcp.size).toBe(0);
      const after = await fetch(`${own.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${own.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sid,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      });
      expect(after.status).toBe(404);
    } finally {
      await own.close();
    }
  }, 20_000);
});

describe('HTTP+SSE of the 2024-11-05 revision', () => {
  test('GET /sse names the message endpoint; the SDK’s SSE client initializes, lists and calls tools', async () => {
    const auth = `Bearer ${s.token}`;
    const withToken: typeof fetch = (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), authorization: auth } });
    const client = new Client({ name: 'legacy', version: '1.0.0' });
    const transport = new SSEClientTransport(new URL(`${s.url}/sse`), { fetch: withToken, eventSourceInit: { fetch: withToken } });
    await client.connect(transport);
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    const areas = await client.callTool({ name: 'list_areas', arguments: {} });
    expect(areas.isError).toBeFalsy();
    expect(((await (await s.api('/api/health')).json()) as { mcp: { sessions: number } }).mcp.sessions).toBeGreaterThan(0);
    await client.close();
    const stale = await s.api('/messages?sessionId=not-a-session', { method: 'POST', json: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(stale.status).toBe(404);
    const none = await fetch(`${s.url}/sse`);
    expect(none.status).toBe(401);
  });
});

describe('stdio', () => {
  test('the SDK client over a child process: initialize, list tools, call one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hmb-stdio-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['dist/src/main.js', 'stdio'],
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      const areas = await client.callTool({ name: 'list_areas', arguments: {} });
      expect(areas.isError).toBeFalsy();
    } finally {
      await client.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('standard output carries only JSON-RPC messages, even with logs on and a plugin that prints', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hmb-stdio-'));
    const child = spawn(process.execPath, ['dist/src/main.js', 'stdio'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'debug', PLUGINS_DIR: join(process.cwd(), 'tests', 'fixtures', 'noisy-plugins') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    const waitFor = async (id: number) => {
      for (let i = 0; i < 200; i++) {
        if (lines.some((l) => JSON.parse(l).id === id)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no answer ${id}; stdout: ${lines.join('\n')}; stderr: ${stderr.slice(-2000)}`);
    };
    try {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      await waitFor(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await waitFor(2);
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_entities', arguments: { domain: 'light' } } });
      await waitFor(3);
      send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'noisy_echo', arguments: { text: 'hello' } } });
      await waitFor(4);
      expect(stderr).toContain('noisy: hello');
      expect(stderr.length).toBeGreaterThan(0);
      for (const l of lines) expect(JSON.parse(l)).toMatchObject({ jsonrpc: '2.0' });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
