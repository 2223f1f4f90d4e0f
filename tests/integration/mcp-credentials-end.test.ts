// Ending a credential ends the MCP it opened, over real HTTP with the SDK's client: a 2025-11-25
// session (its GET notification stream), a 2024-11-05 /sse session and a 2026-07-28
// subscriptions/listen stream end when the bridge token is revoked, the user's password is reset,
// or the OAuth grant is revoked; each says why before it closes, and the session is gone (its id
// answers 404). A session or stream that
// ends first leaves nothing in the registry of open connections by credential; one client's
// listen streams are bounded by MCP_MAX_SESSIONS, and all of them by SSE_MAX_CONNECTIONS.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client, SSEClientTransport, StreamableHTTPClientTransport, type McpSubscription } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, test } from 'vitest';
import { authorizedClient, HostedAssistant } from '../helpers/oauth-client.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(done()).toBe(true);
}

/** An event stream the client read: how it was asked for, what came down it, whether it ended. */
interface Seen {
  method: string;
  mcpMethod: string | null;
  text: string;
  ended: boolean;
}

/** fetch that records every event stream it is answered with, as it is read. */
function recording(seen: Seen[]) {
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    // Noted as it is sent: the bridge answers a stream's headers with its first event.
    const rec: Seen = { method: init?.method ?? 'GET', mcpMethod: new Headers(init?.headers).get('mcp-method'), text: '', ended: false };
    seen.push(rec);
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (err) {
      rec.ended = true;
      throw err;
    }
    if (!res.body || !res.headers.get('content-type')?.includes('text/event-stream')) {
      rec.ended = true;
      return res;
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        try {
          const { value, done } = await reader.read();
          if (done) {
            rec.ended = true;
            c.close();
          } else {
            rec.text += decoder.decode(value, { stream: true });
            c.enqueue(value);
          }
        } catch (err) {
          rec.ended = true;
          c.error(err);
        }
      },
      cancel(reason) {
        rec.ended = true;
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

interface Opened {
  session: { c: Client; transport: StreamableHTTPClientTransport; seen: Seen[] };
  listen: { c: Client; sub: McpSubscription; seen: Seen[] };
}

/** A 2025-11-25 session with its GET stream open, and a 2026-07-28 listen stream, both with `token`. */
async function openBoth(s: TestServer, token: string): Promise<Opened> {
  const headers = { authorization: `Bearer ${token}` };
  const seen2025: Seen[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers }, fetch: recording(seen2025) });
  const legacy = new Client({ name: 'cred-2025', version: '1.0.0' });
  await legacy.connect(transport);
  expect(legacy.getProtocolEra()).toBe('legacy');
  // The client opens the session's GET stream, for what the server sends unasked, once initialized.
  await until(() => seen2025.some((x) => x.method === 'GET'));

  const seen2026: Seen[] = [];
  const modern = new Client({ name: 'cred-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers }, fetch: recording(seen2026) }));
  const sub = await modern.listen({ toolsListChanged: true, resourceSubscriptions: ['home://entity/light.hallway'] });
  expect(seen2026.filter((x) => x.mcpMethod === 'subscriptions/listen' && !x.ended)).toHaveLength(1);
  expect(seen2025.filter((x) => x.method === 'GET' && !x.ended)).toHaveLength(1);
  return { session: { c: legacy, transport, seen: seen2025 }, listen: { c: modern, sub, seen: seen2026 } };
}

/** Both ended, each saying why; the session is gone from the bridge. */
async function expectEnded(s: TestServer, o: Opened, reason: string): Promise<void> {
  const get = o.session.seen.find((x) => x.method === 'GET')!;
  await until(() => get.ended);
  expect(get.text).toContain(`"reason":"${reason}"`);
  expect(await o.listen.sub.closed).toBe('remote');
  const listen = o.listen.seen.find((x) => x.mcpMethod === 'subscriptions/listen')!;
  expect(listen.ended).toBe(true);
  expect(listen.text).toMatch(new RegExp(`"error":\\{"code":-32000,"message":"[^"]+","data":\\{"reason":"${reason}"\\}`));
  await until(() => s.app.services.mcp.size === 0 && s.app.services.mcp.listenStreamCount === 0);
}

const close = async (o: Opened) => {
  await o.session.c.close().catch(() => undefined);
  await o.listen.c.close().catch(() => undefined);
};

async function bridgeToken(s: TestServer, auth: string, name: string): Promise<{ id: string; token: string }> {
  const res = await fetch(`${s.url}/api/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
}

/** A raw 2025 request on a session id: what the bridge answers for it. */
const onSession = (s: TestServer, token: string, sid: string) =>
  fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sid,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

describe('an MCP session and listen stream end with their credential', () => {
  test('a revoked bridge token: its 2025 session (GET stream), 2024-11-05 /sse session and 2026 listen stream end saying so; the user’s own go on', async () => {
    const s = await startTestServer();
    cleanup.push(() => s.close());
    const made = await bridgeToken(s, s.token, 'assistant');
    const theirs = await openBoth(s, made.token);
    // And a session of the 2024-11-05 revision (GET /sse, POST /messages).
    const seen2024: Seen[] = [];
    const rec = recording(seen2024);
    const withToken = (url: string | URL, init?: RequestInit) =>
      rec(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), authorization: `Bearer ${made.token}` } });
    const old = new Client({ name: 'cred-2024', version: '1.0.0' });
    await old.connect(new SSEClientTransport(new URL(`${s.url}/sse`), { fetch: withToken, eventSourceInit: { fetch: withToken } }));
    const mine = await openBoth(s, s.token);
    const sid = theirs.session.transport.sessionId!;
    expect((await s.call(`/api/tokens/${made.id}`, 'DELETE')).status).toBe(200);

    const get = theirs.session.seen.find((x) => x.method === 'GET')!;
    await until(() => get.ended);
    expect(get.text).toContain('"reason":"token_revoked"');
    expect(await theirs.listen.sub.closed).toBe('remote');
    expect(theirs.listen.seen.find((x) => x.mcpMethod === 'subscriptions/listen')!.text).toContain('"reason":"token_revoked"');
    const sse = seen2024.find((x) => x.method === 'GET')!;
    await until(() => sse.ended);
    expect(sse.text).toContain('"reason":"token_revoked"');
    // The revoked token is refused at the door; the session it held is gone for everyone.
    expect((await onSession(s, made.token, sid)).status).toBe(401);
    await until(() => s.app.services.mcp.size === 1 && s.app.services.mcp.listenStreamCount === 1);

    // The user's own session and stream were not touched.
    expect((await mine.session.c.listTools()).tools.length).toBeGreaterThan(0);
    expect(mine.session.seen.find((x) => x.method === 'GET')!.ended).toBe(false);
    expect(mine.listen.seen.find((x) => x.mcpMethod === 'subscriptions/listen')!.ended).toBe(false);
    await old.close();
    await close(theirs);
    await close(mine);
  });

  test('reset-password (another process) ends the sessions and streams of the user’s sign-in; the same id then answers 404 to a new sign-in', async () => {
    let banner = '';
    const s = await startTestServer({ AUTH_USERNAME: '', AUTH_PASSWORD: '' }, { say: (text) => (banner += text) });
    cleanup.push(() => s.close());
    const password = () => /^ *password: (\S+)$/m.exec(banner)![1]!;
    const signIn = async (pw: string) => {
      const res = await fetch(`${s.url}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: pw }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const token = await signIn(password());
    const o = await openBoth(s, token);
    const sid = o.session.transport.sessionId!;
    // Tokens carry whole seconds: the reset must fall in a later second than the token's issue.
    const issued = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number }).iat;
    while (Math.floor(Date.now() / 1000) <= issued) await new Promise((r) => setTimeout(r, 50));
    let out = '';
    const child = spawn(process.execPath, [MAIN, 'reset-password'], {
      env: { PATH: process.env.PATH!, DATA_DIR: s.dataDir },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.on('data', (d) => (out += String(d)));
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
    await expectEnded(s, o, 'password_changed');
    // The same user signed in again owns the subject, but not the ended session.
    const again = await signIn(/new password for admin: (\S+)/.exec(out)![1]!);
    expect((await onSession(s, again, sid)).status).toBe(404);
    expect(s.app.services.credentials.size).toBe(0);
    await close(o);
  });

  test('an OAuth grant revoked: the client’s session and listen stream end', async () => {
    const s = await startTestServer();
    cleanup.push(() => s.close());
    const assistant = new HostedAssistant();
    const client = await authorizedClient(s.url, TEST_USER, assistant);
    await client.close();
    await until(() => s.app.services.mcp.size <= 1);
    const o = await openBoth(s, assistant.saved!.access_token as string);
    const [grant] = (await s.call('/api/tokens')).body.tokens.filter((t: any) => t.kind === 'oauth_grant');
    expect((await s.call(`/api/tokens/${grant.id}`, 'DELETE')).status).toBe(200);
    await expectEnded(s, o, 'token_revoked');
    await close(o);
  });
});

