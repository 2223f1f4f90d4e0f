// What acting callers (tools, and the command planner) may touch: read-only mode, allow and deny
// lists by domain and entity-id pattern, only what the hub exposes to Assist (when asked), and the
// confirmation rule of src/safety.ts. One place,
// so every way of acting refuses the same things with the same words.
import { AppError } from './errors.js';
import { domainOf } from './hub/entity-id.js';
import type { HubState } from './hub/types.js';
import { confirmationReason } from './safety.js';

export interface GuardSettings {
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

/** One action on one entity, as it will go to the hub. */
export interface GuardedAction {
  entity_id: string;
  /** The hub's service in the entity's domain. */
  service: string;
  data: Record<string, unknown>;
  state?: HubState;
}

const toRegex = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

export class Guard {
  private readonly allow: RegExp[];
  private readonly deny: RegExp[];

  constructor(
    private readonly settings: GuardSettings,
    private readonly exposure?: ExposureView,
  ) {
    const compile = (list: readonly string[]) => list.map((p) => toRegex(p.includes('.') ? p : `${p}.*`));
    this.allow = compile(settings.allow);
    this.deny = compile(settings.deny);
  }

  /** Whether callers may see this entity at all (TOOLS_EXPOSED_ONLY hides what the hub does not expose). */
  maySee(entityId: string): boolean {
    return !this.settings.exposedOnly || (this.exposure?.isExposed(entityId) ?? false);
  }

  /** Whether the settings let callers act on this entity at all. */
  mayTouch(entityId: string): boolean {
    if (!this.maySee(entityId)) return false;
    if (this.deny.some((r) => r.test(entityId))) return false;
    return this.allow.length === 0 || this.allow.some((r) => r.test(entityId));
  }

  /** Throws FORBIDDEN in read-only mode: for actions on no entity (a notification, a script run). */
  checkWrite(what: string): void {
    if (this.settings.readOnly) throw new AppError('FORBIDDEN', 403, `The bridge is in read-only mode (TOOLS_READ_ONLY): ${what} is not allowed`, { read_only: true });
  }

  /**
   * Throws FORBIDDEN (read-only mode, or an entity the lists keep out) or CONFIRMATION_REQUIRED
   * (an action that opens the home, without `confirm: true`), saying what to do next.
   */
  check(actions: readonly GuardedAction[], opts: { confirm?: boolean } = {}): void {
    if (actions.length && this.settings.readOnly) {
      throw new AppError('FORBIDDEN', 403, 'The bridge is in read-only mode (TOOLS_READ_ONLY): nothing may be changed', { read_only: true });
    }
    const hidden = actions.filter((a) => !this.maySee(a.entity_id)).map((a) => a.entity_id);
    if (hidden.length) {
      throw new AppError('FORBIDDEN', 403, `Not allowed to act on ${hidden.join(', ')}: Home Assistant does not expose it to Assist (TOOLS_EXPOSED_ONLY); expose it under Settings → Voice assistants → Expose`, { entity_ids: hidden, exposed: false });
    }
    const kept = actions.filter((a) => !this.mayTouch(a.entity_id)).map((a) => a.entity_id);
    if (kept.length) {
      throw new AppError('FORBIDDEN', 403, `Not allowed to act on ${kept.join(', ')} (TOOLS_ALLOW / TOOLS_DENY)`, { entity_ids: kept, domain: domainOf(kept[0]!) });
    }
    if (!this.settings.requireConfirmation || opts.confirm) return;
    const reasons = actions.map((a) => confirmationReason(a.entity_id, a.service, a.data, a.state)).filter((r): r is string => r !== undefined);
    if (reasons.length) {
      throw new AppError('CONFIRMATION_REQUIRED', 409, `${capitalise(reasons.join(', '))} needs confirmation: ask the person, then call again with confirm: true`, { needs_confirmation: reasons });
    }
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
