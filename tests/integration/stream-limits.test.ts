// Event streams and MCP sessions under misuse: the query token taken only by its own name and
// never logged, every kind of stream counted against SSE_MAX_CONNECTIONS, MCP sessions capped per
// client, the connection history bounded by count, and a slow client given its closing frame.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('the query token', () => {
  let s: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write: (chunk, _e, cb) => {
        lines.push(String(chunk));
        cb();
      },
    });
    s = await startTestServer({ LOG_LEVEL: 'debug' }, { log: pino({ level: 'debug' }, sink) });
  });
  afterAll(() => s?.close());

  const open = async (query: string) => {
    const stop = new AbortController();
    const res = await fetch(`${s.url}/subscribe_events?${query}`, { signal: stop.signal });
    stop.abort();
    return res.status;
  };

  test('is taken by its literal name only, and no spelling of it reaches the log', async () => {
    expect(await open(`token=${s.token}`)).toBe(200);
    // Percent-encoded names are other parameters: not a token.
    expect(await open(`%74oken=${s.token}`)).toBe(401);
    expect(await open(`%54OKEN=${s.token}&x=1`)).toBe(401);
    expect(await open(`to%6Ben=${encodeURIComponent(s.token)}`)).toBe(401);
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join('');
    expect(log).toMatch(/subscribe_events/);
    expect(log).not.toContain(s.token);
    expect(log).not.toContain(s.token.slice(-20));
  });
});

describe('streams of every kind count against SSE_MAX_CONNECTIONS', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SSE_MAX_CONNECTIONS: '2' });
  });
  afterAll(() => s?.close());

  const open = async (path: string) => {
    const stop = new AbortController();
    const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${s.token}`, accept: 'text/event-stream' }, signal: stop.signal });
    return { status: res.status, body: res.status === 200 ? undefined : await res.json(), close: () => stop.abort() };
  };

  test('two legacy MCP /sse streams fill it: a third stream of either kind gets 503; closing one frees a place', async () => {
    const a = await open('/sse');
    const b = await open('/sse');
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await open('/sse');
    expect(c.status).toBe(503);
    const events = await open('/api/events/stream');
    expect(events).toMatchObject({ status: 503, body: { error_code: 'OVERLOADED' } });
    a.close();
    let again = await open('/api/events/stream');
    for (let i = 0; i < 50 && again.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await open('/api/events/stream');
    }
    expect(again.status).toBe(200);
    again.close();
    b.close();
  });
});

describe('MCP sessions per client', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ MCP_MAX_SESSIONS: '3' });
  });
  afterAll(() => s?.close());

  const initialize = async (token = s.token) => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    await res.text();
    return res.headers.get('mcp-session-id')!;
  };
  const ping = async (sid: string) =>
    (
      await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${s.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sid,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      })
    ).status;

  test('past MCP_MAX_SESSIONS, a new session ends the one the client used least recently', async () => {
    const ids = [await initialize(), await initialize(), await initialize()];
    // The first is used again, so the second is the least recently used.
    expect(await ping(ids[0]!)).toBe(200);
    const fourth = await initialize();
    expect(await ping(fourth)).toBe(200);
    expect(await ping(ids[1]!)).toBe(404);
    expect(await ping(ids[0]!)).toBe(200);
    expect(await ping(ids[2]!)).toBe(200);
    const health = await s.call('/api/health');
    expect(health.body.mcp.sessions).toBe(3);
  });
});

describe('the connection history is bounded by count', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ STREAM_HISTORY_MAX_ROWS: '20' });
  });
  afterAll(() => s?.close());

  test('after 60 streams came and went, at most 20 (and a tenth) are kept, the newest', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const stop = new AbortController();
      const res = await fetch(`${s.url}/api/events/stream`, { headers: { authorization: `Bearer ${s.token}` }, signal: stop.signal });
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('connection_id')) text += new TextDecoder().decode((await reader.read()).value);
      ids.push(/"connection_id":"([^"]+)"/.exec(text)![1]!);
      stop.abort();
    }
    let rows: { id: string }[] = [];
    for (let i = 0; i < 100; i++) {
      rows = (await s.call('/api/sse/history?limit=1000')).body.data.connections;
      if (rows.some((r) => r.id === ids.at(-1))) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(rows.some((r) => r.id === ids.at(-1))).toBe(true);
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(rows.length).toBeLessThanOrEqual(22);
    expect(rows.map((r) => r.id).every((id) => ids.slice(-22).includes(id))).toBe(true);
  });
});

describe('a slow client closed at the buffer cap', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ STREAM_BUFFER_LIMIT: '65536', EVENT_SUB_RATE_LIMIT: '0' });
  });
  afterAll(() => s?.close());

  test('reads, through an HTTP client that checks the framing, whole frames and then the closing frame', async () => {
    const { request } = await import('node:http');
    const chunks: Buffer[] = [];
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(
        `${s.url}/api/events/stream?event_type=bulk`,
        { headers: { authorization: `Bearer ${s.token}`, 'user-agent': 'slow-http' } },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(200);
    res.on('data', (d: Buffer) => chunks.push(d));
    const outcome = new Promise<string>((resolve) => {
      res.on('end', () => resolve('end'));
      res.on('error', (e) => resolve(`error: ${e.message}`));
      res.on('aborted', () => resolve('aborted'));
    });
    const connections = async () => (await s.call('/api/sse/connections')).body.data.connections as { user_agent: string }[];
    while (!(await connections()).some((c) => c.user_agent === 'slow-http')) await new Promise((r) => setTimeout(r, 10));
    res.pause();
    const payload = 'x'.repeat(32_000);
    let n = 0;
    while ((await connections()).some((c) => c.user_agent === 'slow-http') && n < 20_000) {
      for (let i = 0; i < 100; i++)
        s.app.bus.emit('event', {
          event_type: 'bulk',
          data: { n: n++, payload },
          origin: 'LOCAL',
          time_fired: new Date().toISOString(),
          context: { id: 'x', parent_id: null, user_id: null },
        });
      await new Promise((r) => setTimeout(r, 5));
    }
    res.resume();
    expect(await outcome).toBe('end');
    const text = Buffer.concat(chunks).toString();
    const frames = text.split('\n\n').filter(Boolean);
    // Every frame whole, events numbered from 0 without a gap, and the last one says why it ended.
    const last = frames.at(-1)!;
    expect(last).toMatch(/^event: close\ndata: \{"reason":"buffer_limit"/);
    const numbers = frames.filter((f) => f.startsWith('id:')).map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)).data.n as number);
    expect(numbers).toEqual([...numbers.keys()]);
  }, 60_000);
});