describe('what ends first leaves nothing behind; listen streams are bounded', () => {
  test('many sessions and listen streams opened and closed: the registry holds none after', async () => {
    const s = await startTestServer();
    cleanup.push(() => s.close());
    const headers = { authorization: `Bearer ${s.token}` };
    for (let i = 0; i < 12; i++) {
      const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers } });
      const c = new Client({ name: `churn-${i}`, version: '1.0.0' });
      await c.connect(transport);
      await c.listTools();
      await transport.terminateSession();
      await c.close();
    }
    const modern = new Client({ name: 'churn-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers } }));
    for (let i = 0; i < 12; i++) {
      const sub = await modern.listen({ toolsListChanged: true, resourceSubscriptions: ['home://entity/light.hallway'] });
      await sub.close();
    }
    await until(() => s.app.services.mcp.size === 0 && s.app.services.mcp.listenStreamCount === 0 && s.app.services.credentials.size === 0);
    await modern.close();
  });

  test('one client holds at most MCP_MAX_SESSIONS listen streams (429); all listen streams count under SSE_MAX_CONNECTIONS (503)', async () => {
    const s = await startTestServer({ MCP_MAX_SESSIONS: '2', SSE_MAX_CONNECTIONS: '3' });
    cleanup.push(() => s.close());
    const modernWith = async (token: string) => {
      const c = new Client({ name: 'capped', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return c;
    };
    const filter = { toolsListChanged: true };
    const mine = await modernWith(s.token);
    const a = await mine.listen(filter);
    const b = await mine.listen(filter);
    await expect(mine.listen(filter)).rejects.toThrow(/429|Too many listen streams/);
    const other = await modernWith((await bridgeToken(s, s.token, 'other')).token);
    const c = await other.listen(filter);
    await expect(other.listen(filter)).rejects.toThrow(/503|at most 3 event streams/);
    // An event stream of the REST API competes for the same places.
    expect((await fetch(`${s.url}/api/events/stream`, { headers: { authorization: `Bearer ${s.token}` } })).status).toBe(503);
    await a.close();
    await until(() => s.app.services.mcp.listenStreamCount === 2);
    const d = await mine.listen(filter);
    for (const x of [b, c, d]) await x.close();
    await mine.close();
    await other.close();
  });
});
