// Builds the context a plugin's tool, prompt or resource is called with (src/plugin-sdk/types.ts
// says what it holds): the home as this caller may see it, acting only through the action executor
// and so through the policy checkpoint; the bridge's scenes, groups and commands for this caller;
// the plugin's log; the client. Only the parts the plugin declared in `needs` are there.
import { actingUserId, actorName, type Principal } from '../auth/tokens.js';
import type { ActionExecutor } from '../actions/executor.js';
import { AppError, ambiguous, invalidParameters, type Candidate } from '../errors.js';
import type { GroupService } from '../groups/service.js';
import type { CameraSnapshots } from '../hub/camera-proxy.js';
import type { HubReader, ReadOnlyCommand, READ_ONLY_SUBSCRIPTIONS } from '../hub/reader.js';
import type { Bus } from '../bus.js';
import type { HubEvent } from '../hub/types.js';
import { isEntityId } from '../hub/entity-id.js';
import type { Logger } from '../log.js';
import type { CommandService } from '../nlp/service.js';
import type { HomeView } from '../policy/home-view.js';
import type { Caller, Policy } from '../policy/policy.js';
import type { SceneService } from '../scenes/service.js';
import type { HaConfigService } from '../ha-config/service.js';
import type { AdminService } from '../ha-admin/service.js';
import type { SystemService } from '../ha-admin/system.js';
import type { TemplateRenderer } from '../templates/render.js';
import { commandWithCode, withCode } from './lock-code.js';
import type {
  ActRequest,
  AdminChangeRequest,
  CallerInfo,
  ClientChannel,
  ConfigChangeRequest,
  ConfigOutcome,
  EntityState,
  Home,
  HomeAdmin,
  HomeConfig,
  Need,
  PluginContext,
  PluginLog,
  SystemChangeRequest,
  ToolResult,
} from '../plugin-sdk/types.js';

/** What the bridge lends plugins: built once at start. */
export interface PluginParts {
  hub: HubReader;
  /** The hub's events, for waiting on a state (home.waitFor). */
  bus: Bus;
  home: HomeView;
  actions: ActionExecutor;
  policy: Policy;
  scenes: SceneService;
  groups: GroupService;
  commands: CommandService;
  haConfig: HaConfigService;
  admin: AdminService;
  system: SystemService;
  templates: TemplateRenderer;
  /** Camera snapshots through Home Assistant's camera proxy (absent: the tools say snapshots are unavailable). */
  snapshots?: CameraSnapshots;
}

/**
 * The hub's read-only commands a plugin may ask (`home.read`): those of src/hub/reader.ts whose
 * answers this module knows how to narrow to what the caller may see; anything that changes goes
 * through the executor.
 */
const READS = new Set<ReadOnlyCommand | (typeof READ_ONLY_SUBSCRIPTIONS)[number]>([
  'history/history_during_period',
  'logbook/get_events',
  'recorder/statistics_during_period',
  'recorder/list_statistic_ids',
  'recorder/get_statistics_metadata',
  'search/related',
  'trace/list',
  'trace/get',
  'trace/contexts',
  'get_config',
  'todo/item/list',
  // A subscription: answered with its first message (the range's events, with their uids).
  'calendar/event/subscribe',
  'energy/get_prefs',
]);

/** Questions that are subscriptions, answered with their first message. */
const FIRST_EVENT = new Set(['calendar/event/subscribe']);

/** Fields of a question that name entities; each must be one the caller may see. */
const ENTITY_FIELDS = ['entity_id', 'entity_ids', 'statistic_ids', 'item_id'];

export function pluginLog(log: Logger): PluginLog {
  return {
    debug: (msg, data) => log.debug(data ?? {}, msg),
    info: (msg, data) => log.info(data ?? {}, msg),
    warn: (msg, data) => log.warn(data ?? {}, msg),
    error: (msg, data) => log.error(data ?? {}, msg),
  };
}

export function callerInfo(p: Principal | undefined): CallerInfo {
  if (!p) return { kind: 'local', name: 'local user' };
  const kind = p.via === undefined ? 'user' : p.via;
  return { kind, name: p.via === 'ingress' ? actorName(p) : actingUserId(p) };
}

