// The simulator as a server: node:http for REST, `ws` on /api/websocket for the WebSocket API.
// The hub lives in the Simulator object, so stop() and start() (or restart()) bring the server
// down and up on the same port with the home's states as they were. Another part may share the
// server (a SimulatorRole): the Supervisor does, in tests (supervised.ts).
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { type Command, type SimUser, buildCommands, userListCommand } from './commands.js';
import { SimConnection } from './connection.js';
import { Context } from './context.js';
import { demoHome } from './demo-home.js';
import { type Home, loadHome } from './home.js';
import { Hub, type Logger, type Timing, type PersistentNotification, type NotifyMessage } from './hub.js';
import { type LoadHandle, type LoadOptions, startLoad } from './load.js';
import { createRestHandler } from './rest.js';
import { configCommands, startConfig } from './config/index.js';
import { adminCommands, adminOf } from './admin.js';
import { backupCommands, coreBackups } from './backup.js';
import { hexId } from './time.js';
import { CURRENT_VERSION, SINCE, atLeast } from './version.js';

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
  /** Reported ha_version; default the current release (CURRENT_VERSION), or '2024.3.3' with legacy. */
  version?: string;
  /**
   * Behave like a hub older than 2024.4: older shapes and messages, no floor or label targets.
   * The floor and label registries follow the version (2024.3 has them, 2024.2 does not).
   */
  legacy?: boolean;
  timing?: Partial<Timing>;
  logger?: Logger;
}

/** How a client of a WebSocket path logs in: a user, a refusal's message, or undefined for a malformed message. */
export type Authenticate = (msg: unknown) => { user: SimUser } | { invalid: string } | undefined;

/**
 * A part that answers on the simulator's server beside Home Assistant (the Supervisor, in tests).
 * Made with the simulator; it outlives restarts.
 */
export interface SimulatorRole {
  /** A user Home Assistant knows besides the simulator's own. */
  readonly user?: SimUser;
  /** WebSocket commands it adds. */
  readonly commands?: ReadonlyMap<string, Command>;
  /** Answers an HTTP request it owns (true), or leaves it to the hub's REST API (false). */
  request?(req: IncomingMessage, res: ServerResponse): boolean;
  /** Takes an upgrade it owns (true), or leaves it to the hub (false). */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** A second path serving the WebSocket API, and how its clients log in. */
  readonly websocket?: { path: string; authenticate: Authenticate };
  /** The server started listening. */
  started?(): void;
  /** The server is stopping: end the sockets the role holds. */
  stopping?(): void;
}

/** What a role may know of the simulator that holds it. */
export interface RoleHost {
  readonly url: string;
  /** Home Assistant's version (what a backup that holds it names). */
  readonly version: string;
  userById(id: string): SimUser | undefined;
}

export type MakeRole = (host: RoleHost) => SimulatorRole;

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
  private readonly role: SimulatorRole | undefined;
  private readonly sockets = new Set<SimConnection>();
  private readonly loads = new Set<LoadHandle>();
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private boundPort: number;
  private stopping: Promise<void> | undefined;
  private paused = false;

  constructor(opts: SimulatorOptions = {}, makeRole?: MakeRole) {
    const version = opts.version ?? (opts.legacy ? '2024.3.3' : CURRENT_VERSION);
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
    for (const [type, cmd] of configCommands()) this.commands.set(type, cmd);
    // The backup integration's commands as 2025.1 and later have them.
    if (!this.legacy) for (const [type, cmd] of backupCommands()) this.commands.set(type, cmd);
    for (const [type, cmd] of adminCommands()) if (this.hub.hasFloors || !/^config\/(floor|label)_registry\//.test(type)) this.commands.set(type, cmd);
    startConfig(this.hub, this.hub.home.dashboards ?? []);
    adminOf(this.hub);
    this.hub.restartRequested = () => void this.restartLikeHa();
    const users = [this.admin, ...(this.userToken !== undefined ? [this.nonAdmin] : [])];
    this.commands.set(
      'config/auth/list',
      userListCommand(() => users),
    );
    const sim = this;
    this.role = makeRole?.({
      get url() {
        return sim.url;
      },
      version,
      userById: (id) => users.find((u) => u.id === id),
    });
    if (this.role?.user) users.push(this.role.user);
    for (const [type, cmd] of this.role?.commands ?? []) this.commands.set(type, cmd);
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

  async start(): Promise<void> {
    if (this.stopping) await this.stopping;
    if (this.server) return;
    const rest = createRestHandler({ hub: this.hub, userForToken: this.userForToken });
    const role = this.role;
    const server = createServer((req, res) => {
      if (role?.request?.(req, res)) return;
      rest(req, res);
    });
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024 });
    server.on('upgrade', (req, socket: Duplex, head) => {
      if (this.server !== server) {
        socket.destroy();
        return;
      }
      if (role?.upgrade?.(req, socket, head)) return;
      const path = new URL(req.url ?? '/', 'http://sim').pathname;
      const second = role?.websocket && path === role.websocket.path ? role.websocket : undefined;
      if (path !== '/api/websocket' && !second) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn = new SimConnection(ws, {
          hub: this.hub,
          commands: this.commands,
          userForToken: this.userForToken,
          ...(second ? { authenticate: second.authenticate } : {}),
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
    role?.started?.();
    this.hub.log.info(`hub simulator listening on ${this.url} (ha_version ${this.version}${this.legacy ? ', legacy' : ''})`);
  }

  /** Closes every socket and the listener; idempotent. The home's states stay. */
  stop(): Promise<void> {
    if (!this.server) return this.stopping ?? Promise.resolve();
    const server = this.server;
    const wss = this.wss;
    const role = this.role;
    this.server = undefined;
    this.wss = undefined;
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
      role?.stopping?.();
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

  /**
   * What homeassistant.restart does: homeassistant_stop, every socket closed, away for
   * timing.restartMs, then listening again while still starting, and running (homeassistant_started).
   */
  async restartLikeHa(): Promise<void> {
    this.fireEvent('homeassistant_stop');
    await this.stop();
    await new Promise((resolve) => setTimeout(resolve, this.hub.timing.restartMs));
    this.starting();
    await this.start();
    this.started();
  }

  // --- acting as the hub's own side ---------------------------------------------------------

  /**
   * An external change, as if a device reported it: merges attributes (when given) over the
   * current ones and writes the state; state_changed fires if anything changed.
   */
  setState(entityId: string, state: string, attributes?: Record<string, unknown>, opts: { replace?: boolean; force?: boolean } = {}): StateObject {
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

  /** Makes the hub one still starting: get_config says STARTING until started(). */
  starting(): void {
    this.hub.coreState = 'STARTING';
  }

  /** The hub finished starting: get_config says RUNNING, and homeassistant_started is fired. */
  started(): void {
    this.hub.coreState = 'RUNNING';
    this.fireEvent('homeassistant_started');
  }

  /** The backups Home Assistant's backup integration made (backup/generate). */
  coreBackups(): ReturnType<typeof coreBackups> {
    return coreBackups(this.hub);
  }

  /** What update/release_notes answers for an update entity that has RELEASE_NOTES (Markdown). */
  setReleaseNotes(entityId: string, notes: string): void {
    adminOf(this.hub).releaseNotes.set(entityId, notes);
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
