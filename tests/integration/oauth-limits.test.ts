// OAuth under misuse by strangers: what unauthenticated requests may leave behind (pending
// authorizations, registered clients) is bounded per client and per address and pruned, and the
// consent form, which through Home Assistant's ingress needs no password, takes answers only
// from its own page.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestFrom } from '../helpers/request-from.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PROXY = '127.0.0.2';
const USER_ID = 'f1e2d3c4b5a697887766554433221100';
const REDIRECT = 'https://client.example/cb';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const register = async (url: string, from = '127.0.0.1', body: unknown = { client_name: 'Test client', redirect_uris: [REDIRECT] }) => {
  const res = await requestFrom(from, `${url}/oauth/register`, { method: 'POST', body });
  return { status: res.status, body: res.json() };
};
const authorizeQuery = (clientId: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    state: 'st',
    ...extra,
  });

describe('the consent form through ingress', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ INGRESS_PROXY: PROXY, INGRESS_USERS: 'all' });
  });
  afterAll(() => s?.close());

  const haHeaders = {
    'x-remote-user-id': USER_ID,
    'x-remote-user-name': 'jane',
    'x-remote-user-display-name': 'Jane',
    'x-forwarded-host': 'ha.local:8123',
    'x-forwarded-proto': 'https',
  };
  const pendingRequest = async () => {
    const { body } = await register(s.url);
    const page = await requestFrom(PROXY, `${s.url}/oauth/authorize?${authorizeQuery(body.client_id)}`, { headers: haHeaders });
    expect(page.status).toBe(200);
    return /name="request" value="([^"]+)"/.exec(page.text)![1]!;
  };
  const answer = (request: string, origin: string | undefined) =>
    requestFrom(PROXY, `${s.url}/oauth/authorize`, {
      method: 'POST',
      headers: { ...haHeaders, 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
      raw: new URLSearchParams({ request, decision: 'approve', scope: 'control' }).toString(),
    });

  test('an answer from another origin, or with none, grants nothing; from the page itself it does', async () => {
    for (const origin of ['https://evil.example', 'null', undefined, 'http://ha.local:8123']) {
      const id = await pendingRequest();
      const res = await answer(id, origin);
      expect(res.status, `${origin}: ${res.text.slice(0, 200)}`).toBe(403);
      expect(String(res.headers.location ?? '')).not.toMatch(/code=/);
    }
    const ok = await answer(await pendingRequest(), 'https://ha.local:8123');
    expect(ok.status).toBe(302);
    expect(String(ok.headers.location)).toMatch(/^https:\/\/client\.example\/cb\?code=/);
  });

  test('the consent page lets the browser send its origin (its referrer policy is not no-referrer)', async () => {
    const { body } = await register(s.url);
    const page = await requestFrom(PROXY, `${s.url}/oauth/authorize?${authorizeQuery(body.client_id)}`, { headers: haHeaders });
    expect(page.headers['referrer-policy']).toBe('same-origin');
  });
});

