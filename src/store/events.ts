// The event history: every event the bridge sees, numbered in order of arrival. The number (seq)
// is the SSE event id a client resumes from. Appends are queued and written in one transaction per
// tick; pruning deletes in small steps so delivery never waits on it.
import { isEmptyFilter, type EventFilter, type EventKeys } from '../events/filter.js';
import type { Db } from './db.js';

export interface StoredEvent {
  seq: number;
  /** The entity the event is about (null for none), so a reader can leave out what it may not see. */
  entity_id: string | null;
  /** The event message as JSON, exactly as it was sent. */
  message: string;
}

/** SQL for "matches any of these filters" over the events table, with its parameters. */
export function filtersWhere(filters: readonly EventFilter[]): { sql: string; params: string[] } {
  if (filters.length === 0 || filters.some(isEmptyFilter)) return { sql: '1', params: [] };
  const params: string[] = [];
  const parts = filters.map((f) => {
    const c: string[] = [];
    if (f.event_type) {
      c.push('event_type = ?');
      params.push(f.event_type);
    }
    if (f.entity_id) {
      c.push('entity_id = ?');
      params.push(f.entity_id);
    }
    if (f.domain) {
      c.push('domain = ?');
      params.push(f.domain);
    }
    return `(${c.join(' AND ')})`;
  });
  return { sql: `(${parts.join(' OR ')})`, params };
}

export interface HistoryQuery {
  filters: EventFilter[];
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  /** Continue after (asc) or before (desc) this seq. */
  after?: number;
  order: 'asc' | 'desc';
  limit: number;
}

interface Pending {
  seq: number;
  keys: EventKeys;
  firedAt: number;
  storedAt: number;
  message: string;
}

const PRUNE_STEP = 2000;

export class EventLog {
  private pending: Pending[] = [];
  private next: number;
  private readonly insert;
  private readonly writeAll;

  constructor(private readonly db: Db) {
    const last = db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'events'`).pluck().get() as number | undefined;
    this.next = (last ?? 0) + 1;
    this.insert = db.prepare('INSERT INTO events (seq, event_type, entity_id, domain, fired_at, stored_at, message) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.writeAll = db.transaction((rows: Pending[]) => {
      for (const r of rows) this.insert.run(r.seq, r.keys.event_type, r.keys.entity_id, r.keys.domain, r.firedAt, r.storedAt, r.message);
    });
  }

  /** Numbers an event and queues it for the next flush. */
  append(keys: EventKeys, firedAt: number, message: string, now = Date.now()): number {
    const seq = this.next++;
    this.pending.push({ seq, keys, firedAt, storedAt: now, message });
    return seq;
  }

  /** The last number handed out (0 before any). */
  get lastSeq(): number {
    return this.next - 1;
  }

  get backlog(): number {
    return this.pending.length;
  }

  /** Writes every queued event in one transaction; returns how many. */
  flush(): number {
    if (this.pending.length === 0 || !this.db.open) return 0;
    const rows = this.pending;
    this.pending = [];
    this.writeAll(rows);
    return rows.length;
  }

  /** Events after `seq` that match any of the filters, oldest first (a resuming stream's replay). */
  after(seq: number, filters: EventFilter[], limit: number): StoredEvent[] {
    this.flush();
    const w = filtersWhere(filters);
    return this.db
      .prepare(`SELECT seq, entity_id, message FROM events WHERE seq > ? AND ${w.sql} ORDER BY seq LIMIT ?`)
      .all(seq, ...w.params, limit) as StoredEvent[];
  }

  query(q: HistoryQuery): StoredEvent[] {
    this.flush();
    const w = filtersWhere(q.filters);
    const cond = [w.sql];
    const params: (string | number)[] = [...w.params];
    if (q.since !== undefined) {
      cond.push('fired_at >= ?');
      params.push(q.since);
    }
    if (q.until !== undefined) {
      cond.push('fired_at < ?');
      params.push(q.until);
    }
    if (q.after !== undefined) {
      cond.push(q.order === 'asc' ? 'seq > ?' : 'seq < ?');
      params.push(q.after);
    }
    const sql = `SELECT seq, entity_id, message FROM events WHERE ${cond.join(' AND ')} ORDER BY seq ${q.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    return this.db.prepare(sql).all(...params, q.limit) as StoredEvent[];
  }

  count(): number {
    return this.db.prepare('SELECT count(*) FROM events').pluck().get() as number;
  }

  /**
   * Deletes one step of what is beyond the limits (older than `maxAgeMs`, or more than `maxRows`);
   * true while more remains, so the caller can yield between steps.
   */
  pruneStep(maxAgeMs: number, maxRows: number, now = Date.now()): boolean {
    if (!this.db.open) return false;
    this.flush();
    const old = this.db
      .prepare('DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE stored_at < ? ORDER BY seq LIMIT ?)')
      .run(now - maxAgeMs, PRUNE_STEP).changes;
    if (old === PRUNE_STEP) return true;
    const floor = this.lastSeq - maxRows;
    if (floor <= 0) return false;
    const extra = this.db
      .prepare('DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE seq <= ? ORDER BY seq LIMIT ?)')
      .run(floor, PRUNE_STEP).changes;
    return extra === PRUNE_STEP;
  }
}
