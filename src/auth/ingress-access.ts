// Which Home Assistant users may use the bridge through ingress (INGRESS_USERS): everyone Home
// Assistant signed in, only its administrators, or the users listed by id. Non-administrators can
// open ingress sessions too, so this is the bridge's own decision. Who is an administrator comes
// from Home Assistant's user list (config/auth/list), kept for a minute and read again when an
// unknown user arrives.
import { AppError } from '../errors.js';
import type { HubReader } from '../hub/reader.js';
import type { Principal } from './tokens.js';

export type IngressRule = 'all' | 'admins' | readonly string[];

interface HaUser {
  id: string;
  group_ids?: string[];
  is_owner?: boolean;
  is_active?: boolean;
}

const FRESH_MS = 60_000;
const RETRY_MS = 5_000;

/** `all`, `admins`, or comma-separated user ids (32 hex digits each). */
export function parseIngressRule(text: string): IngressRule {
  const t = text.trim().toLowerCase();
  if (t === 'all' || t === 'admins') return t;
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const forbidden = (p: Principal, why: string) =>
  new AppError('FORBIDDEN', 403, `The Home Assistant user ${p.haUser?.displayName || p.haUser?.name || p.haUser?.id} may not use this bridge: ${why}`, {
    home_assistant_user: p.haUser?.id ?? null,
  });

export class IngressAccess {
  private admins = new Set<string>();
  private readAt = 0;
  private reading?: Promise<void>;

  constructor(
    private readonly rule: IngressRule,
    private readonly hub: Pick<HubReader, 'query'>,
  ) {}

  /** Undefined when the user may come in; the refusal otherwise (a promise while the user list is read). */
  check(p: Principal): AppError | undefined | Promise<AppError | undefined> {
    const id = p.haUser?.id;
    if (id === undefined || this.rule === 'all') return undefined;
    if (Array.isArray(this.rule)) return this.rule.includes(id) ? undefined : forbidden(p, 'INGRESS_USERS does not list them');
    const age = Date.now() - this.readAt;
    if (this.admins.has(id) && age < FRESH_MS) return undefined;
    // Read a moment ago and not among the administrators: no need to ask Home Assistant again yet.
    if (age < RETRY_MS) return forbidden(p, 'only administrators may (INGRESS_USERS=admins)');
    return this.read().then(
      () => (this.admins.has(id) ? undefined : forbidden(p, 'only administrators may (INGRESS_USERS=admins)')),
      () =>
        this.admins.has(id)
          ? undefined
          : new AppError(
              'CONNECTION_ERROR',
              503,
              'Cannot tell whether this Home Assistant user is an administrator while Home Assistant is unreachable; try again shortly',
            ),
    );
  }

  private read(): Promise<void> {
    this.reading ??= this.hub
      .query<HaUser[]>('config/auth/list')
      .then((users) => {
        this.admins = new Set(users.filter((u) => u.is_active !== false && (u.is_owner || u.group_ids?.includes('system-admin'))).map((u) => u.id));
        this.readAt = Date.now();
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }
}