describe('waiting authorizations', () => {
  let s: TestServer;
  let clientId: string;
  beforeAll(async () => {
    s = await startTestServer();
    clientId = (await register(s.url)).body.client_id;
  });
  afterAll(() => s?.close());

  const open = (from: string, extra: Record<string, string> = {}) => requestFrom(from, `${s.url}/oauth/authorize?${authorizeQuery(clientId, extra)}`);
  const requestId = (html: string) => /name="request" value="([^"]+)"/.exec(html)?.[1];
  const deny = async (id: string) => {
    const res = await requestFrom('127.0.0.1', `${s.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: new URLSearchParams({ request: id, decision: 'deny' }).toString(),
    });
    return res.status === 302 ? 'answered' : res.text.includes('unknown or has expired') ? 'gone' : `${res.status}`;
  };

  test('a thousand from one address do not block anyone else; that address keeps only its newest few', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const res = await open('127.0.0.9');
      expect(res.status).toBe(200);
      ids.push(requestId(res.text)!);
    }
    // Someone else, for the same client, still gets a consent page.
    const other = await open('127.0.0.10');
    expect(other.status, other.text.slice(0, 300)).toBe(200);
    expect(await deny(requestId(other.text)!)).toBe('answered');
    // The flood kept only its own newest: the first ones are gone, the last one still waits.
    expect(await deny(ids[0]!)).toBe('gone');
    expect(await deny(ids[989]!)).toBe('gone');
    expect(await deny(ids[999]!)).toBe('answered');
  }, 60_000);

  test('an oversized state is refused, not kept', async () => {
    const res = await open('127.0.0.11', { state: 'x'.repeat(5000) });
    expect(res.status).toBe(302);
    expect(String(res.headers.location)).toMatch(/error=invalid_request/);
    expect(String(res.headers.location)).not.toContain('x'.repeat(600));
  });
});

describe('self-registered clients', () => {
  const known = async (url: string, clientId: string) => {
    const res = await fetch(`${url}/oauth/authorize?${authorizeQuery(clientId)}`);
    const html = await res.text();
    return !/Unknown client/.test(html);
  };

  test('size limits: ten 2,000-character redirect URIs, or a body over 16 KiB, are refused and nothing is stored', async () => {
    const s = await startTestServer();
    try {
      const long = Array.from({ length: 10 }, (_, i) => `https://client.example/${String(i).padEnd(1980, 'x')}`);
      const r = await register(s.url, '127.0.0.1', { client_name: 'Big', redirect_uris: long });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'invalid_client_metadata' });
      const three = await register(s.url, '127.0.0.1', { client_name: 'Long', redirect_uris: long.slice(0, 3).map((u) => u.slice(0, 700)) });
      expect(three.status).toBe(400);
      expect(three.body).toMatchObject({ error: 'invalid_redirect_uri' });
      const padded = await register(s.url, '127.0.0.1', { client_name: 'Padded', redirect_uris: [REDIRECT], junk: 'y'.repeat(20_000) });
      expect(padded.status).toBe(400);
      expect(padded.body).toMatchObject({ error: 'invalid_client_metadata' });
      expect(padded.body.error_description).toMatch(/16 KiB/);
    } finally {
      await s.close();
    }
  });

  test('one address keeps at most its 10 newest clients that have not been granted anything; other addresses are not touched', async () => {
    const s = await startTestServer();
    try {
      const other = (await register(s.url, '127.0.0.20')).body.client_id as string;
      const mine: string[] = [];
      for (let i = 0; i < 50; i++) {
        const r = await register(s.url, '127.0.0.21');
        expect(r.status).toBe(201);
        mine.push(r.body.client_id);
      }
      expect(await known(s.url, mine[0]!)).toBe(false);
      expect(await known(s.url, mine[39]!)).toBe(false);
      expect(await known(s.url, mine[40]!)).toBe(true);
      expect(await known(s.url, mine[49]!)).toBe(true);
      expect(await known(s.url, other)).toBe(true);
    } finally {
      await s.close();
    }
  });

  test('a client never granted anything is pruned after a day; one that completed a grant, and one an admin made, are kept', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const Database = (await import('better-sqlite3')).default;
    const { HostedAssistant, authorizedClient } = await import('../helpers/oauth-client.js');
    const { TEST_USER } = await import('../helpers/server.js');
    const dir = mkdtempSync(join(tmpdir(), 'hmb-oauth-prune-'));
    try {
      let s = await startTestServer({ DATA_DIR: dir });
      const idle = (await register(s.url, '127.0.0.30')).body.client_id as string;
      const assistant = new HostedAssistant();
      await (await authorizedClient(s.url, TEST_USER, assistant)).close();
      const granted = assistant.client!.client_id as string;
      const made = await s.call('/api/oauth/clients', 'POST', { name: 'Made by an admin', redirect_uris: [REDIRECT] });
      expect(made.status).toBe(201);
      const admin = made.body.client_id as string;
      await s.close();
      // A day and more later (the clock moved by hand).
      const db = new Database(join(dir, 'bridge.db'));
      db.prepare("UPDATE oauth_clients SET registered_at = '2020-01-01T00:00:00.000Z'").run();
      db.close();
      s = await startTestServer({ DATA_DIR: dir });
      try {
        expect(await known(s.url, idle)).toBe(false);
        expect(await known(s.url, granted)).toBe(true);
        expect(await known(s.url, admin)).toBe(true);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
