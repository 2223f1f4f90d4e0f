// Confidential OAuth clients, for Home Assistant's own `mcp` integration as it is: an admin makes
// the client (never /oauth/register), its secret is shown once and stored hashed; the flow is
// Home Assistant's LocalOAuth2Implementation (no code_challenge, no resource, client_secret_post,
// the exact redirect URI). Every rule over real HTTP, with its refusals: a code issued without a
// challenge is redeemed only with the secret and never with a verifier; public clients keep PKCE.
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent } from '../lib/oauth-consent.mjs';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

let server: TestServer;
let base: string;
/** Home Assistant's redirect URI when the `my` integration is loaded (else <ha>/auth/external/callback). */
const MY_HA = 'https://my.home-assistant.io/redirect/oauth';
const OWN_HA = 'http://homeassistant.local:8123/auth/external/callback';

const form = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body),
});
const token = (body: Record<string, string>) => fetch(`${base}/oauth/token`, form(body));
const oauthError = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: string; error_description: string }) });
const mcpWith = (access: string) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'home-assistant', version: '2026.11.0' } },
    }),
  });

interface Made {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

async function makeClient(redirect_uris = [MY_HA, OWN_HA], name = 'Home Assistant'): Promise<Made> {
  const res = await server.call('/api/oauth/clients', 'POST', { name, redirect_uris });
  expect(res.status).toBe(201);
  return res.body as Made;
}

/** The authorize URL Home Assistant builds: oauth2.build_authorize_url plus the mcp flow's extras; no PKCE, no resource. */
function haAuthorizeUrl(client: Made, redirect = MY_HA, extra: Record<string, string> = {}): string {
  const u = new URL(`${base}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirect,
    state: 'eyJhbGciOi.flow-state',
    access_type: 'offline',
    prompt: 'consent',
    scope: 'read control',
    ...extra,
  }))
    u.searchParams.set(k, v);
  return u.href;
}

/** Through the consent form as the person does it; the code from where the browser is sent back. */
async function codeFor(client: Made, redirect = MY_HA, extra: Record<string, string> = {}): Promise<string> {
  const answer = await consent(haAuthorizeUrl(client, redirect, extra), TEST_USER);
  expect(answer.status, answer.page).toBe(302);
  const back = new URL(answer.location!);
  expect(`${back.origin}${back.pathname}`).toBe(redirect);
  expect(back.searchParams.get('state')).toBe('eyJhbGciOi.flow-state');
  return back.searchParams.get('code')!;
}

/** Home Assistant's token request: LocalOAuth2Implementation with client_secret_post. */
const haToken = (client: Made, code: string, redirect = MY_HA, extra: Record<string, string> = {}) =>
  token({ grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: client.client_id, client_secret: client.client_secret, ...extra });

beforeAll(async () => {
  server = await startTestServer();
  base = server.url;
});
afterAll(() => server?.close());

describe('making a confidential client', () => {
  it('a person makes it; the secret is in that answer only and stored as a hash', async () => {
    const made = await makeClient();
    expect(made).toMatchObject({
      client_id: expect.stringMatching(/^hmbc_/),
      client_secret: expect.stringMatching(/^hmbs_[A-Za-z0-9_-]{43}$/),
      client_name: 'Home Assistant',
      redirect_uris: [MY_HA, OWN_HA],
      token_endpoint_auth_method: 'client_secret_post',
      created_by: TEST_USER.username,
    });
    const listed = (await server.call('/api/oauth/clients')).body.clients;
    expect(listed).toContainEqual(expect.objectContaining({ client_id: made.client_id, client_name: 'Home Assistant' }));
    expect(JSON.stringify(listed)).not.toContain(made.client_secret);
    const db = new Database(join(server.dataDir, 'bridge.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT * FROM oauth_clients WHERE client_id = ?').get(made.client_id) as Record<string, string>;
      expect(JSON.stringify(row)).not.toContain(made.client_secret);
      expect(row.secret_hash).toBe(createHash('sha256').update(made.client_secret).digest('base64url'));
    } finally {
      db.close();
    }
  });

  it('refuses bad input, and assistants', async () => {
    for (const [body, field] of [
      [{ name: ' ', redirect_uris: [MY_HA] }, 'name'],
      [{ name: 'HA', redirect_uris: [] }, 'redirect_uris'],
      [{ name: 'HA', redirect_uris: ['javascript:alert(1)'] }, 'redirect_uris'],
      [{ name: 'HA', redirect_uris: [`${MY_HA}#frag`] }, 'redirect_uris'],
      [{ name: 'HA', redirect_uris: ['not a url'] }, 'redirect_uris'],
      [{ name: 'HA', redirect_uris: [MY_HA], client_secret: 'mine' }, 'client_secret'],
    ] as const) {
      const res = await server.call('/api/oauth/clients', 'POST', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const assistant = (await server.call('/api/tokens', 'POST', { name: 'an assistant' })).body.token;
    const res = await server.api('/api/oauth/clients', {
      method: 'POST',
      headers: { authorization: `Bearer ${assistant}` },
      json: { name: 'x', redirect_uris: [MY_HA] },
    });
    expect(res.status).toBe(403);
  });

