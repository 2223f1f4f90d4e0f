// Live events through the running bridge: stored subscriptions over REST, SSE streams with filters
// and resumption, the WebSocket channel, delivery limits and the statistics, against the simulator.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { serviceEvent } from '../../src/bus.js';
import type { HubEvent } from '../../src/hub/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSse, type SseClient, type SseFrame } from '../helpers/sse.js';

const OTHER = { username: 'other', password: 'another password' };

function usersFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hmb-users-'));
  const file = join(dir, 'users.yaml');
  writeFileSync(file, `users:\n  - username: ${OTHER.username}\n    password: ${OTHER.password}\n`);
  return file;
}

async function tokenOf(s: TestServer, user: { username: string; password: string }): Promise<string> {
  const res = await fetch(`${s.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A state change as the hub sends it. */
function stateChanged(entityId: string, state: string, attributes: Record<string, unknown> = {}): HubEvent {
  const now = new Date().toISOString();
  const s = (st: string) => ({
    entity_id: entityId,
    state: st,
    attributes,
    last_changed: now,
    last_updated: now,
    context: { id: 'c', parent_id: null, user_id: null },
  });
  return {
    event_type: 'state_changed',
    data: { entity_id: entityId, old_state: s('before'), new_state: s(state) },
    origin: 'LOCAL',
    time_fired: now,
    context: { id: `ctx-${Math.random()}`, parent_id: null, user_id: 'u1' },
  };
}

const eventsOf = (frames: SseFrame[]) => frames.filter((f) => f.event === 'message');
const stream = (s: TestServer, query = '', headers: Record<string, string> = {}) =>
  openSse(`${s.url}/api/events/stream${query}`, { authorization: `Bearer ${s.token}`, ...headers });

/** Waits until the bridge has delivered what was emitted so far (its flush runs once per tick). */
const tick = () => new Promise((r) => setTimeout(r, 20));

let s: TestServer;
let other: string;
let files: string;

beforeAll(async () => {
  files = usersFile();
  s = await startTestServer({ CONFIG_FILE: files, EVENT_SUB_MAX_SUBSCRIPTIONS: '5' });
  other = await tokenOf(s, OTHER);
});
afterAll(async () => {
  await s?.close();
  rmSync(join(files, '..'), { recursive: true, force: true });
});

describe('stored subscriptions (REST)', () => {
  test('subscribe, list with last_event, 409 for the same filters, unsubscribe by body and by query', async () => {
    const a = await s.call('/api/events/subscribe', 'POST', { event_type: 'state_changed', domain: 'switch' });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      success: true,
      data: { subscription_id: expect.any(String), event_type: 'state_changed', entity_id: null, domain: 'switch', created_at: expect.any(String) },
    });
    const again = await s.call('/api/events/subscribe', 'POST', { domain: 'switch', event_type: 'state_changed' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: true, code: 'CONFLICT' });

    s.app.bus.emit('event', stateChanged('switch.coffee_maker', 'on'));
    await tick();
    const list = await s.call('/api/events/subscriptions');
    expect(list.body.data.subscriptions).toEqual([
      expect.objectContaining({
        id: a.body.data.subscription_id,
        subscription_id: a.body.data.subscription_id,
        domain: 'switch',
        last_event: expect.any(String),
      }),
    ]);

    const b = await s.call('/api/events/subscribe', 'POST', { entity_id: 'light.hallway' });
    const byBody = await s.call('/api/events/unsubscribe', 'DELETE', { subscription_id: a.body.data.subscription_id });
    expect(byBody.status).toBe(200);
    expect(byBody.body.data.subscription_id).toBe(a.body.data.subscription_id);
    const byQuery = await s.call(`/api/events/unsubscribe?subscription_id=${b.body.data.subscription_id}`, 'DELETE');
    expect(byQuery.status).toBe(200);
    expect((await s.call('/api/events/subscriptions')).body.data.subscriptions).toEqual([]);
    const gone = await s.call('/api/events/unsubscribe', 'DELETE', { subscription_id: a.body.data.subscription_id });
    expect(gone.status).toBe(404);
    const none = await s.call('/api/events/unsubscribe', 'DELETE');
    expect(none.status).toBe(400);
  });

  test('invalid filters are 400 naming the field: malformed entity id or domain, unknown keys, wrong types', async () => {
    for (const [body, field] of [
      [{ entity_id: 'Light.Kitchen' }, 'entity_id'],
      [{ entity_id: 'kitchen' }, 'entity_id'],
      [{ domain: 'li ght' }, 'domain'],
      [{ event_type: 'x'.repeat(65) }, 'event_type'],
      [{ domain: 5 }, 'domain'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const r = await s.call('/api/events/subscribe', 'POST', body);
      expect({ body, status: r.status, code: r.body.code, field: r.body.details?.field }).toEqual({ body, status: 400, code: 'INVALID_PARAMETERS', field });
    }
    const list = await s.call('/api/events/subscribe', 'POST', ['state_changed']);
    expect(list.status).toBe(400);
    // No body is every event; a body of JSON null is a body, and not an object.
    const nul = await s.api('/api/events/subscribe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'null' });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { message: string }).message).toMatch(/must be an object/);
  });

  test('a client cannot see or remove another client’s subscription; the cap is per client (429)', async () => {
    const mine = await s.call('/api/events/subscribe', 'POST', { entity_id: 'lock.front_door' });
    const theirs = await fetch(`${s.url}/api/events/unsubscribe`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subscription_id: mine.body.data.subscription_id }),
    });
    expect(theirs.status).toBe(404);
    const theirList = (await (await fetch(`${s.url}/api/events/subscriptions`, { headers: { authorization: `Bearer ${other}` } })).json()) as any;
    expect(theirList.data.subscriptions).toEqual([]);
    const created: string[] = [mine.body.data.subscription_id];
    for (let i = 1; i < 5; i++) created.push((await s.call('/api/events/subscribe', 'POST', { entity_id: `light.l${i}` })).body.data.subscription_id);
    const over = await s.call('/api/events/subscribe', 'POST', { entity_id: 'light.l9' });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: true, code: 'SUBSCRIPTION_LIMIT', details: { limit: 5 } });
    // The other client has its own budget.
    const theirsOk = await fetch(`${s.url}/api/events/subscribe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity_id: 'light.l9' }),
    });
    expect(theirsOk.status).toBe(200);
    for (const id of created) await s.call('/api/events/unsubscribe', 'DELETE', { subscription_id: id });
  });
});

