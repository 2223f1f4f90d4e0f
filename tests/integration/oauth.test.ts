// OAuth 2.1 for hosted assistants, as one does it: the official MCP SDK client's OAuth support
// against /mcp (discovery, registration, authorize, consent through the real form, token, a tool
// call, refresh, revoke, refused), then every kind of bad input refused with the right OAuth
// error and nothing stored.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { authorizedClient as authorize, HostedAssistant, REDIRECT } from '../helpers/oauth-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent } from '../lib/oauth-consent.mjs';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

let server: TestServer;
let base: string;
const authorizedClient = (assistant: HostedAssistant, scopes?: string[]) => authorize(base, TEST_USER, assistant, scopes);

const form = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body),
});
const mcpWith = (token: string) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
const grants = async () => (await server.call('/api/tokens')).body.tokens.filter((t: any) => t.kind === 'oauth_grant');

beforeAll(async () => {
  server = await startTestServer({ OAUTH_METADATA_PRIVATE: 'true', OAUTH_ACCESS_TTL: '120' });
  base = server.url;
});
afterAll(() => server?.close());

describe('discovery', () => {
  it('a 401 from /mcp names the resource metadata, which names this authorization server', async () => {
    const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    const prm = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ['read', 'control', 'config', 'admin'] });
    const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: base,
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: `${base}/oauth/register`,
      client_id_metadata_document_supported: true,
    });
    // The REST API keeps its plain challenge.
    expect((await fetch(`${base}/api/health`)).headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('the whole flow with the official SDK client', () => {
  const assistant = new HostedAssistant();
  let client: Client;
  afterAll(() => client?.close());

  it('registers, is authorized through the consent form, and acts on the home', async () => {
    client = await authorizedClient(assistant);
    expect(assistant.client?.client_id).toMatch(/^hmb_/);
    expect(assistant.saved).toMatchObject({ token_type: 'Bearer', scope: 'read control', expires_in: 120 });
    const result = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.bedroom_lamp', command: 'on' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(server.app.simulator!.getState('light.bedroom_lamp')?.state).toBe('on');
    const [grant] = await grants();
    expect(grant).toMatchObject({ name: 'Hosted assistant', scope: ['read', 'control'], created_by: 'tester', resource: `${base}/mcp` });
    expect(grant.last_used_at).not.toBeNull();
  });

  it('refreshes (the old refresh token is spent), revokes, and is then refused', async () => {
    const old = assistant.saved!;
    const refreshed = await fetch(
      `${base}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: old.refresh_token, client_id: assistant.client!.client_id }),
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(old.refresh_token);
    expect((await mcpWith(next.access_token)).status).toBe(200);
    const revoked = await fetch(`${base}/oauth/revoke`, form({ token: next.refresh_token, client_id: assistant.client!.client_id }));
    expect(revoked.status).toBe(200);
    for (const token of [old.access_token, next.access_token]) {
      const res = await mcpWith(token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    expect(await grants()).toEqual([]);
  });
});

describe('grants as the person sees them', () => {
  it('a read grant cannot actuate, lists only reading tools, and a revoke in /api/tokens ends it at once', async () => {
    const reader = new HostedAssistant('read');
    const client = await authorizedClient(reader, ['read']);
    const tools = (await client.listTools()).tools;
    expect(tools.length).toBeGreaterThan(3);
    // Tools that only read, and the two that read by some operations (readOperations).
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual(['calendar', 'todo']);
    // It reads the shopping list and the calendar, and changes neither.
    const list = 'todo.shopping_list';
    const itemsBefore = JSON.stringify(server.app.simulator!.getState(list));
    const items = await client.callTool({ name: 'todo', arguments: { operation: 'items', list } });
    expect(items.isError, JSON.stringify(items)).toBeFalsy();
    expect(JSON.stringify(items.content)).toMatch(/Shopping List/);
    const events = await client.callTool({ name: 'calendar', arguments: { operation: 'events', entity_id: 'calendar.family' } });
    expect(events.isError, JSON.stringify(events)).toBeFalsy();
    for (const [name, args] of [
      ['todo', { operation: 'add', list, item: 'eggs' }],
      ['todo', { operation: 'remove', list, item: 'Bread' }],
      ['calendar', { operation: 'create', entity_id: 'calendar.family', summary: 'x', start: '2027-01-05T10:00:00', end: '2027-01-05T11:00:00' }],
    ] as const) {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: { error?: { code: string; details: Record<string, unknown> } };
      };
      expect(r.isError, `${name} ${args.operation}`).toBe(true);
      expect(r.structuredContent?.error).toMatchObject({ code: 'FORBIDDEN', details: { scope: ['read'], tool: name, read_operations: expect.any(Array) } });
    }
    expect(JSON.stringify(server.app.simulator!.getState(list))).toBe(itemsBefore);
    const refused = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.bedroom_lamp', command: 'off' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/read access only/);
    expect(server.app.simulator!.getState('light.bedroom_lamp')?.state).toBe('on');
    const [grant] = await grants();
    expect(grant.scope).toEqual(['read']);
    // An OAuth token is for MCP only.
    expect((await fetch(`${base}/api/state`, { headers: { authorization: `Bearer ${reader.saved!.access_token}` } })).status).toBe(401);
    expect((await server.call(`/api/tokens/${grant.id}`, 'DELETE')).status).toBe(200);
    expect((await mcpWith(reader.saved!.access_token)).status).toBe(401);
    await client.close();
  });
});

describe('scope is checked on every request', () => {
  it('a session opened with control and continued with a token narrowed to read may no longer act', async () => {
    const assistant = new HostedAssistant('read control');
    const client = await authorizedClient(assistant, ['read', 'control']);
    await client.close();
    const rpc = (token: string, session: string | null, id: number, method: string, params: unknown) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      });
    const body = async (res: Response) => {
      const text = await res.text();
      return JSON.parse(
        text.startsWith('event:') || text.startsWith('data:')
          ? text
              .split('\n')
              .find((l) => l.startsWith('data:'))!
              .slice(5)
          : text,
      );
    };
    const control = assistant.saved!.access_token as string;
    const opened = await rpc(control, null, 1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    await rpc(control, session, 2, 'notifications/initialized', {});
    const lamp = 'light.kitchen_ceiling';
    const before = server.app.simulator!.getState(lamp)!.state;
    // The same grant, refreshed with a narrower scope.
    const narrowed = await fetch(
      `${base}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: assistant.saved!.refresh_token, client_id: assistant.client!.client_id, scope: 'read' }),
    );
    expect(narrowed.status).toBe(200);
    const read = (await narrowed.json()) as { access_token: string; scope: string };
    expect(read.scope).toBe('read');
    const call = await body(
      await rpc(read.access_token, session, 3, 'tools/call', {
        name: 'control_lights',
        arguments: { entity_id: lamp, command: before === 'on' ? 'off' : 'on' },
      }),
    );
    expect(call.result).toMatchObject({ isError: true, structuredContent: { error: { code: 'FORBIDDEN' } } });
    expect(server.app.simulator!.getState(lamp)!.state).toBe(before);
    // And the session lists only what reads, from then on.
    const listed = await body(await rpc(read.access_token, session, 4, 'tools/list', {}));
    expect(
      listed.result.tools
        .filter((t: { annotations?: { readOnlyHint?: boolean } }) => t.annotations?.readOnlyHint !== true)
        .map((t: { name: string }) => t.name),
    ).toEqual(['calendar', 'todo']);
    for (const grant of await grants()) expect((await server.call(`/api/tokens/${grant.id}`, 'DELETE')).status).toBe(200);
  });
});

