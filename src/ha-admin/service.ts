// Looking after Home Assistant itself: its areas, floors, labels, devices, entities (and their
// exposure to Assist), zones, integrations and repairs, its health and its blueprints. Reading
// needs the admin scope and ADMIN_TOOLS; every change is planned here as a ChangePlan and runs
// through the config service's one flow (checkpoint, preview as a diff, confirmation, a version
// kept before and after), so `restore` puts a registry item back as it puts an automation back.
import type { Principal } from '../auth/tokens.js';
import { AppError, invalidParameters, notFound } from '../errors.js';
import type { ApplyOptions, ChangePlan, HaConfigService, Outcome, VersionView } from '../ha-config/service.js';
import type { Exposure } from '../hub/exposure.js';
import type { HubState } from '../hub/types.js';
import type { Policy } from '../policy/policy.js';
import { ADMIN_KINDS, type AdminKind } from '../store/config-versions.js';
import type { HubAdmin, Json } from './hub-admin.js';
import { explainIssue, summariseLog } from './health.js';

export interface AdminItem {
  kind: AdminKind;
  id: string;
  name: string;
  fields: Json;
  info?: Json;
}

export interface AdminChangeRequest {
  kind: AdminKind;
  op: 'create' | 'update' | 'delete' | 'reload';
  id?: string;
  fields?: Json;
}

/** The fields a change may set, by kind; anything else is refused naming these. */
const FIELDS: Record<AdminKind, readonly string[]> = {
  area: ['name', 'aliases', 'icon', 'floor_id', 'labels'],
  floor: ['name', 'aliases', 'icon', 'level'],
  label: ['name', 'icon', 'color', 'description'],
  device: ['name_by_user', 'area_id', 'labels', 'disabled'],
  entity: ['name', 'icon', 'aliases', 'area_id', 'labels', 'disabled', 'hidden', 'exposed'],
  zone: ['name', 'latitude', 'longitude', 'radius', 'icon', 'passive'],
  integration: ['disabled'],
  repair: ['ignored'],
};
const CREATABLE = new Set<AdminKind>(['area', 'floor', 'label', 'zone']);
const REGISTRY = new Set<AdminKind>(['area', 'floor', 'label', 'device', 'entity']);

/** What a new item's id will likely be (Home Assistant slugifies the name), for the lists to judge. */
const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'unknown';
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const list = (x: unknown): string[] => (Array.isArray(x) ? x.map(String).sort() : []);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The part of a registry entry a change sets, as a version keeps it. */
function fieldsOf(kind: AdminKind, e: Json, exposed?: boolean): Json {
  switch (kind) {
    case 'area':
      return { name: e.name, aliases: list(e.aliases), icon: str(e.icon), floor_id: str(e.floor_id), labels: list(e.labels) };
    case 'floor':
      return { name: e.name, aliases: list(e.aliases), icon: str(e.icon), level: typeof e.level === 'number' ? e.level : null };
    case 'label':
      return { name: e.name, icon: str(e.icon), color: str(e.color), description: str(e.description) };
    case 'device':
      return { name_by_user: str(e.name_by_user), area_id: str(e.area_id), labels: list(e.labels), disabled: e.disabled_by != null };
    case 'entity':
      return {
        name: str(e.name),
        icon: str(e.icon),
        aliases: list(e.aliases),
        area_id: str(e.area_id),
        labels: list(e.labels),
        disabled: e.disabled_by != null,
        hidden: e.hidden_by != null,
        exposed: exposed === true,
      };
    case 'zone':
      return { name: e.name, latitude: e.latitude, longitude: e.longitude, radius: e.radius ?? 100, icon: str(e.icon), passive: e.passive === true };
    case 'integration':
      return { disabled: e.disabled_by != null };
    case 'repair':
      return { ignored: e.ignored === true };
  }
}

export interface AdminOptions {
  hub: HubAdmin;
  policy: Policy;
  config: HaConfigService;
  /** TOOLS_EXPOSED_ONLY's view of exposure, refreshed at once after an exposure change. */
  exposure?: Exposure;
  /** An entity's state from the hub's cache (the home zone). */
  state(entityId: string): HubState | undefined;
}

