// Ending a credential ends what it opened: a revoked bridge token, a password reset, a removed user
// and an expired token each close every open event stream and WebSocket of that credential, with
// a last frame that says why; other credentials' streams go on. OAuth grants end through the same
// registry (their tokens open no event stream; MCP sessions register the same way).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { CredentialEnd } from '../../src/auth/credentials.js';
import { serviceEvent } from '../../src/bus.js';
import { authorizedClient, HostedAssistant } from '../helpers/oauth-client.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';
import { openSse, type SseClient } from '../helpers/sse.js';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');
const SECRET = 'credentials-end-test-secret-long-enough';
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

interface Socket {
  ws: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
}

/** A WebSocket with the token at the upgrade, or sent as the first message; resolves once it may subscribe. */
async function socket(s: TestServer, token: string, how: 'header' | 'message'): Promise<Socket> {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, how === 'header' ? { headers: { authorization: `Bearer ${token}` } } : {});
  const messages: any[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  if (how === 'message') ws.send(JSON.stringify({ type: 'auth', token }));
  await until(() => messages.some((m) => m.type === 'connected' || m.type === 'auth_result'));
  ws.send(JSON.stringify({ type: 'subscribe_events', id: 1 }));
  await until(() => messages.some((m) => m.type === 'subscribe_events_result'));
  return { ws, messages, closed };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(done()).toBe(true);
}

const streams = async (s: TestServer, token: string) => {
  const a = await openSse(`${s.url}/api/events/stream`, { authorization: `Bearer ${token}` });
  const b = await openSse(`${s.url}/subscribe_events?token=${token}`);
  for (const c of [a, b]) {
    expect(c.status).toBe(200);
    await c.until((f) => f.some((x) => x.event === 'connected'));
  }
  return [a, b];
};

/** Every stream ends with a last frame naming the reason; every socket with a closing message and 4401. */
async function expectEnded(sse: SseClient[], sockets: Socket[], reason: CredentialEnd['reason']): Promise<void> {
  for (const c of sse) {
    const frames = await c.until((f) => f.some((x) => x.event === 'close'));
    expect(frames.find((x) => x.event === 'close')!.json).toEqual({ reason, message: expect.any(String) });
    await c.closed;
  }
  for (const w of sockets) {
    const { code } = await w.closed;
    expect(code).toBe(4401);
    expect(w.messages.at(-1)).toEqual({ type: 'closing', reason, message: expect.any(String) });
  }
}

/** A stream of another credential still takes events. */
async function expectLive(s: TestServer, c: SseClient): Promise<void> {
  const marker = `still_${Math.random().toString(36).slice(2)}`;
  s.app.bus.emit('event', serviceEvent(marker, {}));
  await c.until((f) => f.some((x) => x.json?.event_type === marker));
}

