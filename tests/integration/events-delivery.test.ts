// Delivery guarantees of the live streams: resuming with Last-Event-ID across a bridge restart,
// the per-client rate limit and its notice, a slow client (SSE and WebSocket) closed at the buffer
// limit while others keep receiving, and the connection cap.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { serviceEvent } from '../../src/bus.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSse, type SseFrame } from '../helpers/sse.js';

const eventsOf = (frames: SseFrame[]) => frames.filter((f) => f.event === 'message');

/** A masked WebSocket text frame, as a client must send. */
function maskedText(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
  return Buffer.concat([head, mask, Buffer.from(payload.map((b, i) => b ^ mask[i & 3]!))]);
}

/** The frames of a server's WebSocket byte stream (after the upgrade's head), as far as they are whole. */
function wsFrames(raw: Buffer): { opcode: number; payload: Buffer }[] {
  const out: { opcode: number; payload: Buffer }[] = [];
  let at = raw.indexOf('\r\n\r\n') + 4;
  while (at + 2 <= raw.length) {
    let len = raw[at + 1]! & 0x7f;
    let start = at + 2;
    if (len === 126) {
      len = raw.readUInt16BE(at + 2);
      start += 2;
    } else if (len === 127) {
      len = Number(raw.readBigUInt64BE(at + 2));
      start += 8;
    }
    if (start + len > raw.length) break;
    out.push({ opcode: raw[at]! & 0x0f, payload: raw.subarray(start, start + len) });
    at = start + len;
  }
  return out;
}
const tick = () => new Promise((r) => setTimeout(r, 20));
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('resuming', () => {
  test('Last-Event-ID replays what was missed, across a restart, then live: no gap, no duplicate', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hmb-resume-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let s: TestServer = await startTestServer({ DATA_DIR: dataDir });
    const emit = (n: number) => s.app.bus.emit('event', serviceEvent('numbered', { n }));
    const url = () => `${s.url}/api/events/stream?event_type=numbered`;
    const first = await openSse(url(), { authorization: `Bearer ${s.token}` });
    await first.until((f) => f.some((x) => x.event === 'connected'));
    for (let n = 0; n < 5; n++) emit(n);
    const got = eventsOf(await first.until((f) => eventsOf(f).length === 5));
    const lastId = got.at(-1)!.id!;
    first.close();
    await first.closed;
    // Missed while away: some before the restart, some after.
    for (let n = 5; n < 8; n++) emit(n);
    await tick();
    await s.app.close();
    s = await startTestServer({ DATA_DIR: dataDir });
    cleanup.push(() => s.close());
    for (let n = 8; n < 10; n++) emit(n);
    await tick();
    const again = await openSse(url(), { authorization: `Bearer ${s.token}`, 'last-event-id': lastId });
    await again.until((f) => eventsOf(f).length === 5);
    for (let n = 10; n < 12; n++) emit(n);
    const frames = eventsOf(await again.until((f) => eventsOf(f).length === 7));
    await tick();
    expect(eventsOf(again.frames).map((f) => f.json.data.n)).toEqual([5, 6, 7, 8, 9, 10, 11]);
    const ids = frames.map((f) => Number(f.id));
    expect(ids[0]).toBeGreaterThan(Number(lastId));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    again.close();
    // The query form of Last-Event-ID does the same.
    const byQuery = await openSse(`${url()}&last_event_id=${ids[4]}`, { authorization: `Bearer ${s.token}` });
    await byQuery.until((f) => eventsOf(f).length === 2);
    expect(eventsOf(byQuery.frames).map((f) => f.json.data.n)).toEqual([10, 11]);
    byQuery.close();
  });
});

