// What the streams leave behind: one row per closed connection, and one sample per interval of
// connections, events, CPU, memory and the latency histogram, so a period's metrics survive a restart.
import type { Db } from './db.js';

export interface PastConnection {
  id: string;
  transport: 'sse' | 'websocket';
  client_id: string;
  ip_address: string | null;
  user_agent: string | null;
  connected_at: string;
  disconnected_at: string;
  events_sent: number;
  events_dropped: number;
  close_reason: string;
}

export interface Sample {
  /** Epoch ms at the end of the interval. */
  at: number;
  connections: number;
  events: number;
  /** Length of the interval. */
  seconds: number;
  /** Share of one core used by the process over the interval, in percent. */
  cpu: number;
  memory: number;
  /** Latency histogram buckets (see src/stream/histogram.ts). */
  latency: number[];
}

export class StreamStatsStore {
  private sinceTrim = 0;

  /** `maxConnections`: most ended connections kept (STREAM_HISTORY_MAX_ROWS), so clients that come and go cannot grow the file without bound. */
  constructor(
    private readonly db: Db,
    readonly maxConnections = 10_000,
  ) {}

  /** Records connections that ended, in one transaction; past maxConnections (by a tenth) the oldest go. */
  recordConnections(list: readonly PastConnection[]): void {
    if (!this.db.open || list.length === 0) return;
    this.sinceTrim += list.length;
    const trim = this.sinceTrim >= Math.max(1, Math.ceil(this.maxConnections / 10));
    if (trim) this.sinceTrim = 0;
    const insert = this.db.prepare(
      'INSERT OR REPLACE INTO stream_connections (id, transport, client_id, ip_address, user_agent, connected_at, disconnected_at, events_sent, events_dropped, close_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const c of list)
        insert.run(
          c.id,
          c.transport,
          c.client_id,
          c.ip_address,
          c.user_agent,
          c.connected_at,
          c.disconnected_at,
          c.events_sent,
          c.events_dropped,
          c.close_reason,
        );
      if (trim) this.trimConnections();
    })();
  }

  private trimConnections(): void {
    this.db
      .prepare('DELETE FROM stream_connections WHERE rowid IN (SELECT rowid FROM stream_connections ORDER BY disconnected_at DESC, id DESC LIMIT -1 OFFSET ?)')
      .run(this.maxConnections);
  }

  /** Newest first; `before` is the (disconnected_at, id) of the last row of the previous page. */
  pastConnections(limit: number, before?: { at: string; id: string }): PastConnection[] {
    const rows = before
      ? this.db
          .prepare('SELECT * FROM stream_connections WHERE (disconnected_at, id) < (?, ?) ORDER BY disconnected_at DESC, id DESC LIMIT ?')
          .all(before.at, before.id, limit)
      : this.db.prepare('SELECT * FROM stream_connections ORDER BY disconnected_at DESC, id DESC LIMIT ?').all(limit);
    return rows as PastConnection[];
  }

  addSample(s: Sample): void {
    if (!this.db.open) return;
    this.db
      .prepare('INSERT OR REPLACE INTO stream_samples (at, connections, events, seconds, cpu, memory, latency) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(s.at, s.connections, s.events, s.seconds, s.cpu, s.memory, JSON.stringify(s.latency));
  }

  samplesSince(since: number): Sample[] {
    const rows = this.db.prepare('SELECT * FROM stream_samples WHERE at >= ? ORDER BY at').all(since) as (Omit<Sample, 'latency'> & { latency: string })[];
    return rows.map((r) => ({ ...r, latency: JSON.parse(r.latency) as number[] }));
  }

  /** Drops rows older than `before` (epoch ms for samples; ISO time for connections). */
  prune(beforeMs: number): void {
    if (!this.db.open) return;
    this.db.prepare('DELETE FROM stream_samples WHERE at < ?').run(beforeMs);
    this.db.prepare('DELETE FROM stream_connections WHERE disconnected_at < ?').run(new Date(beforeMs).toISOString());
    this.trimConnections();
  }
}
