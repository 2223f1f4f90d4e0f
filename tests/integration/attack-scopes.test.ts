// ATTACK (issue 37, third pass): scoped OAuth callers, a question answered by someone else,
// revocation while a connection is open, and read-only mode, each over the real transports.
// All held; pinned here.
// - A `read` grant adds no to-do item and no calendar event (the `todo` and `calendar` tools, and the
//   sentences that add them, over MCP and the REST command route), reads config and the logbook,
//   and is offered no admin tool; `read control` adds them.
// - A 2026-07-28 question (unlocking) asked of one assistant's token cannot be answered with
//   another's, nor after the first is revoked: the lock stays locked.
// - A grant revoked while its MCP session and a token revoked while its WebSocket is open: the next
//   call and command are refused, the socket is closed, nothing is added.
// - TOOLS_READ_ONLY refuses the to-do and calendar sentences over REST and the WebSocket, and the
//   admin tools' changes over REST and MCP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { authorizedClient, HostedAssistant } from '../helpers/oauth-client.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

type Body = Record<string, any>;

const items = async (s: TestServer, list = 'todo.shopping_list') =>
  JSON.stringify(((await s.app.services.tools.call('todo', { operation: 'items', list }, undefined)) as Body).structuredContent);
const events = async (s: TestServer) =>
  JSON.stringify(
    (
      (await s.app.services.tools.call(
        'calendar',
        { operation: 'events', entity_id: 'calendar.family', start: '2026-01-01', end: '2028-01-01' },
        undefined,
      )) as Body
    ).structuredContent,
  );

/** A named bridge token made by the test user (a second assistant). */
async function namedToken(s: TestServer, name: string): Promise<{ id: string; token: string }> {
  const r = await s.call('/api/tokens', 'POST', { name });
  expect(r.status).toBe(201);
  return { id: r.body.id, token: r.body.token };
}