export class AdminService {
  /** Each config entry's integration, as last listed. */
  private readonly entryDomains = new Map<string, string>();
  constructor(private readonly o: AdminOptions) {
    for (const kind of ADMIN_KINDS) {
      o.config.useAdminKind(kind, {
        current: (item) => this.current(kind, item),
        planTo: (item, target, current) => this.planTo(kind, item, current, target, 'restore'),
        subject: (item) => this.subject(kind, item),
      });
    }
  }

  private use(principal: Principal | undefined, what: string): void {
    this.o.policy.authorizeAdminUse({ principal }, what);
  }

  /** The item as the allow and deny lists judge it. */
  private subject(kind: AdminKind, id: string): string {
    if (kind === 'entity') return id;
    if (kind === 'zone') return `zone.${id}`;
    // An integration entry is judged by its integration (TOOLS_DENY=integration.zha).
    if (kind === 'integration') return `integration.${this.entryDomains.get(id) ?? id}`;
    if (kind === 'repair') return `repair.${id.split('/')[0]}`;
    return `${kind}.${id}`;
  }

  // --- reading -----------------------------------------------------------------------------

  async list(kind: AdminKind, principal: Principal | undefined): Promise<AdminItem[]> {
    this.use(principal, `listing ${kind}s`);
    return this.items(kind);
  }

  private async items(kind: AdminKind): Promise<AdminItem[]> {
    const { hub, policy } = this.o;
    if (kind === 'zone') {
      const zones = (await hub.zones()).map((z) => ({ kind, id: String(z.id), name: String(z.name), fields: fieldsOf(kind, z) }));
      const home = this.homeZone();
      return [...(home ? [home] : []), ...zones];
    }
    if (kind === 'integration') {
      const entries = await hub.entries();
      for (const e of entries) this.entryDomains.set(String(e.entry_id), String(e.domain));
      return entries.map((e) => ({
        kind,
        id: String(e.entry_id),
        name: String(e.title),
        fields: fieldsOf(kind, e),
        info: { domain: e.domain, state: e.state, ...(e.reason ? { reason: e.reason } : {}), ...(e.disabled_by ? { disabled_by: e.disabled_by } : {}) },
      }));
    }
    if (kind === 'repair') {
      return (await hub.issues()).map((i) => ({
        kind,
        id: `${String(i.domain)}/${String(i.issue_id)}`,
        name: explainIssue(i),
        fields: fieldsOf(kind, i),
        info: { severity: i.severity, created: i.created, learn_more_url: i.learn_more_url ?? null },
      }));
    }
    const entries = await hub.list(kind);
    if (kind === 'entity') {
      const exposed = await hub.exposed().catch(() => new Map<string, boolean>());
      return entries
        .filter((e) => policy.maySee(String(e.entity_id)))
        .map((e) => ({
          kind,
          id: String(e.entity_id),
          name: String(e.name ?? e.original_name ?? e.entity_id),
          fields: fieldsOf(kind, e, exposed.get(String(e.entity_id))),
          info: { device_id: e.device_id ?? null, platform: e.platform ?? null },
        }));
    }
    const idKey = kind === 'device' ? 'id' : `${kind}_id`;
    // A device all of whose entities exposure hides is hidden with them (not listed, so not found to change).
    const hiddenDevices = kind === 'device' && policy.exposedOnly ? await this.devicesHidden() : new Set<string>();
    return entries
      .filter((e) => !hiddenDevices.has(String(e[idKey])))
      .map((e) => ({
        kind,
        id: String(e[idKey]),
        name: String(e.name_by_user ?? e.name ?? e[idKey]),
        fields: fieldsOf(kind, e),
        ...(kind === 'device' ? { info: { name: e.name, manufacturer: e.manufacturer ?? null, model: e.model ?? null } } : {}),
      }));
  }

  /** Devices that have entities, none of which callers may see. */
  private async devicesHidden(): Promise<Set<string>> {
    const withEntities = new Set<string>();
    const seen = new Set<string>();
    for (const e of await this.o.hub.list('entity')) {
      if (typeof e.device_id !== 'string') continue;
      withEntities.add(e.device_id);
      if (this.o.policy.maySee(String(e.entity_id))) seen.add(e.device_id);
    }
    return new Set([...withEntities].filter((d) => !seen.has(d)));
  }

