// One admission path for every kind of route: the table is walked, and every protected route of
// every kind (JSON through polka, native SSE stream, native WebSocket upgrade) refuses a missing
// and a bad token with 401 in its own error shape, at its path and at its /api/v1 alias.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { kindOf, versioned, type Route } from '../../src/http/routes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const testRoutes: Route[] = [
  {
    kind: 'stream',
    method: 'GET',
    path: '/api/test/stream/:name',
    summary: 'test stream',
    errorShape: 'sse',
    open: (req, stream) => {
      stream.writeHead(200, { 'Content-Type': 'text/event-stream' });
      stream.write(`data: ${JSON.stringify({ hello: req.params.name, user: req.principal?.sub, q: req.query.q ?? null })}\n\n`);
      stream.end();
    },
  },
  {
    kind: 'stream',
    method: 'GET',
    path: '/api/test/query-token-stream',
    summary: 'test stream that takes ?token=',
    queryToken: true,
    open: (req, stream) => {
      stream.writeHead(200, { 'Content-Type': 'text/event-stream' });
      stream.end(`data: ${JSON.stringify({ user: req.principal?.sub })}\n\n`);
    },
  },
  {
    kind: 'websocket',
    method: 'GET',
    path: '/api/test/ws',
    summary: 'test echo socket',
    socket: {
      open: (ws) => ws.send(JSON.stringify({ type: 'hello', user: ws.getUserData().principal?.sub })),
      message: (ws, data) => ws.send(Buffer.from(data).toString()),
    },
  },
  { method: 'GET', path: '/api/test/panel-page', summary: 'a page the panel serves', headers: 'panel', handler: () => ({ ok: true }) },
];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { extraRoutes: testRoutes });
});
afterAll(() => s?.close());

