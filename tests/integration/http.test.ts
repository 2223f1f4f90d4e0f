import { request as rawRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { App, MAX_HEADERS_SIZE, engine, engineOf } from '../../src/http/uws.js';
import { reply, versioned } from '../../src/http/routes.js';
import { Router } from '../../src/http/router.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(
    { BODY_LIMIT: '4096', JWT_SECRET: 'http-test-secret-that-is-long-enough-ok' },
    {
      extraRoutes: [
        {
          method: 'GET',
          path: '/api/test/explode',
          summary: 'throws an unexpected error',
          handler: () => {
            throw new TypeError('secret internals at /srv/app.ts:12');
          },
        },
        { method: 'POST', path: '/api/test/echo', summary: 'echoes the body', handler: (req) => reply(201, { got: req.body }) },
      ],
    },
  );
});
afterAll(() => s.close());

/** Sends a raw request so the test controls framing (chunked bodies, lying content types). */
function raw(method: string, path: string, headers: Record<string, string>, chunks: (string | Buffer)[]) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = rawRequest(`${s.url}${path}`, { method, headers: { authorization: `Bearer ${s.token}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('engine', () => {
  test('the native uWebSockets.js engine runs, and /api/config says so', async () => {
    expect(engine).toBe('native');
    const config = (await (await s.api('/api/config')).json()) as { server: { engine: string } };
    expect(config.server.engine).toBe('native');
  });

  test('only native code counts as the engine: a JavaScript stand-in with the same shape does not', () => {
    expect(engineOf({ App })).toBe('native');
    expect(engineOf({ App: function App() {} })).toBe('fallback');
    expect(engineOf({ App: () => ({}) })).toBe('fallback');
    // A stand-in that merely mentions the marker somewhere in its source is still JavaScript.
    expect(engineOf({ App: () => '{ [native code] }' })).toBe('fallback');
    expect(engineOf({})).toBe('fallback');
  });
});

/** One kept-alive connection, request after request, reading each answer by its own framing. */
async function onOneConnection(requests: string[], isHead: (i: number) => boolean) {
  const port = Number(new URL(s.url).port);
  const socket = connect(port, '127.0.0.1');
  let buffer = Buffer.alloc(0);
  let wake: () => void = () => undefined;
  socket.on('data', (d) => {
    buffer = Buffer.concat([buffer, d]);
    wake();
  });
  const more = () => new Promise<void>((r) => (wake = r));
  const answers: { status: number; headers: Record<string, string>; body: string }[] = [];
  try {
    for (const [i, text] of requests.entries()) {
      socket.write(text);
      let end: number;
      while ((end = buffer.indexOf('\r\n\r\n')) < 0) await more();
      const [line, ...fields] = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]));
      const length = isHead(i) ? 0 : Number(headers['content-length'] ?? 0);
      while (buffer.length < end + 4 + length) await more();
      answers.push({ status: Number(line!.split(' ')[1]), headers, body: buffer.subarray(end + 4, end + 4 + length).toString() });
      buffer = buffer.subarray(end + 4 + length);
    }
    // Nothing more came: a HEAD answer carried no body that a client would misread as the next answer.
    await new Promise((r) => setTimeout(r, 50));
    expect(buffer.length).toBe(0);
  } finally {
    socket.destroy();
  }
  return answers;
}

describe('methods no route takes', () => {
  // QUERY (the HTTP QUERY draft), WebDAV, UPnP and made-up methods all reach the router and get an answer.
  const methods = ['QUERY', 'FOO', 'PROPFIND', 'TRACE', 'M-SEARCH', 'PURGE'];
  const paths: [string, string[]][] = [
    ['/health', ['GET']],
    ['/api/state', ['GET']],
    ['/api/scene/some-scene', ['GET', 'PUT', 'DELETE']],
    ['/mcp', ['POST', 'GET', 'DELETE']],
  ];

  test.each(methods)('%s on a route gets 405 with Allow, in the error body shape', async (method) => {
    for (const [path, allowed] of paths) {
      const res = await raw(method, path, { 'content-type': 'application/json' }, method === 'QUERY' ? ['{"q":1}'] : []);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(String(res.headers.allow).split(', ').sort()).toEqual([...allowed].sort());
      expect(JSON.parse(res.body)).toEqual({
        error: true,
        code: 'METHOD_NOT_ALLOWED',
        message: `${method} is not allowed on ${path}`,
        details: { allowed: expect.arrayContaining(allowed) },
      });
    }
  });

  test('an unknown method on a path no route has gets 404 in the same shape', async () => {
    const res = await raw('QUERY', '/nowhere', {}, []);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ error: true, code: 'NOT_FOUND' });
  });

  test('HEAD, a QUERY without a body and GET on one kept-alive connection are each answered in turn', async () => {
    const [head, query, get] = await onOneConnection(
      ['HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n', 'QUERY /api/state HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n'],
      (i) => i === 0,
    );
    expect(head!.status).toBe(200);
    expect(query!.status).toBe(405);
    expect(query!.headers.allow).toBe('GET');
    expect(get!.status).toBe(200);
    expect(JSON.parse(get!.body).status).toBe('healthy');
    // HEAD says how long the GET's body is (its uptime may tick over, so within a digit).
    expect(Math.abs(Number(head!.headers['content-length']) - get!.body.length)).toBeLessThanOrEqual(1);
  });

  test('a QUERY with a body is answered, and the connection closed rather than its body read', async () => {
    const body = '{"select":"light.kitchen"}';
    const [query] = await onOneConnection(
      [`QUERY /api/state HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`],
      () => false,
    );
    expect(query!.status).toBe(405);
    expect(query!.headers.connection).toBe('close');
    expect(JSON.parse(query!.body).code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('request heads', () => {
  test('a request line and headers up to 16 KiB are read (a browser cookie, a long path); beyond, 431', async () => {
    expect(MAX_HEADERS_SIZE).toBe(16 * 1024);
    const big = await raw('GET', '/health', { cookie: `a=${'x'.repeat(12_000)}` }, []);
    expect(big.status).toBe(200);
    const path = await raw('GET', `/api/state/light.${'x'.repeat(8_000)}`, {}, []);
    expect(path.status).toBe(400);
    expect(JSON.parse(path.body).message).toMatch(/is too long: at most 255 characters/);
    const tooBig = await raw('GET', '/health', { cookie: `a=${'x'.repeat(20_000)}` }, []);
    expect(tooBig.status).toBe(431);
  });
});

describe('request bodies', () => {
  test('JSON bodies reach the handler', async () => {
    const res = await s.api('/api/test/echo', { method: 'POST', json: { a: [1, 'ü'] } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ got: { a: [1, 'ü'] } });
  });

  test('a body over the limit gives 413 in the core shape (declared length)', async () => {
    const res = await s.api('/api/test/echo', { method: 'POST', json: { pad: 'x'.repeat(5000) } });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: true, code: 'PAYLOAD_TOO_LARGE', details: { limit: 4096 } });
  });

  test('a chunked body that grows over the limit gives 413', async () => {
    const chunks = ['{"pad":"', ...Array.from({ length: 10 }, () => 'y'.repeat(1000)), '"}'];
    const res = await raw('POST', '/api/test/echo', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunks);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  test('a chunked body under the limit is read whole', async () => {
    const res = await raw('POST', '/api/test/echo', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, ['{"a":', '"b"', '}']);
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toEqual({ got: { a: 'b' } });
  });

  test('malformed JSON gives 400 in the core shape', async () => {
    const res = await s.api('/api/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a": ' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: true, code: 'BAD_REQUEST', message: expect.stringMatching(/not valid JSON/), details: expect.any(Object) });
  });

  test('a body that is not JSON gives 415', async () => {
    const res = await s.api('/api/test/echo', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: true, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  test('the connection stays usable after a refused body', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await s.api('/api/test/echo', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(100) })).status).toBe(415);
      expect((await s.api('/api/config')).status).toBe(200);
    }
  });
});

describe('routing and errors', () => {
  test('an unknown route gives 404 in the core shape', async () => {
    const res = await s.api('/api/nothing/here');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: true, code: 'NOT_FOUND', message: 'No route for GET /api/nothing/here', details: {} });
    expect((await fetch(`${s.url}/nowhere`)).status).toBe(404);
  });

  test('a known path with the wrong method gives 405 with Allow', async () => {
    const res = await s.api('/api/config', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  test('an unexpected exception gives 500 without internals', async () => {
    const res = await s.api('/api/test/explode');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: true, code: 'INTERNAL_ERROR', message: 'Internal server error', details: {} });
    expect(text).not.toMatch(/secret internals|TypeError|\.ts/);
  });

  test('every /api route answers under /api/v1 too, from the same handler', async () => {
    for (const route of s.app.routes.routes().filter((r) => r.method === 'GET' && r.path.startsWith('/api/') && !r.path.includes(':'))) {
      const [a, b] = await Promise.all([s.api(route.path), s.api(route.path.replace('/api/', '/api/v1/'))]);
      expect([route.path, b.status]).toEqual([route.path, a.status]);
    }
    const v1 = await (await s.api('/api/v1/health')).json();
    expect(v1).toMatchObject({ version: s.app.services.version });
    expect((await s.api('/api/v10/health')).status).toBe(404);
  });

  test('a path with parameters: its /api/v1 alias is the same route, and a method it lacks gets 405 with Allow there too', async () => {
    const [entity] = (await (await s.api('/api/state')).json()) as { entity_id: string }[];
    const [a, b] = await Promise.all([s.api(`/api/state/${entity!.entity_id}`), s.api(`/api/v1/state/${entity!.entity_id}`)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await b.json()).toMatchObject({ entity_id: entity!.entity_id });
    for (const path of ['/api/scene/some-scene', '/api/v1/scene/some-scene']) {
      const res = await s.api(path, { method: 'POST' });
      expect(res.status, path).toBe(405);
      expect(String(res.headers.get('allow')).split(', ').sort()).toEqual(['DELETE', 'GET', 'PUT']);
      expect(await res.json()).toEqual({
        error: true,
        code: 'METHOD_NOT_ALLOWED',
        message: 'POST is not allowed on /api/scene/some-scene',
        details: { allowed: ['GET', 'PUT', 'DELETE'] },
      });
    }
  });

  test('every route of the table is the one the router finds at its path and its /api/v1 alias (none is shadowed by another)', () => {
    const router = new Router(s.app.routes);
    for (const route of s.app.routes.routes()) {
      for (const path of [route.path, versioned(route.path)]) {
        if (!path) continue;
        const url = path.replace(/:(\w+)/g, 'x');
        const req = {
          method: route.method,
          url,
          originalUrl: url,
          headers: {},
          ip: '',
          id: '',
          aborted: false,
          arrived: Date.now(),
          path: '',
          query: {},
          params: {},
        };
        expect([route.method, path, router.route(req) === route]).toEqual([route.method, path, true]);
      }
    }
  });

  test('request ids: given ones are echoed, others generated', async () => {
    const given = await s.api('/api/config', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const generated = await s.api('/api/config', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  });
});

describe('security headers', () => {
  test.each([
    ['GET', '/health', false],
    ['GET', '/api/config', true],
    ['GET', '/api/missing', true],
    ['GET', '/api/config', false],
  ])('%s %s (token: %s)', async (method, path, withToken) => {
    const res = withToken ? await s.api(path, { method }) : await fetch(`${s.url}${path}`, { method });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('health and config', () => {
  test('/health has the documented fields; uptime is whole seconds', async () => {
    const body = (await (await fetch(`${s.url}/health`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: expect.stringMatching(/^(healthy|degraded)$/),
      version: s.app.services.version,
      hub: { connected: expect.any(Boolean) },
    });
    expect(Number.isInteger(body.uptime)).toBe(true);
  });

  test('/api/config never carries a secret', async () => {
    const text = await (await s.api('/api/config')).text();
    const body = JSON.parse(text);
    expect(body).toMatchObject({ server: { port: s.app.port, host: '127.0.0.1', version: s.app.services.version }, features: expect.any(Object) });
    expect(text).not.toContain('http-test-secret');
    expect(text).not.toContain(s.config.users[0]!.password);
  });
});

describe('graceful shutdown', () => {
  test('in-flight requests finish, new connections are refused', async () => {
    // The request is in flight once its handler runs (not after a guessed delay: a busy machine may take longer to get it there).
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const slow = async () => {
      started();
      await new Promise((r) => setTimeout(r, 300));
      return { done: true };
    };
    const own = await startTestServer({}, { extraRoutes: [{ method: 'GET', path: '/api/test/slow', summary: 'slow', handler: slow }] });
    const inflight = own.api('/api/test/slow');
    await running;
    const closed = own.app.close();
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    expect(res.headers.get('connection')).toBe('close');
    await closed;
    const refused = await new Promise<string>((resolve) => {
      const sock = connect(own.app.port, '127.0.0.1', () => {
        sock.destroy();
        resolve('connected');
      });
      sock.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    await own.close();
  });
});

describe('access log', () => {
  test('at debug level every request is logged once with its request id, status and time', async () => {
    const { Writable } = await import('node:stream');
    const pino = (await import('pino')).default;
    const lines: Record<string, unknown>[] = [];
    const log = pino(
      { level: 'debug' },
      new Writable({
        write: (c, _e, cb) => {
          lines.push(JSON.parse(String(c)));
          cb();
        },
      }),
    );
    const own = await startTestServer({}, { log });
    try {
      const res = await own.api('/api/nothing', { headers: { 'x-request-id': 'trace-me-1' } });
      expect(res.status).toBe(404);
      const entries = lines.filter((l) => l.msg === 'request' && l.reqId === 'trace-me-1');
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ method: 'GET', url: '/api/nothing', status: 404, ms: expect.any(Number) });
    } finally {
      await own.close();
    }
  });
});
