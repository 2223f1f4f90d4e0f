// Home Assistant's automations, scripts, helpers and dashboards, read and changed safely: the one
// service behind the config plugin's tools, the REST routes and the panel. Every change is planned
// first (the config before and after, a diff in words and lines), judged by the policy checkpoint
// (scope, read-only, CONFIG_EDITING, allow/deny and exposure of the item and of everything the new
// config touches, confirmation), kept as a version in SQLite before Home Assistant is asked, then
// made through Home Assistant's own config API. An automation or script Home Assistant does not
// load after the write is put back as it was, and the answer says so.
import type { HubConfigs } from '../hub/configs.js';
import type { EffectPreview } from '../policy/policy.js';
import { createHash } from 'node:crypto';
import type { ActionExecutor } from '../actions/executor.js';
import { isPerson, type Principal } from '../auth/tokens.js';
import { AppError, conflict, invalidParameters, notFound } from '../errors.js';
import type { ActingHub } from '../hub/acting.js';
import { HubAdmin } from '../ha-admin/hub-admin.js';
import type { HubReader } from '../hub/reader.js';
import type { HubState } from '../hub/types.js';
import type { Logger } from '../log.js';
import type { AdminChange, Caller, ConfigEdit, GuardedAction, Policy } from '../policy/policy.js';
import {
  ADMIN_KINDS,
  type AdminKind,
  type ConfigChange,
  type ConfigKind,
  type ConfigVersion,
  type ConfigVersionStore,
  type SystemKind,
} from '../store/config-versions.js';
import { editDashboard, type DashboardChange } from './dashboards.js';
import { changeWords, toYaml, unifiedDiff } from './diff.js';
import { HELPER_TYPES, helperRef, HubConfig, storedAutomation, type Json } from './hub-config.js';
import { type ActionRef, referencesOf } from './references.js';
import { explain, explainRun, type Explanation, type TraceStep, type TraceSummary } from './traces.js';

/** Config items proper; the admin kinds share the same versions and the same change flow. */
export type Kind = Exclude<ConfigKind, AdminKind | SystemKind>;
export const KINDS: readonly Kind[] = ['automation', 'script', 'helper', 'dashboard'];
const isAdminKind = (k: ConfigKind): k is AdminKind => (ADMIN_KINDS as readonly string[]).includes(k);

export interface ChangeRequest {
  kind: Kind;
  op: 'create' | 'update' | 'delete';
  /** automation: its id (or entity id); script: its key (or entity id); helper: type.id (the type alone to create); dashboard: its url_path or "default". */
  id?: string;
  config?: Json;
  /** Dashboards: a view by index, path or title. */
  view?: number | string;
  /** Dashboards: a card by its index in the view. */
  card?: number;
}

export interface ApplyOptions {
  /** Only plan: the diff and what would be asked, nothing written. */
  dry_run?: boolean;
  /** The person confirmed this change. */
  confirm?: boolean;
  /** Why (kept with the version); assistants must say it. */
  reason?: string;
  /** The preview this apply must still match (what the person saw). */
  preview_id?: string;
  /** The caller is an assistant (a tool call), which must say why even with a person's credential. */
  assistant?: boolean;
}

export interface Outcome {
  kind: ConfigKind;
  id: string;
  entity_id: string | null;
  change: ConfigChange | 'unchanged';
  dry_run: boolean;
  applied: boolean;
  /** One sentence. */
  summary: string;
  /** What changed, key by key. */
  words: string[];
  /** Unified diff of the stored YAML. */
  diff: string;
  /** What the person confirms (the change, and anything in it that opens the home). */
  needs_confirmation: string[];
  /** Names this exact change (before and after): an apply with preview_id must still match it. */
  preview_id: string;
  /** A dry run: what the written config's actions will do, indirect effects with how they are reached. */
  effects?: EffectPreview['effects'];
  /** A dry run: automations whose own triggers watch what it changes; Home Assistant may also run them. */
  may_also_run?: EffectPreview['may_also_run'];
  /** The version that holds the result. */
  version?: number;
  restored_from?: number;
  /** Home Assistant took the change but it holds only after a restart (an integration that cannot unload). */
  require_restart?: true;
}

export interface ItemSummary {
  kind: Kind;
  id: string;
  entity_id: string | null;
  name: string;
  state?: string;
  last_triggered?: string | null;
  mode?: string;
  editable: boolean;
}

export interface VersionView extends Omit<ConfigVersion, 'config'> {
  config: unknown;
  /** Unified diff from the version before it of the same item ('' for the first kept). */
  diff: string;
  words: string[];
}

/** Who a principal is, for the versions: its kind and a name people recognise. */
export type Who = (p: Principal | undefined) => { kind: string; name: string };

export interface HaConfigOptions {
  hub: HubReader;
  /** The hub that acts: only this service and the action executor hold it (tests/unit/layers.test.ts); its writes go through the checkpoint here. */
  acting: ActingHub;
  /** What scripts, automations and scenes do, as the checkpoint keeps it: dropped when the bridge changes one. */
  hubConfigs?: HubConfigs;
  policy: Policy;
  actions: ActionExecutor;
  versions: ConfigVersionStore;
  /** Versions kept per item (CONFIG_VERSIONS_MAX). */
  keep: number;
  who: Who;
  log: Logger;
  /** How long to wait for Home Assistant to load a written automation or script. */
  reloadTimeoutMs?: number;
}

