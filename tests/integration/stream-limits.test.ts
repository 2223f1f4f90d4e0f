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
    const sink = new Writable({ write: (chunk, _e, cb) => (lines.push(String(chunk)), cb()) });
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
