// The simulator as a server: node:http for REST, `ws` on /api/websocket for the WebSocket API.
// The hub lives in the Simulator object, so stop() and start() (or restart()) bring the server
// down and up on the same port with the home's states as they were.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { type Command, type SimUser, buildCommands, userListCommand } from './commands.js';
import { SimConnection } from './connection.js';
import { Context } from './context.js';
import { demoHome } from './demo-home.js';
import { type Home, loadHome } from './home.js';
import { Hub, type Logger, type Timing, type PersistentNotification, type NotifyMessage } from './hub.js';
import { INGRESS_PREFIX, firstProtocol, handleIngressRequest, handleIngressUpgrade } from './ingress-proxy.js';
import { type LoadHandle, type LoadOptions, startLoad } from './load.js';
import { createRestHandler } from './rest.js';
import { isPlainObject } from './schema.js';
import { SimSupervisor, type SupervisorOptions } from './supervisor.js';
import { SUPERVISOR_PATH, handleSupervisorHttp, supervisorApiCommand } from './supervisor-api.js';
import { hexId } from './time.js';
import { SINCE, atLeast } from './version.js';

export interface SimulatorOptions {
  /** 'demo' (default), a path to a home YAML file, or a parsed home. */
  home?: 'demo' | string | Home;
  /** 0 (default) picks a free port; restarts keep the port first bound. */
  port?: number;
  host?: string;
  /** The accepted access token (an administrator's); default 'sim-token'. */
  token?: string;
  /** A second accepted token whose user is not an administrator (for unauthorized paths). */
  userToken?: string;
  /** Reported ha_version; default '2025.1.0', or '2024.3.3' with legacy. */
  version?: string;
  /**
   * Behave like a hub older than 2024.4: older shapes and messages, no floor or label targets.
   * The floor and label registries follow the version (2024.3 has them, 2024.2 does not).
   */
  legacy?: boolean;
  timing?: Partial<Timing>;
  logger?: Logger;
  /**
   * Also act as the Supervisor for an add-on: /core/websocket, the Supervisor's REST paths
   * (/discovery, /addons/..., /ingress/...), the `supervisor/api` command and the ingress proxy.
   */
  supervisor?: SupervisorOptions;
}

/** A state as get_states returns it. */
export type StateObject = Record<string, unknown> & {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  context: { id: string; parent_id: string | null; user_id: string | null };
};

function resolveHome(home: SimulatorOptions['home']): Home {
  if (home === undefined || home === 'demo') return demoHome();
  if (typeof home === 'string') return loadHome(home);
  return home;
}

export class Simulator {
  readonly hub: Hub;
  readonly host: string;
  readonly token: string;
  readonly version: string;
  readonly legacy: boolean;
  private readonly userToken: string | undefined;
  private readonly commands: Map<string, Command>;
  private readonly admin: SimUser;
  private readonly nonAdmin: SimUser = { id: hexId(), name: 'Simulator user', isAdmin: false, username: 'user' };
  /** Home Assistant's system user the Supervisor's /core/websocket proxy logs in as. */
  private readonly supervisorUser: SimUser = { id: hexId(), name: 'Supervisor', isAdmin: true, username: null };
  /** The Supervisor's state (add-ons, ingress sessions, discovery) when `supervisor` is given; it outlives restarts. */
  readonly supervisor: SimSupervisor | undefined;
  private readonly sockets = new Set<SimConnection>();
  private readonly loads = new Set<LoadHandle>();
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private ingressWss: WebSocketServer | undefined;
  private boundPort: number;
  private stopping: Promise<void> | undefined;
  private paused = false;

