// What a new user ran into (issue 17), each kept fixed by a test over real HTTP.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApp, type RunningApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');

function cli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

async function token(url: string, username: string, password: string): Promise<Response> {
  return fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
}
const bearer = async (res: Response) => `Bearer ${((await res.json()) as { access_token: string }).access_token}`;

describe('names in every script', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());
  const action = [{ device: 'switch.coffee_maker', action: 'on' }];

  test.each([
    ['Straße', 'strasse'],
    ['Soirée café', 'soiree_cafe'],
    ['Кино вечер', 'kino_vecher'],
    ['Ταινία', 'tainia'],
    ['映画の夜', 'yinghuanoye'],
  ])('a scene named %s gets the key %s and is addressed by its name', async (name, key) => {
    const made = await s.call('/api/scene', 'POST', { name, actions: action });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ id: key, name });
    const byName = await s.call(`/api/scene/${encodeURIComponent(name)}`);
    expect(byName.status).toBe(200);
    expect(byName.body.id).toBe(key);
    const group = await s.call('/api/group', 'POST', { name, entities: ['switch.coffee_maker'] });
    expect(group.status).toBe(200);
    expect((await s.call(`/api/group/${encodeURIComponent(name)}`)).body.id).toBe(key);
  });

  test('Arabic names are accepted and addressed by name', async () => {
    const made = await s.call('/api/scene', 'POST', { name: 'ليلة الفيلم', actions: action });
    expect(made.status).toBe(200);
    expect((await s.call(`/api/scene/${encodeURIComponent('ليلة الفيلم')}`)).body.name).toBe('ليلة الفيلم');
  });

  test('a name with no letter or digit in any script is refused', async () => {
    const res = await s.call('/api/scene', 'POST', { name: '🎬 !!', actions: action });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('name: must contain at least one letter or digit');
  });

  test('a key clash between two names is a 409 that names the other', async () => {
    await s.call('/api/group', 'POST', { name: 'Große Halle', entities: ['switch.coffee_maker'] });
    const clash = await s.call('/api/group', 'POST', { name: 'Grosse Halle', entities: ['switch.coffee_maker'] });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'CONFLICT', details: { id: 'grosse_halle', existing_name: 'Große Halle' } });
    expect(clash.body.message).toContain('"Große Halle"');
  });
});

describe('tokens end when their user does', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hmb-users-'));
  const secret = 'a-fixed-secret-of-at-least-32-characters!';
  const start = async (users: { username: string; password: string }[]): Promise<RunningApp> => {
    const config = loadConfig({
      env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, JWT_SECRET: secret, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '0' },
      addonOptionsFile: join(dataDir, 'none.json'),
    });
    return startApp({ ...config, users }, { log: createLogger('silent', 'stderr') });
  };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a removed user, a changed password: old tokens are refused; an unchanged password keeps them', async () => {
    const first = await start([
      { username: 'ada', password: 'password-one' },
      { username: 'bob', password: 'password-bob' },
    ]);
    const ada = await bearer(await token(first.url, 'ada', 'password-one'));
    const bob = await bearer(await token(first.url, 'bob', 'password-bob'));
    await first.close();

    // Same passwords, bob still there: both tokens still work.
    const same = await start([
      { username: 'ada', password: 'password-one' },
      { username: 'bob', password: 'password-bob' },
    ]);
    for (const t of [ada, bob]) expect((await fetch(`${same.url}/api/config`, { headers: { authorization: t } })).status).toBe(200);
    await same.close();

    // A second later bob is gone and ada's password changed.
    await new Promise((r) => setTimeout(r, 1100));
    const after = await start([{ username: 'ada', password: 'password-two' }]);
    try {
      const gone = await fetch(`${after.url}/api/config`, { headers: { authorization: bob } });
      expect(gone.status).toBe(401);
      expect(gone.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(((await gone.json()) as { message: string }).message).toMatch(/user "bob" no longer exists/);
      const stale = await fetch(`${after.url}/api/config`, { headers: { authorization: ada } });
      expect(stale.status).toBe(401);
      expect(((await stale.json()) as { message: string }).message).toMatch(/before the password last changed/);
      expect((await token(after.url, 'ada', 'password-one')).status).toBe(401);
      const fresh = await bearer(await token(after.url, 'ada', 'password-two'));
      expect((await fetch(`${after.url}/api/config`, { headers: { authorization: fresh } })).status).toBe(200);
    } finally {
      await after.close();
    }
  });

  test('401 answers carry WWW-Authenticate: Bearer, with invalid_token when a token came', async () => {
    const s = await startTestServer();
    try {
      expect((await fetch(`${s.url}/api/config`)).headers.get('www-authenticate')).toBe('Bearer');
      expect((await fetch(`${s.url}/api/config`, { headers: { authorization: 'Bearer forged' } })).headers.get('www-authenticate')).toBe(
        'Bearer error="invalid_token"',
      );
    } finally {
      await s.close();
    }
  });
});