/**
 * What a change does to Home Assistant, planned before anything is written. The admin tools plan
 * their changes (a registry item, a zone, an integration's state) in this shape too, with `admin`
 * set: the checkpoint judges them as admin changes, and everything else is the same flow.
 */
export interface ChangePlan {
  kind: ConfigKind;
  id: string;
  /** The item as the policy's lists judge it (automation.x, input_boolean.y, lovelace.default). */
  subject: string;
  entityId: string | null;
  before: Json | null;
  after: Json | null;
  /** The part written, whose entities and actions are judged (null: nothing written). */
  written: unknown;
  change: ConfigChange;
  what: string;
  detail?: string;
  /** Makes the change; answers the item's id (a new helper's is Home Assistant's choice) and its config after. */
  apply(): Promise<{ id: string; after: Json | null; entityId?: string | null }>;
  /** Waits until Home Assistant runs the new config; answers why not, if it does not. */
  verify?(): Promise<string | undefined>;
  /** Puts `before` back. */
  undo(): Promise<void>;
  /** An admin change: judged by Policy.authorizeAdminChange instead of as a config edit. */
  admin?: AdminChange;
  /** False for a change with nothing to keep (reloading an integration): confirmed, never versioned. */
  versioned?: boolean;
}
type Plan = ChangePlan;

/** How the admin tools put one of their kinds back to a kept version. */
export interface AdminKindHandler {
  /** The item as it is now; null when absent. */
  current(item: string): Promise<Json | null>;
  /** A plan that makes the item `target` (null: removes it). */
  planTo(item: string, target: Json | null, current: Json | null): Promise<ChangePlan>;
  /** The item as the lists judge it (area.kitchen, light.desk). */
  subject(item: string): string;
}

const MAX_NESTING = 5;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const same = (a: unknown, b: unknown): boolean => {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && same(a[k], b[k]));
  }
  return a === b;
};
/**
 * Whether what Home Assistant runs is the config written. An automation or script made from a
 * blueprint runs with the blueprint's inputs substituted, so only what the config sets itself
 * (its alias) can be compared.
 */
