// One MCP server per session, over the same registry the REST tool transport serves: tools,
// prompts and resources from the plugins, resource subscriptions that follow the hub's state, and
// the client's log level. Transports (stdio, Streamable HTTP) only carry its messages.
import { ProtocolError, ProtocolErrorCode, Server, type AuthInfo, type ServerContext } from '@modelcontextprotocol/server';
import type { ClientChannel } from '../plugin/index.js';
import type { Principal } from '../auth/tokens.js';
import { AppError } from '../errors.js';
import type { HubEvent } from '../hub/types.js';
import type { Bus } from '../bus.js';
import type { Logger } from '../log.js';
import type { PromptCatalog, ResourceCatalog } from '../tools/catalog.js';
import type { ToolRegistry } from '../tools/registry.js';
import { errorResult } from '../tools/registry.js';

/** What a session serves: the catalogues, and the bus it follows for resource updates. */
export interface McpServices {
  version: string;
  tools: ToolRegistry;
  prompts: PromptCatalog;
  resources: ResourceCatalog;
  bus: Bus;
  log: Logger;
}

const INSTRUCTIONS =
  'Home MCP Bridge reads and controls a Home Assistant home. Find entities with search_entities or list_areas before acting; ' +
  'acting tools take dry_run, report whether the device reached the asked state, and need confirm: true to unlock, disarm or open a garage door.';

/** A caller's mistake (unknown prompt, resource, tool) as a JSON-RPC error; anything else stays internal. */
function protocolError(err: unknown): never {
  if (err instanceof AppError && err.status < 500) throw new ProtocolError(ProtocolErrorCode.InvalidParams, err.message, { code: err.code, details: err.details });
  throw err;
}

/** The principal a transport admitted for one request, carried to the handlers as the SDK's authInfo. */
export function authInfoOf(principal: Principal, token = ''): AuthInfo {
  return { token, clientId: principal.sub, scopes: [...(principal.scope ?? [])], extra: { principal } };
}

/**
 * Who asks, request by request: the credential presented with this request (a session opened with
 * control and continued with a token narrowed to read is a read session from then on), else the
 * one the session was opened with (stdio has no per-request credential).
 */
function callerOf(ctx: ServerContext, opened: Principal | undefined): Principal | undefined {
  return (ctx.http?.authInfo?.extra?.principal as Principal | undefined) ?? opened;
}

/** MCP allows at most 100 values in one completion answer. */
const MAX_COMPLETIONS = 100;

/** The client behind one tools/call, as plugins see it. */
function clientChannel(ctx: ServerContext, progressToken: string | number | undefined): ClientChannel {
  return {
    progress: async (progress, total, message) => {
      // Only a caller that asked for progress (with a token) is sent any.
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) } });
    },
    log: (level, data) => ctx.mcpReq.log(level, data),
    elicit: (params) => ctx.mcpReq.elicitInput(params as never) as never,
    sample: (params) => ctx.mcpReq.requestSampling(params as never) as never,
  };
}

export interface McpSession {
  server: Server;
  /** Stops following the hub for this session's subscriptions. */
  close(): void;
}

/**
 * Builds a server for one client. Resource subscriptions: the entities a subscribed resource shows
 * are watched on the bus; a change to any of them sends `notifications/resources/updated` for it,
 * at most once per `debounceMs`.
 */
export function createMcpSession(s: McpServices, principal: Principal | undefined, debounceMs: number): McpSession {
  const server = new Server(
    { name: 'home-mcp-bridge', title: 'Home MCP Bridge', version: s.version },
    { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, logging: {}, completions: {} }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler('tools/list', (_req, ctx) => ({ tools: s.tools.listFor(callerOf(ctx, principal)) }) as never);
  server.setRequestHandler('tools/call', async (req, ctx) => {
    try {
      return (await s.tools.call(req.params.name, req.params.arguments ?? {}, callerOf(ctx, principal), clientChannel(ctx, req.params._meta?.progressToken))) as never;
    } catch (err) {
      // Arguments that do not fit are the model's to fix: a tool error it can read (MCP 2025-11-25).
      if (err instanceof AppError && err.status === 400) return errorResult(err) as never;
      return protocolError(err);
    }
  });
  server.setRequestHandler('completion/complete', async (req, ctx) => {
    const { ref, argument } = req.params;
    const who = callerOf(ctx, principal);
    try {
      const all = ref.type === 'ref/prompt' ? await s.prompts.complete(ref.name, argument.name, argument.value, who) : await s.resources.complete(ref.uri, argument.name, argument.value, who);
      return { completion: { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS } } as never;
    } catch (err) {
      return protocolError(err);
    }
  });
  server.setRequestHandler('prompts/list', () => ({ prompts: s.prompts.list() }) as never);
  server.setRequestHandler('prompts/get', async (req, ctx) => {
    try {
      return (await s.prompts.get(req.params.name, req.params.arguments ?? {}, callerOf(ctx, principal))) as never;
    } catch (err) {
      return protocolError(err);
    }
  });
  server.setRequestHandler('resources/list', (_req, ctx) => ({ resources: s.resources.list(callerOf(ctx, principal)) }) as never);
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: s.resources.templates() }) as never);
  server.setRequestHandler('resources/read', async (req, ctx) => {
    try {
      const { contents } = await s.resources.read(req.params.uri, callerOf(ctx, principal));
      return { contents } as never;
    } catch (err) {
      return protocolError(err);
    }
  });

  // uri → the entities it shows; entity → the uris that show it.
  const watched = new Map<string, Set<string>>();
  const byEntity = new Map<string, Set<string>>();
  const timers = new Map<string, NodeJS.Timeout>();
  const follow = async (uri: string) => {
    const { entities } = await s.resources.read(uri, principal);
    for (const e of watched.get(uri) ?? []) byEntity.get(e)?.delete(uri);
    watched.set(uri, new Set(entities));
    for (const e of entities) {
      let uris = byEntity.get(e);
      if (!uris) byEntity.set(e, (uris = new Set()));
      uris.add(uri);
    }
  };
  const updated = (uri: string) => {
    if (timers.has(uri)) return;
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        if (!watched.has(uri)) return;
        server.sendResourceUpdated({ uri }).catch(() => undefined);
        // What the resource shows may have changed with the state (an entity joined an area).
        follow(uri).catch(() => undefined);
      }, debounceMs),
    );
  };
  let listTimer: NodeJS.Timeout | undefined;
  const onEvent = (e: HubEvent) => {
    if (e.event_type !== 'state_changed') return;
    // An entity that appears or goes away changes the resource list (one per entity, per area...).
    if ((!e.data.old_state || !e.data.new_state) && !listTimer) {
      listTimer = setTimeout(() => {
        listTimer = undefined;
        server.sendResourceListChanged().catch(() => undefined);
      }, debounceMs);
    }
    if (byEntity.size === 0) return;
    const uris = byEntity.get(e.data.entity_id as string);
    if (uris) for (const uri of uris) updated(uri);
  };
  s.bus.on('event', onEvent);

  server.setRequestHandler('resources/subscribe', async (req) => {
    try {
      await follow(req.params.uri);
    } catch (err) {
      return protocolError(err);
    }
    return {} as never;
  });
  server.setRequestHandler('resources/unsubscribe', (req) => {
    for (const e of watched.get(req.params.uri) ?? []) byEntity.get(e)?.delete(req.params.uri);
    watched.delete(req.params.uri);
    return {} as never;
  });

  return {
    server,
    close: () => {
      s.bus.off('event', onEvent);
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      clearTimeout(listTimer);
    },
  };
}