describe('admin password recovery', () => {
  test('reset-password prints a new password once; the running service takes it at once and refuses older tokens', async () => {
    const s = await startTestServer({ AUTH_USERNAME: '', AUTH_PASSWORD: '' });
    try {
      const env = { DATA_DIR: s.dataDir };
      const out = await cli(['reset-password'], env);
      expect(out.code).toBe(0);
      const password = /new password for admin: (\S+)/.exec(out.stdout)?.[1];
      expect(password).toBeDefined();
      // The service notices the rewritten file by itself; wait for it, bounded.
      let res: Response | undefined;
      for (let i = 0; i < 50 && res?.status !== 200; i++) {
        res = await token(s.url, 'admin', password!);
        if (res.status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(res!.status).toBe(200);
      expect((await s.api('/api/config')).status).toBe(401);
      expect((await cli(['reset-password', 'someone'], env)).stderr).toMatch(/no user someone/);
    } finally {
      await s.close();
    }
  });

  test('a configured user’s password is not reset from the command line', async () => {
    const out = await cli(['reset-password', 'tester'], {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'hmb-reset-')),
      AUTH_USERNAME: 'tester',
      AUTH_PASSWORD: 'password-1',
    });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/comes from the configuration/);
  });
});

describe('before the hub has been reached once', () => {
  test('reads answer 503 CONNECTION_ERROR saying so, with since when it is tried', async () => {
    const s = await startTestServer({ HASS_URL: 'http://127.0.0.1:9', HASS_TOKEN: 'nothing-listens-there' });
    try {
      for (const path of ['/api/state', '/api/state/light.kitchen']) {
        const res = await s.call(path);
        expect(res.status, path).toBe(503);
        expect(res.body).toMatchObject({ code: 'CONNECTION_ERROR' });
        expect(res.body.message).toMatch(/has not been reached yet \(trying since \d{4}-/);
      }
    } finally {
      await s.close();
    }
  });
});

describe('errors a person can read', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  test('capture names every entity it refuses, not only the first', async () => {
    const res = await s.call('/api/scene/capture', 'POST', {
      name: 'Snap',
      entities: ['switch.coffee_maker', 'sensor.outdoor_temperature', 'light.ghost', 'Bad Id'],
    });
    expect(res.status).toBe(400);
    const refused = res.body.details.refused as { at: string; code: string }[];
    expect(refused.map((r) => r.at)).toEqual(['entities.1', 'entities.2', 'entities.3']);
    expect(refused.map((r) => r.code)).toEqual(['INVALID_PARAMETERS', 'INVALID_ENTITY', 'INVALID_PARAMETERS']);
    expect(res.body.message).toMatch(/2 more refused/);
  });

  test('a validation error names the field in plain words, never the library wording', async () => {
    const res = await s.call('/api/device/control', 'POST', { action: 'turn_on' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('entity_id: is required (or device_id, to act on a device)');
    expect(JSON.stringify(res.body)).not.toMatch(/Invalid key|Expected|received/);
  });
});

describe('rate limiting per token', () => {
  test('two tokens of one user have a budget each; requests without a token count per address', async () => {
    const s = await startTestServer({ RATE_LIMIT_MAX: '3' });
    try {
      const second = await bearer(await token(s.url, 'tester', 'correct horse battery'));
      for (let i = 0; i < 3; i++) expect((await s.api('/api/config')).status).toBe(200);
      expect((await s.api('/api/config')).status).toBe(429);
      const other = await s.api('/api/config', { headers: { authorization: second } });
      expect(other.status).toBe(200);
      expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
    } finally {
      await s.close();
    }
  });
});

describe('the command line', () => {
  test.each([['--help'], ['help'], ['-h']])('%s prints the commands and exits 0', async (arg) => {
    const out = await cli([arg]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^usage: home-mcp-bridge/);
    expect(out.stdout).toMatch(/reset-password/);
  });

  test('an unknown command prints the same and exits 2', async () => {
    const out = await cli(['frobnicate']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/unknown command "frobnicate"/);
    expect(out.stderr).toMatch(/usage: home-mcp-bridge/);
  });
});

describe('CORS for the origins a user allows', () => {
  test('none by default: no CORS headers, a preflight is not answered', async () => {
    const s = await startTestServer();
    try {
      const res = await s.api('/api/config', { headers: { origin: 'https://inspector.example' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const pre = await fetch(`${s.url}/api/config`, {
        method: 'OPTIONS',
        headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET' },
      });
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect(pre.status).toBe(405);
    } finally {
      await s.close();
    }
  });

  test('an allowed origin gets its preflight answered and the rate-limit and MCP headers exposed; others get nothing', async () => {
    const s = await startTestServer({ ALLOWED_ORIGINS: 'https://inspector.example' });
    try {
      const pre = await fetch(`${s.url}/api/v1/scene/x`, {
        method: 'OPTIONS',
        headers: { origin: 'https://inspector.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://inspector.example');
      expect(pre.headers.get('access-control-allow-methods')).toBe('GET, PUT, DELETE');
      expect(pre.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      const res = await s.api('/api/config', { headers: { origin: 'https://inspector.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://inspector.example');
      expect(res.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining.*MCP-Session-Id/);
      const refused = await s.api('/api/config');
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const other = await s.api('/api/config', { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      // A 401 to an allowed origin is readable too, so a page can tell the user to sign in.
      const unauth = await fetch(`${s.url}/api/config`, { headers: { origin: 'https://inspector.example' } });
      expect(unauth.status).toBe(401);
      expect(unauth.headers.get('access-control-allow-origin')).toBe('https://inspector.example');
    } finally {
      await s.close();
    }
  });
});

describe('entity ids a person can read about', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  test('an over-long entity id is said to be too long, with the limit, echoing only a prefix', async () => {
    const long = `light.${'x'.repeat(5000)}`;
    for (const res of [await s.call(`/api/state/${long}`), await s.call('/api/device/control', 'POST', { entity_id: long, action: 'turn_on' })]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('entity_id: is too long: at most 255 characters (got 5006)');
      expect(res.body.details.max_length).toBe(255);
      expect(JSON.stringify(res.body).length).toBeLessThan(400);
    }
    // Upper case is Home Assistant's spelling of the same id (it lower-cases); a hyphen is no id at all.
    const odd = await s.call('/api/device/control', 'POST', { entity_id: `Light-${'Y'.repeat(100)}`, action: 'turn_on' });
    expect(odd.status).toBe(400);
    expect(odd.body.message).toMatch(/^entity_id: must look like <domain>\.<object_id> in lower case \(got "Light-Y{34}…"\)$/);
  });
});
