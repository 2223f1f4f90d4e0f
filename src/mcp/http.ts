// MCP over Streamable HTTP at /mcp: one server per session, the session id in MCP-Session-Id,
// POST for messages, GET for the server's notification stream, DELETE to end a session. Sessions
// belong to the token's subject that opened them and expire when idle. A request flows:
// uWS → the route table's admission (bearer token, rate limit) → `handle` (Origin and Host, the
// session) → the SDK's web-standard transport → the session's server → the tool registry.
// Clients of the 2024-11-05 revision use GET /sse and POST /messages instead (src/mcp/legacy-sse.ts).
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { LegacySseTransport } from './legacy-sse.js';
import { actorName } from '../auth/tokens.js';
import type { Principal } from '../auth/tokens.js';
import type { Cors } from '../http/cors.js';
import type { Logger } from '../log.js';
import { authInfoOf, createMcpSession, type McpServices, type McpSession } from './server.js';

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  session: McpSession;
  owner: string;
  lastSeen: number;
}

export interface McpHttpOptions {
  idleMs: number;
  debounceMs: number;
  cors: Cors;
  allowedHosts: readonly string[];
  log: Logger;
}

/** A JSON-RPC error as an HTTP answer (the transport's own errors look the same). */
const rpcError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });

export class McpHttp {
  private readonly sessions = new Map<string, Entry>();
  private readonly legacy = new Map<string, { transport: LegacySseTransport; session: McpSession; owner: string; lastSeen: number }>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly hosts: Set<string>;

  constructor(
    private readonly services: McpServices,
    private readonly opts: McpHttpOptions,
  ) {
    this.hosts = new Set(opts.allowedHosts.map((h) => h.toLowerCase()));
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
  private refusal(request: Request): Response | undefined {
    const origin = request.headers.get('origin');
    if (origin !== null && !this.opts.cors.allows(origin)) return rpcError(403, -32000, `Forbidden: the Origin ${String(origin).slice(0, 100)} is not in ALLOWED_ORIGINS`);
    if (!this.hostAllowed(request.headers.get('host'))) return rpcError(403, -32000, 'Forbidden: the Host is not in MCP_ALLOWED_HOSTS');
    return undefined;
  }

  async handle(request: Request, principal: Principal): Promise<Response> {
    const refused = this.refusal(request);
    if (refused) return refused;
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const entry = this.sessions.get(id);
      // Another client's session is answered like one that does not exist.
      if (!entry || entry.owner !== principal.sub) return rpcError(404, -32001, 'Session not found: initialize a new session');
      entry.lastSeen = Date.now();
      return entry.transport.handleRequest(request, { authInfo: authInfoOf(principal) });
    }
    if (request.method !== 'POST') return rpcError(400, -32000, 'Bad Request: MCP-Session-Id header is required');
    return this.open(request, principal);
  }

  /** GET /sse (2024-11-05): a stream whose first event says where to POST messages. */
  async openLegacy(request: Request, principal: Principal, pathPrefix = ''): Promise<Response> {
    const refused = this.refusal(request);
    if (refused) return refused;
    const session = createMcpSession(this.services, principal, this.opts.debounceMs);
    // Through ingress the client only reaches us under Home Assistant's path for the add-on.
    const transport = new LegacySseTransport(`${pathPrefix}/messages`);
    const entry = { transport, session, owner: principal.sub, lastSeen: Date.now() };
    this.legacy.set(transport.sessionId, entry);
    this.opts.log.info({ session: transport.sessionId, user: actorName(principal) }, 'MCP session opened (2024-11-05 HTTP+SSE)');
    transport.onclose = () => {
      if (this.legacy.delete(transport.sessionId)) {
        session.close();
        void session.server.close().catch(() => undefined);
      }
    };
    await session.server.connect(transport);
    return new Response(transport.stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' } });
  }

  /** POST /messages?sessionId=... (2024-11-05): one client message; the answer goes down the stream. */
  async legacyMessage(request: Request, principal: Principal): Promise<Response> {
    const refused = this.refusal(request);
    if (refused) return refused;
    const id = new URL(request.url).searchParams.get('sessionId') ?? '';
    const entry = this.legacy.get(id);
    if (!entry || entry.owner !== principal.sub) return rpcError(404, -32001, 'Session not found: open GET /sse again');
    entry.lastSeen = Date.now();
    let message: unknown;
    try {
      message = await request.json();
    } catch {
      return rpcError(400, -32700, 'Parse error: the body is not JSON');
    }
    if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') return rpcError(400, -32600, 'Invalid Request: a JSON-RPC 2.0 message is expected');
    entry.transport.receive(message as JSONRPCMessage, authInfoOf(principal));
    return new Response('Accepted', { status: 202, headers: { 'content-type': 'text/plain' } });
  }

  /** A request without a session: the transport accepts only an initialize, which opens one. */
  private async open(request: Request, principal: Principal): Promise<Response> {
    const session = createMcpSession(this.services, principal, this.opts.debounceMs);
    let entry: Entry | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        entry = { transport, session, owner: principal.sub, lastSeen: Date.now() };
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

  private drop(sid: string): void {
    const entry = this.sessions.get(sid);
    if (!entry) return;
    this.sessions.delete(sid);
    entry.session.close();
    void entry.session.server.close().catch(() => undefined);
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
    for (const sid of [...this.sessions.keys()]) this.drop(sid);
    for (const entry of [...this.legacy.values()]) void entry.transport.close();
  }
}
