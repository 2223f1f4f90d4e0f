// Named bridge tokens (the JWT itself is never stored: its id is enough to revoke it).
import type { Db } from './db.js';

export interface BridgeTokenRecord {
  id: string;
  name: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export class TokenStore {
  private readonly insertOne;
  private readonly deleteOne;
  private readonly touchMany;

  constructor(private readonly db: Db) {
    this.insertOne = db.prepare(
      'INSERT INTO bridge_tokens (id, name, created_by, created_at, expires_at, last_used_at) VALUES (@id, @name, @created_by, @created_at, @expires_at, @last_used_at)',
    );
    this.deleteOne = db.prepare('DELETE FROM bridge_tokens WHERE id = ?');
    const touch = db.prepare('UPDATE bridge_tokens SET last_used_at = ? WHERE id = ?');
    this.touchMany = db.transaction((used: Map<string, string>) => {
      for (const [id, at] of used) touch.run(at, id);
    });
  }

  all(): BridgeTokenRecord[] {
    return this.db.prepare('SELECT * FROM bridge_tokens ORDER BY created_at, id').all() as BridgeTokenRecord[];
  }

  insert(record: BridgeTokenRecord): void {
    this.insertOne.run(record);
  }

  delete(id: string): boolean {
    return this.deleteOne.run(id).changes > 0;
  }

  /** Writes the last-use times gathered since the previous call, in one transaction. */
  touch(used: Map<string, string>): void {
    if (used.size) this.touchMany(used);
  }
}
