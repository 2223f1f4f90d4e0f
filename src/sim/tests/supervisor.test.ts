// The simulator acting as the Supervisor for an add-on: the supervisor/api command, the
// Supervisor's REST answers, /core/websocket, and the ingress proxy in front of a real add-on
// (a tiny node:http server that records what reaches it).
import { type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { RawClient, type Simulator, startSimulator } from '../testing.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  remoteAddress: string;
  body: string;
  /** True once the request's body has ended. */
  ended: boolean;
  closed: boolean;
  firstChunk?: string;
}

/** The add-on: echoes what it got as JSON, answers /sse as an event stream the test drives. */
class Upstream {
  readonly seen: Seen[] = [];
  sse: ServerResponse | undefined;
  readonly wsSeen: IncomingMessage[] = [];
  private server: Server = createServer((req, res) => this.onRequest(req, res));
  private wss = new WebSocketServer({ server: this.server });
  private waiters = new Set<() => void>();

  constructor() {
    this.wss.on('connection', (ws, req) => {
      this.wsSeen.push(req);
      ws.on('message', (data, isBinary) => ws.send(isBinary ? data : `echo:${String(data)}`, { binary: isBinary }));
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Resolves once `check` holds (checked on every request event). */
  until<T>(check: () => T | undefined, ms = 3000): Promise<T> {
    return new Promise((resolve, reject) => {
      const run = () => {
        const v = check();
        if (v !== undefined && v !== false) {
          clearTimeout(timer);
          this.waiters.delete(run);
          resolve(v);
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(run);
        reject(new Error('upstream: condition not met'));
      }, ms);
      this.waiters.add(run);
      run();
    });
  }

  private changed(): void {
    for (const w of [...this.waiters]) w();
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const seen: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress ?? '',
      body: '',
      ended: false,
      closed: false,
    };
    this.seen.push(seen);
    req.on('data', (c: Buffer) => {
      seen.body += c.toString();
      seen.firstChunk ??= c.toString();
      this.changed();
    });
    req.on('end', () => {
      seen.ended = true;
      this.changed();
      if (req.url === '/sse') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
        res.flushHeaders();
        this.sse = res;
        this.changed();
        return;
      }
      const body = JSON.stringify({ method: seen.method, url: seen.url, body: seen.body });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] });
      res.end(body);
    });
    res.on('close', () => {
      seen.closed = true;
      this.changed();
    });
  }
}

const upstream = new Upstream();
let sim: Simulator;
let plainSim: Simulator;
let token: string;

const SOURCE = '127.0.0.2';

beforeAll(async () => {
  await upstream.start();
  sim = await startSimulator({ userToken: 'user-token', supervisor: { ingressSourceAddress: SOURCE } });
  plainSim = await startSimulator({});
  const addon = sim.supervisor!.installAddon({ slug: 'home_mcp_bridge', name: 'Home MCP Bridge', url: upstream.url, discovery: ['home_mcp_bridge'] });
  token = addon.ingressToken;
  sim.supervisor!.installAddon({ slug: 'streamer', url: upstream.url, ingressStream: true });
  sim.supervisor!.installAddon({ slug: 'sleeper', url: upstream.url, state: 'stopped' });
});
afterAll(async () => {
  await sim.stop();
  await plainSim.stop();
  await upstream.stop();
});

const api = (c: RawClient, endpoint: string, method = 'post', data?: Record<string, unknown>) =>
  c.command({ type: 'supervisor/api', endpoint, method, ...(data ? { data } : {}) });

async function newSession(userToken = sim.token): Promise<string> {
  const c = await RawClient.connect(sim.wsUrl, userToken);
  const r = await api(c, '/ingress/session');
  await c.close();
  expect(r.success).toBe(true);
  return r.result.session as string;
}

