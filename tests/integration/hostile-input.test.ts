// What an unauthenticated stranger can send that no client would: a malformed Host header, JSON
// nested thousands of levels deep. Each is a 400, never a 500 or a stack trace in the log.
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const logLines: string[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write: (chunk, _e, cb) => {
      logLines.push(String(chunk));
      cb();
    },
  });
  s = await startTestServer({}, { log: pino({ level: 'info' }, sink) });
  await s.app.hub.ready();
});
afterAll(() => s.close());

/** One raw HTTP/1.1 request, as written (fetch would refuse to send a bad Host). */
function raw(head: string, body = ''): Promise<{ status: number; text: string }> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.end(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`),
    );
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on('error', reject);
  });
}

describe('a malformed Host header', () => {
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  test.each([
    ['POST /oauth/token', 'Content-Type: application/x-www-form-urlencoded', 'grant_type=refresh_token&refresh_token=x&client_id=y'],
    [
      `GET /oauth/authorize?response_type=code&client_id=x&redirect_uri=https%3A%2F%2Fa.example%2Fcb&code_challenge=${challenge}&code_challenge_method=S256`,
      '',
      '',
    ],
    [
      'POST /mcp',
      'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer TOKEN',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
    ],
    ['GET /.well-known/oauth-authorization-server', '', ''],
    ['GET /api/state', 'Authorization: Bearer TOKEN', ''],
    ['GET /api/events/stream', 'Authorization: Bearer TOKEN', ''],
    ['GET /api/ws', 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13', ''],
    ['GET /health', '', ''],
    ['GET /no/such/path', '', ''],
  ])('%s: 400, and nothing at error level in the log', async (line, headers, body) => {
    for (const host of ['a b', 'a/b', 'a@b', '[::1', 'a:b:c']) {
      const before = logLines.length;
      const [method, path] = line.split(' ');
      const r = await raw([`${method} ${path} HTTP/1.1`, `Host: ${host}`, headers.replace('TOKEN', s.token)].filter(Boolean).join('\r\n'), body);
      expect(r.status, `${host}: ${r.text.slice(0, 300)}`).toBe(400);
      expect(r.text).toMatch(/Host/);
      expect(logLines.slice(before).filter((l) => /"level":50/.test(l))).toEqual([]);
    }
  });

  test('a good Host (with a port, or an IPv6 literal) is served as before', async () => {
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:8123', 'homeassistant.local']) {
      const r = await raw(['GET /health HTTP/1.1', `Host: ${host}`].join('\r\n'));
      expect(r.status, host).toBe(200);
    }
  });
});

describe('JSON nested too deeply', () => {
  /** `{"a":{"a":...1...}}` n levels deep, written out (JSON.stringify itself overflows near 4,000). */
  const nested = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  const post = async (path: string, body: string) => {
    const before = logLines.length;
    const res = await s.api(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
    const text = await res.text();
    expect(logLines.slice(before).filter((l) => /"level":50/.test(l))).toEqual([]);
    return { status: res.status, text };
  };

  test.each([40, 4102, 5000])('%i levels of pass-through parameters: 400 on every JSON entrance, nothing stored', async (n) => {
    const p = nested(n);
    for (const [path, body] of [
      ['/api/scene', `{"name":"deep ${n}","actions":[{"entity_id":"light.hallway","action":"turn_on","parameters":${p}}]}`],
      ['/api/device/control', `{"entity_id":"light.hallway","action":"turn_on","parameters":${p}}`],
      ['/api/group/nobody/control', `{"action":"turn_on","parameters":${p}}`],
      ['/api/tools/call', `{"name":"control_lights","arguments":{"entity_id":"light.hallway","x":${p}}}`],
      [
        '/mcp',
        `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":${p},"clientInfo":{"name":"t","version":"1"}}}`,
      ],
      ['/oauth/register', `{"redirect_uris":["https://a.example/cb"],"x":${p}}`],
    ] as const) {
      const r = await post(path, body);
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(400);
      expect(r.text, path).toMatch(/nested more than 32 levels deep/);
    }
    expect((await s.call(`/api/scene/deep%20${n}`)).status).toBe(404);
  });

  test('a WebSocket message nested too deeply gets an error reply; the socket stays open', async () => {
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
    const replies: any[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (m.type !== 'connected') replies.push(m);
    });
    await new Promise((r) => ws.once('open', r));
    ws.send(`{"type":"subscribe_events","id":1,"event_type":${nested(5000)}}`);
    ws.send('{"type":"get_sse_stats","id":2}');
    for (let i = 0; i < 100 && replies.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    ws.close();
    expect(replies[0]).toMatchObject({ type: 'error', id: null, error: { code: 'BAD_REQUEST' } });
    expect(replies[0].error.message).toMatch(/nested more than 32 levels deep/);
    expect(replies[1]).toMatchObject({ type: 'get_sse_stats_result', id: 2, success: true });
  });

  test('what is stored can be activated: a scene as deep as admitted activates with the hub answering for itself', async () => {
    // 32 levels in all: the body, actions, the action, then 29 in parameters.
    const body = `{"name":"deepest","actions":[{"entity_id":"light.hallway","action":"turn_on","parameters":${nested(29)}}]}`;
    const stored = await post('/api/scene', body);
    expect(stored.status, stored.text.slice(0, 200)).toBe(200);
    const r = await s.call('/api/scene/deepest/activate', 'POST');
    // Home Assistant refuses the unknown key in its own words; nothing broke on the way there.
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'a' } });
  });
});