  constructor(opts: SimulatorOptions = {}) {
    const version = opts.version ?? (opts.legacy ? '2024.3.3' : '2025.1.0');
    this.legacy = opts.legacy ?? !atLeast(version, SINCE.modern);
    this.version = version;
    this.host = opts.host ?? '127.0.0.1';
    this.boundPort = opts.port ?? 0;
    this.token = opts.token ?? 'sim-token';
    this.userToken = opts.userToken;
    this.hub = new Hub({
      home: resolveHome(opts.home),
      version,
      legacy: this.legacy,
      ...(opts.timing ? { timing: opts.timing } : {}),
      ...(opts.logger ? { logger: opts.logger } : {}),
    });
    this.admin = { id: this.hub.user.id, name: this.hub.user.name, isAdmin: true, username: 'simulator' };
    this.commands = buildCommands(this.legacy, this.hub.hasFloors);
    const users = [this.admin, ...(this.userToken !== undefined ? [this.nonAdmin] : []), ...(opts.supervisor ? [this.supervisorUser] : [])];
    this.commands.set('config/auth/list', userListCommand(() => users));
    if (opts.supervisor) {
      this.supervisor = new SimSupervisor(
        opts.supervisor,
        (id) => {
          const u = users.find((x) => x.id === id);
          return u ? { id: u.id, username: u.username ?? null, displayName: u.name } : undefined;
        },
        () => this.url,
      );
      // Registered by the hassio integration, which only loads under a Supervisor.
      this.commands.set('supervisor/api', supervisorApiCommand(this.supervisor));
    }
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `http://${host}:${this.boundPort}`;
  }

