// The one checkpoint for what a caller may see and do. Every change to the home passes
// `authorize` (the action executor calls it before anything reaches the hub, and cannot be called
// without a caller); every other change the bridge makes on a caller's behalf (storing a scene,
// sending a notification) passes `authorizeWrite`; every read of entities goes through the
// HomeView this policy makes. The rules: OAuth scope, read-only mode, exposure to Assist, the allow
// and deny lists, and confirmation (src/policy/confirmation.ts). They judge what an action will do,
// not what it is called: each action is turned into its effects (src/policy/effects.ts: a script
// into its steps, a group into its members, a toggle into its direction) before any rule runs.
import type { Principal } from '../auth/tokens.js';
import { AppError } from '../errors.js';
import { domainOf } from '../hub/entity-id.js';
import type { HubState } from '../hub/types.js';
import { adminServiceOf } from './admin-services.js';
import { confirmationReason } from './confirmation.js';

export interface PolicySettings {
  readOnly: boolean;
  allow: readonly string[];
  deny: readonly string[];
  requireConfirmation: boolean;
  /** Only entities the hub exposes to its own assistant (TOOLS_EXPOSED_ONLY). */
  exposedOnly?: boolean;
  /** Home Assistant's automations, scripts, helpers and dashboards may be changed (CONFIG_EDITING). */
  configEditing?: boolean;
  /** Assistants may look after Home Assistant itself: registries, zones, health, integrations (ADMIN_TOOLS). */
  adminTools?: boolean;
}

/** What the hub exposes to its own assistant (src/hub/exposure.ts). */
export interface ExposureView {
  isExposed(entityId: string): boolean;
}

/**
 * Who asks, and what they said with this request. `principal` is absent only for the local stdio
 * transport, which runs as the person who started it.
 */
export interface Caller {
  principal?: Principal;
  /** The person confirmed an action that needs it (unlock, disarm, open a garage door). */
  confirm?: boolean;
}

/** One action on one entity, as it will go to the hub. */
export interface GuardedAction {
  entity_id: string;
  /** The hub's service in the entity's domain. */
  service: string;
  data: Record<string, unknown>;
  state?: HubState;
  /** A service called with no entity (notify.mobile_app_phone): `entity_id` is `domain.service`, no exposure applies. */
  targetless?: boolean;
  /** The service's domain when it is not the entity's (homeassistant.turn_on on a light). */
  domain?: string;
  /** How an indirect effect is reached, in words: "running script.unlocker". */
  via?: string;
  /** Why what this does cannot be known before it runs (a template, a config the bridge cannot read). */
  unresolved?: string;
}

/** Turns actions into their effects (src/policy/effects.ts). */
export interface EffectSource {
  expand(actions: readonly GuardedAction[]): GuardedAction[];
  ready(actions: readonly GuardedAction[]): Promise<void>;
  /** Automations whose own triggers watch an entity the effects change. */
  mayAlsoRun(effects: readonly GuardedAction[]): { automation: string; because: string }[];
  readAutomations(): Promise<void>;
}

/** What a dry run shows: each effect (service in its domain, how it is reached), and what Home Assistant may run by itself after. */
export interface EffectPreview {
  effects: { entity_id: string; service: string; via?: string; needs_confirmation?: true; cannot_tell?: string }[];
  /** Automations whose own triggers watch an entity these effects change: Home Assistant may also run them. */
  may_also_run: { automation: string; because: string }[];
}

export interface AuthorizeOptions {
  /** Only planning (a dry run): confirmation is not asked for, the plan marks it instead. */
  planOnly?: boolean;
}

/** Whether the caller may change anything: OAuth grants and other scoped credentials need `control`. */
export const mayControl = (p: Principal | undefined): boolean => !p?.scope || p.scope.includes('control');

/** Whether the caller may change Home Assistant's config: scoped credentials need `config` (control does not give it). */
export const mayEditConfig = (p: Principal | undefined): boolean => !p?.scope || p.scope.includes('config');