describe('bad input: the right OAuth error, nothing stored', () => {
  let clientId: string;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorizeUrl = (over: Record<string, string> = {}) =>
    `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz', resource: `${base}/mcp`, ...over })}`;
  const codeFor = async () => {
    const answer = await consent(authorizeUrl(), { username: TEST_USER.username, password: TEST_USER.password });
    return new URL(answer.location!).searchParams.get('code')!;
  };
  const exchange = (over: Record<string, string>) =>
    fetch(`${base}/oauth/token`, form({ grant_type: 'authorization_code', client_id: clientId, redirect_uri: REDIRECT, code_verifier: verifier, ...over }));

  beforeAll(async () => {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Test', redirect_uris: [REDIRECT] }),
    });
    expect(res.status).toBe(201);
    clientId = ((await res.json()) as { client_id: string }).client_id;
  });

  it('registration: redirect URIs that are not https (or loopback http) are refused', async () => {
    for (const uris of [['http://evil.example/cb'], ['javascript:alert(1)'], ['https://x.example/cb#frag'], []]) {
      const res = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: uris }),
      });
      expect(res.status, JSON.stringify(uris)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_redirect_uri');
    }
  });

  it('a redirect URI that differs from the registered one gets an error page, never a redirect', async () => {
    const res = await fetch(authorizeUrl({ redirect_uri: 'http://127.0.0.1:9/other' }), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toMatch(/is not one Test registered/);
  });

  it('no PKCE, or plain PKCE, or a resource of another server: back to the client with the error', async () => {
    for (const [over, error] of [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: '' }, 'invalid_request'],
      [{ resource: 'https://other.example/mcp' }, 'invalid_target'],
      [{ scope: 'superuser' }, 'invalid_scope'],
    ] as const) {
      const res = await fetch(authorizeUrl(over), { redirect: 'manual' });
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get('location')!);
      expect(back.searchParams.get('error'), JSON.stringify(over)).toBe(error);
      expect(back.searchParams.get('state')).toBe('xyz');
    }
  });

  it('the wrong password gets the form again, and no code', async () => {
    const answer = await consent(authorizeUrl(), { username: TEST_USER.username, password: 'wrong password' });
    expect(answer.status).toBe(401);
    expect(answer.location).toBeNull();
    expect(answer.page).toMatch(/Wrong username or password/);
  });

  it('a denial goes back with access_denied', async () => {
    const answer = await consent(authorizeUrl(), { decision: 'deny' });
    expect(answer.status).toBe(302);
    expect(new URL(answer.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('a wrong PKCE verifier, a reused code, a mismatched redirect URI: invalid_grant', async () => {
    const code = await codeFor();
    const wrong = await exchange({ code, code_verifier: randomBytes(32).toString('base64url') });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/PKCE/) });
    // That code is spent now.
    expect(((await (await exchange({ code })).json()) as { error: string }).error).toBe('invalid_grant');

    const other = await codeFor();
    expect(((await (await exchange({ code: other, redirect_uri: 'http://127.0.0.1:9/other' })).json()) as { error: string }).error).toBe('invalid_grant');

    const good = await codeFor();
    const ok = await exchange({ code: good });
    expect(ok.status).toBe(200);
    const tokens = (await ok.json()) as { access_token: string };
    const again = await exchange({ code: good });
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
    // A reused code ends what it bought.
    expect((await mcpWith(tokens.access_token)).status).toBe(401);
    expect(await grants()).toEqual([]);
  });

  it('a resource other than the one the code was for: invalid_target', async () => {
    const code = await codeFor();
    const res = await exchange({ code, resource: 'https://other.example/mcp' });
    expect(((await res.json()) as { error: string }).error).toBe('invalid_target');
    expect(await grants()).toEqual([]);
  });

  it('a reused refresh token ends the whole grant', async () => {
    const tokens = (await (await exchange({ code: await codeFor() })).json()) as { refresh_token: string; access_token: string };
    const first = await fetch(`${base}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }));
    const next = (await first.json()) as { access_token: string };
    const reused = await fetch(`${base}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }));
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await mcpWith(next.access_token)).status).toBe(401);
    expect(await grants()).toEqual([]);
  });

  it('a token for another resource is refused at /mcp', async () => {
    const forged = await server.app.services.tokens.issueOAuth('no-such-grant', ['read'], 'https://other.example/mcp', 60);
    expect((await mcpWith(forged)).status).toBe(401);
    const tokens = (await (await exchange({ code: await codeFor() })).json()) as { access_token: string };
    // Reached under another host name, the same token is for another resource.
    const elsewhere = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'x-forwarded-host': 'other.example',
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(elsewhere.status).toBe(401);
    expect(((await elsewhere.json()) as { message: string }).message).toMatch(/another resource/);
  });

  it('unsupported grant types and bodies that are not forms', async () => {
    expect(((await (await fetch(`${base}/oauth/token`, form({ grant_type: 'password' }))).json()) as { error: string }).error).toBe('unsupported_grant_type');
    const json = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
  });
});