  get wsUrl(): string {
    return `${this.url.replace(/^http/, 'ws')}/api/websocket`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** Authenticated WebSocket connections. */
  get connections(): number {
    let n = 0;
    for (const s of this.sockets) if (s.authenticated) n++;
    return n;
  }

  private userForToken = (token: string): SimUser | undefined => {
    if (token === this.token) return this.admin;
    if (this.userToken !== undefined && token === this.userToken) return this.nonAdmin;
    return undefined;
  };

  /**
   * The Supervisor's /core/websocket handshake (supervisor/api/proxy.py): the add-on's token in
   * access_token or api_password, "Invalid access" otherwise; then Home Assistant sees the
   * Supervisor's own user.
   */
  private supervisorAuth = (msg: unknown): { user: SimUser } | { invalid: string } | undefined => {
    if (!isPlainObject(msg)) return undefined;
    const token = msg.api_password || msg.access_token;
    const addon = typeof token === 'string' ? this.supervisor?.addonForToken(token) : undefined;
    if (!addon || !addon.homeassistantApi) return { invalid: 'Invalid access' };
    return { user: this.supervisorUser };
  };

  async start(): Promise<void> {
    if (this.stopping) await this.stopping;
    if (this.server) return;
    const rest = createRestHandler({ hub: this.hub, userForToken: this.userForToken });
    const sup = this.supervisor;
    const server = createServer((req, res) => {
      if (sup && (req.url ?? '').startsWith(INGRESS_PREFIX)) return handleIngressRequest(sup, req, res);
      if (sup && SUPERVISOR_PATH.test(new URL(req.url ?? '/', 'http://sim').pathname)) {
        handleSupervisorHttp(sup, req, res).catch(() => res.destroy());
        return;
      }
      rest(req, res);
    });
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024 });
    const ingressWss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024, handleProtocols: firstProtocol });
    server.on('upgrade', (req, socket: Duplex, head) => {
      if (this.server !== server) {
        socket.destroy();
        return;
      }
      if (sup && (req.url ?? '').startsWith(INGRESS_PREFIX)) return handleIngressUpgrade(sup, ingressWss, req, socket, head);
      const path = new URL(req.url ?? '/', 'http://sim').pathname;
      const asSupervisor = sup !== undefined && path === '/core/websocket';
      if (path !== '/api/websocket' && !asSupervisor) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn = new SimConnection(ws, {
          hub: this.hub,
          commands: this.commands,
          userForToken: this.userForToken,
          ...(asSupervisor ? { authenticate: this.supervisorAuth } : {}),
          isPaused: () => this.paused,
          closed: (c) => this.sockets.delete(c),
        });
        this.sockets.add(conn);
      });
    });
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      server.once('error', onError);
      server.listen(this.boundPort, this.host, () => {
        server.off('error', onError);
        resolve();
      });
    });
    this.boundPort = (server.address() as AddressInfo).port;
    this.server = server;
    this.wss = wss;
    this.ingressWss = ingressWss;
    this.hub.log.info(`hub simulator listening on ${this.url} (ha_version ${this.version}${this.legacy ? ', legacy' : ''})`);
  }

  /** Closes every socket and the listener; idempotent. The home's states stay. */
  stop(): Promise<void> {
    if (!this.server) return this.stopping ?? Promise.resolve();
    const server = this.server;
    const wss = this.wss;
    const ingressWss = this.ingressWss;
    this.server = undefined;
    this.wss = undefined;
    this.ingressWss = undefined;
    for (const load of this.loads) load.stop();
    this.loads.clear();
    this.stopping = (async () => {
      // Stop listening first, so a client reconnecting at once finds the port closed.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const sockets = [...(wss?.clients ?? [])];
      for (const conn of [...this.sockets]) conn.close(1001);
      this.sockets.clear();
      // Give the close handshakes a moment, then cut whatever is left.
      await Promise.race([
        Promise.all(sockets.map((ws) => new Promise((resolve) => (ws.readyState === ws.CLOSED ? resolve(null) : ws.once('close', resolve))))),
        new Promise((resolve) => setTimeout(resolve, 250).unref()),
      ]);
      for (const ws of wss?.clients ?? []) ws.terminate();
      wss?.close();
      for (const ws of ingressWss?.clients ?? []) ws.terminate();
      ingressWss?.close();
      server.closeAllConnections();
      await closed;
      this.stopping = undefined;
    })();
    return this.stopping;
  }

  /**
   * Makes the hub hang (true): sockets stay open but nothing is answered or sent, pings
   * included. Resuming (false) handles what arrived meanwhile, as a stalled hub would.
   */
  pauseResponses(paused: boolean): void {
    this.paused = paused;
    if (!paused) for (const conn of this.sockets) conn.resume();
  }

  /** Messages the paused hub has received and not handled yet (a test waits for its call to arrive). */
  get heldMessages(): number {
    let n = 0;
    for (const conn of this.sockets) n += conn.heldCount;
    return n;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  // --- acting as the hub's own side ---------------------------------------------------------

  /**
   * An external change, as if a device reported it: merges attributes (when given) over the
   * current ones and writes the state; state_changed fires if anything changed.
   */
  setState(
    entityId: string,
    state: string,
    attributes?: Record<string, unknown>,
    opts: { replace?: boolean; force?: boolean } = {},
  ): StateObject {
    const current = this.hub.states.get(entityId);
    const attrs = opts.replace ? { ...(attributes ?? {}) } : { ...(current?.attributes ?? {}), ...(attributes ?? {}) };
    const written = this.hub.states.set(entityId, state, attrs, { forceUpdate: opts.force === true });
    if (!this.hub.registries.entities.has(written.entityId)) this.hub.registries.addEntity({ entity_id: written.entityId });
    return JSON.parse(written.json) as StateObject;
  }

  getState(entityId: string): StateObject | undefined {
    const s = this.hub.states.get(entityId);
    return s ? (JSON.parse(s.json) as StateObject) : undefined;
  }

  states(): StateObject[] {
    return this.hub.states.all().map((s) => JSON.parse(s.json) as StateObject);
  }

  /** Removes an entity (state_changed with new_state null; subscribe_entities sends r). */
  removeState(entityId: string): boolean {
    return this.hub.removeEntity(entityId.toLowerCase());
  }

  fireEvent(eventType: string, data: Record<string, unknown> = {}): void {
    this.hub.bus.fire(eventType, data, { context: new Context() });
  }

  callService(domain: string, service: string, data?: Record<string, unknown>): Promise<unknown> {
    return this.hub.callService(domain, service, data);
  }

  startLoad(opts: LoadOptions): LoadHandle {
    const handle = startLoad(this.hub, opts);
    this.loads.add(handle);
    return handle;
  }

  notifications(): PersistentNotification[] {
    return this.hub.listNotifications();
  }

  /** What the notify services were asked to send, oldest first. */
  get notifyMessages(): readonly NotifyMessage[] {
    return this.hub.notifyLog;
  }
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const sim = new Simulator(opts);
  await sim.start();
  return sim;
}
