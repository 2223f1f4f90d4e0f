// Addresses the bridge trusts or refuses to reach, whatever their spelling: the ingress proxy given
// as ::1 matches the peer uWS reports in full, and metadata documents are not fetched from private
// IPv4 addresses carried inside IPv6 (NAT64, 6to4, IPv4-compatible, Teredo, ISATAP).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestFrom } from '../helpers/request-from.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const USER_ID = 'f1e2d3c4b5a697887766554433221100';
const haUser = { 'x-remote-user-id': USER_ID, 'x-remote-user-name': 'jane', 'x-remote-user-display-name': 'Jane Doe' };

describe('INGRESS_PROXY in IPv6', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ HOST: '::', INGRESS_PROXY: '::1', INGRESS_USERS: 'all' });
  });
  afterAll(() => s?.close());

  test('::1 matches a request from ::1 (reported by uWS as 0000:...:0001); another address does not', async () => {
    const res = await requestFrom('::1', `http://[::1]:${s.app.port}/api/me`, { headers: haUser });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ via: 'ingress', home_assistant_user: { id: USER_ID } });
    expect((await requestFrom('127.0.0.1', `http://127.0.0.1:${s.app.port}/api/me`, { headers: haUser })).status).toBe(401);
  });
});

describe('metadata documents at private addresses in IPv6 clothing', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  test.each(['64:ff9b::7f00:1', '64:ff9b::a00:1', '2002:7f00:1::1', '::7f00:1', '2001:0:a00:1::1', 'fe80::5efe:a00:1', '::ffff:0:7f00:1'])(
    'https://[%s]/... is refused as private, never fetched',
    async (ip) => {
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: `https://[${ip}]/client.json`,
        redirect_uri: 'https://a.example/cb',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
      });
      const res = await fetch(`${s.url}/oauth/authorize?${q}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/private address/);
    },
  );
});