describe('limits', () => {
  test('past EVENT_SUB_RATE_LIMIT per window the rest are dropped, counted and announced once', async () => {
    const s = await startTestServer({ EVENT_SUB_RATE_LIMIT: '3', EVENT_SUB_RATE_WINDOW: '3600' });
    cleanup.push(() => s.close());
    const c = await openSse(`${s.url}/api/events/stream?event_type=burst`, { authorization: `Bearer ${s.token}` });
    await c.until((f) => f.some((x) => x.event === 'connected'));
    for (let n = 0; n < 10; n++) s.app.bus.emit('event', serviceEvent('burst', { n }));
    await c.until((f) => f.some((x) => x.event === 'notice'));
    await tick();
    expect(eventsOf(c.frames).map((f) => f.json.data.n)).toEqual([0, 1, 2]);
    const notices = c.frames.filter((f) => f.event === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.json).toMatchObject({ type: 'rate_limited', limit: 3, window_seconds: 3600, reset: expect.any(Number) });
    const conn = await s.call('/api/sse/connections');
    expect(conn.body.data.connections[0]).toMatchObject({ events_sent: 3, events_dropped: 7 });
    c.close();
  });

  test('WebSocket budgets: a spent client’s sockets leave their topics for the window (each told once), while another client on the same topic goes on', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hmb-users-')), 'users.yaml');
    cleanup.push(() => rmSync(join(file, '..'), { recursive: true, force: true }));
    writeFileSync(file, 'users:\n  - username: other\n    password: another password\n');
    const s = await startTestServer({ EVENT_SUB_RATE_LIMIT: '3', EVENT_SUB_RATE_WINDOW: '3600', CONFIG_FILE: file });
    cleanup.push(() => s.close());
    const otherToken = (
      (await (
        await fetch(`${s.url}/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'other', password: 'another password' }),
        })
      ).json()) as { access_token: string }
    ).access_token;
    const open = async (token: string, ...types: string[]) => {
      const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${token}` } });
      const got: any[] = [];
      ws.on('message', (d) => got.push(JSON.parse(d.toString())));
      await new Promise((r) => ws.once('open', r));
      for (const event_type of types) ws.send(JSON.stringify({ type: 'subscribe_events', event_type }));
      for (let i = 0; i < 500 && got.filter((m) => m.type === 'subscribe_events_result').length < types.length; i++) await tick();
      return {
        ws,
        got,
        events: (type: string) => got.filter((m) => m.type === 'event' && m.event.event_type === type).map((m) => m.event.data.n),
        notices: () => got.filter((m) => m.type === 'notice'),
      };
    };
    const [a, b, other] = [await open(s.token, 'warmup', 'metered'), await open(s.token, 'metered'), await open(otherToken, 'metered')];
    // tester's budget of 3 goes on warm-up events (shared by its two sockets); other's is untouched.
    for (let n = 0; n < 3; n++) s.app.bus.emit('event', serviceEvent('warmup', { n }));
    for (let n = 0; n < 3; n++) s.app.bus.emit('event', serviceEvent('metered', { n }));
    for (let i = 0; i < 500 && (other.events('metered').length < 3 || a.notices().length + b.notices().length < 2); i++) await tick();
    await tick();
    expect(a.events('warmup')).toEqual([0, 1, 2]);
    expect([a.events('metered'), b.events('metered')]).toEqual([[], []]);
    for (const c of [a, b]) {
      expect(c.notices()).toHaveLength(1);
      expect(c.notices()[0].data).toMatchObject({ type: 'rate_limited', limit: 3, window_seconds: 3600 });
    }
    expect(other.events('metered')).toEqual([0, 1, 2]);
    expect(other.notices()).toEqual([]);
    const conns = (await s.call('/api/sse/connections')).body.data.connections.filter((c: any) => c.client_id === 'tester');
    expect(conns.map((c: any) => [c.events_sent, c.events_dropped]).sort()).toEqual([
      [0, 3],
      [3, 3],
    ]);
    for (const c of [a, b, other]) c.ws.close();
  });

  test('one filter, one subscription id and one message per event: every socket that asked for the same events gets the very same bytes', async () => {
    const s = await startTestServer({ EVENT_SUB_RATE_LIMIT: '0' });
    cleanup.push(() => s.close());
    const raw: string[][] = [];
    const sockets = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
        raw[i] = [];
        ws.on('message', (d) => raw[i]!.push(d.toString()));
        await new Promise((r) => ws.once('open', r));
        ws.send(JSON.stringify({ type: 'subscribe_events', domain: 'light', event_type: 'state_changed' }));
        return ws;
      }),
    );
    for (let i = 0; i < 500 && raw.some((r) => !r.some((m) => m.includes('subscribe_events_result'))); i++) await tick();
    const ids = raw.map((r) => JSON.parse(r.find((m) => m.includes('subscribe_events_result'))!).data.subscription_id);
    expect(new Set(ids).size).toBe(1);
    for (let n = 0; n < 5; n++)
      s.app.bus.emit('event', {
        event_type: 'state_changed',
        data: { entity_id: 'light.lamp', n },
        origin: 'LOCAL',
        time_fired: new Date().toISOString(),
        context: { id: `c${n}`, parent_id: null, user_id: null },
      });
    const events = (i: number) => raw[i]!.filter((m) => m.startsWith('{"type":"event"'));
    for (let i = 0; i < 500 && [0, 1, 2].some((k) => events(k).length < 5); i++) await tick();
    expect(events(0)).toHaveLength(5);
    expect(events(1)).toEqual(events(0));
    expect(events(2)).toEqual(events(0));
    expect(JSON.parse(events(0)[0]!)).toMatchObject({ type: 'event', subscription_id: ids[0], seq: expect.any(Number), event: { entity_id: 'light.lamp' } });
    for (const ws of sockets) ws.close();
  });

  test('a client that stops reading is closed at the buffer cap with a last frame; a reading client gets every event meanwhile', async () => {
    const s = await startTestServer({ STREAM_BUFFER_LIMIT: '65536', EVENT_SUB_RATE_LIMIT: '0' });
    cleanup.push(() => s.close());
    // The reader takes a beat per round; the slow client takes everything, the flood too.
    const reader = await openSse(`${s.url}/api/events/stream?event_type=beat`, { authorization: `Bearer ${s.token}` });
    await reader.until((f) => f.some((x) => x.event === 'connected'));
    // The slow client: a raw socket that sends its request and then reads nothing.
    const slow = tcpConnect(Number(new URL(s.url).port), '127.0.0.1');
    const received: Buffer[] = [];
    await new Promise<void>((r) => slow.once('connect', r));
    slow.write(`GET /api/events/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.token}\r\nUser-Agent: slow\r\n\r\n`);
    slow.on('data', (d) => received.push(d));
    while (!(await s.call('/api/sse/connections')).body.data.connections.some((c: any) => c.user_agent === 'slow')) await tick();
    slow.pause();
    const payload = 'x'.repeat(32_000);
    let emitted = 0;
    const slowOpen = async () => (await s.call('/api/sse/connections')).body.data.connections.some((c: any) => c.user_agent === 'slow');
    // Kernel buffers take a few MB first; keep sending until the bridge gives up on the slow one.
    let most = 0;
    const slowQueued = async () =>
      (await s.call('/api/sse/connections')).body.data.connections.find((c: any) => c.user_agent === 'slow')?.queued_bytes as number | undefined;
    let beats = 0;
    for (let q = await slowQueued(); q !== undefined && emitted < 20_000; q = await slowQueued()) {
      most = Math.max(most, q);
      for (let i = 0; i < 100; i++) s.app.bus.emit('event', serviceEvent('bulk', { n: emitted++, payload }));
      s.app.bus.emit('event', serviceEvent('beat', { n: beats++ }));
      await tick();
    }
    expect(await slowOpen()).toBe(false);
    // What the bridge held for it never passed the limit by more than one event.
    expect(most).toBeLessThanOrEqual(65_536 + 33_000);
    await reader.until((f) => eventsOf(f).length === beats);
    expect(eventsOf(reader.frames).map((f) => f.json.data.n)).toEqual([...Array(beats).keys()]);
    const past = (await s.call('/api/sse/history')).body.data.connections;
    expect(past.find((p: any) => p.user_agent === 'slow')).toMatchObject({ close_reason: 'buffer_limit' });
    // Reading again, the slow client finds the last frame that says why, and the end of the response.
    slow.resume();
    const last = /event: close\ndata: \{"reason":"buffer_limit"[^\n]*\n\n\r\n0\r\n\r\n$/;
    for (let i = 0; i < 500 && !last.test(Buffer.concat(received).toString()); i++) await tick();
    expect(Buffer.concat(received).toString()).toMatch(last);
    slow.destroy();
    reader.close();
  });

  test('a WebSocket that never reads cannot make the bridge hold more than the limit for it; it is closed saying why, and a reading socket gets every event meanwhile', async () => {
    const limit = 65_536;
    const s = await startTestServer({ STREAM_BUFFER_LIMIT: String(limit), EVENT_SUB_RATE_LIMIT: '0' });
    cleanup.push(() => s.close());
    const reader = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
    const seen: number[] = [];
    reader.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.type === 'event') seen.push(m.event.data.n);
    });
    await new Promise((r) => reader.once('open', r));
    // The reader takes a beat per round; the slow client takes everything, the flood too.
    reader.send(JSON.stringify({ type: 'subscribe_events', event_type: 'beat' }));
    // The slow client: a raw socket that upgrades, subscribes, and then reads nothing.
    const slow = tcpConnect(Number(new URL(s.url).port), '127.0.0.1');
    const received: Buffer[] = [];
    slow.on('data', (d) => received.push(d));
    await new Promise<void>((r) => slow.once('connect', r));
    slow.write(
      `GET /api/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${s.token}\r\nUser-Agent: slow\r\n\r\n`,
    );
    for (let i = 0; i < 500 && !Buffer.concat(received).includes('\r\n\r\n'); i++) await tick();
    slow.write(maskedText(JSON.stringify({ type: 'subscribe_events' })));
    const slowInfo = async () => (await s.call('/api/sse/connections')).body.data.connections.find((c: any) => c.user_agent === 'slow');
    for (let i = 0; i < 500 && (await slowInfo())?.subscriptions.length !== 1; i++) await tick();
    slow.pause();
    const payload = 'x'.repeat(32_000);
    let emitted = 0;
    let beats = 0;
    let most = 0;
    for (let info = await slowInfo(); info && emitted < 20_000; info = await slowInfo()) {
      most = Math.max(most, info.queued_bytes);
      for (let i = 0; i < 100; i++) s.app.bus.emit('event', serviceEvent('flood', { n: emitted++, payload }));
      s.app.bus.emit('event', serviceEvent('beat', { n: beats++ }));
      await tick();
    }
    expect(await slowInfo()).toBeUndefined();
    // What the bridge held for it never passed the limit by more than one message.
    expect(most).toBeLessThanOrEqual(limit + 33_000);
    for (let i = 0; i < 500 && seen.length < beats; i++) await tick();
    expect(seen).toEqual([...Array(beats).keys()]);
    const past = (await s.call('/api/sse/history')).body.data.connections;
    expect(past.find((p: any) => p.user_agent === 'slow')).toMatchObject({ transport: 'websocket', close_reason: 'buffer_limit' });
    // Reading again, it finds the closing message and a close frame with 1013 (try again later).
    slow.resume();
    let frames: { opcode: number; payload: Buffer }[] = [];
    for (let i = 0; i < 500 && !frames.some((f) => f.opcode === 8); i++) {
      await tick();
      frames = wsFrames(Buffer.concat(received));
    }
    const close = frames.find((f) => f.opcode === 8)!;
    expect(close.payload.readUInt16BE(0)).toBe(1013);
    const last = frames[frames.indexOf(close) - 1]!;
    expect(JSON.parse(last.payload.toString())).toMatchObject({ type: 'closing', reason: 'buffer_limit' });
    slow.destroy();
    reader.close();
  });

  test('above SSE_MAX_CONNECTIONS a new stream gets 503 in the SSE error shape', async () => {
    const s = await startTestServer({ SSE_MAX_CONNECTIONS: '2' });
    cleanup.push(() => s.close());
    const a = await openSse(`${s.url}/api/events/stream`, { authorization: `Bearer ${s.token}` });
    const b = await openSse(`${s.url}/subscribe_events?token=${s.token}`);
    const c = await s.api('/api/events/stream');
    expect(c.status).toBe(503);
    expect(await c.json()).toEqual({ success: false, message: expect.stringMatching(/at most 2/), error_code: 'OVERLOADED' });
    a.close();
    await a.closed;
    let d = await s.api('/api/events/stream');
    for (let i = 0; i < 50 && d.status !== 200; i++) {
      await d.body?.cancel();
      await tick();
      d = await s.api('/api/events/stream');
    }
    expect(d.status).toBe(200);
    await d.body?.cancel();
    b.close();
  });
});
