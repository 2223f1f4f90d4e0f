// OAuth clients (public ones that registered themselves; confidential ones an admin made, with
// only their secret's SHA-256), the grants people approved, and the grants' refresh tokens (only
// their SHA-256 hashes). Deleting a grant deletes its refresh tokens; deleting a client, its grants.
import type { Db } from './db.js';

export interface OAuthGrantRecord {
  id: string;
  client_id: string;
  client_name: string;
  scope: string;
  resource: string;
  approved_by: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export class OAuthStore {
  private readonly touchMany;

  constructor(private readonly db: Db) {
    const touch = db.prepare('UPDATE oauth_grants SET last_used_at = ? WHERE id = ?');
    this.touchMany = db.transaction((used: Map<string, string>) => {
      for (const [id, at] of used) touch.run(at, id);
    });
  }

  client(clientId: string): Record<string, unknown> | undefined {
    const row = this.db.prepare('SELECT metadata FROM oauth_clients WHERE client_id = ?').get(clientId) as { metadata: string } | undefined;
    return row ? (JSON.parse(row.metadata) as Record<string, unknown>) : undefined;
  }

  addClient(clientId: string, metadata: Record<string, unknown>, at: string, confidential?: { secretHash: string; createdBy: string }): void {
    this.db
      .prepare('INSERT INTO oauth_clients (client_id, metadata, registered_at, secret_hash, created_by) VALUES (?, ?, ?, ?, ?)')
      .run(clientId, JSON.stringify(metadata), at, confidential?.secretHash ?? null, confidential?.createdBy ?? null);
  }

  /** The SHA-256 of a confidential client's secret; undefined for a public client or none. */
  secretHash(clientId: string): string | undefined {
    const row = this.db.prepare('SELECT secret_hash FROM oauth_clients WHERE client_id = ?').get(clientId) as { secret_hash: string | null } | undefined;
    return row?.secret_hash ?? undefined;
  }

  /** The confidential clients, oldest first, with who made them (never their secrets). */
  confidentialClients(): { client_id: string; metadata: Record<string, unknown>; registered_at: string; created_by: string }[] {
    const rows = this.db
      .prepare('SELECT client_id, metadata, registered_at, created_by FROM oauth_clients WHERE secret_hash IS NOT NULL ORDER BY registered_at, client_id')
      .all() as { client_id: string; metadata: string; registered_at: string; created_by: string }[];
    return rows.map((r) => ({ ...r, metadata: JSON.parse(r.metadata) as Record<string, unknown> }));
  }

  /** Deletes a client and every grant it holds; false when there was none. */
  deleteClient(clientId: string): boolean {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM oauth_grants WHERE client_id = ?').run(clientId);
      return this.db.prepare('DELETE FROM oauth_clients WHERE client_id = ?').run(clientId).changes > 0;
    })();
  }

  /** A client that registered itself, noted with the address group it came from (see pruneRegistrations). */
  addRegisteredClient(clientId: string, metadata: Record<string, unknown>, at: string, from: string): void {
    this.db
      .prepare('INSERT INTO oauth_clients (client_id, metadata, registered_at, registered_from) VALUES (?, ?, ?, ?)')
      .run(clientId, JSON.stringify(metadata), at, from);
  }

  /** A person granted the client something: from now on it is kept. */
  markGranted(clientId: string, at: string): void {
    this.db.prepare('UPDATE oauth_clients SET first_grant_at = ? WHERE client_id = ? AND first_grant_at IS NULL').run(at, clientId);
  }

  /**
   * Bounds self-registered clients never granted anything: those registered before `before` go,
   * and beyond `perAddress` from one address group, or `overall` in all, the oldest go. Clients
   * with no registered_from (made by an admin) are never touched. Answers how many went.
   */
  pruneRegistrations(before: string, from?: { address: string; perAddress: number }, overall = Infinity): number {
    const unused = 'registered_from IS NOT NULL AND created_by IS NULL AND first_grant_at IS NULL';
    let n = this.db.prepare(`DELETE FROM oauth_clients WHERE ${unused} AND registered_at < ?`).run(before).changes;
    if (from) {
      n += this.db
        .prepare(
          `DELETE FROM oauth_clients WHERE rowid IN (SELECT rowid FROM oauth_clients WHERE ${unused} AND registered_from = ? ORDER BY registered_at DESC, rowid DESC LIMIT -1 OFFSET ?)`,
        )
        .run(from.address, from.perAddress).changes;
    }
    if (Number.isFinite(overall)) {
      n += this.db
        .prepare(
          `DELETE FROM oauth_clients WHERE rowid IN (SELECT rowid FROM oauth_clients WHERE ${unused} ORDER BY registered_at DESC, rowid DESC LIMIT -1 OFFSET ?)`,
        )
        .run(overall).changes;
    }
    return n;
  }

  grants(): OAuthGrantRecord[] {
    return this.db.prepare('SELECT * FROM oauth_grants ORDER BY created_at, id').all() as OAuthGrantRecord[];
  }

  /** A new grant with its first refresh token, in one transaction. */
  addGrant(grant: OAuthGrantRecord, refreshHash: string): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO oauth_grants (id, client_id, client_name, scope, resource, approved_by, created_at, expires_at, last_used_at) VALUES (@id, @client_id, @client_name, @scope, @resource, @approved_by, @created_at, @expires_at, @last_used_at)',
        )
        .run(grant);
      this.db.prepare('INSERT INTO oauth_refresh_tokens (hash, grant_id, created_at) VALUES (?, ?, ?)').run(refreshHash, grant.id, grant.created_at);
    })();
  }

  refreshToken(hash: string): { grant_id: string; used_at: string | null } | undefined {
    return this.db.prepare('SELECT grant_id, used_at FROM oauth_refresh_tokens WHERE hash = ?').get(hash) as
      | { grant_id: string; used_at: string | null }
      | undefined;
  }

  /** Rotation: the old token is marked used (only if it was not already), the new one stored, the grant extended. False when another request used it first. */
  rotate(oldHash: string, newHash: string, grantId: string, at: string, expiresAt: string): boolean {
    return this.db.transaction(() => {
      const marked = this.db.prepare('UPDATE oauth_refresh_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL').run(at, oldHash).changes;
      if (marked !== 1) return false;
      this.db.prepare('INSERT INTO oauth_refresh_tokens (hash, grant_id, created_at) VALUES (?, ?, ?)').run(newHash, grantId, at);
      this.db.prepare('UPDATE oauth_grants SET expires_at = ?, last_used_at = ? WHERE id = ?').run(expiresAt, at, grantId);
      return true;
    })();
  }

  deleteGrant(id: string): boolean {
    return this.db.prepare('DELETE FROM oauth_grants WHERE id = ?').run(id).changes > 0;
  }

  touch(used: Map<string, string>): void {
    if (used.size) this.touchMany(used);
  }
}