/** The home for one caller: the view, and acting through the executor with this caller. */
function homeFor(parts: PluginParts, principal: Principal | undefined, client: ClientChannel): Home {
  const { home, actions, hub, policy } = parts;
  const visibleOnly = (answer: unknown, type: string): unknown => {
    // Answers that list entities keep only those the caller may see.
    if (type === 'logbook/get_events' && Array.isArray(answer)) {
      return answer.filter(
        (e: { entity_id?: string; context_entity_id?: string }) =>
          (!e.entity_id || policy.maySee(e.entity_id)) && (!e.context_entity_id || policy.maySee(e.context_entity_id)),
      );
    }
    if (type === 'history/history_during_period' && answer && typeof answer === 'object') {
      return Object.fromEntries(Object.entries(answer).filter(([id]) => policy.maySee(id)));
    }
    // The energy preferences name meters and prices by entity id: a source or device naming a hidden one is left out.
    if (type === 'energy/get_prefs') return withoutHidden(answer);
    return answer;
  };
  const hidden = (x: unknown) => typeof x === 'string' && isEntityId(x) && !policy.maySee(x);
  const withoutHidden = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.filter((e) => !(e && typeof e === 'object' && !Array.isArray(e) && Object.values(e).some(hidden))).map(withoutHidden);
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, e]) => [k, hidden(e) ? null : withoutHidden(e)]));
    return x;
  };
  return {
    get connected() {
      return home.connected;
    },
    get config() {
      return home.config;
    },
    state: (id) => home.state(id),
    has: (id) => home.has(id),
    states: (domain) => home.states(domain),
    ids: () => home.ids(),
    areas: () => home.areas(),
    floors: () => home.floors(),
    devices: () => home.devices(),
    labels: () => home.labels(),
    area: (id) => home.area(id),
    floor: (id) => home.floor(id),
    device: (id) => home.device(id),
    entry: (id) => home.entry(id),
    areaOf: (id) => home.areaOf(id),
    areaIdFor: (word) => home.areaIdFor(word),
    services: (domain) => home.services(domain),
    supportedActions: (id) => (home.has(id) ? actions.supportedActions(id) : []),
    waitFor: (ids, done, opts) => waitFor(parts, ids, done, opts),
    act: (req) =>
      confirmed(client, req.confirm, (confirm) =>
        withCode(client, req.data?.code, (code) => act(parts, { principal, confirm }, code === undefined ? req : { ...req, data: { ...req.data, code } })),
      ),
    call: (call, opts = {}) =>
      confirmed(client, opts.confirm, async (confirm) => {
        const caller: Caller = { principal, confirm };
        const plan = actions.planCall(call);
        const [ran] = await actions.runBatch([plan], caller, { dryRun: opts.dry_run === true });
        if (ran!.error) throw ran!.error;
        if (opts.dry_run) {
          return {
            service: `${plan.domain}.${plan.service}`,
            dry_run: true,
            data: plan.data,
            entities: plan.entity_ids.map((entity_id) => ({ entity_id, state: home.state(entity_id)?.state ?? null })),
          };
        }
        const done = ran!.outcome!;
        return {
          service: done.service,
          dry_run: false,
          data: done.parameters,
          entities: done.entities.map((e) => ({
            entity_id: e.entity_id,
            state: e.state?.state ?? null,
            ...(e.verified !== undefined ? { verified: e.verified } : {}),
          })),
          ...('response' in done ? { response: done.response } : {}),
        };
      }),
    fireEvent: (event, opts = {}) =>
      confirmed(client, opts.confirm, async (confirm) => {
        const plan = actions.planEvent(event.event_type, event.event_data ?? {});
        const done = await actions.fireEvent(plan, { principal, confirm }, { planOnly: opts.dry_run === true });
        return { event_type: done.event_type, dry_run: opts.dry_run === true, fired: done.fired };
      }),
    renderTemplate: (template, opts = {}) => parts.templates.render(template, opts.timeout),
    ask: (call) => actions.ask(actions.planCall({ ...call, return_response: true })),
    send: (message, opts = {}) =>
      confirmed(client, opts.confirm, async (confirm) => {
        const plan = actions.planCommand(message);
        const caller: Caller = { principal, confirm };
        if (opts.dry_run) {
          await actions.prepare([plan]);
          actions.authorize(caller, [plan], { planOnly: true });
          return { type: message.type, entity_id: plan.entity_id, dry_run: true };
        }
        const result = await actions.runCommand(plan, caller);
        return { type: message.type, entity_id: plan.entity_id, dry_run: false, ...(result != null ? { result } : {}) };
      }),
    read: async <T>(question: { type: string; [k: string]: unknown }) => {
      if (!READS.has(question.type as ReadOnlyCommand))
        throw invalidParameters(`type: ${String(question.type).slice(0, 64)} is not a question a plugin may ask; it may ask: ${[...READS].join(', ')}`, {
          field: 'type',
        });
      for (const field of ENTITY_FIELDS) {
        const given = question[field];
        for (const id of Array.isArray(given) ? given : given === undefined ? [] : [given]) {
          if (typeof id === 'string' && isEntityId(id) && !policy.maySee(id)) throw actions.unknownEntity(id);
        }
      }
      const { type, ...payload } = question;
      const answer = FIRST_EVENT.has(type) ? await hub.firstEvent<T>(question) : await hub.query<T>(type, payload);
      return visibleOnly(answer, type) as T;
    },
    snapshot: async (id) => {
      // A read of what the camera sees: only of a camera this caller may see.
      if (!id.startsWith('camera.') || !home.has(id)) throw actions.unknownEntity(id);
      if (!parts.snapshots) throw new AppError('HUB_ERROR', 501, 'Camera snapshots are not available on this bridge');
      const shot = await parts.snapshots.take(id);
      return { ...shot, data: new Uint8Array(shot.data.buffer, shot.data.byteOffset, shot.data.byteLength) };
    },
    unknownEntity: (id) => actions.unknownEntity(id),
    unknownDevice: (id) => actions.unknownDevice(id),
  };
}

