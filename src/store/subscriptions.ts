// Clients' stored event subscriptions. A client is a token's subject; its subscriptions outlive
// its connections and the process. `last_event` is kept in memory by the stream and written here
// in the same batch as the history.
import type { Db } from './db.js';
import type { EventFilter } from '../events/filter.js';

export interface Subscription extends EventFilter {
  id: string;
  client: string;
  created_at: string;
  last_event: string | null;
}

interface Row {
  id: string;
  client: string;
  event_type: string | null;
  entity_id: string | null;
  domain: string | null;
  created_at: string;
  last_event: string | null;
}

const fromRow = (r: Row): Subscription => ({
  id: r.id,
  client: r.client,
  ...(r.event_type ? { event_type: r.event_type } : {}),
  ...(r.entity_id ? { entity_id: r.entity_id } : {}),
  ...(r.domain ? { domain: r.domain } : {}),
  created_at: r.created_at,
  last_event: r.last_event,
});

export class SubscriptionStore {
  private readonly touchOne;
  private readonly touchAll;

  constructor(private readonly db: Db) {
    this.touchOne = db.prepare('UPDATE subscriptions SET last_event = ? WHERE id = ?');
    this.touchAll = db.transaction((seen: Map<string, string>) => {
      for (const [id, at] of seen) this.touchOne.run(at, id);
    });
  }

  all(): Subscription[] {
    return (this.db.prepare('SELECT * FROM subscriptions ORDER BY created_at, id').all() as Row[]).map(fromRow);
  }

  /** Inserts; false when the client has these filters already (the unique index says so). */
  insert(s: Subscription): boolean {
    const r = this.db
      .prepare('INSERT OR IGNORE INTO subscriptions (id, client, event_type, entity_id, domain, created_at, last_event) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(s.id, s.client, s.event_type ?? null, s.entity_id ?? null, s.domain ?? null, s.created_at, s.last_event);
    return r.changes === 1;
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM subscriptions WHERE id = ?').run(id).changes === 1;
  }

  /** Writes the time of the latest matching event of each subscription seen since the last call. */
  touch(seen: Map<string, string>): void {
    if (seen.size && this.db.open) this.touchAll(seen);
  }
}