/** A concrete path for a pattern. */
const concrete = (path: string) => path.replace(/:(\w+)/g, 'x');

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Opens a WebSocket; resolves with the refusal when the server answers the upgrade with an error. */
function upgrade(path: string, headers: Record<string, string> = {}): Promise<{ refused?: Answer; ws?: WebSocket; first?: unknown }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}${path}`, { headers });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () =>
        resolve({
          refused: { status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown>, headers: res.headers as Record<string, string> },
        }),
      );
    });
    ws.once('message', (data) => resolve({ ws, first: JSON.parse(data.toString()) }));
    ws.once('error', reject);
  });
}

async function request(route: Route, path: string, auth: string | undefined): Promise<Answer> {
  const headers: Record<string, string> = auth === undefined ? {} : { authorization: auth };
  if (kindOf(route) === 'websocket') {
    const out = await upgrade(path, headers);
    out.ws?.close();
    if (!out.refused) throw new Error(`${path} upgraded without a valid token`);
    return out.refused;
  }
  const res = await fetch(`${s.url}${path}`, {
    method: route.method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: route.method === 'GET' ? undefined : '{}',
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: Object.fromEntries(res.headers) };
}

const shapeOf = (route: Route, _body: Record<string, unknown>) =>
  route.errorShape === 'sse'
    ? { success: false, error_code: 'AUTHENTICATION_ERROR', message: expect.any(String) }
    : { error: true, code: 'AUTHENTICATION_ERROR', message: expect.any(String), details: expect.any(Object) };

describe('the table walk', () => {
  test('every kind of route is in the table', () => {
    const kinds = new Set(s.app.routes.routes().map(kindOf));
    expect([...kinds].sort()).toEqual(['fetch', 'json', 'stream', 'websocket']);
  });

  test('every protected route of every kind refuses a missing and a bad token with 401 in its own shape, at its path and its /api/v1 alias', async () => {
    const protectedRoutes = s.app.routes.routes().filter((r) => !r.public && !r.capability);
    expect(protectedRoutes.length).toBeGreaterThan(10);
    for (const route of protectedRoutes) {
      const paths = [concrete(route.path), ...(versioned(route.path) ? [concrete(versioned(route.path)!)] : [])];
      for (const path of paths) {
        // A WebSocket may authenticate with its first message: only a token given at the upgrade is judged there.
        for (const auth of route.tokenLater ? ['Bearer not-a-token', 'Basic abc'] : [undefined, 'Bearer not-a-token', 'Basic abc']) {
          const a = await request(route, path, auth);
          expect(a.status, `${route.method} ${path} with ${auth ?? 'no token'}`).toBe(401);
          expect(a.body, `${route.method} ${path}`).toEqual(shapeOf(route, a.body));
        }
      }
    }
  });

  test("a capability link (Home Assistant's) answers 404 to any token and to none: its key is its only credential", async () => {
    const links = s.app.routes.routes().filter((r) => r.capability);
    expect(links.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['DELETE /mcp/ha/:key', 'GET /mcp/ha/:key', 'POST /mcp/ha/:key']);
    for (const route of links) {
      for (const auth of [undefined, 'Bearer not-a-token', `Bearer ${s.token}`]) {
        const a = await request(route, concrete(route.path), auth);
        expect(a.status, `${route.method} ${route.path} with ${auth ?? 'no token'}`).toBe(404);
      }
    }
  });
});

test('each request is judged by its own Authorization header, whatever the one before it carried', async () => {
  // Admission keeps the token of the last header it read: a different header right after must not be taken for it.
  const good = `Bearer ${s.token}`;
  const sequence: [string | undefined, number][] = [
    [good, 200],
    [`${good}x`, 401],
    [good, 200],
    [`Basic ${s.token}`, 401],
    [good, 200],
    [undefined, 401],
    [`bearer ${s.token}`, 200],
    [good.slice(0, -1), 401],
    [good, 200],
  ];
  for (const [auth, status] of sequence) {
    const res = await fetch(`${s.url}/api/config`, { headers: auth === undefined ? {} : { authorization: auth } });
    expect([auth?.slice(0, 12), auth?.slice(-4), res.status]).toEqual([auth?.slice(0, 12), auth?.slice(-4), status]);
    await res.arrayBuffer();
  }
});

describe('native routes behind the same admission', () => {
  test('a stream route answers with a token, at its path and its /api/v1 alias, with params and query', async () => {
    for (const path of ['/api/test/stream/kitchen?q=1', '/api/v1/test/stream/kitchen?q=1']) {
      const res = await s.api(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
      expect(await res.text()).toBe(`data: ${JSON.stringify({ hello: 'kitchen', user: 'tester', q: '1' })}\n\n`);
    }
  });

  test('a WebSocket route upgrades with a token, at its path and its /api/v1 alias', async () => {
    for (const path of ['/api/test/ws', '/api/v1/test/ws']) {
      const { ws, first } = await upgrade(path, { authorization: `Bearer ${s.token}` });
      expect(first).toEqual({ type: 'hello', user: 'tester' });
      const echoed = new Promise((resolve) => ws!.once('message', (d) => resolve(d.toString())));
      ws!.send('ping');
      expect(await echoed).toBe('ping');
      ws!.close();
    }
  });

  test('a WebSocket route asked without an Upgrade gets 426', async () => {
    const res = await s.api('/api/test/ws');
    expect(res.status).toBe(426);
    expect(await res.json()).toMatchObject({ error: true, code: 'BAD_REQUEST' });
  });

  test('405 and 404 come from the table for native routes too', async () => {
    const post = await s.api('/api/test/stream/x', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    const v1 = await s.api('/api/v1/test/ws', { method: 'DELETE' });
    expect(v1.status).toBe(405);
    const none = await s.api('/api/test/stream');
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
  });

  test('the query token is taken only where a route declares it', async () => {
    const declared = await fetch(`${s.url}/api/test/query-token-stream?token=${s.token}`);
    expect(declared.status).toBe(200);
    expect(await declared.text()).toContain('"user":"tester"');
    for (const path of ['/api/config', '/api/test/stream/x', '/api/state']) {
      const res = await fetch(`${s.url}${path}?token=${s.token}`);
      expect(res.status, path).toBe(401);
    }
    const bad = await fetch(`${s.url}/api/test/query-token-stream?token=forged`);
    expect(bad.status).toBe(401);
  });

  test('the header policy is the route’s: the API refuses framing, a panel page allows its own origin', async () => {
    const api = await s.api('/api/config');
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    expect(api.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const panel = await s.api('/api/test/panel-page');
    expect(panel.status).toBe(200);
    expect(panel.headers.get('x-frame-options')).not.toBe('DENY');
    expect(panel.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
  });
});