/**
 * An action on entities of one domain: planned and checked by the executor, held to the policy
 * (all of it or none), run or only planned, and answered with each entity's new state and whether
 * it shows what was asked. Every category plugin acts through this; none repeats these rules.
 */
/**
 * Until `done` holds for these entities' states: looked at now and at each of their state changes;
 * ends early when the signal aborts or the time is up. Only entities the caller may see are watched.
 */
function waitFor(
  parts: PluginParts,
  ids: readonly string[],
  done: (states: (EntityState | undefined)[]) => boolean,
  opts: { timeoutMs: number; signal?: AbortSignal; changed?: (states: (EntityState | undefined)[]) => void },
): Promise<boolean> {
  const { home, bus, policy } = parts;
  const watched = ids.filter((id) => policy.maySee(id));
  const now = () => watched.map((id) => home.state(id));
  if (done(now())) return Promise.resolve(true);
  if (opts.signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const ids = new Set(watched);
    const end = (held: boolean) => {
      clearTimeout(timer);
      bus.off('event', heard);
      opts.signal?.removeEventListener('abort', aborted);
      resolve(held);
    };
    const heard = (e: HubEvent) => {
      if (e.event_type !== 'state_changed' || !ids.has(e.data.entity_id as string)) return;
      // The state cache takes the change on the same event; read it once that has run.
      setImmediate(() => {
        const states = now();
        opts.changed?.(states);
        if (done(states)) end(true);
      });
    };
    const aborted = () => end(false);
    const timer = setTimeout(() => end(done(now())), Math.max(0, opts.timeoutMs));
    bus.on('event', heard);
    opts.signal?.addEventListener('abort', aborted, { once: true });
  });
}

