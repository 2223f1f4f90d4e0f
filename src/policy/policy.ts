// The one checkpoint for what a caller may see and do. Every change to the home passes
// `authorize` (the action executor calls it before anything reaches the hub, and cannot be called
// without a caller); every other change the bridge makes on a caller's behalf (storing a scene,
// sending a notification) passes `authorizeWrite`; every read of entities goes through the
// HomeView this policy makes. The rules: OAuth scope, read-only mode, exposure to Assist, the allow
// and deny lists, and confirmation (src/policy/confirmation.ts).
import type { Principal } from '../auth/tokens.js';
import { AppError } from '../errors.js';
import { domainOf } from '../hub/entity-id.js';
import type { HubState } from '../hub/types.js';
import { confirmationReason } from './confirmation.js';

export interface PolicySettings {
  readOnly: boolean;
  allow: readonly string[];
  deny: readonly string[];
  requireConfirmation: boolean;
  /** Only entities the hub exposes to its own assistant (TOOLS_EXPOSED_ONLY). */
  exposedOnly?: boolean;
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
}

export interface AuthorizeOptions {
  /** Only planning (a dry run): confirmation is not asked for, the plan marks it instead. */
  planOnly?: boolean;
}

/** Whether the caller may change anything: OAuth grants and other scoped credentials need `control`. */
export const mayControl = (p: Principal | undefined): boolean => !p?.scope || p.scope.includes('control');

const toRegex = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export class Policy {
  private readonly allow: RegExp[];
  private readonly deny: RegExp[];

  constructor(
    private readonly settings: PolicySettings,
    private readonly exposure?: ExposureView,
  ) {
    const compile = (list: readonly string[]) => list.map((p) => toRegex(p.includes('.') ? p : `${p}.*`));
    this.allow = compile(settings.allow);
    this.deny = compile(settings.deny);
  }

  get readOnly(): boolean {
    return this.settings.readOnly;
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
    return this.settings.requireConfirmation ? confirmationReason(a.entity_id, a.service, a.data, a.state) : undefined;
  }

  /**
   * A change that is not an action on an entity (storing a scene or a group, a notification):
   * refused for callers without control, and in read-only mode.
   */
  authorizeWrite(caller: Caller, what: string): void {
    this.scope(caller, what);
    if (this.settings.readOnly) throw new AppError('FORBIDDEN', 403, `The bridge is in read-only mode (TOOLS_READ_ONLY): ${what} is not allowed`, { read_only: true });
  }

  /**
   * Actions on entities: FORBIDDEN (no control scope, read-only mode, an entity the hub does not
   * expose or the lists keep out) or CONFIRMATION_REQUIRED (an action that opens the home, unless
   * the caller confirmed it), each saying what to do next. Refuses the whole list or none of it.
   */
  authorize(caller: Caller, actions: readonly GuardedAction[], opts: AuthorizeOptions = {}): void {
    if (!actions.length) return;
    this.authorizeWrite(caller, actions.length === 1 ? `${actions[0]!.service} on ${actions[0]!.entity_id}` : 'changing anything');
    const hidden = actions.filter((a) => !a.targetless && !this.maySee(a.entity_id)).map((a) => a.entity_id);
    if (hidden.length) {
      throw new AppError('FORBIDDEN', 403, `Not allowed to act on ${hidden.join(', ')}: Home Assistant does not expose it to Assist (TOOLS_EXPOSED_ONLY); expose it under Settings → Voice assistants → Expose`, { entity_ids: hidden, exposed: false });
    }
    const kept = actions.filter((a) => !this.listed(a.entity_id)).map((a) => a.entity_id);
    if (kept.length) {
      throw new AppError('FORBIDDEN', 403, `Not allowed to act on ${kept.join(', ')} (TOOLS_ALLOW / TOOLS_DENY)`, { entity_ids: kept, domain: domainOf(kept[0]!) });
    }
    if (opts.planOnly || caller.confirm) return;
    const reasons = actions.map((a) => this.confirmationOf(a)).filter((r): r is string => r !== undefined);
    if (reasons.length) {
      throw new AppError('CONFIRMATION_REQUIRED', 409, `${capitalise(reasons.join(', '))} needs confirmation: ask the person, then call again with confirm: true`, { needs_confirmation: reasons });
    }
  }

  private scope(caller: Caller, what: string): void {
    if (mayControl(caller.principal)) return;
    const who = caller.principal?.via === 'discovery' ? "Home Assistant's link to this bridge may only read (a person sets that in the bridge's panel, Connect an assistant)" : 'This assistant was granted read access only (scope "read")';
    throw new AppError('FORBIDDEN', 403, `${who}: ${what} changes the home; a person can grant control`, { scope: caller.principal?.scope ?? [] });
  }
}