/** A request on a fresh connection, with the path exactly as written (fetch would normalise ../). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = httpRequest({ host: u.hostname, port: u.port, path: url.slice(u.origin.length), headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const ingress = (path = '', ingressToken = token) => `${sim.url}/api/hassio_ingress/${ingressToken}/${path}`;

describe('supervisor/api', () => {
  test('without a Supervisor it is an unknown command, as without the hassio integration', async () => {
    const c = await RawClient.connect(plainSim.wsUrl, plainSim.token);
    const r = await api(c, '/ingress/session');
    expect(r.success).toBe(false);
    expect(r.error).toEqual({ code: 'unknown_command', message: 'Unknown command.' });
    await c.close();
  });

  test('an admin reads add-on info; an unknown slug is the error HA relays', async () => {
    const c = await RawClient.connect(sim.wsUrl, sim.token);
    const info = await api(c, '/addons/home_mcp_bridge/info', 'get');
    expect(info.success).toBe(true);
    expect(info.result).toMatchObject({
      slug: 'home_mcp_bridge',
      name: 'Home MCP Bridge',
      hostname: 'home-mcp-bridge',
      state: 'started',
      ingress: true,
      ingress_url: `/api/hassio_ingress/${token}/`,
      ingress_entry: `/api/hassio_ingress/${token}`,
      ingress_port: Number(new URL(upstream.url).port),
    });
    const missing = await api(c, '/addons/nope/info', 'get');
    expect(missing.error).toEqual({ code: 'unknown_error', message: 'Addon nope does not exist' });
    // A route the Supervisor lacks answers plain text, which HA relays as an empty message.
    const unknownRoute = await api(c, '/nothing/here', 'get');
    expect(unknownRoute.error).toEqual({ code: 'unknown_error', message: '' });
    await c.close();
  });

  test('a non-admin may use the ingress endpoints only', async () => {
    const c = await RawClient.connect(sim.wsUrl, 'user-token');
    const session = await api(c, '/ingress/session');
    expect(session.success).toBe(true);
    expect(session.result.session).toMatch(/^[0-9a-f]{128}$/);
    expect((await api(c, '/addons/home_mcp_bridge/info', 'get')).success).toBe(true);
    const denied = await api(c, '/discovery', 'get');
    expect(denied.error).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
    await c.close();
  });

  test('validate_session renews a known session and fails for an unknown one', async () => {
    const c = await RawClient.connect(sim.wsUrl, sim.token);
    const session = (await api(c, '/ingress/session')).result.session as string;
    const before = sim.supervisor!.sessions().find((s) => s.session === session)!.validUntil;
    const ok = await api(c, '/ingress/validate_session', 'post', { session });
    expect(ok).toMatchObject({ success: true, result: {} });
    const after = sim.supervisor!.sessions().find((s) => s.session === session)!.validUntil;
    expect(after - before).toBe(15 * 60 * 1000);
    const bad = await api(c, '/ingress/validate_session', 'post', { session: 'f'.repeat(128) });
    expect(bad.error).toEqual({ code: 'unknown_error', message: '' });
    await c.close();
  });

  test('a session carries the calling user', async () => {
    const session = await newSession('user-token');
    const s = sim.supervisor!.sessions().find((x) => x.session === session);
    expect(s?.user).toMatchObject({ username: 'user', displayName: 'Simulator user' });
  });
});

describe('sessions lapse', () => {
  let short: Simulator;
  beforeAll(async () => {
    short = await startSimulator({ supervisor: { sessionLifetimeMs: 300 } });
    short.supervisor!.installAddon({ slug: 'a', url: upstream.url, ingressToken: 'tok' });
  });
  afterAll(() => short.stop());

  test('an unvalidated session stops opening the add-on after its lifetime', async () => {
    const c = await RawClient.connect(short.wsUrl, short.token);
    const session = (await api(c, '/ingress/session')).result.session as string;
    const url = `${short.url}/api/hassio_ingress/tok/x`;
    expect((await fetch(url, { headers: { cookie: `ingress_session=${session}` } })).status).toBe(200);
    // That request renewed it by one lifetime: wait out both.
    await new Promise((r) => setTimeout(r, 700));
    const res = await fetch(url, { headers: { cookie: `ingress_session=${session}` } });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('401: Unauthorized');
    expect(short.supervisor!.sessions()).toEqual([]);
    const v = await api(c, '/ingress/validate_session', 'post', { session });
    expect(v.success).toBe(false);
    await c.close();
  });

  test('expireSessions() lapses them at once', async () => {
    const c = await RawClient.connect(short.wsUrl, short.token);
    const session = (await api(c, '/ingress/session')).result.session as string;
    short.supervisor!.expireSessions();
    expect((await fetch(`${short.url}/api/hassio_ingress/tok/x`, { headers: { cookie: `ingress_session=${session}` } })).status).toBe(401);
    await c.close();
  });
});

describe('ingress proxy', () => {
  let session: string;
  beforeAll(async () => {
    session = await newSession();
  });
  const cookie = () => ({ cookie: `theme=dark; ingress_session=${session}` });

  test('no cookie or an unknown session is 401', async () => {
    const none = await fetch(ingress('x'));
    expect(none.status).toBe(401);
    expect(await none.text()).toBe('401: Unauthorized');
    expect((await fetch(ingress('x'), { headers: { cookie: 'ingress_session=nope' } })).status).toBe(401);
  });

  test('the add-on gets the session user, the ingress path and the request from the source address', async () => {
    const c = await RawClient.connect(sim.wsUrl, sim.token);
    const me = (await c.command({ type: 'auth/current_user' })).result;
    await c.close();
    const from = upstream.seen.length;
    const res = await fetch(ingress('some/page?x=1&y=two'), {
      headers: {
        ...cookie(),
        'X-Remote-User-Id': 'forged',
        'X-Remote-User-Name': 'mallory',
        'X-Remote-User-Display-Name': 'Mallory',
        'X-Ingress-Path': '/elsewhere',
        'X-Supervisor-Token': 'stolen',
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: 'GET', url: '/some/page?x=1&y=two', body: '' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    const seen = upstream.seen[from]!;
    expect(seen.remoteAddress).toBe(SOURCE);
    expect(seen.headers['x-remote-user-id']).toBe(me.id);
    expect(seen.headers['x-remote-user-name']).toBe('simulator');
    expect(seen.headers['x-remote-user-display-name']).toBe('Simulator');
    expect(seen.headers['x-ingress-path']).toBe(`/api/hassio_ingress/${token}`);
    expect(seen.headers['x-supervisor-token']).toBeUndefined();
    expect(seen.headers['x-hass-source']).toBe('core.ingress');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1, 127.0.0.1');
    // Other cookies pass, as they do through Home Assistant and the Supervisor.
    expect(seen.headers.cookie).toContain('theme=dark');
  });

  test('a session without a user passes no user headers, and forged ones never pass', async () => {
    // Home Assistant's own token may open a session without user_id (the Supervisor then knows no user).
    const created: any = await (
      await fetch(`${sim.url}/ingress/session`, { method: 'POST', headers: { Authorization: 'Bearer core-supervisor-token' } })
    ).json();
    expect(created.result).toBe('ok');
    const from = upstream.seen.length;
    const res = await fetch(ingress('anon'), {
      headers: {
        cookie: `ingress_session=${created.data.session}`,
        'X-Remote-User-Id': 'forged',
        'X-Remote-User-Name': 'mallory',
        'X-Remote-User-Display-Name': 'Mallory',
      },
    });
    expect(res.status).toBe(200);
    const h = upstream.seen[from]!.headers;
    expect([h['x-remote-user-id'], h['x-remote-user-name'], h['x-remote-user-display-name']]).toEqual([undefined, undefined, undefined]);
  });

  test('a POST body reaches the add-on (read first, with its length, by default)', async () => {
    const from = upstream.seen.length;
    const res = await fetch(ingress('api/do'), { method: 'POST', headers: { ...cookie(), 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await res.json()).toEqual({ method: 'POST', url: '/api/do', body: '{"a":1}' });
    expect(upstream.seen[from]!.headers['content-length']).toBe('7');
    expect(upstream.seen[from]!.headers['content-type']).toBe('application/json');
  });

  test('with ingress_stream a POST body is piped while the browser still sends it', async () => {
    const streamer = sim.supervisor!.addon('streamer')!;
    const from = upstream.seen.length;
    const req = httpRequest(`${sim.url}/api/hassio_ingress/${streamer.ingressToken}/upload`, { method: 'POST', headers: cookie() });
    req.write('part-one;');
    // The first part arrives before the body has ended.
    const seen = await upstream.until(() => (upstream.seen[from]?.firstChunk ? upstream.seen[from] : undefined));
    expect(seen.firstChunk).toBe('part-one;');
    expect(seen.ended).toBe(false);
    const done = new Promise<string>((resolve) => req.on('response', (res) => res.on('data', (d: Buffer) => resolve(d.toString()))));
    req.end('part-two');
    expect(JSON.parse(await done).body).toBe('part-one;part-two');
  });

  test('server-sent events arrive one by one before the stream ends, and closing the browser ends the add-on request', async () => {
    const from = upstream.seen.length;
    upstream.sse = undefined;
    const ac = new AbortController();
    const res = await fetch(ingress('sse'), { headers: cookie(), signal: ac.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const reader = res.body!.getReader();
    const sse = await upstream.until(() => upstream.sse);
    const decoder = new TextDecoder();
    for (const n of [1, 2, 3]) {
      sse.write(`data: event ${n}\n\n`);
      const { value } = await reader.read();
      expect(decoder.decode(value)).toBe(`data: event ${n}\n\n`);
    }
    expect(upstream.seen[from]!.closed).toBe(false);
    ac.abort();
    await upstream.until(() => upstream.seen[from]!.closed);
  });

  test('a WebSocket under the ingress path reaches the add-on with the same headers', async () => {
    const from = upstream.wsSeen.length;
    const ws = new WebSocket(`${sim.url.replace(/^http/, 'ws')}/api/hassio_ingress/${token}/ws?q=1`, {
      headers: { ...cookie(), 'X-Remote-User-Id': 'forged' },
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const reply = new Promise<string>((resolve) => ws.once('message', (d) => resolve(String(d))));
    ws.send('hello');
    expect(await reply).toBe('echo:hello');
    const req = upstream.wsSeen[from]!;
    expect(req.url).toBe('/ws?q=1');
    expect(req.socket.remoteAddress).toBe(SOURCE);
    expect(req.headers['x-remote-user-name']).toBe('simulator');
    expect(req.headers['x-remote-user-id']).not.toBe('forged');
    expect(req.headers['x-ingress-path']).toBe(`/api/hassio_ingress/${token}`);
    ws.close();
  });

  test('a WebSocket without a session is refused with 401', async () => {
    const ws = new WebSocket(`${sim.url.replace(/^http/, 'ws')}/api/hassio_ingress/${token}/ws`);
    const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(401);
  });

  test('an unknown token is 503 and a stopped add-on 502, as the Supervisor answers', async () => {
    const unknown = await fetch(ingress('x', 'no-such-token'), { headers: cookie() });
    expect(unknown.status).toBe(503);
    expect(await unknown.text()).toBe('503: Service Unavailable');
    const sleeper = sim.supervisor!.addon('sleeper')!;
    const stopped = await fetch(ingress('x', sleeper.ingressToken), { headers: cookie() });
    expect(stopped.status).toBe(502);
    sim.supervisor!.setAddonState('sleeper', 'started');
    expect((await fetch(ingress('x', sleeper.ingressToken), { headers: cookie() })).status).toBe(200);
    sim.supervisor!.setAddonState('sleeper', 'stopped');
  });

  test('a path that climbs out of the ingress root is refused', async () => {
    const from = upstream.seen.length;
    for (const climb of ['../../secret', '%2e%2e/%2e%2e/secret', 'a/../../b']) {
      const res = await rawGet(`${sim.url}/api/hassio_ingress/${token}/${climb}`, cookie());
      expect(res).toEqual({ status: 400, body: '400: Bad Request' });
    }
    // Inside the root, dot segments resolve as usual.
    expect((await rawGet(`${sim.url}/api/hassio_ingress/${token}/a/../b`, cookie())).status).toBe(200);
    expect(upstream.seen.slice(from).map((s) => s.url)).toEqual(['/b']);
  });

  test("restart() keeps add-ons and sessions, which are the Supervisor's", async () => {
    await sim.restart();
    const res = await rawGet(ingress('after-restart'), cookie());
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).url).toBe('/after-restart');
    expect(sim.supervisor!.addon('home_mcp_bridge')?.ingressToken).toBe(token);
    expect(sim.supervisor!.ingressUrl('home_mcp_bridge')).toBe(`${sim.url}/api/hassio_ingress/${token}/`);
  });
});

describe('Supervisor REST for the add-on', () => {
  const call = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const { token: t = 'supervisor-token', ...rest } = init;
    return fetch(`${sim.url}${path}`, { ...rest, headers: { ...(t === null ? {} : { Authorization: `Bearer ${t}` }), 'content-type': 'application/json' } });
  };

  test('a missing token is 401, a wrong one 403', async () => {
    const none = await call('/addons/self/info', { token: null });
    expect(none.status).toBe(401);
    expect(await none.text()).toBe('401: Unauthorized');
    const wrong = await call('/addons/self/info', { token: 'nope' });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toBe('403: Forbidden');
  });

  test('/addons/self/info answers for the add-on whose token it is', async () => {
    const res = await call('/addons/self/info');
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.result).toBe('ok');
    expect(body.data).toMatchObject({
      slug: 'home_mcp_bridge',
      name: 'Home MCP Bridge',
      state: 'started',
      ingress_url: `/api/hassio_ingress/${token}/`,
      version: '1.0.0',
    });
  });

  test('discovery is recorded and listed for Home Assistant', async () => {
    const posted = await call('/discovery', { method: 'POST', body: JSON.stringify({ service: 'home_mcp_bridge', config: { url: 'http://x:3000' } }) });
    expect(posted.status).toBe(200);
    const { result, data } = (await posted.json()) as any;
    expect(result).toBe('ok');
    expect(data.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(sim.supervisor!.discoveries()).toEqual([
      { addon: 'home_mcp_bridge', service: 'home_mcp_bridge', uuid: data.uuid, config: { url: 'http://x:3000' } },
    ]);
    // Announcing again with a new config keeps the uuid.
    const again: any = await (
      await call('/discovery', { method: 'POST', body: JSON.stringify({ service: 'home_mcp_bridge', config: { url: 'http://y:3000' } }) })
    ).json();
    expect(again.data.uuid).toBe(data.uuid);
    // Listing is for Home Assistant only.
    expect((await call('/discovery')).status).toBe(401);
    const list: any = await (await call('/discovery', { token: 'core-supervisor-token' })).json();
    expect(list.data.discovery).toEqual([{ addon: 'home_mcp_bridge', service: 'home_mcp_bridge', uuid: data.uuid, config: { url: 'http://y:3000' } }]);
    expect(list.data.services).toEqual({ home_mcp_bridge: ['home_mcp_bridge'] });
  });

  test('a service the add-on does not list, or a bad body, is refused in the envelope', async () => {
    const forbidden = await call('/discovery', { method: 'POST', body: JSON.stringify({ service: 'mqtt', config: {} }) });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ result: 'error', message: 'Add-ons must list services they provide via discovery in their config!' });
    const bad = await call('/discovery', { method: 'POST', body: JSON.stringify({ service: 'home_mcp_bridge' }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ result: 'error', message: "required key not provided @ data['config']. Got None" });
  });
});

describe('/core/websocket', () => {
  const coreWs = (s: Simulator) => `${s.url.replace(/^http/, 'ws')}/core/websocket`;

  test("the add-on token logs in as Home Assistant's Supervisor user", async () => {
    const c = await RawClient.connect(coreWs(sim), 'supervisor-token');
    expect(c.authReply).toEqual({ type: 'auth_ok', ha_version: '2026.11.0' });
    const me = (await c.command({ type: 'auth/current_user' })).result;
    expect(me).toMatchObject({ name: 'Supervisor', is_admin: true });
    const states = await c.command({ type: 'get_states' });
    expect(states.success).toBe(true);
    await c.close();
  });

  test('any other token is "Invalid access"', async () => {
    const c = await RawClient.connect(coreWs(sim), 'sim-token', { allowInvalid: true });
    expect(c.authReply).toEqual({ type: 'auth_invalid', message: 'Invalid access' });
    await c.closed;
  });

  test('without a Supervisor there is no /core/websocket', async () => {
    const ws = new WebSocket(coreWs(plainSim));
    const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(404);
  });
});

describe("the admin tools' endpoints and the role table (hassio_api, hassio_role)", () => {
  const reach = async (s: Simulator, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${s.url}${path}`, {
      method,
      headers: { Authorization: 'Bearer supervisor-token', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? ((await res.json()) as any) : await res.text() };
  };
  const withRole = async (role: 'default' | 'backup' | 'manager' | undefined, run: (s: Simulator) => Promise<void>) => {
    const s = await startSimulator({ supervisor: { backupMs: 40 } });
    s.supervisor!.installAddon({ slug: 'home_mcp_bridge', url: 'http://127.0.0.1:1', ...(role ? { hassioApi: true, hassioRole: role } : {}) });
    s.supervisor!.installAddon({ slug: 'core_mosquitto', name: 'Mosquitto broker', url: 'http://127.0.0.1:2', version: '6.5.1' });
    try {
      await run(s);
    } finally {
      await s.stop();
    }
  };

  test('without hassio_api, or with the default role, apps and backups are 403; backup reaches backups only; manager both', async () => {
    const paths: [string, string, unknown?][] = [
      ['GET', '/addons'],
      ['POST', '/addons/core_mosquitto/stop'],
      ['POST', '/backups/new/full', { name: 'x', background: true }],
    ];
    const seen: Record<string, number[]> = {};
    for (const role of [undefined, 'default', 'backup', 'manager'] as const)
      await withRole(role, async (s) => {
        seen[role ?? 'no hassio_api'] = [];
        for (const [m, p, b] of paths) seen[role ?? 'no hassio_api']!.push((await reach(s, m, p, b)).status);
      });
    expect(seen).toEqual({ 'no hassio_api': [403, 403, 403], default: [403, 403, 403], backup: [403, 403, 200], manager: [200, 200, 200] });
  });

  test('apps: listed with state and version, stopped and started; a backup is a job whose reference is the backup', async () => {
    await withRole('manager', async (s) => {
      expect((await reach(s, 'POST', '/addons/core_mosquitto/stop')).body).toEqual({ result: 'ok', data: {} });
      const { body } = await reach(s, 'GET', '/addons');
      expect(body.data.addons.find((a: any) => a.slug === 'core_mosquitto')).toMatchObject({ state: 'stopped', version: '6.5.1', name: 'Mosquitto broker' });
      expect((await reach(s, 'POST', '/addons/nope/start')).body).toEqual({ result: 'error', message: 'Addon nope does not exist' });

      const bad = await reach(s, 'POST', '/backups/new/partial', { name: 'p', folders: ['etc'], background: true });
      expect(bad.status).toBe(400);
      const missing = await reach(s, 'POST', '/backups/new/partial', { name: 'p', addons: ['nope'], background: true });
      expect(missing.body).toEqual({ result: 'error', message: 'App nope is not installed, cannot backup' });
      const started = await reach(s, 'POST', '/backups/new/partial', {
        name: 'p',
        addons: ['core_mosquitto'],
        folders: ['share'],
        homeassistant: true,
        background: true,
      });
      const jobId = started.body.data.job_id as string;
      // Followed as the bridge does: until the job says it is done.
      let job = (await reach(s, 'GET', `/jobs/${jobId}`)).body.data;
      while (!job.done) {
        await new Promise((r) => setTimeout(r, 10));
        job = (await reach(s, 'GET', `/jobs/${jobId}`)).body.data;
      }
      expect(job).toMatchObject({ uuid: jobId, done: true, progress: 100, errors: [] });
      const info = (await reach(s, 'GET', `/backups/${job.reference}/info`)).body.data;
      expect(info).toMatchObject({ slug: job.reference, name: 'p', type: 'partial', homeassistant: '2026.11.0', folders: ['share'] });
      expect(info.addons.map((a: any) => a.slug)).toEqual(['core_mosquitto']);
      expect((await reach(s, 'GET', '/backups/nothere/info')).status).toBe(404);
    });
  });
});
