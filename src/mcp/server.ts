// One MCP server for one caller, over the same registry the REST tool transport serves: tools,
// prompts and resources from the plugins. The same server serves both eras: built per request for
// 2026-07-28 traffic (createMcpHandler, serveStdio), and once per session for 2025-era clients
// (src/mcp/session.ts adds what a session follows). Transports only carry its messages.
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type AuthInfo,
  type CacheHint,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AskKind, ClientChannel, InputRequest } from '../plugin-sdk/index.js';
import type { Principal } from '../auth/tokens.js';
import { AppError } from '../errors.js';
import type { Bus } from '../bus.js';
import type { Logger } from '../log.js';
import { askingChannel, FIRST_ROUND, InputNeeded, type Round } from '../plugin-host/asking.js';
import type { PromptCatalog, ResourceCatalog } from '../plugin-host/tool-catalog.js';
import type { ToolRegistry } from '../plugin-host/tool-registry.js';
import { errorResult } from '../plugin-host/tool-registry.js';
import { discoveryOf } from '../plugin-host/tool-discovery.js';
import type { RequestStateSeal } from './request-state.js';
import { UI_EXTENSION, UI_MIME } from '../plugin-sdk/ui.js';
import * as v from 'valibot';
import { type McpTasks, type RunOutcome, TASKS_EXTENSION } from './tasks.js';

/** What a server serves: the catalogues, and the bus the live parts follow. */
export interface McpServices {
  version: string;
  tools: ToolRegistry;
  prompts: PromptCatalog;
  resources: ResourceCatalog;
  bus: Bus;
  log: Logger;
}

export type Era = 'legacy' | 'modern';

const INSTRUCTIONS =
  'Home MCP Bridge reads and controls a Home Assistant home. Find entities with search_entities or list_areas before acting; ' +
  'acting tools take dry_run and report whether the device reached the asked state. Unlocking, disarming and opening a garage door ' +
  'are confirmed by the person: a client that can ask gets the question, others call again with confirm: true.';

/**
 * How long a list may be reused (MCP 2026-07-28 caching). Lists that are the same for every caller
 * are public; the tool list depends on the caller's grant and what the home holds, resources show
 * the home, so those are private. Each list also announces its changes (subscriptions/listen), and
 * a resource shows live state, so a read is stale at once.
 */
export const CACHE_HINTS: Partial<
  Record<'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read' | 'server/discover', CacheHint>
> = {
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
  'prompts/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'tools/list': { ttlMs: 300_000, cacheScope: 'private' },
  'resources/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
};

/** A caller's mistake (unknown prompt, resource, tool) as a JSON-RPC error; anything else stays internal. */
function protocolError(err: unknown): never {
  if (err instanceof AppError && err.status < 500)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, err.message, { code: err.code, details: err.details });
  throw err;
}

/** The principal a transport admitted for one request, carried to the handlers as the SDK's authInfo. */
export function authInfoOf(principal: Principal, token = ''): AuthInfo {
  return { token, clientId: principal.sub, scopes: [...(principal.scope ?? [])], extra: { principal } };
}

/**
 * Who asks, request by request: the credential presented with this request (a session opened with
 * control and continued with a token narrowed to read is a read session from then on), else the
 * one the server was built for (stdio has no per-request credential).
 */
function callerOf(ctx: ServerContext, opened: Principal | undefined): Principal | undefined {
  return (ctx.http?.authInfo?.extra?.principal as Principal | undefined) ?? opened;
}

/** MCP allows at most 100 values in one completion answer. */
const MAX_COMPLETIONS = 100;

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** What the client said it can answer: per request in the 2026 era, at initialize before. */
function capabilitiesOf(ctx: ServerContext, server: Server): Record<string, unknown> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined) ??
    (server.getClientCapabilities() as Record<string, unknown> | undefined) ??
    {}
  );
}

export interface ServerParts {
  seal: RequestStateSeal;
  /** The tasks long calls run as (MCP's tasks extension), shared by every server of the bridge. */
  tasks: McpTasks;
}

/** Whether the client negotiated MCP's tasks extension (per request in the 2026 era, at initialize before). */
const hasTasks = (caps: Record<string, unknown>) => {
  const ext = caps.extensions as Record<string, unknown> | undefined;
  return typeof ext === 'object' && ext !== null && ext[TASKS_EXTENSION] !== undefined && ext[TASKS_EXTENSION] !== null;
};

const missingTasks = (what: string) =>
  new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `${what} runs as a task: it needs MCP 2026-07-28 with the ${TASKS_EXTENSION} extension, which this request did not declare`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );

/** How one run of a task's call ended. */
function outcomeOf(run: Promise<unknown>): Promise<RunOutcome> {
  return run.then(
    (result) => ({ kind: 'result', result: result as never }),
    (err: unknown): RunOutcome => {
      if (err instanceof InputNeeded) return { kind: 'asks', questions: err.questions as never, answers: err.answers };
      if (err instanceof AppError) return { kind: 'failed', message: err.message, data: { code: err.code } };
      return { kind: 'failed', message: 'The bridge failed while running the call; its log says why' };
    },
  );
}