describe('client ID metadata documents', () => {
  let docs: Server;
  let docsUrl: string;
  const behaviour: { slow?: boolean; huge?: boolean } = {};
  beforeAll(async () => {
    docs = createServer((req, res) => {
      if (behaviour.slow) return; // never answers
      const url = `${docsUrl}${req.url}`;
      const body = JSON.stringify({
        client_id: url,
        client_name: 'Documented assistant',
        redirect_uris: [REDIRECT],
        ...(behaviour.huge ? { padding: 'x'.repeat(100_000) } : {}),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((r) => docs.listen(0, '127.0.0.1', () => r()));
    docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    docs.closeAllConnections();
    docs.close();
  });

  const authorize = (clientId: string) =>
    fetch(
      `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' })}`,
      { redirect: 'manual' },
    );

  it('a client described by its own document is shown by its name', async () => {
    const res = await authorize(`${docsUrl}/client.json`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/Allow Documented assistant to use your home/);
  });

  it('a huge document, or one that never comes, is refused', async () => {
    behaviour.huge = true;
    const huge = await authorize(`${docsUrl}/huge.json`);
    expect(huge.status).toBe(400);
    expect(await huge.text()).toMatch(/larger than 64 KiB/);
    behaviour.huge = false;
    behaviour.slow = true;
    const slow = await authorize(`${docsUrl}/slow.json`);
    expect(slow.status).toBe(400);
    expect(await slow.text()).toMatch(/within 5 s/);
    behaviour.slow = false;
  }, 15_000);

  it('without OAUTH_METADATA_PRIVATE, a private address is never fetched', async () => {
    const strict = await startTestServer();
    try {
      let hits = 0;
      docs.once('request', () => hits++);
      const res = await fetch(
        `${strict.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: `https://127.0.0.1:${new URL(docsUrl).port}/client.json`, redirect_uri: REDIRECT, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' })}`,
      );
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/private address/);
      const local = await fetch(
        `${strict.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'https://localhost/client.json', redirect_uri: REDIRECT, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' })}`,
      );
      expect(await local.text()).toMatch(/private address/);
      expect(hits).toBe(0);
      // Registration can be turned off.
    } finally {
      await strict.close();
    }
    const closed = await startTestServer({ OAUTH_REGISTRATION: 'false' });
    try {
      const res = await fetch(`${closed.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      });
      expect(res.status).toBe(403);
      expect(
        ((await (await fetch(`${closed.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>).registration_endpoint,
      ).toBeUndefined();
    } finally {
      await closed.close();
    }
  });
});

describe('grants survive a restart; so does their revocation', () => {
  it('the token still works after a restart, and once revoked stays refused after another', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'hmb-oauth-'));
    const { freePort } = (await import('../lib/bridge-process.mjs' as string)) as { freePort: () => Promise<number> };
    const port = String(await freePort());
    const outer = base;
    let s = await startTestServer({ DATA_DIR: dir, PORT: port });
    try {
      base = s.url;
      const assistant = new HostedAssistant();
      const client = await authorizedClient(assistant);
      await client.close();
      await s.close();
      s = await startTestServer({ DATA_DIR: dir, PORT: port });
      expect((await mcpWith(assistant.saved!.access_token)).status).toBe(200);
      const [grant] = (await s.call('/api/tokens')).body.tokens.filter((t: any) => t.kind === 'oauth_grant');
      expect(grant.name).toBe('Hosted assistant');
      expect((await s.call(`/api/tokens/${grant.id}`, 'DELETE')).status).toBe(200);
      await s.close();
      s = await startTestServer({ DATA_DIR: dir, PORT: port });
      expect((await mcpWith(assistant.saved!.access_token)).status).toBe(401);
      const refresh = await fetch(
        `${base}/oauth/token`,
        form({ grant_type: 'refresh_token', refresh_token: assistant.saved!.refresh_token, client_id: assistant.client!.client_id }),
      );
      expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
    } finally {
      base = outer;
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
