// Home Assistant ingress: the proxy's X-Remote-User-* headers are believed from its address only;
// the panel may be framed by its own origin while the API refuses framing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../src/auth/ingress.js';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import { requestFrom } from '../helpers/request-from.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PROXY = '127.0.0.2';
const USER_ID = 'f1e2d3c4b5a697887766554433221100';
const haUser = {
  'x-remote-user-id': USER_ID,
  'x-remote-user-name': 'jane',
  'x-remote-user-display-name': 'Jane Doe',
  'x-ingress-path': '/api/hassio_ingress/abc123',
};

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer({ INGRESS_PROXY: PROXY, INGRESS_USERS: 'all' });
  port = server.app.port;
});
afterAll(() => server?.close());

const from = (address: string, path: string, init?: Parameters<typeof requestFrom>[2]) => requestFrom(address, `http://127.0.0.1:${port}${path}`, init);

describe('ingress trust', () => {
  it('from the proxy address, the named Home Assistant user needs no token', async () => {
    const res = await from(PROXY, '/api/me', { headers: haUser });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      via: 'ingress',
      name: 'Jane Doe',
      home_assistant_user: { id: USER_ID, name: 'jane', display_name: 'Jane Doe' },
      may_manage_tokens: true,
      ingress_path: '/api/hassio_ingress/abc123',
    });
  });

  it('the same headers from any other address are ignored: a token is needed, and then it is that user', async () => {
    const bare = await from('127.0.0.1', '/api/me', { headers: haUser });
    expect(bare.status).toBe(401);
    const withToken = await from('127.0.0.1', '/api/me', { headers: { ...haUser, authorization: `Bearer ${server.token}` } });
    expect(withToken.status).toBe(200);
    expect(withToken.json()).toMatchObject({ via: 'user', name: 'tester', home_assistant_user: null, ingress_path: null });
  });

  it('from the proxy without a user, or with a user id that is not Home Assistant’s, a token is needed', async () => {
    expect((await from(PROXY, '/api/me')).status).toBe(401);
    expect((await from(PROXY, '/api/me', { headers: { ...haUser, 'x-remote-user-id': 'admin' } })).status).toBe(401);
  });

  it('an ingress user makes and revokes bridge tokens, recorded as the Home Assistant user', async () => {
    const made = await from(PROXY, '/api/tokens', { method: 'POST', headers: haUser, body: { name: 'From the sidebar' } });
    expect(made.status).toBe(201);
    expect(made.json()).toMatchObject({ created_by: 'ha:jane' });
    const gone = await from(PROXY, `/api/tokens/${made.json().id}`, { method: 'DELETE', headers: haUser });
    expect(gone.status).toBe(200);
  });

  it('the Home Assistant user is the acting user in event contexts', async () => {
    const made = await server.call('/api/scene/capture', 'POST', { name: 'Ingress evening', entities: ['light.bedroom_lamp'] });
    expect(made.status).toBe(200);
    const ran = await from(PROXY, '/api/scene/activate', { method: 'POST', headers: haUser, body: { name: 'Ingress evening' } });
    expect(ran.status).toBe(200);
    server.app.services.store.events.flush();
    const history = await server.call('/api/events/history?event_type=scene_activated&limit=1');
    expect(history.body.data.events[0].context.user_id).toBe(USER_ID);
  });

  it('the live stream opens through ingress without a token', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(`http://127.0.0.1:${port}/api/events/stream`, { localAddress: PROXY, headers: haUser }, (res) => {
          let seen = '';
          res.on('data', (c: Buffer) => {
            seen += c.toString();
            if (seen.includes('event: connected')) {
              req.destroy();
              resolve(`${res.statusCode}\n${seen}`);
            }
          });
        });
        req.on('error', reject);
        req.end();
      }, reject);
    });
    expect(text.startsWith('200')).toBe(true);
    expect(text).toContain('event: connected');
  });

  it('IPv4-mapped spellings are the same address', () => {
    expect(canonicalAddress('::ffff:172.30.32.2')).toBe('172.30.32.2');
    expect(canonicalAddress('0000:0000:0000:0000:0000:ffff:ac1e:2002')).toBe('172.30.32.2');
    expect(canonicalAddress('172.30.32.2')).toBe('172.30.32.2');
    expect(canonicalAddress('::1')).toBe('::1');
  });
});

