import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AUDIENCE, ISSUER } from '../../src/auth/tokens.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function sign(opts: { secret?: string; alg?: string; exp?: number; iss?: string; aud?: string; sub?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
    .setSubject(opts.sub ?? TEST_USER.username)
    .setIssuer(opts.iss ?? ISSUER)
    .setAudience(opts.aud ?? AUDIENCE)
    .setIssuedAt(now - 7200)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(new TextEncoder().encode(opts.secret ?? SECRET));
}

/** Fills a route pattern's parameters so the request reaches that route. */
const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => (name.includes('entity') ? 'light.sample' : 'sample'));

let s: TestServer;
let bad: Record<string, string>;

beforeAll(async () => {
  s = await startTestServer({ JWT_SECRET: SECRET });
  const now = Math.floor(Date.now() / 1000);
  bad = {
    'no token': '',
    garbage: 'Bearer not.a.token',
    'not bearer': `Basic ${Buffer.from('tester:pw').toString('base64')}`,
    expired: `Bearer ${await sign({ exp: now - 60 })}`,
    'wrong secret': `Bearer ${await sign({ secret: 'another-secret-that-is-also-long-enough' })}`,
    'alg none': `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'tester', iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 3600 })}.`,
    'HS512 with the right secret': `Bearer ${await sign({ alg: 'HS512' })}`,
    'wrong audience': `Bearer ${await sign({ aud: 'someone-else' })}`,
  };
});
afterAll(() => s.close());

describe('auth matrix over the route table', () => {
  test('the table has the public routes and more', () => {
    const routes = s.app.routes.routes();
    // The API's own description is public too: it shows only the API's shape; so are the panel's
    // files, which hold no data (the page signs in, or rides on ingress, before it asks for any).
    // OAuth's metadata and endpoints are public by nature: they are how a client gets a token.
    expect([...new Set(routes.filter((r) => r.public).map((r) => r.path))].sort()).toEqual([
      '/',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/api/docs',
      '/api/docs/:file',
      '/api/openapi.json',
      // Whether the request is signed in, never 401: the panel asks it first (it holds no data).
      '/api/session',
      '/auth/token',
      '/health',
      '/oauth/authorize',
      '/oauth/register',
      '/oauth/revoke',
      '/oauth/token',
      '/panel/:file',
    ]);
    expect(routes.length).toBeGreaterThan(2);
  });

  test('every protected route refuses every bad token with 401 AUTHENTICATION_ERROR, on /api and /api/v1', async () => {
    const routes = s.app.routes.routes().filter((r) => !r.public && !r.capability); // A capability link answers 404 instead (admission.test.ts).
    let checked = 0;
    for (const route of routes) {
      const paths = [concrete(route.path)];
      if (route.path.startsWith('/api/')) paths.push(concrete(route.path).replace('/api/', '/api/v1/'));
      for (const path of paths) {
        for (const [name, header] of Object.entries(bad)) {
          // A WebSocket may authenticate with its first message: only a token given at the upgrade is judged there.
          if (!header && route.tokenLater) continue;
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (header) headers.authorization = header;
          const res = await fetch(`${s.url}${path}`, { method: route.method, headers, body: route.method === 'GET' ? undefined : '{}' });
          const body = (await res.json()) as Record<string, unknown>;
          const code = route.errorShape === 'sse' ? body.error_code : body.code;
          expect({ route: `${route.method} ${path}`, name, status: res.status, code }).toEqual({
            route: `${route.method} ${path}`,
            name,
            status: 401,
            code: 'AUTHENTICATION_ERROR',
          });
          expect(body).toMatchObject(route.errorShape === 'sse' ? { success: false } : { error: true, details: {} });
          checked++;
        }
        // Streams never end: the status is enough.
        const stop = new AbortController();
        const ok = await s.api(path, { method: route.method, json: route.method === 'GET' ? undefined : {}, signal: stop.signal });
        stop.abort();
        expect({ route: `${route.method} ${path}`, status: ok.status }).not.toEqual({ route: `${route.method} ${path}`, status: 401 });
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  test('an expired token says so', async () => {
    const res = await fetch(`${s.url}/api/config`, { headers: { authorization: bad.expired! } });
    expect(((await res.json()) as { message: string }).message).toMatch(/expired/);
  });
});

describe('POST /auth/token', () => {
  test('issues a bearer token with the documented claims', async () => {
    const res = await fetch(`${s.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(TEST_USER) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(86400);
    const [header, payload] = body.access_token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString() || 'null'));
    expect(header).toMatchObject({ alg: 'HS256' });
    expect(payload).toMatchObject({ sub: TEST_USER.username, iss: ISSUER, aud: AUDIENCE });
    expect(payload.exp - payload.iat).toBe(86400);
    const config = await fetch(`${s.url}/api/config`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(config.status).toBe(200);
  });

  test.each([
    [{ username: TEST_USER.username, password: 'wrong password' }, 401, 'AUTHENTICATION_ERROR'],
    [{ username: 'nobody', password: TEST_USER.password }, 401, 'AUTHENTICATION_ERROR'],
    [{ username: TEST_USER.username }, 400, 'INVALID_PARAMETERS'],
    [{ username: 5, password: 'x' }, 400, 'INVALID_PARAMETERS'],
    [[], 400, 'INVALID_PARAMETERS'],
  ])('%o gives %i %s', async (body, status, code) => {
    const res = await fetch(`${s.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: true, code });
  });
});

describe('generated admin and secret', () => {
  test('first start creates an admin whose password is shown once in the banner, never in a log line, and stored only as a hash; the secret persists', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _e, cb) => {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = pino({ level: 'info' }, sink);
    let banner = '';
    const first = await startTestServer({ AUTH_USERNAME: '', AUTH_PASSWORD: '' }, { log, say: (text) => (banner += text) });
    const shown = /^ *password: (\S+)$/m.exec(banner);
    expect(shown, banner).not.toBeNull();
    const password = shown![1]!;
    expect(lines.join('')).toMatch(/created user admin; its password is shown once, in the banner/);
    expect(lines.join('')).not.toContain(password);
    const files = readdirSync(first.dataDir).sort();
    // bridge.db (with its WAL files) is the scene and group store.
    expect(files).toEqual(['admin-user.json', 'bridge.db', 'bridge.db-shm', 'bridge.db-wal', 'jwt-secret']);
    const stored = readFileSync(join(first.dataDir, 'admin-user.json'), 'utf8');
    expect(stored).not.toContain(password);
    expect(JSON.parse(stored)).toMatchObject({ username: 'admin' });
    const login = async (url: string) =>
      fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
    const res = await login(first.url);
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const secret = readFileSync(join(first.dataDir, 'jwt-secret'), 'utf8');
    expect(secret.trim().length).toBeGreaterThanOrEqual(32);
    await first.app.close();

    // Same data folder: same admin, same secret, nothing new in the log, old tokens still valid.
    lines.length = 0;
    const { startApp } = await import('../../src/app.js');
    banner = '';
    const again = await startApp(first.config, { log, say: (text) => (banner += text) });
    try {
      expect(lines.join('')).not.toMatch(/created user/);
      expect(banner).toBe('');
      expect((await login(again.url)).status).toBe(200);
      expect((await fetch(`${again.url}/api/config`, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(200);
      expect(readFileSync(join(first.dataDir, 'jwt-secret'), 'utf8')).toBe(secret);
    } finally {
      await again.close();
      await first.close();
    }
  });
});
