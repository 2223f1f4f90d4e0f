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
  const sink = new Writable({ write: (chunk, _e, cb) => (logLines.push(String(chunk)), cb()) });
  s = await startTestServer({}, { log: pino({ level: 'info' }, sink) });
  await s.app.hub.ready();
});
afterAll(() => s.close());

/** One raw HTTP/1.1 request, as written (fetch would refuse to send a bad Host). */
function raw(head: string, body = ''): Promise<{ status: number; text: string }> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`));
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
    ['GET /oauth/authorize?response_type=code&client_id=x&redirect_uri=https%3A%2F%2Fa.example%2Fcb&code_challenge=' + challenge + '&code_challenge_method=S256', '', ''],
    ['POST /mcp', 'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer TOKEN', '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'],
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