async function act(parts: PluginParts, caller: Caller, req: ActRequest): Promise<ToolResult> {
  const { home, actions, policy } = parts;
  if (!req.entity_id && !req.area)
    throw new AppError('INVALID_PARAMETERS', 400, `Say which ${req.domain} entities: give entity_id (one or a list) or area; search_entities finds them`, {
      field: 'entity_id',
    });
  let areaId: string | undefined;
  if (req.area !== undefined) {
    areaId = home.areaIdFor(req.area);
    if (!areaId) {
      const known = home.areas().map((a) => a.name);
      throw new AppError('INVALID_ENTITY', 404, `There is no area ${JSON.stringify(req.area.slice(0, 40))}; areas: ${known.join(', ') || 'none'}`, {
        field: 'area',
        area: req.area,
        available_areas: known,
      });
    }
  }
  const target = { ...(req.entity_id ? { entity_id: req.entity_id } : {}), ...(areaId ? { area_id: areaId } : {}) };
  const plan = actions.planCall({ domain: req.domain, service: req.service, data: req.data ?? {}, target });
  const ofDomain = plan.entity_ids.filter((id) => id.startsWith(`${req.domain}.`));
  // An area stands for the entities of this domain in it that the caller may see: when it holds
  // one the caller may not, the call names the others one by one instead of the area.
  const ids = ofDomain.filter((id) => req.entity_id !== undefined || policy.maySee(id));
  if (!ids.length)
    throw new AppError('INVALID_ENTITY', 404, `No ${req.domain} entities in ${req.area ?? 'that target'}`, { area: req.area ?? null, domain: req.domain });
  const scoped = ids.length === ofDomain.length ? { ...plan, entity_ids: ids } : { ...plan, target: { entity_id: ids }, entity_ids: ids };
  const what = `${req.domain}.${req.service}`;
  const [ran] = await actions.runBatch([scoped], caller, { dryRun: req.dry_run === true });
  if (ran!.error) throw ran!.error;
  if (req.dry_run) {
    const guarded = actions.guarded([scoped]);
    const entities = ids.map((entity_id, i) => ({
      entity_id,
      state: home.state(entity_id)?.state ?? null,
      ...(policy.confirmationOf(guarded[i]!) ? { needs_confirmation: true } : {}),
    }));
    const data = Object.keys(plan.data).length ? ` with ${JSON.stringify(plan.data)}` : '';
    const held = entities.filter((e) => e.needs_confirmation).map((e) => e.entity_id);
    const note = held.length ? ` ${held.join(', ')} would need the person's confirmation (confirm: true).` : '';
    // What it will do beyond its own entities (a script's steps, a group's members), and what Home Assistant may run after.
    const preview = await policy.preview(guarded);
    const indirect = preview.effects.filter((e) => e.via);
    const does = indirect.length ? ` It would: ${indirect.map((e) => `${e.service} on ${e.entity_id} (${e.via})`).join('; ')}.` : '';
    const may = preview.may_also_run.length
      ? ` Home Assistant may also run ${preview.may_also_run.map((m) => `${m.automation} (${m.because})`).join(', ')}.`
      : '';
    return {
      content: [{ type: 'text', text: `Would call ${what} on ${ids.join(', ')}${data}.${does}${note}${may}` }],
      structuredContent: { service: what, dry_run: true, entities, preview: { effects: preview.effects, may_also_run: preview.may_also_run } },
    };
  }
  const outcome = ran!.outcome!;
  const entities = outcome.entities
    .filter((e) => e.entity_id.startsWith(`${req.domain}.`))
    .map((e) => ({
      entity_id: e.entity_id,
      state: e.state?.state ?? null,
      ...(e.verified !== undefined ? { verified: e.verified, expected: e.expected, actual: e.actual } : {}),
      ...(e.pending ? { pending: true } : {}),
    }));
  const missed = entities.filter((e) => e.verified === false && !e.pending);
  const lines = entities.map(
    (e) =>
      `${e.entity_id}: ${e.state}${e.verified === false ? (e.pending ? ' (still changing)' : ` (NOT as asked: wanted ${JSON.stringify(e.expected)}, got ${JSON.stringify(e.actual)})`) : ''}`,
  );
  return {
    content: [{ type: 'text', text: `${what} done.\n${lines.join('\n')}${missed.length ? `\n${missed.length} did not end as asked.` : ''}` }],
    structuredContent: { service: what, dry_run: false, entities },
  };
}

/**
 * An action the checkpoint holds for the person's confirmation (it says which, src/policy/policy.ts)
 * is asked of them when the client can ask, and runs only on their explicit yes; a caller that
 * cannot be asked keeps today's answer (CONFIRMATION_REQUIRED: call again with confirm: true).
 */
