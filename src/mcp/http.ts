// MCP over Streamable HTTP at /mcp, both eras on one endpoint behind one admission. A request
// flows: uWS → the route table's admission (bearer token, rate limit) → `handle` (Origin and Host)
// → by the SDK's own classification (isLegacyRequest):
//   - 2026-07-28 (a `_meta` envelope, Mcp-Method/Mcp-Name headers): the SDK's createMcpHandler,
//     a server built per request for the caller; subscriptions/listen streams hear the home's
//     changes (src/mcp/live.ts);
//   - 2025-era (initialize, MCP-Session-Id): one server per session, POST for messages, GET for
//     the notification stream, DELETE to end it; sessions belong to the token's subject that
//     opened them and expire when idle.
// Every session and every listen stream is held by its credential (src/auth/credentials.ts): when
// the token is revoked, its password changes, its user goes or it expires, they end at once.
// Clients of the 2024-11-05 revision use GET /sse and POST /messages instead (src/mcp/legacy-sse.ts).
import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { LegacySseTransport } from './legacy-sse.js';
import type { CredentialEnd, Credentials } from '../auth/credentials.js';
import { actorName } from '../auth/tokens.js';
import { AppError } from '../errors.js';
import type { Principal } from '../auth/tokens.js';
import type { Cors } from '../http/cors.js';
import type { Logger } from '../log.js';
import { McpLive, type VisibilitySource } from './live.js';
import { RequestStateSeal } from './request-state.js';
import { McpTasks } from './tasks.js';
import { missingTasksExtension, taskListenOf, weaveTaskNotices } from './task-notices.js';
import { authInfoOf, buildServer, type McpServices } from './server.js';
import { createMcpSession, type McpSession } from './session.js';
import { HeldBy } from './held-by.js';
import { endable } from './endable-stream.js';

/** At most this many resources followed by one listen stream. */
const MAX_LISTEN_URIS = 100;

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  session: McpSession;
  owner: string;
  lastSeen: number;
  held: HeldBy;
}

interface LegacyEntry {
  transport: LegacySseTransport;
  session: McpSession;
  owner: string;
  lastSeen: number;
  release: () => void;
  held: HeldBy;
}

export interface McpHttpOptions {
  idleMs: number;
  /**
   * Sessions one client may hold (MCP_MAX_SESSIONS); past it the one it used least recently ends.
   * Also the subscriptions/listen streams one client may hold open; past it a new one gets 429.
   */
  maxPerClient: number;
  /** A place under SSE_MAX_CONNECTIONS for a 2024-11-05 stream or a listen stream, given back by calling the answer; throws a 503 AppError when none is left. */
  reserveStream?: () => () => void;
  /** Open connections by credential: sessions and listen streams end with the credential that holds them. */
  credentials?: Credentials;
  debounceMs: number;
  cors: Cors;
  allowedHosts: readonly string[];
  log: Logger;
  /** Tells when Home Assistant's exposure settings change what callers see. */
  visibility?: VisibilitySource;
}

/** A JSON-RPC error as an HTTP answer (the transport's own errors look the same). */
const rpcError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });

export class McpHttp {
  private readonly sessions = new Map<string, Entry>();
  private readonly legacy = new Map<string, LegacyEntry>();
  /** Open subscriptions/listen streams by client (token subject). */
  private readonly listening = new Map<string, number>();
  /** Each open listen stream's way to end it, saying why. */
  private readonly listenStreams = new Set<(end: CredentialEnd) => void>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly hosts: Set<string>;
  readonly live: McpLive;
  readonly seal = new RequestStateSeal();
  readonly tasks = new McpTasks();
  private readonly modern: McpHttpHandler;
  private readonly stopLive: () => void;