  /** The home zone is Home Assistant's core config, not the zone collection: shown, never changed here. */
  private homeZone(): AdminItem | undefined {
    const s = this.o.state('zone.home');
    if (!s) return undefined;
    return {
      kind: 'zone',
      id: 'home',
      name: String(s.attributes.friendly_name ?? 'Home'),
      fields: { name: s.attributes.friendly_name ?? 'Home', latitude: s.attributes.latitude, longitude: s.attributes.longitude, radius: s.attributes.radius },
      info: { read_only: 'the home zone is set in Home Assistant’s general settings' },
    };
  }

  private async current(kind: AdminKind, id: string): Promise<Json | null> {
    const found = (await this.items(kind)).find((i) => i.id === id);
    return found ? found.fields : null;
  }

  // --- changing ----------------------------------------------------------------------------

  change(req: AdminChangeRequest, principal: Principal | undefined, opts: ApplyOptions = {}): Promise<Outcome> {
    this.use(principal, `changing a ${req.kind}`);
    return this.o.config.applyPlan(`${req.kind}:${req.id ?? ''}`, () => this.plan(req), principal, opts);
  }

  history(kind: AdminKind | undefined, id: string | undefined, limit: number | undefined, principal: Principal | undefined): VersionView[] {
    this.use(principal, 'reading the admin changes kept');
    return this.o.config.history(kind, id, limit, true);
  }

  restore(version: number, principal: Principal | undefined, opts: ApplyOptions = {}): Promise<Outcome> {
    this.use(principal, 'putting an admin change back');
    return this.o.config.restore(version, principal, opts, true);
  }

  private async plan(req: AdminChangeRequest): Promise<ChangePlan> {
    const { kind, op } = req;
    const given = req.fields ?? {};
    const unknown = Object.keys(given).filter((k) => !FIELDS[kind].includes(k));
    if (unknown.length)
      throw invalidParameters(`fields: ${unknown.join(', ')} cannot be set on a ${kind}; it takes ${FIELDS[kind].join(', ')}`, {
        field: `fields.${unknown[0]}`,
        accepted_fields: [...FIELDS[kind]],
      });
    if (op === 'reload') {
      if (kind !== 'integration') throw invalidParameters(`op: only an integration is reloaded (this is a ${kind})`, { field: 'op' });
      const entry = this.need(req.id, kind);
      if (!(await this.current(kind, entry)))
        throw notFound(`Home Assistant has no integration entry ${entry}; list the integrations to see their ids`, { kind, id: entry });
      return this.planReload(entry);
    }
    if (op === 'create') {
      if (!CREATABLE.has(kind)) throw invalidParameters(`op: a ${kind} is not created here; ${[...CREATABLE].join(', ')} are`, { field: 'op' });
      if (req.id !== undefined) throw invalidParameters(`id: Home Assistant chooses a new ${kind}'s id; leave it out`, { field: 'id' });
      if (typeof given.name !== 'string' || !given.name.trim()) throw invalidParameters(`fields.name: a new ${kind} needs a name`, { field: 'fields.name' });
      if (kind === 'zone' && (typeof given.latitude !== 'number' || typeof given.longitude !== 'number'))
        throw invalidParameters('fields.latitude, fields.longitude: a new zone needs its place', { field: 'fields.latitude' });
      return this.planTo(kind, String(given.name), null, given, 'create');
    }
    const id = this.need(req.id, kind);
    if (kind === 'zone' && id === 'home')
      throw new AppError('FORBIDDEN', 403, 'The home zone is set in Home Assistant’s general settings (Settings → System → General), not changed here', {
        read_only: true,
      });
    const current = await this.current(kind, id);
    if (!current) throw notFound(`Home Assistant has no ${kind} ${id}; list the ${kind}s to see their ids`, { kind, id });
    if (op === 'delete') {
      if (!CREATABLE.has(kind)) throw invalidParameters(`op: a ${kind} is not removed here; ${[...CREATABLE].join(', ')} are`, { field: 'op' });
      return this.planTo(kind, id, current, null, 'delete');
    }
    if (!Object.keys(given).length) throw invalidParameters(`fields: say what to change; a ${kind} takes ${FIELDS[kind].join(', ')}`, { field: 'fields' });
    return this.planTo(kind, id, current, { ...current, ...given }, 'update');
  }

  private need(id: string | undefined, kind: AdminKind): string {
    if (id === undefined || id === '') throw invalidParameters(`id: say which ${kind}; list the ${kind}s to see their ids`, { field: 'id' });
    return id;
  }