/** The refusal for a caller without the `control` scope; `what` changes the home. */
export function controlScopeRefusal(p: Principal | undefined, what: string): AppError {
  const who =
    p?.via === 'discovery'
      ? "Home Assistant's link to this bridge may only read (a person sets that in the bridge's panel, Connect an assistant)"
      : 'This assistant was granted read access only (scope "read")';
  return new AppError('FORBIDDEN', 403, `${who}: ${what} changes the home; a person can grant control`, { scope: p?.scope ?? [] });
}

/** The refusal for a caller without the `config` scope; `what` changes Home Assistant's configuration. */
export function configScopeRefusal(p: Principal | undefined, what: string): AppError {
  return new AppError(
    'FORBIDDEN',
    403,
    `This assistant was not granted the config scope: ${what} changes Home Assistant's configuration; a person can grant it`,
    {
      scope: p?.scope ?? [],
    },
  );
}

/** The refusal while CONFIG_EDITING is off; `what` changes Home Assistant's configuration. */
export function configEditingOff(what: string): AppError {
  return new AppError(
    'FORBIDDEN',
    403,
    `Changing Home Assistant's configuration is off in this bridge (CONFIG_EDITING): ${what} is not allowed; a person can turn it on in the bridge's settings`,
    { config_editing: false },
  );
}

/** Whether the caller may look after Home Assistant itself: scoped credentials need `admin` (neither control nor config gives it). */
export const mayAdminister = (p: Principal | undefined): boolean => !p?.scope || p.scope.includes('admin');

/** A change to Home Assistant itself (a registry entry, a zone, an integration, a repair). */
export interface AdminChange {
  /** In words, for messages and the confirmation: "renaming area kitchen to Cookery". */
  what: string;
  /**
   * What the allow and deny lists judge: entity ids, and for what is not an entity `<kind>.<id>`
   * (`area.kitchen`, `floor.upstairs`, `label.outdoor`, `device.<id>`, `zone.<id>`, `integration.<domain>`,
   * `app.<slug>`, `backup.<name>`, `core.restart`, `core.reload`), so `TOOLS_DENY=area` keeps every area change out.
   */
  subjects: readonly string[];
  /** The change makes the item (its entity, a new zone's, does not exist yet): exposure cannot apply to it. */
  creates?: boolean;
  /**
   * Entities the change acts on through its subject: an integration entry's when it is disabled,
   * enabled or reloaded, a device's when it is disabled or enabled. Judged by exposure and the lists
   * like entities acted on, so a hidden or denied entity is not switched off by its integration.
   */
  touches?: readonly string[];
}

/** A change to one of Home Assistant's config items (an automation, script, helper or dashboard). */
export interface ConfigEdit {
  /** In words, for messages and the confirmation: "creating automation bed_on". */
  what: string;
  /** The item as the allow and deny lists judge it: its entity id, or lovelace.<url_path> for a dashboard. */
  subject: string;
  /** The item's entity exists now, so exposure applies to it too. */
  subjectIsEntity: boolean;
}

/** What the written config touches (src/ha-config/references.ts), its actions resolved to entities. */
export interface ConfigReferences {
  entities: readonly string[];
  actions: readonly GuardedAction[];
  /** Paths of actions whose name or target is a template: what they touch cannot be known before they run. */
  templated: readonly string[];
}

/**
 * Subjects of admin changes judged by the lists only, never by exposure: what is not an entity, and
 * zones, which are places (Home Assistant does not expose them to Assist by default).
 */
const ADMIN_SUBJECT_KINDS = new Set(['area', 'floor', 'label', 'device', 'integration', 'repair', 'blueprint', 'zone', 'app', 'backup', 'core']);
const isEntitySubject = (s: string) => !ADMIN_SUBJECT_KINDS.has(s.slice(0, s.indexOf('.')));

