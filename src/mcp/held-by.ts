// The credentials an MCP session is held by, in the registry of open connections by credential
// (src/auth/credentials.ts): the one that opened it and each one a later request on it presented
// (an OAuth client refreshes its access token while the session goes on). When any of them is
// revoked, loses its password or its user, the session ends. An expiry ends the session only when
// the expired token is still the one in use: a refreshed client has moved on from the old token.
import type { Closer, CredentialEnd, Credentials } from '../auth/credentials.js';
import type { Principal } from '../auth/tokens.js';

export class HeldBy {
  private readonly by = new Map<Principal, Closer>();
  private current?: Principal;
  private done = false;

  constructor(
    private readonly credentials: Credentials | undefined,
    first: Principal,
    private readonly onEnd: (end: CredentialEnd) => void,
  ) {
    this.use(first);
  }

  /** A request on the session came with this credential: it holds the session from now on. */
  use(p: Principal): void {
    if (p === this.current || this.done) return;
    this.current = p;
    if (this.by.has(p)) return;
    const close = (end: CredentialEnd) => this.ended(p, end);
    this.by.set(p, close);
    this.credentials?.add(p, close);
  }

  /** The session ended first: no credential holds it any more. */
  release(): void {
    this.done = true;
    for (const [p, close] of this.by) this.credentials?.forget(p, close);
    this.by.clear();
  }

  private ended(p: Principal, end: CredentialEnd): void {
    this.by.delete(p);
    if (this.done || (end.reason === 'token_expired' && p !== this.current)) return;
    this.release();
    this.onEnd(end);
  }
}