  /** A plan from `before` to `after` (null: absent); `id` is the name for a new item. */
  // With TOOLS_EXPOSED_ONLY an entity Home Assistant does not expose is not listed, so it is not
  // found here either: an assistant may withdraw exposure, only a person grants it (in Home Assistant).
  async planTo(kind: AdminKind, id: string, before: Json | null, after: Json | null, why: 'create' | 'update' | 'delete' | 'restore'): Promise<ChangePlan> {
    if (kind === 'zone' && id === 'home') throw new AppError('FORBIDDEN', 403, 'The home zone is not changed here', { read_only: true });
    if (before === null && after !== null && !CREATABLE.has(kind))
      throw notFound(`Home Assistant has no ${kind} ${id} any more; it cannot be made again from here`, { kind, id });
    const name = String((after ?? before)?.name ?? id);
    const verb = before === null ? 'creating' : after === null ? 'removing' : 'changing';
    const what = `${verb} ${kind} ${before === null ? `"${name}"` : id}${before !== null && after !== null && name !== id && kind !== 'entity' ? ` ("${name}")` : ''}`;
    const subjects = [this.subject(kind, before === null ? slugOf(id) : id)];
    // Moving something into an area or onto a floor touches that too: the lists judge it.
    for (const [key, k] of [
      ['area_id', 'area'],
      ['floor_id', 'floor'],
    ] as const) {
      const to = after?.[key];
      if (typeof to === 'string' && to !== before?.[key]) subjects.push(`${k}.${to}`);
    }
    // Disabling or enabling an integration entry or a device switches its entities off or on, and
    // moving a device moves those of its entities that have no area of their own: they are judged too.
    const both = before !== null && after !== null;
    const switches = (kind === 'integration' || kind === 'device') && both && before.disabled !== after.disabled;
    const moves = kind === 'device' && both && (after.area_id ?? null) !== (before.area_id ?? null);
    const touches = switches
      ? await this.entitiesOf(kind, id)
      : moves
        ? await this.entitiesOf('device', id, (e) => e.area_id === null || e.area_id === undefined)
        : [];
    const plan: ChangePlan = {
      kind,
      id,
      subject: this.subject(kind, id),
      entityId: kind === 'entity' ? id : kind === 'zone' ? `zone.${id}` : null,
      before,
      after,
      written: after,
      change: why === 'restore' ? 'restored' : before === null ? 'created' : after === null ? 'deleted' : 'updated',
      what,
      admin: { what, subjects, ...(before === null ? { creates: true } : {}), ...(touches.length ? { touches } : {}) },
      apply: async () => this.write(kind, id, before, after),
      undo: async () => {
        await this.write(kind, id, after, before);
      },
    };
    return plan;
  }

  /** The entities an integration entry provides, or a device has (the entity registry's config_entry_id, device_id). */
  private async entitiesOf(kind: 'integration' | 'device', id: string, which: (e: Json) => boolean = () => true): Promise<string[]> {
    const key = kind === 'integration' ? 'config_entry_id' : 'device_id';
    return (await this.o.hub.list('entity'))
      .filter((e) => e[key] === id && which(e))
      .map((e) => String(e.entity_id))
      .sort();
  }

  // Reloading an entry sets up its entities again (each unavailable meanwhile): they are judged too.
  private async planReload(id: string): Promise<ChangePlan> {
    const what = `reloading integration entry ${id}`;
    const touches = await this.entitiesOf('integration', id);
    const plan: ChangePlan = {
      kind: 'integration',
      id,
      subject: this.subject('integration', id),
      entityId: null,
      before: { reload: 'not asked' },
      after: { reload: 'asked' },
      written: null,
      change: 'updated',
      what,
      admin: { what, subjects: [this.subject('integration', id)], ...(touches.length ? { touches } : {}) },
      versioned: false,
      apply: async () => {
        const r = await this.o.hub.reloadEntry(id);
        const entry = (await this.o.hub.entries()).find((e) => e.entry_id === id);
        return { id, after: { reload: 'asked', state: entry?.state ?? 'unknown', ...(r.require_restart ? { require_restart: true } : {}) } };
      },
      undo: async () => undefined,
    };
    return plan;
  }