const toRegex = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export class Policy {
  private readonly allow: RegExp[];
  private readonly deny: RegExp[];
  constructor(
    private readonly settings: PolicySettings,
    private readonly exposure?: ExposureView,
    /** What actions will do (src/policy/effects.ts); without it an action is judged as what it is called. */
    private readonly effects?: EffectSource,
  ) {
    const compile = (list: readonly string[]) => list.map((p) => toRegex(p.includes('.') ? p : `${p}.*`));
    this.allow = compile(settings.allow);
    this.deny = compile(settings.deny);
  }

  /** What the actions will do: their effects, indirect ones marked with `via`, what cannot be known with `unresolved`. */
  effectsOf(actions: readonly GuardedAction[]): GuardedAction[] {
    return this.effects ? this.effects.expand(actions) : [...actions];
  }

  /** Reads what judging these actions needs from the hub (script, automation and scene configs), once. */
  async prepare(actions: readonly GuardedAction[]): Promise<void> {
    await this.effects?.ready(actions);
  }

  /** What actions will do, for a dry run or a preview: their effects and the automations they may set off. */
  async preview(actions: readonly GuardedAction[]): Promise<EffectPreview> {
    await this.prepare(actions);
    await this.effects?.readAutomations();
    const fx = this.effectsOf(actions);
    const effects = fx.map((e) => {
      const service = e.targetless ? e.entity_id : `${e.domain ?? domainOf(e.entity_id)}.${e.service}`;
      const asks = this.reasonsOf([e]).length > 0;
      return {
        entity_id: e.targetless ? '' : e.entity_id,
        service,
        ...(e.via ? { via: e.via } : {}),
        ...(asks ? { needs_confirmation: true as const } : {}),
        ...(e.unresolved ? { cannot_tell: e.unresolved } : {}),
      };
    });
    return { effects, may_also_run: this.effects?.mayAlsoRun(fx) ?? [] };
  }

  /** Whether any rule could hold an action back for this caller: then an action whose effects cannot be known is refused. */
  private anyRule(caller: Caller): boolean {
    const s = this.settings;
    return (
      s.readOnly || s.requireConfirmation || s.exposedOnly === true || this.allow.length > 0 || this.deny.length > 0 || caller.principal?.scope !== undefined
    );
  }

  get readOnly(): boolean {
    return this.settings.readOnly;
  }

  /** Whether only what Home Assistant exposes to Assist is in reach (TOOLS_EXPOSED_ONLY). */
  get exposedOnly(): boolean {
    return this.settings.exposedOnly === true;
  }

  /** Whether assistants may look after Home Assistant itself at all (ADMIN_TOOLS). */
  get adminTools(): boolean {
    return this.settings.adminTools === true;
  }

  /** Whether Home Assistant's config may be changed at all (CONFIG_EDITING). */
  get configEditing(): boolean {
    return this.settings.configEditing === true;
  }

  /** Whether callers may see this entity at all (TOOLS_EXPOSED_ONLY hides what the hub does not expose). */
  maySee(entityId: string): boolean {
    return !this.settings.exposedOnly || (this.exposure?.isExposed(entityId) ?? false);
  }

  /** Whether the lists let callers act on this id (an entity, or `domain.service` for a call with no entity). */
  private listed(id: string): boolean {
    if (this.deny.some((r) => r.test(id))) return false;
    return this.allow.length === 0 || this.allow.some((r) => r.test(id));
  }

  /** Whether the settings let callers act on this entity at all. */
  mayTouch(entityId: string): boolean {
    return this.maySee(entityId) && this.listed(entityId);
  }

  /** Why an action needs the person's confirmation, or undefined (also when confirmation is off). */
  confirmationOf(a: GuardedAction): string | undefined {
    if (!this.settings.requireConfirmation) return undefined;
    const reasons = this.reasonsOf(this.effectsOf([a]));
    return reasons.length ? reasons.join(', ') : undefined;
  }

  private reasonsOf(effects: readonly GuardedAction[]): string[] {
    if (!this.settings.requireConfirmation) return [];
    const out = effects.map((e) => confirmationReason(e.entity_id, e.service, e.data, e.state, e.via)).filter((r): r is string => r !== undefined);
    return [...new Set(out)];
  }

  /** Refuses effects that cannot be known when a rule could apply, saying why. */
  private judgeUnknown(caller: Caller, effects: readonly GuardedAction[], always = false): void {
    const unknown = [...new Set(effects.filter((e) => e.unresolved).map((e) => e.unresolved!))];
    if (!unknown.length || !(always || this.anyRule(caller))) return;
    throw new AppError(
      'FORBIDDEN',
      403,
      `The bridge cannot tell what this would do, so it does not run it: ${unknown.join('; ')}. Name the entities and services outright`,
      { unresolved: unknown },
    );
  }

  /**
   * Effects that look after Home Assistant itself (src/policy/admin-services.ts) are admin changes
   * however they are reached: judged as admin_system's are (admin scope, ADMIN_TOOLS, read-only,
   * the lists on their subject, the person's confirmation), or refused where only admin_system may do them.
   */
  private judgeAdmin(caller: Caller, effects: readonly GuardedAction[], opts: AuthorizeOptions): void {
    for (const e of effects) {
      const domain = e.targetless ? e.entity_id.slice(0, e.entity_id.indexOf('.')) : (e.domain ?? domainOf(e.entity_id));
      const admin = adminServiceOf(domain, e.service, e.data, e.targetless ? undefined : e.entity_id);
      if (!admin) continue;
      const what = e.via ? `${e.via}: ${admin.what}` : admin.what;
      if (admin.only)
        throw new AppError('FORBIDDEN', 403, `${capitalise(what)} is not run as an action; it is done by ${admin.only}`, {
          admin_service: `${domain}.${e.service}`,
          use: admin.only,
        });
      this.authorizeAdminChange(caller, { what, subjects: [admin.subject] }, opts);
    }
  }

  /** "lock.front_door (running script.unlocker)": an entity with how it is reached. */
  private named(effects: readonly GuardedAction[]): string {
    const seen = new Map<string, string | undefined>();
    for (const e of effects) if (!seen.has(e.entity_id) || (!e.via && seen.get(e.entity_id))) seen.set(e.entity_id, e.via);
    return [...seen].map(([id, via]) => (via ? `${id} (${via})` : id)).join(', ');
  }

  /**
   * A change that is not an action on an entity (storing a scene or a group, a notification):
   * refused for callers without control, and in read-only mode.
   */
  authorizeWrite(caller: Caller, what: string): void {
    this.scope(caller, what);
    if (this.settings.readOnly)
      throw new AppError('FORBIDDEN', 403, `The bridge is in read-only mode (TOOLS_READ_ONLY): ${what} is not allowed`, { read_only: true });
  }

  /**
   * Actions on entities: FORBIDDEN (no control scope, read-only mode, an entity the hub does not
   * expose or the lists keep out) or CONFIRMATION_REQUIRED (an action that opens the home, unless
   * the caller confirmed it), each saying what to do next. Refuses the whole list or none of it.
   */
  authorize(caller: Caller, actions: readonly GuardedAction[], opts: AuthorizeOptions = {}): void {
    if (!actions.length) return;
    this.authorizeWrite(caller, actions.length === 1 ? `${actions[0]!.service} on ${actions[0]!.entity_id}` : 'changing anything');
    const effects = this.effectsOf(actions);
    this.judgeUnknown(caller, effects);
    const hiddenFx = effects.filter((a) => !a.targetless && !a.unresolved && !this.maySee(a.entity_id));
    if (hiddenFx.length) {
      const hidden = [...new Set(hiddenFx.map((a) => a.entity_id))];
      throw new AppError(
        'FORBIDDEN',
        403,
        `Not allowed to act on ${this.named(hiddenFx)}: Home Assistant does not expose it to Assist (TOOLS_EXPOSED_ONLY); expose it under Settings → Voice assistants → Expose`,
        { entity_ids: hidden, exposed: false },
      );
    }
    const keptFx = effects.filter((a) => !a.unresolved && !this.listed(a.entity_id));
    if (keptFx.length) {
      const kept = [...new Set(keptFx.map((a) => a.entity_id))];
      throw new AppError('FORBIDDEN', 403, `Not allowed to act on ${this.named(keptFx)} (TOOLS_ALLOW / TOOLS_DENY)`, {
        entity_ids: kept,
        domain: domainOf(kept[0]!),
      });
    }
    this.judgeAdmin(caller, effects, opts);
    if (opts.planOnly || caller.confirm) return;
    const reasons = this.reasonsOf(effects);
    if (reasons.length) {
      throw new AppError(
        'CONFIRMATION_REQUIRED',
        409,
        `${capitalise(reasons.join(', '))} needs confirmation: ask the person, then call again with confirm: true`,
        { needs_confirmation: reasons },
      );
    }
  }

  /** Whether callers may see a config item: its entity must be visible; a dashboard (lovelace.<path>) always is. */
  maySeeSubject(subject: string): boolean {
    return subject.startsWith('lovelace.') || !isEntitySubject(subject) || this.maySee(subject);
  }

  /**
   * Reading a config item: hidden (as not found) when its entity is one callers may not see, and
   * refused when it names entities they may not see, so a config never shows what exposure hides.
   */
  authorizeConfigRead(entityId: string | null, named: readonly string[]): void {
    if (entityId && !this.maySee(entityId))
      throw new AppError('NOT_FOUND', 404, `There is no such item: ${entityId} is not exposed to Assist (TOOLS_EXPOSED_ONLY)`, { exposed: false });
    const hidden = named.filter((id) => !this.maySee(id));
    if (hidden.length)
      throw new AppError('FORBIDDEN', 403, `It names entities Home Assistant does not expose to Assist (TOOLS_EXPOSED_ONLY), so it is not shown`, {
        exposed: false,
        count: hidden.length,
      });
  }

  /**
   * A change to Home Assistant's config: refused for callers without the `config` scope, in
   * read-only mode, while CONFIG_EDITING is off, and for an item the lists keep out or the hub does
   * not expose. What the config would touch passes the same rules as a direct action: every entity
   * it names must be one callers may act on, every action it takes is judged as if called now (a
   * config that acts needs `control` too), and a templated action is refused, since what it would
   * touch cannot be known. Applying always needs the person's confirmation (REQUIRE_CONFIRMATION
   * is about actions and does not turn this off); the answer lists what the person confirms.
   */
  authorizeConfigEdit(caller: Caller, edit: ConfigEdit, refs: ConfigReferences, opts: AuthorizeOptions = {}): { needs_confirmation: string[] } {
    if (!mayEditConfig(caller.principal)) throw configScopeRefusal(caller.principal, edit.what);
    if (this.settings.readOnly)
      throw new AppError('FORBIDDEN', 403, `The bridge is in read-only mode (TOOLS_READ_ONLY): ${edit.what} is not allowed`, { read_only: true });
    if (!this.settings.configEditing) throw configEditingOff(edit.what);
    if (edit.subjectIsEntity && !this.maySee(edit.subject)) {
      throw new AppError('FORBIDDEN', 403, `Not allowed to change ${edit.subject}: Home Assistant does not expose it to Assist (TOOLS_EXPOSED_ONLY)`, {
        entity_ids: [edit.subject],
        exposed: false,
      });
    }
    if (!this.listed(edit.subject))
      throw new AppError('FORBIDDEN', 403, `Not allowed to change ${edit.subject} (TOOLS_ALLOW / TOOLS_DENY)`, { entity_ids: [edit.subject] });
    if (refs.templated.length) {
      throw new AppError(
        'FORBIDDEN',
        403,
        `The bridge cannot check what a templated action or target would touch (at ${refs.templated.join(', ')}); write the action and its entity ids out`,
        { templated: [...refs.templated] },
      );
    }
    const hidden = refs.entities.filter((id) => !this.maySee(id));
    if (hidden.length) {
      throw new AppError('FORBIDDEN', 403, `The config names ${hidden.join(', ')}, which Home Assistant does not expose to Assist (TOOLS_EXPOSED_ONLY)`, {
        entity_ids: hidden,
        exposed: false,
      });
    }
    const kept = refs.entities.filter((id) => !this.listed(id));
    if (kept.length)
      throw new AppError('FORBIDDEN', 403, `The config names ${kept.join(', ')}, which callers may not act on (TOOLS_ALLOW / TOOLS_DENY)`, {
        entity_ids: kept,
        domain: domainOf(kept[0]!),
      });
    // Applying a config always asks the person, so a rule always applies: what cannot be known is refused.
    this.judgeUnknown(caller, this.effectsOf(refs.actions), true);
    if (refs.actions.length) {
      // What the config does when it runs is judged as a direct action now, the control scope included.
      this.authorize({ principal: caller.principal }, refs.actions, { planOnly: true });
    }
    // Every effect the config would have is named, confirmation rules or not: the person confirms what it does.
    const effects = this.effectsOf(refs.actions);
    const asked = (e: GuardedAction) => confirmationReason(e.entity_id, e.service, e.data, e.state) !== undefined && this.settings.requireConfirmation;
    const does = effects
      .filter((e) => e.via && !e.targetless && !asked(e))
      .map((e) => `${e.via} does ${e.domain ?? domainOf(e.entity_id)}.${e.service} on ${e.entity_id}`);
    const reasons = [edit.what, ...this.reasonsOf(effects), ...does];
    const needs = [...new Set(reasons)];
    if (!opts.planOnly && !caller.confirm) {
      throw new AppError(
        'CONFIRMATION_REQUIRED',
        409,
        `${capitalise(needs.join('; '))} needs confirmation: show the person the preview (dry_run), ask, then call again with confirm: true`,
        { needs_confirmation: needs },
      );
    }
    return { needs_confirmation: needs };
  }

  /** Using the admin tools at all (reading included): the `admin` scope, and ADMIN_TOOLS on. */
  authorizeAdminUse(caller: Caller, what: string): void {
    if (!mayAdminister(caller.principal)) {
      throw new AppError('FORBIDDEN', 403, `This assistant was not granted the admin scope: ${what} looks after Home Assistant itself; a person can grant it`, {
        scope: caller.principal?.scope ?? [],
      });
    }
    if (!this.adminTools) {
      throw new AppError(
        'FORBIDDEN',
        403,
        `Looking after Home Assistant itself is off in this bridge (ADMIN_TOOLS): ${what} is not allowed; a person can turn it on in the bridge's settings`,
        { admin_tools: false },
      );
    }
  }

  /**
   * A change to Home Assistant itself: the admin scope and ADMIN_TOOLS, then read-only mode, then
   * every subject through exposure (entities) and the allow and deny lists. Applying always needs
   * the person's confirmation; the answer lists what the person confirms.
   */
  authorizeAdminChange(caller: Caller, change: AdminChange, opts: AuthorizeOptions = {}): { needs_confirmation: string[] } {
    this.authorizeAdminUse(caller, change.what);
    if (this.settings.readOnly)
      throw new AppError('FORBIDDEN', 403, `The bridge is in read-only mode (TOOLS_READ_ONLY): ${change.what} is not allowed`, { read_only: true });
    const entities = change.subjects.filter((s, i) => isEntitySubject(s) && !(change.creates && i === 0));
    const hidden = entities.filter((id) => !this.maySee(id));
    if (hidden.length) {
      throw new AppError('FORBIDDEN', 403, `Not allowed to change ${hidden.join(', ')}: Home Assistant does not expose it to Assist (TOOLS_EXPOSED_ONLY)`, {
        entity_ids: hidden,
        exposed: false,
      });
    }
    const kept = change.subjects.filter((s) => !this.listed(s));
    if (kept.length) throw new AppError('FORBIDDEN', 403, `Not allowed to change ${kept.join(', ')} (TOOLS_ALLOW / TOOLS_DENY)`, { entity_ids: kept });
    const touched = change.touches ?? [];
    // Hidden entities are counted, not named: the caller never saw them.
    const unseen = touched.filter((id) => !this.maySee(id));
    if (unseen.length) {
      throw new AppError(
        'FORBIDDEN',
        403,
        `Not allowed: ${change.what} would also change ${unseen.length} ${unseen.length === 1 ? 'entity' : 'entities'} Home Assistant does not expose to Assist (TOOLS_EXPOSED_ONLY)`,
        { exposed: false, count: unseen.length },
      );
    }
    const barred = touched.filter((id) => !this.listed(id));
    if (barred.length) {
      throw new AppError(
        'FORBIDDEN',
        403,
        `Not allowed: ${change.what} would also change ${barred.join(', ')}, which callers may not act on (TOOLS_ALLOW / TOOLS_DENY)`,
        {
          entity_ids: barred,
        },
      );
    }
    if (!opts.planOnly && !caller.confirm) {
      throw new AppError(
        'CONFIRMATION_REQUIRED',
        409,
        `${capitalise(change.what)} needs confirmation: show the person the preview (dry_run), ask, then call again with confirm: true`,
        { needs_confirmation: [change.what] },
      );
    }
    return { needs_confirmation: [change.what] };
  }

  private scope(caller: Caller, what: string): void {
    if (!mayControl(caller.principal)) throw controlScopeRefusal(caller.principal, what);
  }
}