const AnyParams = v.looseObject({});
const TaskParams = v.looseObject({ taskId: v.pipe(v.string(), v.maxLength(200)) });
const Responses = v.record(v.string(), v.unknown());

/** Builds a server for one caller (`principal`; undefined for the local stdio user) in one era. */
export function buildServer(s: McpServices, parts: ServerParts, principal: Principal | undefined, era: Era): Server {
  const server = new Server(
    { name: 'home-mcp-bridge', title: 'Home MCP Bridge', version: s.version },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        logging: {},
        completions: {},
        // Tasks belong to 2026-07-28 (their results carry resultType); 2025-era clients keep progress, then the result.
        extensions: { [UI_EXTENSION]: { mimeTypes: [UI_MIME] }, ...(era === 'modern' ? { [TASKS_EXTENSION]: {} } : {}) },
      },
      instructions: INSTRUCTIONS,
      cacheHints: CACHE_HINTS,
    },
  );
  const subject = (who: Principal | undefined) => who?.sub ?? 'stdio';

  /**
   * The round this request is: the first (no state), or a retry whose sealed state says what was
   * asked and answered before. A state that does not open is refused before anything runs.
   */
  const roundOf = (ctx: ServerContext, method: string, name: string, args: unknown, who: Principal | undefined): Round => {
    const state = ctx.mcpReq.requestState<unknown>();
    if (state === undefined) return { ...FIRST_ROUND, responses: {} };
    if (typeof state !== 'string') throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid requestState: it must be the string this server sent');
    const carried = parts.seal.open(state, { caller: subject(who), method, name, args });
    const responses = ctx.mcpReq.inputResponses;
    return { ...carried, responses: responses && typeof responses === 'object' ? responses : {} };
  };

  /** What the tool asked, as MCP's input-required result, with the state for the next round. */
  const asking = (need: InputNeeded, method: string, name: string, args: unknown, who: Principal | undefined) =>
    inputRequired({
      inputRequests: need.questions as Record<string, InputRequest> as never,
      requestState: parts.seal.mint({ asked: Object.keys(need.questions), answers: need.answers }, { caller: subject(who), method, name, args }),
    });

  /** A tool's channel to the request's client; once the call is a task (`task.id()` answers its id), progress becomes the task's status message. */
  const channel = (
    ctx: ServerContext,
    round: Round,
    progressToken?: string | number,
    task?: { background: () => boolean; signal: AbortSignal; id: () => string | undefined },
  ): ClientChannel => {
    const caps = capabilitiesOf(ctx, server);
    return askingChannel({
      round,
      can: (kind: AskKind) => caps[kind] !== undefined && caps[kind] !== null,
      progress: async (progress, total, message) => {
        const taskId = task?.id();
        if (taskId) return parts.tasks.progress(taskId, message ?? `${progress}${total !== undefined ? ` of ${total}` : ''}`);
        // Only a caller that asked for progress (with a token) is sent any.
        if (progressToken === undefined) return;
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
        });
      },
      // The request a task started from has been answered: its log lines have nowhere to go.
      log: async (level, data) => (task?.id() ? undefined : ctx.mcpReq.log(level, data)),
      ...(task ? { background: task.background, signal: task.signal } : {}),
    });
  };

  /**
   * A call of a tool that may run as a task, from a client with the extension: it runs in this
   * request until it finishes (answered as usual) or says it takes long (background), when the
   * client gets a task at once and the call goes on there.
   */
  const callAsTask = async (ctx: ServerContext, name: string, args: unknown, who: Principal | undefined, round: Round, progressToken?: string | number) => {
    const abort = new AbortController();
    let taskId: string | undefined;
    let goBackground!: () => void;
    const background = new Promise<'background'>((r) => {
      goBackground = () => r('background');
    });
    const parked = {
      background: () => {
        goBackground();
        return true;
      },
      signal: abort.signal,
      id: () => taskId,
    };
    const running = tools.call(name, args, who, channel(ctx, round, progressToken, parked), { internalErrors: 'throw' });
    const first = await Promise.race([
      running.then(
        () => 'done' as const,
        () => 'done' as const,
      ),
      background,
    ]);
    // Done in this request: answered as any call is (a failure of the bridge is the tool's error result, as before).
    if (first === 'done') return running.catch((err: unknown) => (err instanceof AppError && err.status >= 500 ? errorResult(err) : Promise.reject(err)));
    const again = { background: () => true, signal: abort.signal, id: () => taskId };
    // Run again as whoever answered (the same subject; a narrower credential narrows the run).
    const rerun = (next: Round, _signal: AbortSignal, by: unknown) =>
      outcomeOf(tools.call(name, args, (by as Principal | undefined) ?? who, channel(ctx, next, undefined, again), { internalErrors: 'throw' }));
    const view = parts.tasks.start(subject(who), outcomeOf(running), rerun, abort);
    taskId = view.taskId;
    return { resultType: 'task', ...view };
  };

  const tools = discoveryOf(s.tools);
  server.setRequestHandler('tools/list', (_req, ctx) => ({ tools: tools.listedFor(callerOf(ctx, principal)).sort(byKey((t) => t.name)) }) as never);
  server.setRequestHandler('tools/call', async (req, ctx) => {
    const who = callerOf(ctx, principal);
    const { name } = req.params;
    const args = req.params.arguments ?? {};
    const support = s.tools.taskSupport(name, who);
    const tasks = support !== undefined && era === 'modern' && hasTasks(capabilitiesOf(ctx, server));
    if (support === 'required' && !tasks) throw missingTasks(`The tool ${name}`);
    const round = roundOf(ctx, 'tools/call', name, args, who);
    try {
      if (tasks) return (await callAsTask(ctx, name, args, who, round, req.params._meta?.progressToken)) as never;
      return (await tools.call(name, args, who, channel(ctx, round, req.params._meta?.progressToken))) as never;
    } catch (err) {
      if (err instanceof InputNeeded) return asking(err, 'tools/call', name, args, who) as never;
      // Arguments that do not fit are the model's to fix: a tool error it can read (MCP 2025-11-25).
      if (err instanceof AppError && err.status === 400) return errorResult(err) as never;
      return protocolError(err);
    }
  });
  server.setRequestHandler('completion/complete', async (req, ctx) => {
    const { ref, argument } = req.params;
    const who = callerOf(ctx, principal);
    try {
      const all =
        ref.type === 'ref/prompt'
          ? await s.prompts.complete(ref.name, argument.name, argument.value, who)
          : await s.resources.complete(ref.uri, argument.name, argument.value, who);
      return { completion: { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS } } as never;
    } catch (err) {
      return protocolError(err);
    }
  });
  server.setRequestHandler('prompts/list', () => ({ prompts: s.prompts.list().sort(byKey((p) => p.name)) }) as never);
  server.setRequestHandler('prompts/get', async (req, ctx) => {
    const who = callerOf(ctx, principal);
    const { name } = req.params;
    const args = req.params.arguments ?? {};
    const round = roundOf(ctx, 'prompts/get', name, args, who);
    try {
      return (await s.prompts.get(name, args, who, channel(ctx, round))) as never;
    } catch (err) {
      if (err instanceof InputNeeded) return asking(err, 'prompts/get', name, args, who) as never;
      return protocolError(err);
    }
  });
  server.setRequestHandler('resources/list', (_req, ctx) => ({ resources: s.resources.list(callerOf(ctx, principal)).sort(byKey((r) => r.uri)) }) as never);
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: s.resources.templates().sort(byKey((r) => r.uriTemplate)) }) as never);
  server.setRequestHandler('resources/read', async (req, ctx) => {
    const who = callerOf(ctx, principal);
    const { uri } = req.params;
    const round = roundOf(ctx, 'resources/read', uri, {}, who);
    try {
      const { contents } = await s.resources.read(uri, who, channel(ctx, round));
      return { contents } as never;
    } catch (err) {
      if (err instanceof InputNeeded) return asking(err, 'resources/read', uri, {}, who) as never;
      return protocolError(err);
    }
  });
  // MCP's tasks extension (SEP-2663), for requests that declare it: the extension is checked
  // before the params, so a client without it hears that first (-32021).
  const taskRequest = <S extends v.GenericSchema>(ctx: ServerContext, method: string, schema: S, params: unknown) => {
    if (era !== 'modern' || !hasTasks(capabilitiesOf(ctx, server))) throw missingTasks(method);
    const parsed = v.safeParse(schema, params);
    if (!parsed.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${v.summarize(parsed.issues)}`);
    return { owner: subject(callerOf(ctx, principal)), params: parsed.output as v.InferOutput<S> };
  };
  server.setRequestHandler('tasks/get', { params: AnyParams }, (params, ctx) => {
    const r = taskRequest(ctx, 'tasks/get', TaskParams, params);
    return { resultType: 'complete', ...parts.tasks.get(r.owner, r.params.taskId) };
  });
  server.setRequestHandler('tasks/update', { params: AnyParams }, (params, ctx) => {
    const r = taskRequest(ctx, 'tasks/update', TaskParams, params);
    // The SDK takes inputResponses out of the params, as for any request that answers questions.
    const responses = v.safeParse(Responses, ctx.mcpReq.inputResponses ?? (params as { inputResponses?: unknown }).inputResponses);
    if (!responses.success)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params for tasks/update: inputResponses must be an object of answers by key');
    parts.tasks.update(r.owner, r.params.taskId, responses.output, callerOf(ctx, principal));
    return { resultType: 'complete' };
  });
  server.setRequestHandler('tasks/cancel', { params: AnyParams }, (params, ctx) => {
    const r = taskRequest(ctx, 'tasks/cancel', TaskParams, params);
    parts.tasks.cancel(r.owner, r.params.taskId);
    return { resultType: 'complete' };
  });
  // The 2025 era's own ways to follow a resource; a session (src/mcp/session.ts) answers them.
  if (era === 'legacy') {
    server.setRequestHandler('resources/subscribe', () => ({}) as never);
    server.setRequestHandler('resources/unsubscribe', () => ({}) as never);
  }
  return server;
}