describe('SSE streams', () => {
  test('filters by event_type, entity_id, domain and their combination; frames carry the history id', async () => {
    const streams: Record<string, SseClient> = {
      type: await stream(s, '?event_type=custom_ping'),
      entity: await stream(s, '?entity_id=light.bedroom_lamp'),
      domain: await stream(s, '?domain=cover'),
      both: await stream(s, '?event_type=state_changed&domain=light'),
    };
    for (const c of Object.values(streams)) {
      expect(c.status).toBe(200);
      expect(c.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await c.until((f) => f.some((x) => x.event === 'connected'));
    }
    s.app.bus.emit('event', serviceEvent('custom_ping', { n: 1 }));
    s.app.bus.emit('event', stateChanged('light.bedroom_lamp', 'on'));
    s.app.bus.emit('event', stateChanged('cover.garage_door', 'open'));
    s.app.bus.emit('event', stateChanged('light.hallway', 'on'));
    s.app.bus.emit('event', stateChanged('switch.coffee_maker', 'on'));
    const want = { type: ['custom_ping'], entity: ['light.bedroom_lamp'], domain: ['cover.garage_door'], both: ['light.bedroom_lamp', 'light.hallway'] };
    for (const [name, c] of Object.entries(streams)) {
      const n = want[name as keyof typeof want].length;
      const frames = eventsOf(await c.until((f) => eventsOf(f).length >= n));
      await tick();
      expect(eventsOf(c.frames).map((f) => f.json.entity_id ?? f.json.event_type)).toEqual(want[name as keyof typeof want]);
      for (const f of frames) expect(Number(f.id)).toBeGreaterThan(0);
      c.close();
    }
  });

  test('the event message has the interface’s shape, and a change made through the hub arrives', async () => {
    const c = await stream(s, '?entity_id=light.office_desk');
    await c.until((f) => f.some((x) => x.event === 'connected'));
    const sim = s.app.simulator!;
    const r = await fetch(`${sim.url}/api/states/light.office_desk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'on', attributes: { brightness: 99 } }),
    });
    expect(r.ok).toBe(true);
    const [msg] = eventsOf(await c.until((f) => eventsOf(f).length >= 1)).map((f) => f.json);
    expect(msg).toEqual({
      event_type: 'state_changed',
      entity_id: 'light.office_desk',
      data: {
        entity_id: 'light.office_desk',
        old_state: expect.objectContaining({ state: expect.any(String), attributes: expect.any(Object), last_changed: expect.any(String) }),
        new_state: expect.objectContaining({ state: 'on', attributes: expect.objectContaining({ brightness: 99 }), last_changed: expect.any(String) }),
      },
      origin: 'LOCAL',
      time_fired: expect.any(String),
      context: { id: expect.any(String), parent_id: null, user_id: expect.anything() },
    });
    c.close();
  });

  test('a stream without filters follows the client’s stored subscriptions, live; with none it gets everything', async () => {
    const c = await stream(s);
    await c.until((f) => f.some((x) => x.event === 'connected'));
    s.app.bus.emit('event', serviceEvent('anything_at_all', {}));
    await c.until((f) => eventsOf(f).some((x) => x.json.event_type === 'anything_at_all'));
    const sub = await s.call('/api/events/subscribe', 'POST', { entity_id: 'fan.bedroom_fan' });
    s.app.bus.emit('event', serviceEvent('not_for_me', {}));
    s.app.bus.emit('event', stateChanged('fan.bedroom_fan', 'on'));
    await c.until((f) => eventsOf(f).some((x) => x.json.entity_id === 'fan.bedroom_fan'));
    expect(eventsOf(c.frames).map((f) => f.json.event_type)).toEqual(['anything_at_all', 'state_changed']);
    const conn = await s.call('/api/sse/connections');
    const mine = conn.body.data.connections.find((x: any) => x.user_agent !== 'x' && x.subscriptions.some((y: any) => y.id === sub.body.data.subscription_id));
    expect(mine).toBeDefined();
    await s.call('/api/events/unsubscribe', 'DELETE', { subscription_id: sub.body.data.subscription_id });
    s.app.bus.emit('event', serviceEvent('everything_again', {}));
    await c.until((f) => eventsOf(f).some((x) => x.json.event_type === 'everything_again'));
    c.close();
  });

  test('/subscribe_events takes the token in the query; no other HTTP route does', async () => {
    const c = await openSse(`${s.url}/subscribe_events?token=${s.token}&domain=vacuum`);
    expect(c.status).toBe(200);
    await c.until((f) => f.some((x) => x.event === 'connected'));
    s.app.bus.emit('event', stateChanged('vacuum.robot_vacuum', 'cleaning'));
    await c.until((f) => eventsOf(f).length === 1);
    c.close();
    const bad = await fetch(`${s.url}/subscribe_events?token=nope`);
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ success: false, error_code: 'AUTHENTICATION_ERROR' });
    for (const route of s.app.routes.routes()) {
      if (route.public || route.queryToken || route.path.includes(':')) continue;
      const res = await fetch(`${s.url}${route.path}?token=${s.token}`, {
        method: route.method,
        headers: { 'content-type': 'application/json' },
        body: route.method === 'GET' ? undefined : '{}',
      });
      expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, status: 401 });
      await res.body?.cancel();
    }
  });

  test('a bad filter or Last-Event-ID is 400 in the SSE error shape', async () => {
    for (const q of ['?entity_id=nope', '?domain=A', '?last_event_id=x']) {
      const r = await s.api(`/api/events/stream${q}`);
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMETERS' });
    }
    const h = await s.api('/api/events/stream', { headers: { 'last-event-id': 'abc' } });
    expect(h.status).toBe(400);
    expect(await h.json()).toMatchObject({ success: false, error_code: 'BAD_REQUEST' });
  });
});

describe('history', () => {
  test('filters, time range, limits and a cursor over pages, newest first or oldest first', async () => {
    const marker = `hist_${Date.now()}`;
    for (let i = 0; i < 7; i++) s.app.bus.emit('event', serviceEvent(marker, { i }));
    await tick();
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const r = await s.call(`/api/events/history?event_type=${marker}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.events.map((e: any) => e.data.i));
      cursor = r.body.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0]);
    const asc = await s.call(`/api/events/history?event_type=${marker}&order=asc&limit=2`);
    expect(asc.body.data.events.map((e: any) => e.data.i)).toEqual([0, 1]);
    const wrongOrder = await s.call(`/api/events/history?event_type=${marker}&cursor=${asc.body.data.next_cursor}`);
    expect(wrongOrder.status).toBe(400);
    const future = await s.call(`/api/events/history?event_type=${marker}&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.body.data.events).toEqual([]);
    for (const q of ['limit=0', 'limit=1001', 'since=yesterday', 'cursor=zzz', 'entity_id=x', 'order=up']) {
      const r = await s.call(`/api/events/history?${q}`);
      expect({ q, status: r.status }).toEqual({ q, status: 400 });
    }
  });
});

describe('WebSocket channel', () => {
  const connect = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ ws: WebSocket; next: () => Promise<any>; closed: Promise<{ code: number; reason: string }> }>((resolve, reject) => {
      const ws = new WebSocket(`${s.url.replace('http', 'ws')}${path}`, { headers });
      const queue: any[] = [];
      const waiting: ((m: any) => void)[] = [];
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        const w = waiting.shift();
        if (w) w(m);
        else queue.push(m);
      });
      const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
      ws.on('open', () => resolve({ ws, closed, next: () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r))) }));
      ws.on('error', reject);
    });
  const ask = async (c: { ws: WebSocket; next: () => Promise<any> }, msg: unknown) => {
    c.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
    return c.next();
  };

  test('the token at the upgrade, in the query, or as the first message; a bad one at the upgrade is 401', async () => {
    const byHeader = await connect('/api/ws', { authorization: `Bearer ${s.token}` });
    expect(await byHeader.next()).toMatchObject({ type: 'connected', data: { client_id: 'tester' } });
    byHeader.ws.close();
    const byQuery = await connect(`/ws?token=${s.token}`);
    expect(await byQuery.next()).toMatchObject({ type: 'connected' });
    byQuery.ws.close();
    const byMessage = await connect('/ws');
    expect(await byMessage.next()).toMatchObject({ type: 'auth_required' });
    expect(await ask(byMessage, { type: 'get_sse_stats', id: 1 })).toMatchObject({ type: 'error', id: 1, error: { code: 'AUTHENTICATION_ERROR' } });
    expect(await ask(byMessage, { type: 'auth', token: s.token, id: 'a' })).toMatchObject({
      type: 'auth_result',
      id: 'a',
      success: true,
      data: { client_id: 'tester' },
    });
    expect(await ask(byMessage, { type: 'get_sse_stats', id: 2 })).toMatchObject({
      type: 'get_sse_stats_result',
      id: 2,
      success: true,
      data: { active_connections: expect.any(Number) },
    });
    byMessage.ws.close();
    await expect(connect('/ws', { authorization: 'Bearer nope' })).rejects.toThrow(/401/);
    const badAuth = await connect('/ws');
    await badAuth.next();
    expect(await ask(badAuth, { type: 'auth', token: 'nope' })).toMatchObject({ type: 'error', error: { code: 'AUTHENTICATION_ERROR' } });
    expect((await badAuth.closed).code).toBe(4401);
  });

  test('every bad message gets an error reply and the connection stays', async () => {
    const c = await connect('/api/ws', { authorization: `Bearer ${s.token}` });
    await c.next();
    const bad: [unknown, string][] = [
      ['not json', 'BAD_REQUEST'],
      ['[1,2]', 'BAD_REQUEST'],
      ['"text"', 'BAD_REQUEST'],
      [{ id: 1 }, 'INVALID_PARAMETERS'],
      [{ type: 7 }, 'INVALID_PARAMETERS'],
      [{ type: 'no_such_type', id: 'x' }, 'BAD_REQUEST'],
      [{ type: 'get_sse_connection', id: 2 }, 'INVALID_PARAMETERS'],
      [{ type: 'get_sse_connection', id: 3, connection_id: 'nope' }, 'NOT_FOUND'],
      [{ type: 'get_sse_metrics', id: 4, period: '2h' }, 'INVALID_PARAMETERS'],
      [{ type: 'subscribe_events', id: 5, entity_id: 'NOT valid' }, 'INVALID_PARAMETERS'],
      [{ type: 'subscribe_events', id: 6, colour: 'red' }, 'INVALID_PARAMETERS'],
      [{ type: 'unsubscribe_events', id: 7 }, 'INVALID_PARAMETERS'],
      [{ type: 'unsubscribe_events', id: 8, subscription_id: 'nope' }, 'NOT_FOUND'],
      [{ type: 'get_sse_stats', id: { no: 1 } }, 'INVALID_PARAMETERS'],
      [{ type: 'auth', token: s.token }, 'BAD_REQUEST'],
    ];
    for (const [msg, code] of bad) {
      const r = await ask(c, msg);
      expect({ msg, type: r.type, code: r.error?.code }).toEqual({ msg, type: 'error', code });
    }
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await c.next()).toMatchObject({ type: 'error', error: { code: 'BAD_REQUEST' } });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  test('a message over 64 KiB is refused in words: an error naming the limit, then close 1009 with the reason; up to the limit is read', async () => {
    const c = await connect('/api/ws', { authorization: `Bearer ${s.token}` });
    await c.next();
    // Exactly the limit is a message like any other (here an unknown type, answered and kept).
    const atLimit = JSON.stringify({ type: 'no_such_type', id: 'fits', pad: '' });
    const fits = await ask(c, atLimit.replace('"pad":""', `"pad":"${'x'.repeat(64 * 1024 - atLimit.length)}"`));
    expect(fits).toMatchObject({ type: 'error', id: 'fits', error: { code: 'BAD_REQUEST' } });
    const size = 64 * 1024 + 1;
    c.ws.send(JSON.stringify({ type: 'get_sse_stats', pad: 'x'.repeat(size - 35) }).padEnd(size, ' '));
    expect(await c.next()).toEqual({
      type: 'error',
      id: null,
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: `The message is ${size} bytes; messages may be at most 65536 bytes (64 KiB)`,
        details: { limit: 65536, size },
      },
    });
    expect(await c.next()).toMatchObject({ type: 'closing', reason: 'message_too_large', message: expect.stringContaining('65536 bytes') });
    expect(await c.closed).toEqual({ code: 1009, reason: 'a message was larger than the limit of 65536 bytes (64 KiB)' });
    // A larger one, still within what uWS reads, and before authenticating: the same answer.
    const early = await connect('/ws');
    expect(await early.next()).toMatchObject({ type: 'auth_required' });
    early.ws.send(Buffer.alloc(500 * 1024, 0x20));
    expect(await early.next()).toMatchObject({ type: 'error', error: { code: 'PAYLOAD_TOO_LARGE', details: { limit: 65536, size: 500 * 1024 } } });
    expect((await early.closed).code).toBe(1009);
  });

  test('subscribe_events delivers events with the subscription id; 409 on a repeat; unsubscribe stops them; stats by message', async () => {
    const c = await connect('/ws', { authorization: `Bearer ${s.token}` });
    const hello = await c.next();
    const sub = await ask(c, { type: 'subscribe_events', id: 1, entity_id: 'climate.bedroom' });
    expect(sub).toMatchObject({
      type: 'subscribe_events_result',
      id: 1,
      success: true,
      data: { subscription_id: expect.any(String), entity_id: 'climate.bedroom', event_type: null, domain: null },
    });
    expect(await ask(c, { type: 'subscribe_events', id: 2, entity_id: 'climate.bedroom' })).toMatchObject({
      type: 'error',
      id: 2,
      error: { code: 'CONFLICT' },
    });
    s.app.bus.emit('event', stateChanged('climate.bedroom', 'heat'));
    expect(await c.next()).toMatchObject({
      type: 'event',
      subscription_id: sub.data.subscription_id,
      seq: expect.any(Number),
      event: { entity_id: 'climate.bedroom', data: { new_state: { state: 'heat' } } },
    });
    const info = await ask(c, { type: 'get_sse_connection', id: 3, connection_id: hello.data.connection_id });
    expect(info).toMatchObject({
      type: 'get_sse_connection_result',
      success: true,
      data: {
        connection: {
          id: hello.data.connection_id,
          transport: 'websocket',
          events_sent: 1,
          subscriptions: [{ id: sub.data.subscription_id, entity_id: 'climate.bedroom' }],
        },
      },
    });
    expect(await ask(c, { type: 'get_sse_metrics', id: 4, period: '24h' })).toMatchObject({
      type: 'get_sse_metrics_result',
      success: true,
      data: { period: '24h', metrics: { latency: { p50: expect.any(Number) } } },
    });
    expect(await ask(c, { type: 'unsubscribe_events', id: 5, subscription_id: sub.data.subscription_id })).toMatchObject({
      type: 'unsubscribe_events_result',
      id: 5,
      success: true,
    });
    s.app.bus.emit('event', stateChanged('climate.bedroom', 'off'));
    await tick();
    expect(await ask(c, { type: 'get_sse_stats', id: 6 })).toMatchObject({ type: 'get_sse_stats_result', id: 6 });
    c.ws.close();
  });
});

describe('statistics', () => {
  test('stats, connections, one connection, metrics for each period, history of closed ones; errors in the SSE shape', async () => {
    const c = await stream(s, '?domain=sensor');
    const connected = (await c.until((f) => f.some((x) => x.event === 'connected'))).find((f) => f.event === 'connected')!.json;
    s.app.bus.emit('event', stateChanged('sensor.outdoor_temperature', '12'));
    await c.until((f) => eventsOf(f).length === 1);
    const stats = await s.call('/api/sse/stats');
    expect(stats.body).toEqual({
      success: true,
      data: {
        active_connections: expect.any(Number),
        total_events_sent: expect.any(Number),
        events_per_second: expect.any(Number),
        memory_usage: expect.any(Number),
        cpu_usage: expect.any(Number),
        uptime: expect.stringMatching(/^P(\d+D)?T/),
        event_backlog: expect.any(Number),
      },
    });
    expect(stats.body.data.total_events_sent).toBeGreaterThan(0);
    const one = await s.call(`/api/sse/connections/${connected.connection_id}`);
    expect(one.body).toEqual({
      success: true,
      data: {
        connection: {
          id: connected.connection_id,
          transport: 'sse',
          client_id: 'tester',
          user_id: 'tester',
          connected_at: expect.any(String),
          last_event_at: expect.any(String),
          events_sent: 1,
          events_dropped: 0,
          subscriptions: [{ id: null, domain: 'sensor' }],
          state: 'active',
          ip_address: '127.0.0.1',
          user_agent: expect.any(String),
          queued_bytes: 0,
        },
      },
    });
    const missing = await s.call('/api/sse/connections/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, message: expect.any(String), error_code: 'NOT_FOUND' });
    for (const period of ['1h', '24h', '7d', '30d']) {
      const m = await s.call(`/api/sse/metrics?period=${period}`);
      expect(m.body).toMatchObject({
        success: true,
        data: {
          period,
          timestamp: expect.any(String),
          metrics: {
            connections: { current: expect.any(Number), max: expect.any(Number), average: expect.any(Number) },
            events: { total: expect.any(Number), rate: { current: expect.any(Number), max: expect.any(Number), average: expect.any(Number) } },
            latency: { p50: expect.any(Number), p95: expect.any(Number), p99: expect.any(Number) },
            resources: {
              memory: { current: expect.any(Number), max: expect.any(Number) },
              cpu: { current: expect.any(Number), max: expect.any(Number), average: expect.any(Number) },
            },
          },
        },
      });
    }
    const bad = await s.call('/api/sse/metrics?period=2h');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, message: expect.stringMatching(/1h, 24h, 7d, 30d/), error_code: 'INVALID_PARAMETERS' });
    c.close();
    await c.closed;
    let past: any[] = [];
    for (let i = 0; i < 50 && !past.some((p) => p.id === connected.connection_id); i++) {
      await tick();
      past = (await s.call('/api/sse/history?limit=1000')).body.data.connections;
    }
    expect(past.find((p) => p.id === connected.connection_id)).toMatchObject({
      transport: 'sse',
      client_id: 'tester',
      events_sent: 1,
      close_reason: 'client_closed',
      disconnected_at: expect.any(String),
    });
    const page = await s.call('/api/sse/history?limit=1');
    expect(page.body.data.connections).toHaveLength(1);
    if (page.body.data.next_cursor) expect((await s.call(`/api/sse/history?limit=1&cursor=${page.body.data.next_cursor}`)).status).toBe(200);
    expect((await s.call('/api/sse/history?cursor=zz')).body).toMatchObject({ success: false, error_code: 'BAD_REQUEST' });
  });
});
