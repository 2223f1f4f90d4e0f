// Named bridge tokens: made by a person, used by an assistant, listed with their last use,
// revoked at once and for good (across a restart), never able to make more tokens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let dataDir: string;
let server: TestServer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hmb-tokens-'));
  server = await startTestServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const withToken = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('bridge tokens', () => {
  let made: Record<string, any>;

  it('a signed-in user makes a named token; the secret comes once, the list never shows it', async () => {
    const res = await server.call('/api/tokens', 'POST', { name: '  Claude Desktop ', expires_in_days: 30 });
    expect(res.status).toBe(201);
    made = res.body;
    expect(made).toMatchObject({ kind: 'bridge_token', name: 'Claude Desktop', created_by: 'tester', last_used_at: null });
    expect(made.token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.headers.get('location')).toBe(`/api/tokens/${made.id}`);
    const days = (Date.parse(made.expires_at) - Date.parse(made.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(30, 3);
    const list = await server.call('/api/tokens');
    expect(list.status).toBe(200);
    expect(list.body.tokens).toHaveLength(1);
    expect(list.body.tokens[0]).not.toHaveProperty('token');
    expect(JSON.stringify(list.body)).not.toContain(made.token);
  });

  it('the token works on the API and its last use shows in the list', async () => {
    const res = await fetch(`${server.url}/api/state/light.bedroom_lamp`, withToken(made.token));
    expect(res.status).toBe(200);
    const me = await (await fetch(`${server.url}/api/me`, withToken(made.token))).json();
    expect(me).toMatchObject({ via: 'token', name: 'Claude Desktop', may_manage_tokens: false });
    const [listed] = (await server.call('/api/tokens')).body.tokens;
    expect(listed.last_used_at).not.toBeNull();
    expect(Date.now() - Date.parse(listed.last_used_at)).toBeLessThan(60_000);
  });

  it('an assistant token cannot list, make or revoke tokens (403)', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens', { name: 'more' }],
      ['DELETE', `/api/tokens/${made.id}`],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${made.token}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toMatchObject({ error: true, code: 'FORBIDDEN' });
    }
    expect((await server.call('/api/tokens')).body.tokens).toHaveLength(1);
  });

  it('bad input is refused with the field named, and nothing is stored', async () => {
    const cases: [unknown, string][] = [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(65) }, 'name'],
      [{ name: 'tab\there' }, 'name'],
      [{ name: 'ok', expires_in_days: 0 }, 'expires_in_days'],
      [{ name: 'ok', expires_in_days: 3651 }, 'expires_in_days'],
      [{ name: 'ok', expires_in_days: 1.5 }, 'expires_in_days'],
      [{ name: 'ok', extra: true }, 'extra'],
    ];
    for (const [body, fieldName] of cases) {
      const res = await server.call('/api/tokens', 'POST', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(fieldName);
    }
    const dup = await server.call('/api/tokens', 'POST', { name: 'Claude Desktop' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
    expect((await server.call('/api/tokens')).body.tokens).toHaveLength(1);
  });

  it('revoking refuses the token from the next request on; a second revoke is 404', async () => {
    const other = (await server.call('/api/tokens', 'POST', { name: 'Kitchen tablet' })).body;
    const revoked = await server.call(`/api/tokens/${made.id}`, 'DELETE');
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ success: true, revoked: { id: made.id, name: 'Claude Desktop' } });
    const refused = await fetch(`${server.url}/api/state/light.bedroom_lamp`, withToken(made.token));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('invalid_token');
    expect(((await refused.json()) as { message: string }).message).toMatch(/revoked/);
    expect((await server.call(`/api/tokens/${made.id}`, 'DELETE')).status).toBe(404);
    // The other token is untouched.
    expect((await fetch(`${server.url}/api/health`, withToken(other.token))).status).toBe(200);
    made.other = other;
  });

  it('after a restart: revoked stays revoked, the other still works, last use was kept', async () => {
    await server.close();
    server = await startTestServer({ DATA_DIR: dataDir });
    expect((await fetch(`${server.url}/api/health`, withToken(made.token))).status).toBe(401);
    expect((await fetch(`${server.url}/api/health`, withToken(made.other.token))).status).toBe(200);
    const tokens = (await server.call('/api/tokens')).body.tokens;
    expect(tokens.map((t: any) => t.name)).toEqual(['Kitchen tablet']);
    expect(tokens[0].last_used_at).not.toBeNull();
  });

  it('a forged token with a made-up id is refused', async () => {
    const res = await fetch(`${server.url}/api/health`, withToken(`${made.other.token.slice(0, -4)}AAAA`));
    expect(res.status).toBe(401);
  });
});