/** A WebSocket on /api/ws with a token; `send` answers the reply with that id, or the close. */
async function socket(s: TestServer, token: string) {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${token}` } });
  const waiting = new Map<number, (m: Body) => void>();
  let closed: { code: number } | undefined;
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    waiting.get(m.id)?.(m);
  });
  const onClose = new Promise<{ code: number }>((resolve) =>
    ws.on('close', (code) => {
      closed = { code };
      for (const w of waiting.values()) w({ closed: code });
      resolve(closed);
    }),
  );
  await new Promise((r, j) => {
    ws.on('open', r);
    ws.on('error', j);
  });
  let id = 0;
  return {
    ws,
    closed: () => closed,
    onClose,
    send(type: string, payload: Body): Promise<Body> {
      const n = ++id;
      return new Promise((resolve) => {
        if (closed) return resolve({ closed: closed.code });
        waiting.set(n, resolve);
        ws.send(JSON.stringify({ type, id: n, payload }));
      });
    },
  };
}

const ADD = 'add milk to the shopping list';
const EVENT = 'add dentist to the family calendar tomorrow at 10';

describe('scoped OAuth grants', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ADMIN_TOOLS: 'true', CONFIG_EDITING: 'true' });
    await s.app.hub.ready(10_000);
  });
  afterAll(() => s?.close());

  test('read: no to-do item or event by tool or sentence (MCP, REST); config, logbook read; no admin tool', async () => {
    const assistant = new HostedAssistant('read');
    const client = await authorizedClient(s.url, TEST_USER, assistant, ['read']);
    const token = assistant.saved!.access_token as string;
    const [list, cal] = [await items(s), await events(s)];
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names.filter((n) => n.startsWith('admin'))).toEqual([]);
      for (const [name, args] of [
        ['todo', { operation: 'add', list: 'todo.shopping_list', item: 'milk' }],
        ['calendar', { operation: 'create', entity_id: 'calendar.family', summary: 'Dentist', start: '2026-12-01', end: '2026-12-02' }],
        ['command', { command: ADD }],
        ['command', { command: EVENT }],
      ] as const) {
        const r = (await client.callTool({ name, arguments: args })) as Body;
        expect(r.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r)}`).toBe(true);
        expect(JSON.stringify(r.structuredContent)).toContain('FORBIDDEN');
      }
      for (const command of [ADD, EVENT]) {
        const rest = await s.api('/api/command', { method: 'POST', headers: { authorization: `Bearer ${token}` }, json: { command } });
        // An OAuth access token is for /mcp (its audience); elsewhere it is refused outright, or the checkpoint refuses.
        expect(rest.status, command).toBe(401);
      }
      const upgrade = await new Promise<number>((resolve) => {
        const w = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${token}` } });
        w.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        w.on('open', () => {
          resolve(101);
          w.close();
        });
        w.on('error', () => undefined);
      });
      expect(upgrade, 'the WebSocket with an OAuth access token').toBe(401);
      for (const [name, args] of [
        ['config_read', { kind: 'automation' }],
        ['get_logbook', {}],
      ] as const) {
        const r = (await client.callTool({ name, arguments: args })) as Body;
        expect(r.isError, `${name}: ${JSON.stringify(r)}`).toBeFalsy();
      }
      await expect(client.callTool({ name: 'admin_system', arguments: { operation: 'updates' } })).rejects.toThrow(/No tool admin_system/);
    } finally {
      await client.close();
    }
    expect(await items(s)).toBe(list);
    expect(await events(s)).toBe(cal);
  });

  test('read control: the sentence adds the item; the admin tools stay out of reach', async () => {
    const assistant = new HostedAssistant('read control');
    const client = await authorizedClient(s.url, TEST_USER, assistant, ['read', 'control']);
    try {
      const r = (await client.callTool({ name: 'command', arguments: { command: 'add oat milk to the shopping list' } })) as Body;
      expect(r.isError, JSON.stringify(r)).toBeFalsy();
      await expect(client.callTool({ name: 'admin_health', arguments: { operation: 'overview' } })).rejects.toThrow(/No tool admin_health/);
    } finally {
      await client.close();
    }
    expect(await items(s)).toMatch(/oat milk/i);
  });

  test('read admin (no control): admin_system’s changes are the admin scope’s (as docs/permissions.md says); a restart as a service call is an action and needs control too', async () => {
    const assistant = new HostedAssistant('read admin');
    const client = await authorizedClient(s.url, TEST_USER, assistant, ['read', 'admin']);
    try {
      const preview = (await client.callTool({ name: 'admin_system', arguments: { operation: 'restart_core', dry_run: true } })) as Body;
      expect(preview.isError, JSON.stringify(preview)).toBeFalsy();
      expect(preview.structuredContent).toMatchObject({ dry_run: true, needs_confirmation: [expect.stringContaining('restarting Home Assistant')] });
      const call = (await client.callTool({
        name: 'call_service',
        arguments: { operation: 'call', domain: 'homeassistant', service: 'restart', confirm: true },
      })) as Body;
      expect(call.structuredContent?.error, JSON.stringify(call)).toMatchObject({ code: 'FORBIDDEN', details: { scope: ['read', 'admin'] } });
      const todo = (await client.callTool({ name: 'todo', arguments: { operation: 'add', list: 'todo.shopping_list', item: 'milk' } })) as Body;
      expect(todo.structuredContent?.error?.code).toBe('FORBIDDEN');
    } finally {
      await client.close();
    }
  });

  test('a grant revoked while its MCP session is open: the next call in that session is refused, nothing added', async () => {
    const assistant = new HostedAssistant('read control');
    const client = await authorizedClient(s.url, TEST_USER, assistant, ['read', 'control']);
    const grant = (await s.call('/api/tokens')).body.tokens.find((t: Body) => t.kind === 'oauth_grant' && t.client_id === assistant.client?.client_id);
    expect(grant, JSON.stringify((await s.call('/api/tokens')).body)).toBeDefined();
    const list = await items(s);
    try {
      expect((await s.call(`/api/tokens/${grant.id}`, 'DELETE')).status).toBe(200);
      const r = await client
        .callTool({ name: 'todo', arguments: { operation: 'add', list: 'todo.shopping_list', item: 'after revoke' } })
        .then((x) => JSON.stringify(x))
        .catch((e: Error) => `thrown ${e.message}`);
      expect(r).not.toMatch(/Added/);
    } finally {
      await client.close().catch(() => undefined);
    }
    expect(await items(s)).toBe(list);
  });
});

describe('a question asked of one assistant (2026-07-28 elicitation)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await s.app.hub.ready(10_000);
  });
  afterAll(() => s?.close());

  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  };
  let id = 0;
  const call = async (token: string, params: Body) => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'control_locks',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'control_locks', ...params, _meta: meta } }),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as { result?: Body; error?: { code: number; message: string } } };
  };
  const unlock = { arguments: { entity_id: 'lock.back_door', command: 'unlock' } };
  const yes = { confirm: { action: 'accept', content: { confirm: true } } };
  const lockState = () => s.app.simulator!.hub.states.get('lock.back_door')?.state;

  test('is not answered with another token, nor after the asker’s token is revoked', async () => {
    await s.call('/api/tools/call', 'POST', { name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'lock' } });
    expect(lockState()).toBe('locked');
    const alice = await namedToken(s, 'Alice’s assistant');
    const mallory = await namedToken(s, 'Another assistant');
    const asked = await call(alice.token, unlock);
    expect(asked.body.result).toMatchObject({ resultType: 'input_required' });
    const state = asked.body.result!.requestState as string;
    const other = await call(mallory.token, { ...unlock, inputResponses: yes, requestState: state });
    expect(other.body.error, JSON.stringify(other.body)).toMatchObject({ code: -32602, message: expect.stringMatching(/another request/) });
    // The person's own sign-in is another caller too.
    const person = await call(s.token, { ...unlock, inputResponses: yes, requestState: state });
    expect(person.body.error?.code).toBe(-32602);
    expect(lockState()).toBe('locked');
    expect((await s.call(`/api/tokens/${alice.id}`, 'DELETE')).status).toBe(200);
    const late = await call(alice.token, { ...unlock, inputResponses: yes, requestState: state });
    expect(late.status).toBe(401);
    expect(lockState()).toBe('locked');
  });

  test('a 2025-era session (where a question is answered) is not reachable with another assistant’s token', async () => {
    const a = await namedToken(s, 'Session owner');
    const b = await namedToken(s, 'Session intruder');
    const post = (token: string, body: Body, session?: string) =>
      fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await post(a.token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'owner', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    await init.body?.cancel();
    // An answer to a question (a JSON-RPC result) and a call, each with the other token on that session.
    for (const body of [
      { jsonrpc: '2.0', id: 0, result: { action: 'accept', content: { confirm: true } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock' } } },
    ]) {
      const r = await post(b.token, body, session);
      expect(r.status, JSON.stringify(body)).toBe(404);
      await r.body?.cancel();
    }
    expect(lockState()).toBe('locked');
  });

  test('a token revoked while its WebSocket is open: the socket is closed and the next command is not run', async () => {
    const bob = await namedToken(s, 'Bob’s tablet');
    const ws = await socket(s, bob.token);
    const list = await items(s);
    const before = await ws.send('command', { command: 'what is on the shopping list' });
    expect(before.type, JSON.stringify(before)).not.toBe('error');
    expect((await s.call(`/api/tokens/${bob.id}`, 'DELETE')).status).toBe(200);
    const closed = await ws.onClose;
    expect(closed.code).toBe(4401);
    expect(await ws.send('command', { command: ADD })).toMatchObject({ closed: 4401 });
    expect(await items(s)).toBe(list);
  });
});

describe('read-only mode (TOOLS_READ_ONLY) with the admin tools on', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ TOOLS_READ_ONLY: 'true', ADMIN_TOOLS: 'true' });
    await s.app.hub.ready(10_000);
  });
  afterAll(() => s?.close());

  test('the to-do and calendar sentences are refused over REST and the WebSocket; admin changes over REST and MCP', async () => {
    const [list, cal] = [await items(s), await events(s)];
    const ws = await socket(s, s.token);
    try {
      for (const command of [ADD, EVENT, 'setz Milch auf die Einkaufsliste']) {
        const rest = await s.call('/api/command', 'POST', { command });
        expect(rest.body.success === true && rest.body.actions?.length > 0, `${command}: ${JSON.stringify(rest.body)}`).toBe(false);
        const m = await ws.send('command', { command });
        expect(m.type === 'error' || m.payload?.success !== true, `WS ${command}: ${JSON.stringify(m)}`).toBe(true);
      }
    } finally {
      ws.ws.close();
    }
    const mcp = new Client({ name: 'attack-ro', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      const sim = ((await s.app.services.tools.call('admin_health', { operation: 'integrations' }, undefined)) as Body).structuredContent.items.find(
        (e: Body) => e.info.domain === 'sim',
      );
      for (const [name, args] of [
        ['admin_system', { operation: 'restart_core', dry_run: true }],
        ['admin_health', { operation: 'disable', id: sim.id, dry_run: true }],
        ['admin_registry', { operation: 'update', kind: 'area', id: 'kitchen', fields: { name: 'Cookery' }, dry_run: true }],
      ] as const) {
        const rest = await s.call('/api/tools/call', 'POST', { name, arguments: args });
        expect(rest.body.structuredContent?.error, `REST ${name}: ${JSON.stringify(rest.body)}`).toMatchObject({
          code: 'FORBIDDEN',
          details: { read_only: true },
        });
        const r = (await mcp.callTool({ name, arguments: args })) as Body;
        expect(r.structuredContent?.error, `MCP ${name}: ${JSON.stringify(r)}`).toMatchObject({ code: 'FORBIDDEN', details: { read_only: true } });
      }
    } finally {
      await mcp.close();
    }
    expect(await items(s)).toBe(list);
    expect(await events(s)).toBe(cal);
  });
});

describe('a config preview: confirmed by a caller without the config scope, for other arguments, twice, after CONFIG_EDITING went off', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hmb-attack3-'));
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ CONFIG_EDITING: 'true', DATA_DIR: dataDir });
    await s.app.hub.ready(10_000);
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const tool = async (server: TestServer, args: Body) =>
    (await server.call('/api/tools/call', 'POST', { name: 'config_change', arguments: { kind: 'helper', ...args } })).body;
  const helper = (server: TestServer) => server.app.simulator!.hub.states.get('input_boolean.party_mode');

  test('each apply is judged for its own caller and arguments; a preview is no permission', async () => {
    const make = { op: 'create', id: 'input_boolean', config: { name: 'Party mode' } };
    const preview = (await tool(s, { ...make, dry_run: true })).structuredContent;
    expect(preview).toMatchObject({ dry_run: true, preview_id: expect.any(String) });
    // Another assistant, granted read and control but not config, confirms the person's preview over MCP.
    const assistant = new HostedAssistant('read control');
    const client = await authorizedClient(s.url, TEST_USER, assistant, ['read', 'control']);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('config_change');
      const r = await client
        .callTool({ name: 'config_change', arguments: { kind: 'helper', ...make, confirm: true, reason: 'x', preview_id: preview.preview_id } })
        .then((x) => JSON.stringify(x))
        .catch((e: Error) => e.message);
      expect(r).toMatch(/FORBIDDEN|No tool config_change/);
    } finally {
      await client.close();
    }
    expect(helper(s)).toBeUndefined();
    // Other arguments under the same preview: refused as another change.
    const other = await tool(s, { ...make, config: { name: 'Party mode', initial: true }, confirm: true, reason: 'x', preview_id: preview.preview_id });
    expect(other.structuredContent?.error, JSON.stringify(other)).toMatchObject({ code: 'CONFLICT' });
    expect(helper(s)).toBeUndefined();
    // Applied once; the same confirmation again changes nothing more.
    const done = await tool(s, { ...make, confirm: true, reason: 'for parties', preview_id: preview.preview_id });
    expect(done.structuredContent, JSON.stringify(done)).toMatchObject({ applied: true });
    const again = await tool(s, { op: 'update', id: 'input_boolean.party_mode', config: { name: 'Parties' }, dry_run: true });
    const previewId = again.structuredContent.preview_id;
    // The bridge restarted on the same data with CONFIG_EDITING off: the preview's confirmation is refused.
    await s.close();
    s = await startTestServer({ DATA_DIR: dataDir });
    await s.app.hub.ready(10_000);
    const off = await s.call('/api/tools/call', 'POST', {
      name: 'config_change',
      arguments: {
        kind: 'helper',
        op: 'update',
        id: 'input_boolean.party_mode',
        config: { name: 'Parties' },
        confirm: true,
        reason: 'x',
        preview_id: previewId,
      },
    });
    expect(off.status === 404 || off.body.structuredContent?.error?.code === 'FORBIDDEN', JSON.stringify(off.body)).toBe(true);
  });
});