async function confirmed<T>(client: ClientChannel, given: boolean | undefined, run: (confirm: boolean | undefined) => Promise<T>): Promise<T> {
  try {
    return await run(given);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'CONFIRMATION_REQUIRED' || given || !client.can('elicitation')) throw err;
    const reasons = (err.details.needs_confirmation as string[] | undefined) ?? [];
    const what = reasons.join(', ') || 'this action';
    if (!(await client.confirm(`Allow ${what}?`)))
      throw new AppError('CONFIRMATION_REQUIRED', 409, `The person did not allow ${what}; nothing was done`, { needs_confirmation: reasons, declined: true });
    return run(true);
  }
}

/**
 * A command whose words name several entities where they mean one: the person picks one of the
 * candidates when the client can ask, else the answer is AMBIGUOUS with the candidates.
 */
async function settled<T extends { success: boolean; message: string; candidates?: Candidate[] }>(
  client: ClientChannel,
  run: (choose?: string) => Promise<T>,
): Promise<T> {
  const once = async (choose?: string) => {
    const r = await run(choose);
    // The planner's answer for an ambiguity, as the shared error (the same code on every transport).
    if (!r.success && r.candidates?.length) throw ambiguous(r.message, r.candidates);
    return r;
  };
  try {
    return await once();
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'AMBIGUOUS' || !client.can('elicitation')) throw err;
    const candidates = (err.details.candidates ?? []) as Candidate[];
    const pick = await client.choose(
      err.message,
      candidates.map((c) => ({ value: c.entity_id, label: c.area ? `${c.name} (${c.area})` : c.name })),
    );
    if (pick === undefined) throw new AppError('AMBIGUOUS', 409, `No entity was chosen; nothing was done. ${err.message}`, { ...err.details, declined: true });
    return once(pick);
  }
}

const CONFIRM_SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Yes, apply this change', default: false } }, required: ['confirm'] };

/**
 * A config change the checkpoint holds for confirmation: a client that can be asked is shown the
 * change (its summary and the start of its diff) and asked, under a key made of the preview's id, so
 * a yes counts only for the very change it saw; the change is applied only with that preview. A
 * caller that cannot be asked keeps the answer: CONFIRMATION_REQUIRED with the preview, to show the
 * person and call again with confirm: true.
 */
async function confirmedChange(
  client: ClientChannel,
  given: boolean | undefined,
  run: (confirm: boolean | undefined, previewId?: string) => Promise<ConfigOutcome>,
): Promise<ConfigOutcome> {
  try {
    return await run(given);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'CONFIRMATION_REQUIRED' || given || !client.can('elicitation')) throw err;
    const previewId = String(err.details.preview_id ?? '');
    const diff = String(err.details.diff ?? '').split('\n');
    const shown = diff.slice(0, 40).join('\n') + (diff.length > 40 ? `\n… (${diff.length - 40} more lines)` : '');
    const message = `Apply this change to Home Assistant? ${String(err.details.summary ?? err.message)}\n\n${shown}`;
    const answer = (await client.elicit({ message, requestedSchema: CONFIRM_SCHEMA }, `confirm_config_${previewId}`)) as {
      action: string;
      content?: Record<string, unknown>;
    };
    if (answer.action !== 'accept' || answer.content?.confirm !== true)
      throw new AppError('CONFIRMATION_REQUIRED', 409, 'The person did not allow this change; nothing was changed', { ...err.details, declined: true });
    return run(true, previewId);
  }
}

/** The config part for one caller: the one config service, every change confirmed as above. */
function configFor(service: HaConfigService, principal: Principal | undefined, client: ClientChannel): HomeConfig {
  return {
    get editing() {
      return service.editing;
    },
    list: (kind) => service.list(kind),
    get: (kind, id) => service.get(kind, id),
    trace: (kind, id, runId) => service.trace(kind, id, runId),
    change: ({ dry_run, confirm, reason, preview_id, ...req }: ConfigChangeRequest) =>
      confirmedChange(client, confirm, (yes, asked) =>
        service.change(req, principal, { dry_run, confirm: yes, reason, preview_id: preview_id ?? asked, assistant: true }),
      ),
    history: (kind, id, limit) => service.history(kind, id, limit),
    version: (id) => service.version(id),
    restore: (version, opts = {}) =>
      confirmedChange(client, opts.confirm, (yes, asked) =>
        service.restore(version, principal, { ...opts, confirm: yes, preview_id: opts.preview_id ?? asked, assistant: true }),
      ),
  };
}

