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
  new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: CHALLENGE, code_challenge_method: 'S256', state: 'st', ...extra });

describe('the consent form through ingress', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ INGRESS_PROXY: PROXY, INGRESS_USERS: 'all' });
  });
  afterAll(() => s?.close());

  const haHeaders = { 'x-remote-user-id': USER_ID, 'x-remote-user-name': 'jane', 'x-remote-user-display-name': 'Jane', 'x-forwarded-host': 'ha.local:8123', 'x-forwarded-proto': 'https' };
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
