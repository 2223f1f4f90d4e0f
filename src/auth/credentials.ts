// Open connections by the credential that opened them: event streams, WebSockets and (through the
// same call) MCP sessions register here, and auth tells this registry when a credential ends (a
// bridge token revoked, a password changed, a user removed, an OAuth grant ended). Each credential
// that no longer holds has all its connections closed, with the reason; an expired token's at its
// expiry. Whether a credential still holds is the admission's own rule (`ended`), asked again.
import type { Principal } from './tokens.js';

export type CredentialEndReason = 'token_revoked' | 'password_changed' | 'user_removed' | 'token_expired';

export interface CredentialEnd {
  reason: CredentialEndReason;
  message: string;
}

/** Why a credential no longer holds, or undefined while it does (expiry aside). */
export type EndCheck = (p: Principal) => CredentialEnd | undefined;

/** Closes one connection, saying why: a function, or an object that ends itself (no closure per connection). */
export type Closer = ((end: CredentialEnd) => void) | { credentialEnded(end: CredentialEnd): void };

const run = (close: Closer, end: CredentialEnd) => (typeof close === 'function' ? close(end) : close.credentialEnded(end));

/** Timers cannot wait longer than this (about 24.8 days); a later expiry is looked at again then. */
const MAX_WAIT = 2 ** 31 - 1;

export const EXPIRED: CredentialEnd = { reason: 'token_expired', message: 'The access token has expired' };

/**
 * Auth's word that a credential may have ended (a password changed, a token revoked). Made before
 * the auth parts, which are given `changed`; the registry, made after them with their rule,
 * listens to it. So neither waits for the other to be finished.
 */
export class CredentialChanges {
  private readonly listeners: (() => void)[] = [];
  readonly changed = (): void => {
    for (const listener of this.listeners) listener();
  };
  listen(listener: () => void): void {
    this.listeners.push(listener);
  }
}

export class Credentials {
  private readonly open = new Map<Principal, Set<Closer>>();
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private sweepQueued = false;

  /** `check`: the rule for whether a credential still holds; `changes`: auth saying one may not. */
  constructor(
    private readonly check: EndCheck,
    changes?: CredentialChanges,
  ) {
    changes?.listen(() => this.changed());
  }

  /**
   * Registers a connection opened with this credential: `close` is called once if the credential
   * ends while it is open. Returns the function to call when the connection ends first.
   */
  onEnd(principal: Principal, close: Closer): () => void {
    this.add(principal, close);
    return () => this.forget(principal, close);
  }

  /** `onEnd` without the function to undo it: the caller undoes it with `forget`. */
  add(principal: Principal, close: Closer): void {
    let set = this.open.get(principal);
    if (!set) {
      this.open.set(principal, (set = new Set()));
      if (principal.expMs !== undefined) this.wakeAt(principal.expMs);
    }
    set.add(close);
  }

  /** The connection ended first: it is no longer closed with its credential. */
  forget(principal: Principal, close: Closer): void {
    const set = this.open.get(principal);
    if (set?.delete(close) && set.size === 0) this.open.delete(principal);
  }

  /** Auth says a credential may have ended: every open one is asked again, once per turn of the loop. */
  changed(): void {
    if (this.sweepQueued) return;
    this.sweepQueued = true;
    queueMicrotask(() => {
      this.sweepQueued = false;
      this.sweep();
    });
  }

  /** Open credentials (distinct tokens with at least one connection). */
  get size(): number {
    return this.open.size;
  }

  private sweep(now = Date.now()): void {
    for (const [p, set] of this.open) {
      const end = p.expMs !== undefined && p.expMs <= now ? EXPIRED : this.check(p);
      if (!end) continue;
      this.open.delete(p);
      for (const close of set) run(close, end);
    }
  }

  private wakeAt(at: number): void {
    if (at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.expire, Math.min(MAX_WAIT, Math.max(0, at - Date.now())));
    this.timer.unref();
  }

  private readonly expire = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    this.sweep(now);
    let next = Infinity;
    for (const p of this.open.keys()) if (p.expMs !== undefined && p.expMs < next) next = p.expMs;
    if (next !== Infinity) this.wakeAt(Math.max(next, now + 1));
  };

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }
}