  constructor(
    private readonly services: McpServices,
    private readonly opts: McpHttpOptions,
  ) {
    this.hosts = new Set(opts.allowedHosts.map((h) => h.toLowerCase()));
    this.live = new McpLive(services, opts.debounceMs, opts.visibility);
    this.modern = createMcpHandler(
      ({ authInfo }) => buildServer(services, { seal: this.seal, tasks: this.tasks }, authInfo?.extra?.principal as Principal | undefined, 'modern'),
      {
        legacy: 'reject',
        // Listen streams are bounded here, per client and under SSE_MAX_CONNECTIONS, with an HTTP status.
        maxSubscriptions: Number.MAX_SAFE_INTEGER,
        onerror: (err) => opts.log.debug({ err: err.message }, 'MCP request refused'),
      },
    );
    this.stopLive = this.live.on((e) => {
      if (e.kind === 'resource_updated') this.modern.notify.resourceUpdated(e.uri);
      else if (e.kind === 'resources_list_changed') this.modern.notify.resourcesChanged();
      else this.modern.notify.toolsChanged();
    });
    this.sweeper = setInterval(() => this.expire(), Math.min(60_000, Math.max(250, opts.idleMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size + this.legacy.size;
  }

  private hostAllowed(host: string | null): boolean {
    if (this.hosts.size === 0) return true;
    if (!host) return false;
    const h = host.toLowerCase();
    return this.hosts.has(h) || this.hosts.has(h.replace(/:\d+$/, ''));
  }

  /** A page from an origin the user did not allow must not drive the home (DNS rebinding, CSRF). */
  private refusal(request: Request, principal?: Principal): Response | undefined {
    const origin = request.headers.get('origin');
    if (origin !== null && !this.opts.cors.allows(origin))
      return rpcError(403, -32000, `Forbidden: the Origin ${String(origin).slice(0, 100)} is not in ALLOWED_ORIGINS`);
    // Home Assistant's link names the add-on by its host name on the Supervisor's network, which MCP_ALLOWED_HOSTS (names people use) need not list; no browser holds its key.
    if (principal?.via !== 'discovery' && !this.hostAllowed(request.headers.get('host')))
      return rpcError(403, -32000, 'Forbidden: the Host is not in MCP_ALLOWED_HOSTS');
    return undefined;
  }

  async handle(request: Request, principal: Principal): Promise<Response> {
    const refused = this.refusal(request, principal);
    if (refused) return refused;
    if (!(await isLegacyRequest(request))) return this.serveModern(request, principal);
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const entry = this.sessions.get(id);
      // Another client's session is answered like one that does not exist.
      if (!entry || entry.owner !== principal.sub) return rpcError(404, -32001, 'Session not found: initialize a new session');
      entry.lastSeen = Date.now();
      entry.held.use(principal);
      return entry.transport.handleRequest(request, { authInfo: authInfoOf(principal) });
    }
    if (request.method !== 'POST') return rpcError(400, -32000, 'Bad Request: MCP-Session-Id header is required');
    return this.open(request, principal);
  }

  /** A 2026-07-28 request, served by a server built for it. */
  private serveModern(request: Request, principal: Principal): Promise<Response> {
    if (request.method === 'POST' && request.headers.get('mcp-method')?.trim() === 'subscriptions/listen') return this.listen(request, principal);
    return this.modern.fetch(request, { authInfo: authInfoOf(principal) });
  }

  /**
   * A subscriptions/listen stream: it follows the resources it names for as long as it is open,
   * takes a place under SSE_MAX_CONNECTIONS and one of the client's MCP_MAX_SESSIONS listen
   * streams, and ends with its credential, with a JSON-RPC error for the listen request saying why.
   */
  private async listen(request: Request, principal: Principal): Promise<Response> {
    const max = this.opts.maxPerClient;
    const mine = this.listening.get(principal.sub) ?? 0;
    if (mine >= max)
      return rpcError(
        429,
        -32000,
        `Too many listen streams: one client may hold ${max} subscriptions/listen streams open at once (MCP_MAX_SESSIONS); close one first`,
      );
    let giveBack: () => void;
    try {
      giveBack = this.opts.reserveStream?.() ?? (() => undefined);
    } catch (err) {
      if (err instanceof AppError) return rpcError(err.status, -32000, err.message);
      throw err;
    }
    const tasked = taskListenOf(
      await request
        .clone()
        .json()
        .catch(() => undefined),
      this.tasks,
      principal.sub,
    );
    if (tasked && !tasked.declared) {
      giveBack();
      return missingTasksExtension(tasked.id);
    }
    if (tasked) {
      const headers = new Headers(request.headers);
      headers.delete('content-length');
      request = new Request(request.url, { method: 'POST', headers, body: tasked.forSdk, signal: request.signal });
    }
    this.listening.set(principal.sub, mine + 1);
    const { id, uris } = await listenRequest(request);
    const watches = uris.map((uri) => this.live.watch(uri, principal));
    let ender: ((end: CredentialEnd) => void) | undefined;
    const close = (end: CredentialEnd) => ender?.(end);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      watches.forEach((w) => {
        w();
      });
      giveBack();
      const left = (this.listening.get(principal.sub) ?? 1) - 1;
      if (left > 0) this.listening.set(principal.sub, left);
      else this.listening.delete(principal.sub);
      this.opts.credentials?.forget(principal, close);
      if (ender) this.listenStreams.delete(ender);
    };
    let response: Response;
    try {
      response = await this.modern.fetch(request, { authInfo: authInfoOf(principal) });
    } catch (err) {
      release();
      throw err;
    }
    if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) {
      release();
      return response;
    }
    const stream = endable(tasked ? weaveTaskNotices(response.body, this.tasks, principal.sub, tasked) : response.body, release);
    ender = (end: CredentialEnd) => {
      this.opts.log.info({ user: actorName(principal), reason: end.reason }, 'MCP listen stream ended with its credential');
      stream.end(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: end.message, data: { reason: end.reason } } })}\n\n`,
      );
    };
    this.listenStreams.add(ender);
    this.opts.credentials?.add(principal, close);
    return new Response(stream.body, { status: response.status, headers: response.headers });
  }

  /** GET /sse (2024-11-05): a stream whose first event says where to POST messages. */
  async openLegacy(request: Request, principal: Principal, pathPrefix = ''): Promise<Response> {
    const refused = this.refusal(request);
    if (refused) return refused;
    // The stream is an event stream like any other: it takes a place under SSE_MAX_CONNECTIONS (503 when none is left).
    const release = this.opts.reserveStream?.() ?? (() => undefined);
    this.makeRoom(principal.sub);
    const session = createMcpSession(this.services, { seal: this.seal, tasks: this.tasks, live: this.live }, principal, 'legacy');
    // Through ingress the client only reaches us under Home Assistant's path for the add-on.
    const transport = new LegacySseTransport(`${pathPrefix}/messages`);
    const held = new HeldBy(this.opts.credentials, principal, (end) => {
      // Gone from the table at once (its messages are answered 404), the stream closed once told why.
      this.legacy.delete(transport.sessionId);
      this.endWith(session, end, () => {
        void transport.close();
        session.close();
        void session.server.close().catch(() => undefined);
      });
    });
    const entry: LegacyEntry = { transport, session, owner: principal.sub, lastSeen: Date.now(), release, held };
    this.legacy.set(transport.sessionId, entry);
    this.opts.log.info({ session: transport.sessionId, user: actorName(principal) }, 'MCP session opened (2024-11-05 HTTP+SSE)');
    transport.onclose = () => {
      release();
      held.release();
      if (this.legacy.delete(transport.sessionId)) {
        session.close();
        void session.server.close().catch(() => undefined);
      }
    };
    await session.server.connect(transport);
    return new Response(transport.stream, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' },
    });
  }

  /** POST /messages?sessionId=... (2024-11-05): one client message; the answer goes down the stream. */
  async legacyMessage(request: Request, principal: Principal): Promise<Response> {
    const refused = this.refusal(request);
    if (refused) return refused;
    const id = new URL(request.url).searchParams.get('sessionId') ?? '';
    const entry = this.legacy.get(id);
    if (!entry || entry.owner !== principal.sub) return rpcError(404, -32001, 'Session not found: open GET /sse again');
    entry.lastSeen = Date.now();
    entry.held.use(principal);
    let message: unknown;
    try {
      message = await request.json();
    } catch {
      return rpcError(400, -32700, 'Parse error: the body is not JSON');
    }
    if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0')
      return rpcError(400, -32600, 'Invalid Request: a JSON-RPC 2.0 message is expected');
    entry.transport.receive(message as JSONRPCMessage, authInfoOf(principal));
    return new Response('Accepted', { status: 202, headers: { 'content-type': 'text/plain' } });
  }

  /** A request without a session: the transport accepts only an initialize, which opens one. */
  private async open(request: Request, principal: Principal): Promise<Response> {
    const session = createMcpSession(this.services, { seal: this.seal, tasks: this.tasks, live: this.live }, principal, 'legacy');
    let entry: Entry | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        this.makeRoom(principal.sub);
        // Ended with its credential: gone from the table at once (its id is answered 404), its streams closed once told why.
        const held = new HeldBy(this.opts.credentials, principal, (end) => {
          const e = this.sessions.get(sid);
          if (!e) return;
          this.sessions.delete(sid);
          this.endWith(session, end, () => this.closeEntry(e));
        });
        entry = { transport, session, owner: principal.sub, lastSeen: Date.now(), held };
        this.sessions.set(sid, entry);
        this.opts.log.info({ session: sid, user: actorName(principal) }, 'MCP session opened');
      },
      onsessionclosed: (sid) => this.drop(sid),
    });
    await session.server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo: authInfoOf(principal) });
    if (!entry) {
      session.close();
      await session.server.close().catch(() => undefined);
    }
    return response;
  }

  /** Before a client's next session: past MCP_MAX_SESSIONS, the one it used least recently ends. */
  private makeRoom(owner: string): void {
    const mine = [...this.sessions.entries(), ...this.legacy.entries()].filter(([, e]) => e.owner === owner);
    if (mine.length < this.opts.maxPerClient) return;
    mine.sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    for (const [sid, e] of mine.slice(0, mine.length - this.opts.maxPerClient + 1)) {
      this.opts.log.info({ session: sid, user: owner, limit: this.opts.maxPerClient }, 'MCP session ended: the client opened more than MCP_MAX_SESSIONS');
      if (this.sessions.has(sid)) this.drop(sid);
      else void (e.transport as LegacySseTransport).close();
    }
  }

  private drop(sid: string): void {
    const entry = this.sessions.get(sid);
    if (!entry) return;
    this.sessions.delete(sid);
    this.closeEntry(entry);
  }

  private closeEntry(entry: Entry): void {
    entry.held.release();
    entry.session.close();
    void entry.session.server.close().catch(() => undefined);
  }

  /** A session's credential ended: it says why on its stream (a log message at error level), then closes. */
  private endWith(session: McpSession, end: CredentialEnd, close: () => unknown): void {
    this.opts.log.info({ reason: end.reason }, 'MCP session ended with its credential');
    session.server
      .sendLoggingMessage({ level: 'error', logger: 'home-mcp-bridge', data: { reason: end.reason, message: `${end.message}; this session has ended` } })
      .catch(() => undefined)
      .finally(() => void close());
  }

  private expire(now = Date.now()): void {
    for (const [sid, entry] of this.sessions) {
      if (now - entry.lastSeen < this.opts.idleMs) continue;
      this.opts.log.info({ session: sid }, 'MCP session expired after being idle');
      this.drop(sid);
    }
    // A legacy session lives as long as its stream; idle ones are closed the same way.
    for (const entry of [...this.legacy.values()]) if (now - entry.lastSeen >= this.opts.idleMs) void entry.transport.close();
  }

  close(): void {
    clearInterval(this.sweeper);
    this.stopLive();
    this.live.close();
    void this.modern.close().catch(() => undefined);
    this.tasks.close();
    for (const sid of [...this.sessions.keys()]) this.drop(sid);
    for (const entry of [...this.legacy.values()]) void entry.transport.close();
    // Listen streams were ended by the handler's close, each with the graceful empty result.
  }

  /** Open subscriptions/listen streams. */
  get listenStreamCount(): number {
    return this.listenStreams.size;
  }
}

/** A subscriptions/listen request's id and the resources it asks to hear about. */
async function listenRequest(request: Request): Promise<{ id: unknown; uris: string[] }> {
  try {
    const body = (await request.clone().json()) as { id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
    const list = body.params?.notifications?.resourceSubscriptions;
    const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
    return {
      id,
      uris: Array.isArray(list) ? [...new Set(list.filter((u): u is string => typeof u === 'string' && u.length <= 1000))].slice(0, MAX_LISTEN_URIS) : [],
    };
  } catch {
    // The SDK answers a body that is not JSON.
    return { id: null, uris: [] };
  }
}