describe('ingress on a dual-stack socket', () => {
  let dual: TestServer;
  beforeAll(async () => {
    dual = await startTestServer({ HOST: '::', INGRESS_PROXY: `::ffff:${PROXY}`, INGRESS_USERS: 'all' });
  });
  afterAll(() => dual?.close());

  it('trusts the proxy whose IPv4 address arrives mapped into IPv6', async () => {
    const url = `http://127.0.0.1:${dual.app.port}/api/me`;
    expect((await requestFrom(PROXY, url, { headers: haUser })).status).toBe(200);
    expect((await requestFrom('127.0.0.3', url, { headers: haUser })).status).toBe(401);
  });
});

describe('framing', () => {
  it('the panel may be framed by its own origin only; the API by nobody', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(page.headers.get('x-frame-options')).not.toBe('DENY');
    const api = await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${server.token}` } });
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    expect(api.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('the panel asks again cheaply (ETag, 304) and an unknown file is 404', async () => {
    const first = await fetch(`${server.url}/panel/app.js`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/javascript/);
    const again = await fetch(`${server.url}/panel/app.js`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${server.url}/panel/nothing.js`)).status).toBe(404);
    // Not a file name at all: refused before any file is looked at.
    expect((await fetch(`${server.url}/panel/..%2Fpackage.json`)).status).toBe(400);
  });

  it('every URL in the panel is relative, so it works under the ingress path', () => {
    const dir = join(import.meta.dirname, '../../src/panel');
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      // src="/..", href="/..", fetch('/..'), new EventSource('/..'), or an absolute http(s) URL to elsewhere.
      expect(text, file).not.toMatch(/(?:src|href|action)="\/|(?:api|fetch|EventSource)\(\s*['"`]\//);
      // (Home Assistant's OAuth redirect URI and the repository to install from are shown as text to copy, never loaded.)
      expect(text, file).not.toMatch(
        /https?:\/\/(?!www\.w3\.org|homeassistant\.local|my\.home-assistant\.io\/redirect\/oauth|github\.com\/home-mcp-bridge\/home-mcp-bridge[ <]|\$\{)/,
      );
    }
  });
});

describe('which Home Assistant users may come in (INGRESS_USERS)', () => {
  let sim: Simulator;
  let admins: TestServer;
  let listed: TestServer;
  let adminId: string;
  let userId: string;
  const as = (s: TestServer, id: string) => requestFrom(PROXY, `http://127.0.0.1:${s.app.port}/api/me`, { headers: { ...haUser, 'x-remote-user-id': id } });

  beforeAll(async () => {
    sim = await startSimulator({ userToken: 'user-token' });
    admins = await startTestServer({ HASS_URL: sim.url, HASS_TOKEN: sim.token, INGRESS_PROXY: PROXY });
    const users = await admins.app.services.hub.query<{ id: string; group_ids: string[] }[]>('config/auth/list');
    adminId = users.find((u) => u.group_ids.includes('system-admin'))!.id;
    userId = users.find((u) => !u.group_ids.includes('system-admin'))!.id;
    listed = await startTestServer({ HASS_URL: sim.url, HASS_TOKEN: sim.token, INGRESS_PROXY: PROXY, INGRESS_USERS: userId });
  });
  afterAll(async () => {
    await admins?.close();
    await listed?.close();
    await sim?.stop();
  });

  it('admins (the default): an administrator comes in; another user, or one Home Assistant does not know, gets 403', async () => {
    expect((await as(admins, adminId)).status).toBe(200);
    const refused = await as(admins, userId);
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/Jane Doe may not use this bridge: only administrators/) });
    expect((await as(admins, 'abcdefabcdefabcdefabcdefabcdef12')).status).toBe(403);
    // The page itself still loads, so it can say why.
    expect((await requestFrom(PROXY, `http://127.0.0.1:${admins.app.port}/`, { headers: { ...haUser, 'x-remote-user-id': userId } })).status).toBe(200);
  });

  it('a list of ids: exactly those users, administrators or not', async () => {
    expect((await as(listed, userId)).status).toBe(200);
    expect((await as(listed, adminId)).status).toBe(403);
  });
});
