// The open connections of both transports, by number, and what they hold: one registration with
// the credential registry per credential (its end closes every connection it opened), and the
// record of each connection that ended, written to SQLite with the others of its tick.
import type { Closer, CredentialEnd, Credentials } from '../auth/credentials.js';
import type { Principal } from '../auth/tokens.js';
import type { Logger } from '../log.js';
import type { PastConnection, StreamStatsStore } from '../store/stream-stats.js';
import { connectionNumber, type StreamConnection } from './connection.js';

export class ConnectionRegistry {
  private readonly connections = new Map<number, StreamConnection>();
  /** Open connections per credential: one registration with the credential registry stands for all of them. */
  private readonly held = new Map<Principal, { count: number; close: Closer }>();
  private closedPending: PastConnection[] = [];
  private recordQueued = false;
  private stopped = false;

  constructor(private readonly deps: { stats: StreamStatsStore; credentials?: Credentials; log: Logger }) {}

  /** A connection opened, or one that authenticated later is now its principal's. */
  register(c: StreamConnection): void {
    this.connections.set(c.n, c);
    // Closed with its credential: revoked, password changed, user removed, expired.
    if (c.principal) this.hold(c.principal);
  }

  /** Forgets a connection that ended; false when it was not registered (or already forgotten). */
  remove(c: StreamConnection): boolean {
    if (!this.connections.delete(c.n)) return false;
    if (c.principal) this.letGo(c.principal);
    return true;
  }

  private hold(p: Principal): void {
    let h = this.held.get(p);
    if (!h) {
      h = { count: 0, close: { credentialEnded: (end: CredentialEnd) => this.endCredential(p, end) } };
      this.held.set(p, h);
      this.deps.credentials?.add(p, h.close);
    }
    h.count++;
  }

  private letGo(p: Principal): void {
    const h = this.held.get(p);
    if (!h || --h.count > 0) return;
    this.held.delete(p);
    this.deps.credentials?.forget(p, h.close);
  }

  /** A credential ended: every connection it opened closes, saying why (a walk: credentials end rarely). */
  private endCredential(p: Principal, end: CredentialEnd): void {
    this.held.delete(p);
    for (const c of [...this.connections.values()]) if (c.principal === p) c.credentialEnded(end);
  }

  get size(): number {
    return this.connections.size;
  }

  /** The open connections (a live iterator: copy before closing any while walking). */
  values(): IterableIterator<StreamConnection> {
    return this.connections.values();
  }

  list(): StreamConnection[] {
    return [...this.connections.values()];
  }

  find(id: string): StreamConnection | undefined {
    const n = connectionNumber(id);
    return n === undefined ? undefined : this.connections.get(n);
  }

  /** Keeps an ended connection's record; the records of one tick are written together. */
  record(past: PastConnection): void {
    this.closedPending.push(past);
    if (!this.recordQueued && !this.stopped) {
      this.recordQueued = true;
      setImmediate(this.recordClosed);
    }
  }

  /** Stopping: records are no longer written per tick, but by `flush` (once the connections are closed). */
  stop(): void {
    this.stopped = true;
  }

  flush(): void {
    this.recordClosed();
  }

  private readonly recordClosed = (): void => {
    this.recordQueued = false;
    if (!this.closedPending.length) return;
    try {
      this.deps.stats.recordConnections(this.closedPending);
    } catch (err) {
      this.deps.log.error({ err }, 'recording closed stream connections failed');
    }
    this.closedPending = [];
  };
}
