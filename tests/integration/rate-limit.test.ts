import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW: '1' });
});
afterAll(() => s.close());

test('limited responses carry the headers; past the limit comes 429 with reset', async () => {
  // The token request in startTestServer was counted against this address, not against the user.
  const seen: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 5; i++) {
    last = await s.api('/api/config');
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-limit')).toBe('5');
    seen.push(Number(last.headers.get('x-ratelimit-remaining')));
  }
  expect(seen).toEqual([4, 3, 2, 1, 0]);
  const reset = Number(last!.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now + 60));

  const limited = await s.api('/api/config');
  expect(limited.status).toBe(429);
  expect(await limited.json()).toEqual({ error: true, code: 'RATE_LIMITED', message: expect.any(String), reset });
  expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
});

test('clients are counted apart: another address is not limited by this user', async () => {
  const res = await fetch(`${s.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(res.status).toBe(400);
  expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(3);
});

test('/health is never limited', async () => {
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${s.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  }
});
