// A stream that fell behind and then reads again gets every event, the last ones included, with
// no later event to carry them out (uWS sends what it holds for a response only with a write made
// in the drain handler).
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('an SSE client that pauses and reads again', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ STREAM_BUFFER_LIMIT: String(64 * 1048576), EVENT_SUB_RATE_LIMIT: '0' });
  });
  afterAll(() => s?.close());

  test('gets every event once it reads again, though none comes after', async () => {
    const { request } = await import('node:http');
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(
        `${s.url}/api/events/stream?event_type=bulk`,
        { headers: { authorization: `Bearer ${s.token}`, 'user-agent': 'pausing-http' } },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(200);
    const ids: number[] = [];
    let rest = '';
    const total = 400;
    const all = new Promise<void>((resolve, reject) => {
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        const lines = (rest + d).split('\n');
        rest = lines.pop()!;
        for (const line of lines) {
          const n = line.startsWith('data: ') ? JSON.parse(line.slice(6)).data?.n : undefined;
          if (typeof n === 'number') ids.push(n);
        }
        if (ids.length >= total) resolve();
      });
      res.on('end', () => reject(new Error(`stream ended after ${ids.length} events`)));
    });
    const connections = async () => (await s.call('/api/sse/connections')).body.data.connections as { user_agent: string }[];
    while (!(await connections()).some((c) => c.user_agent === 'pausing-http')) await new Promise((r) => setTimeout(r, 10));
    res.pause();
    // Far more than the sockets' buffers hold, so the bridge is left holding some.
    const payload = 'x'.repeat(32_000);
    for (let n = 0; n < total; n++) {
      s.app.bus.emit('event', {
        event_type: 'bulk',
        data: { n, payload },
        origin: 'LOCAL',
        time_fired: new Date().toISOString(),
        context: { id: 'x', parent_id: null, user_id: null },
      });
      if (n % 50 === 49) await new Promise((r) => setTimeout(r, 5));
    }
    res.resume();
    await all;
    expect(ids).toEqual([...Array(total).keys()]);
    res.destroy();
  }, 60_000);
});