  it('never through dynamic registration', async () => {
    for (const method of ['client_secret_post', 'client_secret_basic']) {
      const res = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'sneaky', redirect_uris: [MY_HA], token_endpoint_auth_method: method }),
      });
      expect(await oauthError(res)).toMatchObject({ status: 400, error: 'invalid_client_metadata', error_description: expect.stringContaining('panel') });
    }
  });

  it('the metadata names client_secret_post beside none, and S256 as the only challenge method', async () => {
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({ token_endpoint_auth_methods_supported: ['none', 'client_secret_post'], code_challenge_methods_supported: ['S256'] });
  });
});

describe("Home Assistant's flow as it is", () => {
  let client: Made;
  beforeAll(async () => {
    client = await makeClient();
  });

  it('no code_challenge, no resource: the consent page names the client; the secret buys tokens that act on the home', async () => {
    const page = await (await fetch(haAuthorizeUrl(client))).text();
    expect(page).toContain('Home Assistant');
    expect(page).toContain(`made by ${TEST_USER.username}`);
    const code = await codeFor(client);
    const res = await haToken(client, code);
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { access_token: string; refresh_token: string; scope: string; expires_in: number };
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'read control', expires_in: expect.any(Number) });
    expect((await mcpWith(tokens.access_token)).status).toBe(200);
    const grants = (await server.call('/api/tokens')).body.tokens.filter((t: any) => t.kind === 'oauth_grant' && t.client_id === client.client_id);
    expect(grants).toEqual([expect.objectContaining({ name: 'Home Assistant', resource: `${base}/mcp`, created_by: TEST_USER.username })]);
    // Home Assistant refreshes with client_id, client_secret and the refresh token.
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: client.client_id,
      client_secret: client.client_secret,
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    // Without the secret, or with another, a refresh is refused.
    const next = (await refreshed.json()) as { refresh_token: string };
    expect(await oauthError(await token({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: next.refresh_token }))).toMatchObject({
      status: 401,
      error: 'invalid_client',
    });
    expect(
      await oauthError(
        await token({ grant_type: 'refresh_token', client_id: client.client_id, client_secret: 'hmbs_wrong', refresh_token: next.refresh_token }),
      ),
    ).toMatchObject({ status: 401, error: 'invalid_client' });
  });

  it("Home Assistant's own callback address works as well, when listed exactly", async () => {
    const code = await codeFor(client, OWN_HA);
    expect((await haToken(client, code, OWN_HA)).status).toBe(200);
  });

  it('a code issued without a challenge: no secret, a wrong secret, or a code_verifier are refused', async () => {
    const code = await codeFor(client);
    expect(await oauthError(await token({ grant_type: 'authorization_code', code, redirect_uri: MY_HA, client_id: client.client_id }))).toMatchObject({
      status: 401,
      error: 'invalid_client',
      error_description: expect.stringContaining('client_secret'),
    });
    expect(await oauthError(await haToken({ ...client, client_secret: `${client.client_secret.slice(0, -1)}x` }, code))).toMatchObject({
      status: 401,
      error: 'invalid_client',
      error_description: 'The client secret is wrong',
    });
    // Neither spent the code (the client was not who it said); a verifier for it does.
    const verifier = randomBytes(32).toString('base64url');
    expect(await oauthError(await haToken(client, code, MY_HA, { code_verifier: verifier }))).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      error_description: expect.stringContaining('without a code_challenge'),
    });
    expect(await oauthError(await haToken(client, code))).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      error_description: expect.stringContaining('used already'),
    });
  });

  it('the redirect URI must match exactly: nothing is sent anywhere else', async () => {
    for (const redirect of [
      `${MY_HA}/`,
      `${MY_HA}?x=1`,
      'https://my.home-assistant.io/redirect/oauth2',
      'http://homeassistant.local:8123/auth/external/callback/',
    ]) {
      const res = await fetch(haAuthorizeUrl(client, redirect), { redirect: 'manual' });
      expect(res.status, redirect).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
    // And at the token endpoint, the redirect URI of the authorization request.
    const code = await codeFor(client);
    expect(await oauthError(await haToken(client, code, OWN_HA))).toMatchObject({ error: 'invalid_grant' });
  });

  it('resource stays optional; one that is given must be this /mcp', async () => {
    const code = await codeFor(client, MY_HA, { resource: `${base}/mcp` });
    expect((await haToken(client, code)).status).toBe(200);
    const res = await fetch(haAuthorizeUrl(client, MY_HA, { resource: 'https://elsewhere.example/mcp' }), { redirect: 'manual' });
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('a confidential client may add PKCE: then it needs the verifier and the secret', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await codeFor(client, MY_HA, { code_challenge: challenge, code_challenge_method: 'S256' });
    expect(await oauthError(await haToken(client, code))).toMatchObject({
      status: 400,
      error: 'invalid_request',
      error_description: expect.stringContaining('code_verifier is required'),
    });
    const again = await codeFor(client, MY_HA, { code_challenge: challenge, code_challenge_method: 'S256' });
    expect(
      await oauthError(
        await token({ grant_type: 'authorization_code', code: again, redirect_uri: MY_HA, client_id: client.client_id, code_verifier: verifier }),
      ),
    ).toMatchObject({ status: 401, error: 'invalid_client' });
    const third = await codeFor(client, MY_HA, { code_challenge: challenge, code_challenge_method: 'S256' });
    expect((await haToken(client, third, MY_HA, { code_verifier: verifier })).status).toBe(200);
    // A plain challenge method is still refused.
    const plain = await fetch(haAuthorizeUrl(client, MY_HA, { code_challenge: verifier, code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('another client cannot redeem its code, with its own secret or none', async () => {
    const other = await makeClient([MY_HA], 'Another Home Assistant');
    const code = await codeFor(client);
    expect(await oauthError(await haToken(other, code))).toMatchObject({ error: 'invalid_grant' });
  });

  it('revocation by a confidential client needs its secret', async () => {
    const tokens = (await (await haToken(client, await codeFor(client))).json()) as { refresh_token: string; access_token: string };
    expect(await oauthError(await fetch(`${base}/oauth/revoke`, form({ token: tokens.refresh_token, client_id: client.client_id })))).toMatchObject({
      status: 401,
      error: 'invalid_client',
    });
    expect((await mcpWith(tokens.access_token)).status).toBe(200);
    expect(
      (await fetch(`${base}/oauth/revoke`, form({ token: tokens.refresh_token, client_id: client.client_id, client_secret: client.client_secret }))).status,
    ).toBe(200);
    expect((await mcpWith(tokens.access_token)).status).toBe(401);
  });

  it('deleting the client ends its grants at once; its secret then buys nothing', async () => {
    const doomed = await makeClient([MY_HA], 'Doomed');
    const tokens = (await (await haToken(doomed, await codeFor(doomed))).json()) as { refresh_token: string; access_token: string };
    expect((await mcpWith(tokens.access_token)).status).toBe(200);
    const deleted = await server.call(`/api/oauth/clients/${doomed.client_id}`, 'DELETE');
    expect(deleted.body).toMatchObject({ success: true, deleted: { client_id: doomed.client_id } });
    expect((await mcpWith(tokens.access_token)).status).toBe(401);
    expect(
      await oauthError(
        await token({ grant_type: 'refresh_token', client_id: doomed.client_id, client_secret: doomed.client_secret, refresh_token: tokens.refresh_token }),
      ),
    ).toMatchObject({ status: 401, error: 'invalid_client' });
    expect((await fetch(haAuthorizeUrl(doomed), { redirect: 'manual' })).status).toBe(400);
    expect((await server.call(`/api/oauth/clients/${doomed.client_id}`, 'DELETE')).status).toBe(404);
  });
});

describe('public clients keep PKCE', () => {
  it('a registered client without a challenge is sent back with invalid_request; one that sends a secret is refused', async () => {
    const reg = (await (
      await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Public', redirect_uris: ['http://127.0.0.1:9/cb'] }),
      })
    ).json()) as { client_id: string };
    const u = new URL(`${base}/oauth/authorize`);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: reg.client_id, redirect_uri: 'http://127.0.0.1:9/cb', state: 's' }))
      u.searchParams.set(k, v);
    const res = await fetch(u, { redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toContain('PKCE is required');
    expect(
      await oauthError(
        await token({
          grant_type: 'authorization_code',
          code: 'x',
          redirect_uri: 'http://127.0.0.1:9/cb',
          client_id: reg.client_id,
          client_secret: 'anything',
          code_verifier: 'v'.repeat(43),
        }),
      ),
    ).toMatchObject({ status: 401, error: 'invalid_client', error_description: expect.stringContaining('public') });
  });
});