/** The admin part for one caller: the admin service, every change confirmed through the same asking as config's. */
function adminFor(service: AdminService, system: SystemService, principal: Principal | undefined, client: ClientChannel): HomeAdmin {
  return {
    list: (kind) => service.list(kind, principal),
    change: ({ dry_run, confirm, reason, preview_id, ...req }: AdminChangeRequest) =>
      confirmedChange(client, confirm, (yes, asked) =>
        service.change(req, principal, { dry_run, confirm: yes, reason, preview_id: preview_id ?? asked, assistant: true }),
      ),
    history: (kind, id, limit) => service.history(kind, id, limit, principal),
    restore: (version, opts = {}) =>
      confirmedChange(client, opts.confirm, (yes, asked) =>
        service.restore(version, principal, { ...opts, confirm: yes, preview_id: opts.preview_id ?? asked, assistant: true }),
      ),
    health: () => service.health(principal),
    blueprints: (domain) => service.blueprints(domain, principal),
    updates: () => system.updates(principal),
    releaseNotes: (entityId) => system.releaseNotes(entityId, principal),
    apps: () => system.apps(principal),
    downtime: () => system.downtime(),
    system: ({ dry_run, confirm, reason, preview_id, ...req }: SystemChangeRequest) =>
      confirmedChange(client, confirm, (yes, asked) =>
        system.change(req, principal, { dry_run, confirm: yes, reason, preview_id: preview_id ?? asked, assistant: true }, client),
      ),
  };
}

const undeclared = (plugin: string, part: Need) => () => {
  throw new Error(`the plugin ${plugin} did not declare "${part}" in needs`);
};

/** The context for one call of one plugin's tool, prompt or resource. */
export function pluginContext(
  parts: PluginParts,
  plugin: { name: string; needs: readonly Need[]; log: PluginLog },
  principal: Principal | undefined,
  client: ClientChannel,
): PluginContext {
  const caller = (confirm?: boolean): Caller => ({ principal, confirm });
  const made: Record<Need, () => unknown> = {
    home: () => homeFor(parts, principal, client),
    scenes: () => ({
      list: () => parts.scenes.list(),
      get: (name: string) => parts.scenes.get(name, 'name'),
      activate: (name: string, opts: { confirm?: boolean } = {}) =>
        confirmed(client, opts.confirm, (confirm) => parts.scenes.activate(name, caller(confirm), 'name')),
      capture: (def: { name: string; entities: string[]; description?: string }, opts: { replace?: boolean } = {}) => parts.scenes.capture(def, caller(), opts),
    }),
    groups: () => ({
      list: () => parts.groups.list(),
      view: (name: string) => parts.groups.view(name),
      control: (name: string, cmd: { action: string; parameters?: Record<string, unknown> }, opts: { confirm?: boolean } = {}) =>
        confirmed(client, opts.confirm, (confirm) => parts.groups.control(name, cmd, caller(confirm))),
    }),
    commands: () => ({
      run: (input: Parameters<CommandService['runCommand']>[0]) =>
        settled(client, (choose) =>
          confirmed(client, input.confirm, (confirm) =>
            commandWithCode(client, parts.home, input, (extra) =>
              parts.commands.runCommand({ ...input, confirm, ...(choose !== undefined ? { choose } : {}), ...extra }, principal),
            ),
          ),
        ),
    }),
    config: () => configFor(parts.haConfig, principal, client),
    admin: () => adminFor(parts.admin, parts.system, principal, client),
  };
  const ctx = { log: plugin.log, client, caller: callerInfo(principal) } as PluginContext;
  for (const part of Object.keys(made) as Need[]) {
    Object.defineProperty(ctx, part, plugin.needs.includes(part) ? { value: made[part](), enumerable: true } : { get: undeclared(plugin.name, part) });
  }
  return ctx;
}