  /** Makes Home Assistant's item `to` from `from`; answers its id and fields after. */
  private async write(kind: AdminKind, id: string, from: Json | null, to: Json | null): Promise<{ id: string; after: Json | null; entityId?: string }> {
    const { hub } = this.o;
    const changed = (k: string) => to && (!from || !same(from[k], to[k])) && to[k] !== undefined;
    const delta = (keys: readonly string[]) => Object.fromEntries(keys.filter(changed).map((k) => [k, to![k]]));
    if (kind === 'zone') {
      if (to === null) {
        await hub.zoneDelete(id);
        return { id, after: null };
      }
      const wire = Object.fromEntries(Object.entries(delta(FIELDS.zone)).filter(([, v]) => v !== null));
      const made = from === null ? await hub.zoneCreate(wire) : await hub.zoneUpdate(id, wire);
      return { id: String(made.id ?? id), after: fieldsOf('zone', made), entityId: `zone.${String(made.id ?? id)}` };
    }
    if (kind === 'integration') {
      // An entry that cannot unload stays loaded until a restart; the caller is told, not told "done".
      const restart = changed('disabled') ? (await hub.disableEntry(id, to!.disabled === true)).require_restart : false;
      const after = await this.current(kind, id);
      return { id, after: restart && after ? { ...after, require_restart: true } : after };
    }
    if (kind === 'repair') {
      const [domain, issueId] = [id.slice(0, id.indexOf('/')), id.slice(id.indexOf('/') + 1)];
      if (changed('ignored')) await hub.ignoreIssue(domain, issueId, to!.ignored === true);
      return { id, after: await this.current(kind, id) };
    }
    if (!REGISTRY.has(kind)) throw new Error(`no writer for ${kind}`);
    const registry = kind as 'area' | 'floor' | 'label' | 'device' | 'entity';
    if (to === null) {
      await hub.remove(registry as 'area' | 'floor' | 'label', id);
      return { id, after: null };
    }
    const wire: Json = {};
    for (const [k, v] of Object.entries(delta(FIELDS[kind]))) {
      if (k === 'exposed') continue;
      if (k === 'disabled') wire.disabled_by = v ? 'user' : null;
      else if (k === 'hidden') wire.hidden_by = v ? 'user' : null;
      else wire[k] = v;
    }
    if (from === null) {
      // Create takes no nulls for its optional fields: they are left out.
      const made = await hub.create(registry as 'area' | 'floor' | 'label', Object.fromEntries(Object.entries(wire).filter(([, v]) => v !== null)));
      const newId = String(made[`${registry}_id`]);
      return { id: newId, after: fieldsOf(kind, made) };
    }
    if (Object.keys(wire).length) await hub.update(registry, id, wire);
    if (kind === 'entity' && changed('exposed')) {
      await hub.expose(id, to.exposed === true);
      // TOOLS_EXPOSED_ONLY callers see the change at once, not at the next refresh.
      await this.o.exposure?.refresh();
    }
    return { id, after: await this.current(kind, id) };
  }

  // --- health and blueprints -------------------------------------------------------------------

  async health(principal: Principal | undefined): Promise<{
    system: Record<string, Json>;
    repairs: { domain: string; issue_id: string; severity: string; ignored: boolean; explanation: string; learn_more_url: string | null; created: string }[];
    log: ReturnType<typeof summariseLog>;
    troubled: AdminItem[];
  }> {
    this.use(principal, 'reading Home Assistant’s health');
    const { hub } = this.o;
    const [system, issues, entries, integrations] = await Promise.all([
      hub.systemHealth().catch((err: unknown) => ({ error: { message: err instanceof Error ? err.message : String(err) } })),
      hub.issues(),
      hub.logEntries(),
      this.items('integration'),
    ]);
    return {
      system,
      repairs: issues.map((i) => ({
        domain: String(i.domain),
        issue_id: String(i.issue_id),
        severity: String(i.severity),
        ignored: i.ignored === true,
        explanation: explainIssue(i),
        learn_more_url: str(i.learn_more_url),
        created: String(i.created),
      })),
      log: summariseLog(entries),
      troubled: integrations.filter((i) => i.info?.state !== 'loaded'),
    };
  }

  async blueprints(domain: 'automation' | 'script', principal: Principal | undefined) {
    this.use(principal, 'listing blueprints');
    const found = await this.o.hub.blueprints(domain);
    return Object.entries(found)
      .filter(([, b]) => b.metadata)
      .map(([path, b]) => ({
        path,
        name: String(b.metadata!.name ?? path),
        description: str(b.metadata!.description),
        inputs: (b.metadata!.input ?? {}) as Json,
      }))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
  }
}
