import { request as rawRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engine } from '../../src/http/uws.js';
import { reply } from '../../src/http/routes.js';
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
  test('the native uWebSockets.js engine runs (the pure-JS fallback must never run on Linux x64)', async () => {
    if (process.platform === 'linux' && process.arch === 'x64') expect(engine).toBe('native');
    const config = (await (await s.api('/api/config')).json()) as { server: { engine: string } };
    expect(config.server.engine).toBe(engine);
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
    expect(body).toMatchObject({ status: expect.stringMatching(/^(healthy|degraded)$/), version: s.app.services.version, hub: { connected: expect.any(Boolean) } });
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
      const sock = connect(own.app.port, '127.0.0.1', () => (sock.destroy(), resolve('connected')));
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
    const log = pino({ level: 'debug' }, new Writable({ write: (c, _e, cb) => (lines.push(JSON.parse(String(c))), cb()) }));
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