const runsAs = (loaded: Json, expected: Json): boolean => ('use_blueprint' in expected ? loaded.alias === expected.alias : same(loaded, expected));
const slug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'item';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class HaConfigService {
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly reloadTimeoutMs: number;
  private readonly adminKinds = new Map<AdminKind, AdminKindHandler>();

  private readonly o: HaConfigOptions & { hubConfig: HubConfig };
  /**
   * Home Assistant's commands for looking after itself, lent to the admin service: its changes are
   * planned there and run only through applyPlan here, after the checkpoint (authorizeAdminChange).
   */
  readonly adminHub: HubAdmin;

  constructor(opts: HaConfigOptions) {
    this.o = { ...opts, hubConfig: new HubConfig(opts.acting) };
    this.adminHub = new HubAdmin(opts.acting, opts.hub);
    this.reloadTimeoutMs = opts.reloadTimeoutMs ?? 15_000;
  }

  get editing(): boolean {
    return this.o.policy.configEditing;
  }

  /** The admin service says how its kinds are put back (restore) and judged (history). */
  useAdminKind(kind: AdminKind, handler: AdminKindHandler): void {
    this.adminKinds.set(kind, handler);
  }

  private adminKind(kind: AdminKind): AdminKindHandler {
    const h = this.adminKinds.get(kind);
    if (!h) throw notFound(`No ${kind}s are looked after in this bridge (ADMIN_TOOLS)`, { kind });
    return h;
  }

  /** An admin change through the one flow: planned, judged, previewed, confirmed, kept as a version. */
  applyPlan(key: string, plan: () => Promise<ChangePlan>, principal: Principal | undefined, opts: ApplyOptions = {}): Promise<Outcome> {
    return this.serial(key, async () => this.run(await plan(), principal, opts));
  }

  // --- reading -------------------------------------------------------------------------------

  private states(domain: string): HubState[] {
    return [...this.o.hub.cache.all()].filter((s) => s.entity_id.startsWith(`${domain}.`) && this.o.policy.maySee(s.entity_id));
  }

  private automationEntity(id: string): HubState | undefined {
    return [...this.o.hub.cache.all()].find((s) => s.entity_id.startsWith('automation.') && s.attributes.id === id);
  }

  /** An automation's config id from its id or its entity id. */
  private automationId(id: string): string {
    if (!id.startsWith('automation.')) return id;
    const s = this.o.hub.cache.get(id);
    const configId = s?.attributes.id;
    if (typeof configId !== 'string')
      throw notFound(`${id} is not an automation Home Assistant lets the bridge edit (it has no id: it is written in YAML by hand, or it does not exist)`, {
        id,
      });
    return configId;
  }

  private scriptKey(id: string): string {
    return id.startsWith('script.') ? id.slice('script.'.length) : id;
  }

  private entityOf(kind: Kind, id: string): string | null {
    if (kind === 'automation') return this.automationEntity(id)?.entity_id ?? null;
    if (kind === 'script') return this.o.hub.cache.has(`script.${id}`) ? `script.${id}` : null;
    if (kind === 'helper') return this.o.hub.cache.has(id) ? id : null;
    return null;
  }

  /** Refuses to show an item the caller may not see, or one that names entities the caller may not see. */
  private visible(kind: Kind, id: string, config: unknown): void {
    const entity = this.entityOf(kind, id);
    const refs = referencesOf(config, (e) => this.o.hub.cache.has(e));
    this.o.policy.authorizeConfigRead(entity, refs.entities);
  }

  async list(kind: Kind): Promise<ItemSummary[]> {
    const { hubConfig } = this.o;
    if (kind === 'automation') {
      return this.states('automation').map((s) => ({
        kind,
        id: typeof s.attributes.id === 'string' ? s.attributes.id : s.entity_id,
        entity_id: s.entity_id,
        name: String(s.attributes.friendly_name ?? s.entity_id),
        state: s.state,
        last_triggered: (s.attributes.last_triggered as string | null | undefined) ?? null,
        editable: typeof s.attributes.id === 'string',
      }));
    }
    if (kind === 'script') {
      return this.states('script').map((s) => ({
        kind,
        id: s.entity_id.slice('script.'.length),
        entity_id: s.entity_id,
        name: String(s.attributes.friendly_name ?? s.entity_id),
        state: s.state,
        last_triggered: (s.attributes.last_triggered as string | null | undefined) ?? null,
        editable: true,
      }));
    }
    if (kind === 'helper') {
      const out: ItemSummary[] = [];
      for (const type of HELPER_TYPES) {
        let items: Json[];
        try {
          items = await hubConfig.helpers(type);
        } catch (err) {
          // A hub without this helper integration has none of them.
          if (err instanceof AppError && err.status === 501) continue;
          throw err;
        }
        for (const item of items) {
          const id = `${type}.${String(item.id)}`;
          if (!this.o.policy.maySee(id)) continue;
          const s = this.o.hub.cache.get(id);
          out.push({ kind, id, entity_id: s ? id : null, name: String(item.name ?? item.id), ...(s ? { state: s.state } : {}), editable: true });
        }
      }
      return out;
    }
    const boards = await hubConfig.dashboards();
    const defaultYaml = boards.some((b) => b.url_path === 'lovelace' && b.mode === 'yaml');
    return [
      ...(defaultYaml ? [] : [{ kind, id: 'default', entity_id: null, name: 'Overview (the default dashboard)', mode: 'storage', editable: true }]),
      ...boards.map((b) => ({
        kind,
        id: String(b.url_path),
        entity_id: null,
        name: String(b.title ?? b.url_path),
        mode: String(b.mode),
        editable: b.mode === 'storage',
      })),
    ];
  }

  /** One item as Home Assistant stores it. */
  async get(
    kind: Kind,
    rawId: string,
  ): Promise<{ kind: Kind; id: string; entity_id: string | null; config: Json; yaml: string; mode?: string; filename?: string }> {
    const { hubConfig } = this.o;
    if (kind === 'automation' || kind === 'script') {
      const id = kind === 'automation' ? this.automationId(rawId) : this.scriptKey(rawId);
      const config = await hubConfig.stored(kind, id);
      if (!config) throw notFound(`Home Assistant has no ${kind} ${id} it lets the bridge edit; config_read lists them`, { kind, id });
      this.visible(kind, id, config);
      return { kind, id, entity_id: this.entityOf(kind, id), config, yaml: toYaml(config) };
    }
    if (kind === 'helper') {
      const { type, itemId } = helperRef(rawId);
      const item = (await hubConfig.helpers(type)).find((i) => i.id === itemId);
      if (!item)
        throw notFound(`Home Assistant has no ${type} helper ${itemId} made in its UI (helpers written in YAML cannot be edited here)`, { kind, id: rawId });
      this.visible(kind, `${type}.${itemId}`, item);
      return { kind, id: `${type}.${itemId}`, entity_id: this.entityOf(kind, `${type}.${itemId}`), config: item, yaml: toYaml(item) };
    }
    const board = await this.dashboardInfo(rawId);
    const config = (await hubConfig.dashboard(board.urlPath)) ?? {};
    this.visible(kind, rawId, config);
    return { kind, id: board.id, entity_id: null, config, yaml: toYaml(config), mode: board.mode, ...(board.filename ? { filename: board.filename } : {}) };
  }

  private async dashboardInfo(rawId: string): Promise<{ id: string; urlPath: string | null; mode: string; filename?: string }> {
    const id = rawId === '' || rawId === 'lovelace' ? 'default' : rawId;
    const boards = await this.o.hubConfig.dashboards();
    if (id === 'default') {
      const yaml = boards.find((b) => b.url_path === 'lovelace' && b.mode === 'yaml');
      return { id, urlPath: null, mode: yaml ? 'yaml' : 'storage', ...(yaml?.filename ? { filename: String(yaml.filename) } : {}) };
    }
    const b = boards.find((x) => x.url_path === id);
    if (!b)
      throw notFound(`Home Assistant has no dashboard ${id}; its dashboards: default${boards.map((x) => `, ${String(x.url_path)}`).join('')}`, {
        kind: 'dashboard',
        id,
      });
    return { id, urlPath: id, mode: String(b.mode), ...(b.filename ? { filename: String(b.filename) } : {}) };
  }

  /** "Why (didn't) it run?": the automation's or script's recent runs from Home Assistant's traces, explained. */
  async trace(kind: 'automation' | 'script', rawId: string, runId?: string): Promise<Explanation> {
    const { hubConfig } = this.o;
    const id = kind === 'automation' ? this.automationId(rawId) : this.scriptKey(rawId);
    const entityId = kind === 'automation' ? (this.automationEntity(id)?.entity_id ?? null) : `script.${id}`;
    const entity = entityId ? this.o.hub.cache.get(entityId) : undefined;
    const config = await hubConfig.stored(kind, id);
    if (!config && !entity) throw notFound(`Home Assistant has no ${kind} ${id}; config_read lists them`, { kind, id });
    this.visible(kind, id, config);
    let runs = await hubConfig.traceList<TraceSummary>(kind, id);
    if (runId !== undefined) {
      runs = runs.filter((r) => r.run_id === runId);
      if (!runs.length)
        throw notFound(`Home Assistant keeps no run ${runId} of ${kind} ${id} (it keeps the last few, since its last start)`, { run_id: runId });
    }
    const explained = await Promise.all(
      runs.slice(-5).map(async (r) => {
        const full = await hubConfig.traceGet<{ trace: Record<string, TraceStep[]>; config: unknown }>(kind, id, r.run_id);
        return explainRun(r, full ?? undefined);
      }),
    );
    return explain(kind, entity, config, explained);
  }

  // --- history -----------------------------------------------------------------------------

  private view(v: ConfigVersion, previous: ConfigVersion | undefined): VersionView {
    const name = `${v.kind}/${v.item}.yaml`;
    return {
      ...v,
      diff: previous ? unifiedDiff(toYaml(previous.config), toYaml(v.config), name) : '',
      words: previous ? changeWords(previous.config, v.config) : [v.config === null ? 'absent' : 'first version kept'],
    };
  }

  private subjectOf(kind: ConfigKind, item: string): string {
    if (isAdminKind(kind)) return this.adminKinds.get(kind)?.subject(item) ?? `${kind}.${item}`;
    if (kind === 'dashboard') return `lovelace.${item}`;
    if (kind === 'helper') return item;
    if (kind === 'script') return `script.${item}`;
    return this.automationEntity(item)?.entity_id ?? `automation.${item}`;
  }

  /**
   * Versions, newest first: of one item, or the latest changes of every item. `admin`: the admin
   * kinds' versions instead of the config items' (each tool family sees its own).
   */
  history(kind?: ConfigKind, rawId?: string, limit = 20, admin = false): VersionView[] {
    const store = this.o.versions;
    if (kind && isAdminKind(kind) !== admin) return [];
    if (kind && rawId && isAdminKind(kind)) {
      const list = store.history(kind, rawId, limit + 1);
      return list.slice(0, limit).map((v, i) => this.view(v, list[i + 1]));
    }
    if (kind && rawId) {
      const item =
        kind === 'automation'
          ? this.automationIdLoose(rawId)
          : kind === 'script'
            ? this.scriptKey(rawId)
            : kind === 'dashboard' && rawId === 'lovelace'
              ? 'default'
              : rawId;
      const list = store.history(kind, item, limit + 1);
      return list.slice(0, limit).map((v, i) => this.view(v, list[i + 1]));
    }
    const recent = store
      .recent(limit * 2)
      .filter(
        (v) =>
          (!kind || v.kind === kind) && isAdminKind(v.kind) === admin && v.change !== 'found' && this.o.policy.maySeeSubject(this.subjectOf(v.kind, v.item)),
      );
    return recent.slice(0, limit).map((v) =>
      this.view(
        v,
        store.history(v.kind, v.item, 1000).find((p) => p.id < v.id),
      ),
    );
  }

  /** An automation's id when it may no longer exist (history of a deleted one). */
  private automationIdLoose(id: string): string {
    if (!id.startsWith('automation.')) return id;
    const configId = this.o.hub.cache.get(id)?.attributes.id;
    return typeof configId === 'string' ? configId : id.slice('automation.'.length);
  }

  /** One kept version; `admin`: of the admin kinds (each tool family reaches only its own). */
  version(id: number, admin = false): VersionView {
    const v = this.o.versions.get(id);
    if (!v || isAdminKind(v.kind) !== admin || !this.o.policy.maySeeSubject(this.subjectOf(v.kind, v.item)))
      throw notFound(`No version ${id} is kept; config_history lists them`, { version: id });
    return this.view(
      v,
      this.o.versions.history(v.kind, v.item, 1000).find((p) => p.id < v.id),
    );
  }

  // --- changing ------------------------------------------------------------------------------

  /** Runs one change of an item at a time, in order. */
  private serial<T>(key: string, run: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(key) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(run);
    const settled = next.catch(() => undefined);
    this.locks.set(key, settled);
    void settled.then(() => {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    });
    return next;
  }

  change(req: ChangeRequest, principal: Principal | undefined, opts: ApplyOptions = {}): Promise<Outcome> {
    return this.serial(`${req.kind}:${req.id ?? ''}`, async () => this.run(await this.plan(req), principal, opts));
  }

  /** Puts a kept version back: itself a change, kept as a new version. */
  restore(versionId: number, principal: Principal | undefined, opts: ApplyOptions = {}, admin = false): Promise<Outcome> {
    const v = this.version(versionId, admin);
    return this.serial(`${v.kind}:${v.item}`, async () => this.run(await this.planRestore(v), principal, opts, v.id));
  }

  private async plan(req: ChangeRequest): Promise<Plan> {
    const { kind, op } = req;
    if (op !== 'delete' && kind !== 'dashboard' && !isObject(req.config))
      throw invalidParameters(`config: ${op} needs the ${kind}'s config (an object)`, { field: 'config' });
    if (op === 'delete' && req.config !== undefined && kind !== 'dashboard') throw invalidParameters('config: delete takes none', { field: 'config' });
    if (kind !== 'dashboard' && (req.view !== undefined || req.card !== undefined))
      throw invalidParameters(`${req.view !== undefined ? 'view' : 'card'}: only dashboards have views and cards`, {
        field: req.view !== undefined ? 'view' : 'card',
      });
    if (kind === 'automation' || kind === 'script') return this.planScripted(kind, req);
    if (kind === 'helper') return this.planHelper(req);
    return this.planDashboard(req);
  }

  private async planScripted(kind: 'automation' | 'script', req: ChangeRequest): Promise<Plan> {
    const { hubConfig } = this.o;
    const config = req.config as Json | undefined;
    let id: string;
    if (req.op === 'create') {
      const wanted =
        req.id !== undefined ? (kind === 'automation' ? req.id.replace(/^automation\./, '') : this.scriptKey(req.id)) : slug(String(config?.alias ?? kind));
      id = wanted;
      if (req.id !== undefined) {
        if (await hubConfig.stored(kind, id))
          throw conflict(`Home Assistant already has ${kind} ${id}; change it with update, or leave id out for a new one`, { kind, id });
      } else {
        for (let n = 2; (await hubConfig.stored(kind, id)) || (kind === 'script' && this.o.hub.cache.has(`script.${id}`)); n++) id = `${wanted}_${n}`;
      }
    } else {
      if (req.id === undefined) throw invalidParameters(`id: say which ${kind} to ${req.op}; config_read lists them`, { field: 'id' });
      id = kind === 'automation' ? this.automationId(req.id) : this.scriptKey(req.id);
    }
    const before = req.op === 'create' ? null : await hubConfig.stored(kind, id);
    if (req.op !== 'create' && !before) throw notFound(`Home Assistant has no ${kind} ${id} it lets the bridge edit; config_read lists them`, { kind, id });
    const body = config ? Object.fromEntries(Object.entries(config).filter(([k]) => kind !== 'automation' || k !== 'id')) : undefined;
    const after = req.op === 'delete' ? null : kind === 'automation' ? storedAutomation(id, body!) : body!;
    const entityId = this.entityOf(kind, id);
    const alias = String((after ?? before)?.alias ?? id);
    const subject = entityId ?? (kind === 'script' ? `script.${id}` : `automation.${slug(alias)}`);
    const write = (c: Json | null) =>
      c === null
        ? hubConfig.remove(kind, id)
        : hubConfig.write(kind, id, kind === 'automation' ? Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'id')) : c);
    return {
      kind,
      id,
      subject,
      entityId,
      before,
      after,
      written: after,
      change: req.op === 'create' ? 'created' : req.op === 'delete' ? 'deleted' : 'updated',
      what: `${req.op === 'create' ? 'creating' : req.op === 'delete' ? 'deleting' : 'changing'} ${kind} ${id}${alias !== id ? ` ("${alias}")` : ''}`,
      apply: async () => {
        await write(after);
        return { id, after };
      },
      verify: () => this.loadedAs(kind, id, after),
      undo: async () => {
        await write(before);
        await this.loadedAs(kind, id, before);
      },
    };
  }

  /** Waits until Home Assistant runs `expected` (null: until the entity is gone); answers why not, if not. */
  private async loadedAs(kind: 'automation' | 'script', id: string, expected: Json | null): Promise<string | undefined> {
    const deadline = Date.now() + this.reloadTimeoutMs;
    const entity = () => (kind === 'automation' ? this.automationEntity(id) : this.o.hub.cache.get(`script.${id}`));
    for (;;) {
      const s = entity();
      if (expected === null) {
        if (!s) return undefined;
      } else if (s && s.state !== 'unavailable') {
        const loaded = await this.o.hubConfig.loaded(kind, s.entity_id);
        // The entity's state is read again: the reload may have made it unavailable meanwhile.
        const now = entity();
        if (loaded && runsAs(loaded, expected) && now && now.state !== 'unavailable') return undefined;
        if (loaded && runsAs(loaded, expected) && now?.state === 'unavailable') return `Home Assistant could not load it (${now.entity_id} is unavailable)`;
      } else if (s?.state === 'unavailable') {
        const loaded = await this.o.hubConfig.loaded(kind, s.entity_id).catch(() => null);
        // An unavailable entity made from this very config: Home Assistant could not load it.
        if (!loaded || runsAs(loaded, expected)) return `Home Assistant could not load it (${s.entity_id} is unavailable)`;
      }
      if (Date.now() > deadline) {
        return expected === null ? undefined : `Home Assistant did not load it within ${Math.round(this.reloadTimeoutMs / 1000)} s`;
      }
      await sleep(50);
    }
  }

  private async planHelper(req: ChangeRequest): Promise<Plan> {
    const { hubConfig } = this.o;
    if (req.id === undefined)
      throw invalidParameters(`id: a helper is named <type>.<id> (to create one, the type alone, such as input_boolean); types: ${HELPER_TYPES.join(', ')}`, {
        field: 'id',
      });
    const { type, itemId } = helperRef(req.id);
    const items = await hubConfig.helpers(type);
    const fields = req.config ? Object.fromEntries(Object.entries(req.config).filter(([k]) => k !== 'id')) : undefined;
    if (req.op === 'create') {
      const name = fields?.name;
      if (typeof name !== 'string' || !name.trim()) throw invalidParameters('config.name: a helper needs a name', { field: 'config.name' });
      const base = slug(name);
      let predicted = base;
      for (let n = 2; items.some((i) => i.id === predicted) || this.o.hub.cache.has(`${type}.${predicted}`); n++) predicted = `${base}_${n}`;
      const ref = `${type}.${predicted}`;
      return {
        kind: 'helper',
        id: ref,
        subject: ref,
        entityId: null,
        before: null,
        after: { id: predicted, ...fields },
        written: fields ?? null,
        change: 'created',
        what: `creating ${type} helper "${name}"`,
        apply: async () => {
          const made = await hubConfig.createHelper(type, fields!);
          return { id: `${type}.${String(made.id)}`, after: made };
        },
        undo: async () => undefined,
      };
    }
    const before = items.find((i) => i.id === itemId);
    if (!before) throw notFound(`Home Assistant has no ${type} helper ${itemId} made in its UI; config_read lists them`, { kind: 'helper', id: req.id });
    const ref = `${type}.${itemId}`;
    // An update changes the fields given and keeps the others (Home Assistant's own update replaces them all).
    const merged = fields ? Object.fromEntries(Object.entries({ ...before, ...fields }).filter(([k]) => k !== 'id')) : undefined;
    const after = req.op === 'delete' ? null : { id: itemId, ...merged };
    return {
      kind: 'helper',
      id: ref,
      subject: ref,
      entityId: this.entityOf('helper', ref),
      before,
      after,
      written: fields ?? null,
      change: req.op === 'delete' ? 'deleted' : 'updated',
      what: `${req.op === 'delete' ? 'deleting' : 'changing'} ${type} helper ${itemId}`,
      apply: async () => {
        if (req.op === 'delete') {
          await hubConfig.deleteHelper(type, itemId);
          return { id: ref, after: null };
        }
        const updated = await hubConfig.updateHelper(type, itemId, merged!);
        return { id: ref, after: updated };
      },
      undo: async () => undefined,
    };
  }

  private async planDashboard(req: ChangeRequest): Promise<Plan> {
    if (req.id === undefined) throw invalidParameters('id: say which dashboard: "default" or its url_path; config_read lists them', { field: 'id' });
    const board = await this.dashboardInfo(req.id);
    if (board.mode !== 'storage') {
      throw new AppError(
        'CONFLICT',
        409,
        `The dashboard ${board.id} is in YAML mode: Home Assistant reads it from ${board.filename ?? 'a YAML file'} and never saves it, so it can only be changed in that file; the bridge changes dashboards Home Assistant stores itself (storage mode)`,
        { kind: 'dashboard', id: board.id, mode: board.mode },
      );
    }
    const before = await this.o.hubConfig.dashboard(board.urlPath);
    const change: DashboardChange = {
      op: req.op,
      ...(req.view !== undefined ? { view: req.view } : {}),
      ...(req.card !== undefined ? { card: req.card } : {}),
      ...(req.config !== undefined ? { config: req.config } : {}),
    };
    const edit = editDashboard(before, change);
    const save = (c: Json | null) => (c === null ? this.o.hubConfig.deleteDashboardConfig(board.urlPath) : this.o.hubConfig.saveDashboard(board.urlPath, c));
    return {
      kind: 'dashboard',
      id: board.id,
      subject: `lovelace.${board.id}`,
      entityId: null,
      before,
      after: edit.after,
      written: edit.written,
      change: before === null ? 'created' : 'updated',
      what: `changing dashboard ${board.id} (${edit.words})`,
      detail: edit.words,
      apply: async () => {
        await save(edit.after);
        return { id: board.id, after: edit.after };
      },
      undo: () => save(before),
    };
  }

  private async planRestore(v: VersionView): Promise<Plan> {
    const target = v.config as Json | null;
    if (isAdminKind(v.kind)) {
      const h = this.adminKind(v.kind);
      const plan = await h.planTo(v.item, target, await h.current(v.item));
      plan.change = 'restored';
      plan.what = `putting ${v.kind} ${v.item} back to version ${v.id}`;
      if (plan.admin) plan.admin = { ...plan.admin, what: plan.what };
      return plan;
    }
    const current = await this.currentOf(v.kind, v.item);
    const op = target === null ? 'delete' : current === null ? 'create' : 'update';
    if (op === 'delete' && current === null) {
      // Already absent: a no-op plan.
      return {
        kind: v.kind,
        id: v.item,
        subject: this.subjectOf(v.kind, v.item),
        entityId: null,
        before: null,
        after: null,
        written: null,
        change: 'restored',
        what: `restoring ${v.kind} ${v.item}`,
        apply: async () => ({ id: v.item, after: null }),
        undo: async () => undefined,
      };
    }
    let plan: Plan;
    if (v.kind === 'dashboard') {
      plan = await this.planDashboard({ kind: 'dashboard', op: 'update', id: v.item, config: target ?? { views: [] } });
      if (target === null) {
        plan.after = null;
        plan.written = null;
        const urlPath = v.item === 'default' ? null : v.item;
        plan.apply = async () => {
          await this.o.hubConfig.deleteDashboardConfig(urlPath);
          return { id: v.item, after: null };
        };
      }
    } else if (v.kind === 'helper') {
      const { type } = helperRef(v.item);
      plan = await this.planHelper({ kind: 'helper', op, id: op === 'create' ? type : v.item, ...(target ? { config: target } : {}) });
    } else if (v.kind === 'automation' || v.kind === 'script') {
      plan = await this.planScripted(v.kind, { kind: v.kind, op, id: v.item, ...(target ? { config: target } : {}) });
    } else {
      throw invalidParameters(`version ${v.id}: a ${v.kind} change is not kept and cannot be put back`, { field: 'version' });
    }
    plan.change = 'restored';
    plan.what = `restoring ${v.kind} ${v.item} to version ${v.id}`;
    return plan;
  }

  private async currentOf(kind: ConfigKind, item: string): Promise<Json | null> {
    if (isAdminKind(kind)) return this.adminKind(kind).current(item);
    if (kind === 'automation' || kind === 'script') return this.o.hubConfig.stored(kind, item);
    if (kind === 'helper') {
      const { type, itemId } = helperRef(item);
      return (await this.o.hubConfig.helpers(type)).find((i) => i.id === itemId) ?? null;
    }
    const board = await this.dashboardInfo(item);
    return this.o.hubConfig.dashboard(board.urlPath);
  }

  /** What the written config touches, scripts and automations it runs included (as far as MAX_NESTING). */
  private async references(plan: Plan): Promise<{ entities: string[]; actions: GuardedAction[]; templated: string[] }> {
    const known = (id: string) => this.o.hub.cache.has(id);
    const entities = new Set<string>();
    const actions: GuardedAction[] = [];
    const templated: string[] = [];
    const seen = new Set<string>([plan.kind === 'automation' || plan.kind === 'script' ? `${plan.kind}.${plan.id}` : '']);
    const take = async (config: unknown, where: string, depth: number): Promise<void> => {
      const refs = referencesOf(config, known);
      refs.entities.forEach((e) => {
        entities.add(e);
      });
      templated.push(...refs.templated.map((p) => (where ? `${where}: ${p}` : p)));
      for (const a of refs.actions) {
        actions.push(...this.o.actions.guardedOf(a));
        if (depth < MAX_NESTING)
          for (const [kind, id] of this.runs(a)) {
            if (seen.has(`${kind}.${id}`)) continue;
            seen.add(`${kind}.${id}`);
            const nested = kind === 'script' ? await this.o.hubConfig.stored('script', id) : await this.o.hubConfig.loaded('automation', id);
            if (nested) await take(nested, `${kind}.${id}`, depth + 1);
          }
      }
    };
    await take(plan.written, '', 0);
    // A blueprint's triggers and actions are in Home Assistant's file: it expands them with these
    // inputs (blueprint/substitute), and what they do is judged like written-out config. What it
    // does not expand cannot be checked, so it is refused like a templated action.
    const bp = isObject(plan.written) && isObject(plan.written.use_blueprint) ? plan.written.use_blueprint : undefined;
    if (bp && (plan.kind === 'automation' || plan.kind === 'script')) {
      const expanded = await this.o.acting
        .command<{ substituted_config?: Json }>({ type: 'blueprint/substitute', domain: plan.kind, path: bp.path, input: bp.input ?? {} })
        .catch(() => undefined);
      if (expanded?.substituted_config) await take(expanded.substituted_config, 'use_blueprint', 1);
      else templated.push(`use_blueprint (Home Assistant did not expand ${String(bp.path)})`);
    }
    return { entities: [...entities].sort(), actions, templated };
  }

  /** The scripts and automations an action runs: script.<key>, script.turn_on of script entities, automation.trigger. */
  private runs(a: ActionRef): ['script' | 'automation', string][] {
    const out: ['script' | 'automation', string][] = [];
    if (a.domain === 'script' && !['turn_on', 'turn_off', 'toggle', 'reload'].includes(a.service)) out.push(['script', a.service]);
    if (a.domain === 'script' && (a.service === 'turn_on' || a.service === 'toggle'))
      for (const e of a.target.entity_id) if (e.startsWith('script.')) out.push(['script', e.slice(7)]);
    if (a.domain === 'automation' && a.service === 'trigger') for (const e of a.target.entity_id) if (e.startsWith('automation.')) out.push(['automation', e]);
    return out;
  }

  private previewId(plan: Plan): string {
    return createHash('sha256')
      .update(JSON.stringify([plan.kind, plan.id, plan.before, plan.after]))
      .digest('hex')
      .slice(0, 16);
  }

  private async run(plan: Plan, principal: Principal | undefined, opts: ApplyOptions, restoredFrom?: number): Promise<Outcome> {
    const { policy, versions, keep, who } = this.o;
    const dryRun = opts.dry_run === true;
    const name = `${plan.kind}/${plan.id}.yaml`;
    const diff = unifiedDiff(toYaml(plan.before), toYaml(plan.after), name);
    const words = plan.detail ? [plan.detail, ...changeWords(plan.before, plan.after)] : changeWords(plan.before, plan.after);
    const previewId = this.previewId(plan);
    const unchanged = same(plan.before, plan.after);
    const summary = unchanged
      ? `No change: ${plan.kind} ${plan.id} is already so.`
      : `${plan.what.charAt(0).toUpperCase()}${plan.what.slice(1)}: ${words.join('; ')}.`;
    const edit: ConfigEdit = { what: plan.what, subject: plan.subject, subjectIsEntity: plan.entityId !== null };
    // An admin change writes no config that acts: nothing to resolve, the admin rules judge it.
    const refs = plan.admin ? { entities: [], actions: [], templated: [] } : await this.references(plan);
    await policy.prepare(refs.actions);
    const caller: Caller = { principal, confirm: opts.confirm };
    const authorize = (c: Caller, o?: { planOnly: boolean }) =>
      plan.admin ? policy.authorizeAdminChange(c, plan.admin, o) : policy.authorizeConfigEdit(c, edit, refs, o);
    const outcome = (extra: Partial<Outcome>): Outcome => ({
      kind: plan.kind,
      id: plan.id,
      entity_id: plan.entityId,
      change: unchanged ? 'unchanged' : plan.change,
      dry_run: dryRun,
      applied: false,
      summary,
      words,
      diff,
      needs_confirmation: [],
      preview_id: previewId,
      ...(restoredFrom !== undefined ? { restored_from: restoredFrom } : {}),
      ...extra,
    });
    // Judged as a plan first: refusals come before any question, and a dry run shows what would be asked.
    const { needs_confirmation } = authorize(caller, { planOnly: true });
    if (dryRun) {
      const preview = await policy.preview(refs.actions);
      return outcome({ needs_confirmation, effects: preview.effects, may_also_run: preview.may_also_run });
    }
    if (unchanged) return outcome({});
    if (opts.preview_id !== undefined && opts.preview_id !== previewId) {
      throw conflict(`The ${plan.kind} changed since that preview (or the change asked is another one): look at the new preview (dry_run) and confirm that`, {
        preview_id: previewId,
        diff,
        summary,
      });
    }
    if (!opts.reason?.trim() && (opts.assistant || !isPerson(principal)))
      throw invalidParameters('reason: say why this change is made (it is kept with the version)', { field: 'reason' });
    try {
      authorize(caller);
    } catch (err) {
      // What the person is asked to confirm travels with the refusal: the preview itself.
      if (err instanceof AppError && err.code === 'CONFIRMATION_REQUIRED')
        throw new AppError(err.code, err.status, err.message, { ...err.details, summary, diff, preview_id: previewId });
      throw err;
    }
    const actor = who(principal);
    // The version before the change is kept before Home Assistant is asked.
    const versioned = plan.versioned !== false;
    const latest = versioned ? versions.latest(plan.kind, plan.id) : undefined;
    if (versioned && (latest ? !same(latest.config, plan.before) : plan.before !== null)) {
      versions.add(
        [
          {
            kind: plan.kind,
            item: plan.id,
            config: plan.before,
            change: 'found',
            actor_kind: null,
            actor: null,
            reason: null,
            summary: 'as found in Home Assistant before the change',
            restored_from: null,
          },
        ],
        keep,
      );
    }
    const done = await plan.apply();
    this.o.hubConfigs?.invalidate();
    const failed = await plan.verify?.();
    this.o.hubConfigs?.invalidate();
    if (failed) {
      let undone = 'the bridge put the previous version back';
      try {
        await plan.undo();
      } catch (err) {
        undone = `the bridge could not put the previous version back (${(err as Error).message}); config_history has it`;
        this.o.log.error({ err, kind: plan.kind, id: plan.id }, 'undoing a change Home Assistant did not load failed');
      }
      throw new AppError('HUB_ERROR', 502, `${failed}, so ${undone}. Nothing else changed.`, {
        kind: plan.kind,
        id: plan.id,
        undone: !undone.includes('could not'),
        reload_failed: failed,
      });
    }
    const [version] = !versioned
      ? [undefined]
      : versions.add(
          [
            {
              kind: plan.kind,
              item: done.id,
              config: done.after,
              change: plan.change,
              actor_kind: actor.kind,
              actor: actor.name,
              reason: opts.reason?.trim() || null,
              summary,
              restored_from: restoredFrom ?? null,
            },
          ],
          keep,
        );
    this.o.log.info(
      { kind: plan.kind, id: done.id, change: plan.change, by: actor.name, version },
      `Home Assistant config ${plan.change}: ${plan.kind} ${done.id}`,
    );
    return outcome({
      id: done.id,
      entity_id: plan.admin ? (done.entityId ?? plan.entityId) : this.entityOf(plan.kind as Kind, done.id),
      applied: true,
      version,
      needs_confirmation,
      ...((done.after as { require_restart?: unknown } | null)?.require_restart === true
        ? { require_restart: true as const, summary: `${summary} Home Assistant applies it after its next restart.` }
        : {}),
    });
  }
}