async function bridgeToken(s: TestServer, auth: string, name: string): Promise<{ id: string; token: string }> {
  const res = await fetch(`${s.url}/api/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
}

/** A bridge started with no users configured: its generated admin, with the password read from the first start's banner. */
async function withGeneratedAdmin(): Promise<{ s: TestServer; token: string }> {
  let banner = '';
  const s = await startTestServer({ AUTH_USERNAME: '', AUTH_PASSWORD: '' }, { say: (text) => (banner += text) });
  cleanup.push(() => s.close());
  const password = /^ *password: (\S+)$/m.exec(banner)![1]!;
  const res = await fetch(`${s.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  return { s, token: ((await res.json()) as { access_token: string }).access_token };
}

describe('a credential that ends closes what it opened', () => {
  test('a revoked bridge token: its SSE streams and WebSockets (token at the upgrade or as a message) close saying so; the user’s own stream goes on', async () => {
    const s = await startTestServer();
    cleanup.push(() => s.close());
    const made = await bridgeToken(s, s.token, 'assistant');
    const sse = await streams(s, made.token);
    const sockets = [await socket(s, made.token, 'header'), await socket(s, made.token, 'message')];
    const mine = (await streams(s, s.token))[0]!;
    expect((await s.call(`/api/tokens/${made.id}`, 'DELETE')).status).toBe(200);
    await expectEnded(sse, sockets, 'token_revoked');
    await expectLive(s, mine);
    const past = (await s.call('/api/sse/history?limit=100')).body.data.connections;
    expect(past.filter((p: any) => p.close_reason === 'token_revoked')).toHaveLength(4);
    mine.close();
  });

  test('reset-password (another process) closes the admin’s streams and sockets; a bridge token the admin made goes on', async () => {
    const { s, token } = await withGeneratedAdmin();
    const made = await bridgeToken(s, token, 'kept');
    const sse = await streams(s, token);
    const sockets = [await socket(s, token, 'header'), await socket(s, token, 'message')];
    const kept = (await streams(s, made.token))[0]!;
    // Tokens carry whole seconds: the reset must fall in a later second than the token's issue.
    const issued = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number }).iat;
    while (Math.floor(Date.now() / 1000) <= issued) await new Promise((r) => setTimeout(r, 50));
    const child = spawn(process.execPath, [MAIN, 'reset-password'], { env: { PATH: process.env.PATH!, DATA_DIR: s.dataDir }, stdio: 'ignore' });
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
    await expectEnded(sse, sockets, 'password_changed');
    await expectLive(s, kept);
    kept.close();
  });

  test('a user removed while the bridge runs: their streams and sockets close, and so do those of bridge tokens they made', async () => {
    const { s, token } = await withGeneratedAdmin();
    const made = await bridgeToken(s, token, 'theirs');
    const sse = [...(await streams(s, token)), ...(await streams(s, made.token))];
    const sockets = [await socket(s, token, 'header'), await socket(s, made.token, 'message')];
    // The generated user's file now names someone else: admin is gone.
    const file = join(s.dataDir, 'admin-user.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), username: 'someone_else' }));
    await expectEnded(sse, sockets, 'user_removed');
    expect((await fetch(`${s.url}/api/config`, { headers: { authorization: `Bearer ${made.token}` } })).status).toBe(401);
  });

  test('an expired token: its streams and sockets close when it expires', async () => {
    const s = await startTestServer({ JWT_SECRET: SECRET });
    cleanup.push(() => s.close());
    const now = Math.floor(Date.now() / 1000);
    const short = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(TEST_USER.username)
      .setJti('short-lived')
      .setIssuer('home-mcp-bridge')
      .setAudience('home-mcp-bridge')
      .setIssuedAt(now)
      .setExpirationTime(now + 3)
      .sign(new TextEncoder().encode(SECRET));
    const sse = await streams(s, short);
    const sockets = [await socket(s, short, 'header'), await socket(s, short, 'message')];
    const mine = (await streams(s, s.token))[0]!;
    await expectEnded(sse, sockets, 'token_expired');
    await expectLive(s, mine);
    mine.close();
  });

  test('an OAuth grant: its access token opens no event stream or socket, and a revoke ends what registered with its credential', async () => {
    const s = await startTestServer();
    cleanup.push(() => s.close());
    const assistant = new HostedAssistant();
    const client = await authorizedClient(s.url, TEST_USER, assistant);
    const access = assistant.saved!.access_token as string;
    expect((await fetch(`${s.url}/api/events/stream`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(401);
    await expect(socket(s, access, 'header')).rejects.toThrow(/401/);
    // What an MCP session does: register with the credential that opened it.
    const principal = await s.app.services.tokens.verify(access);
    const ended = new Promise<CredentialEnd>((resolve) => s.app.services.credentials.onEnd(principal, resolve));
    const [grant] = (await s.call('/api/tokens')).body.tokens.filter((t: any) => t.kind === 'oauth_grant');
    expect((await s.call(`/api/tokens/${grant.id}`, 'DELETE')).status).toBe(200);
    expect(await ended).toEqual({ reason: 'token_revoked', message: expect.any(String) });
    await client.close();
  });
});
