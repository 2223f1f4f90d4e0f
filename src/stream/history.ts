// The event log: every bus event becomes one event message, numbered in order of arrival and kept
// in SQLite (written in one transaction per tick), pruned in small steps in the background. A
// resuming stream's replay and every history read come from here, leaving out the events of
// entities callers may not see (Policy.maySee, read at the time of reading).
import type { EventFilter, EventKeys } from '../events/filter.js';
import type { HubEvent } from '../hub/types.js';
import type { Logger } from '../log.js';
import type { HistoryQuery, StoredEvent } from '../store/events.js';
import type { Store } from '../store/index.js';
import { eventMessage, keysOf } from './message.js';

/** Most events one resuming stream is replayed; beyond it the stream is told where the gap is. */
export const REPLAY_MAX = 10_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/** One event as the log numbered it, ready for the fan-out. */
export interface LoggedEvent {
  seq: number;
  keys: EventKeys;
  /** The event message as JSON, made once. */
  json: string;
  time_fired: string;
  /** performance.now() at arrival, for the latency of delivery. */
  arrival: number;
}

export interface Replay {
  events: StoredEvent[];
  /** Set when more than REPLAY_MAX were missed: the last one replayed and the next to read. */
  truncated?: { replayed_through: number; next_seq: number };
}

export interface HistoryLimits {
  historyDays: number;
  historyMaxRows: number;
}

export class EventHistory {
  private flushQueued = false;
  private pruning = false;
  private stopped = false;
  private readonly timers: NodeJS.Timeout[] = [];
  eventsIn = 0;

  constructor(private readonly deps: { store: Store; log: Logger; visible: (entityId: string) => boolean; limits: HistoryLimits }) {}

  start(): void {
    this.timers.push(setInterval(() => this.prune(), PRUNE_EVERY_MS));
    this.timers.push(setTimeout(() => this.prune(), 5000));
    for (const t of this.timers) t.unref();
  }

  /** Numbers an event and queues it for this tick's transaction. */
  record(e: HubEvent): LoggedEvent {
    const arrival = performance.now();
    const message = eventMessage(e);
    const keys = keysOf(message);
    const json = JSON.stringify(message);
    const now = Date.now();
    const seq = this.deps.store.events.append(keys, Date.parse(message.time_fired) || now, json, now);
    this.eventsIn++;
    if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(this.flush);
    }
    return { seq, keys, json, time_fired: message.time_fired, arrival };
  }

  /** Writes what this tick numbered, in one transaction. */
  readonly flush = (): void => {
    this.flushQueued = false;
    try {
      this.deps.store.events.flush();
    } catch (err) {
      this.deps.log.error({ err }, 'writing the event history failed; delivery goes on');
    }
  };

  get lastSeq(): number {
    return this.deps.store.events.lastSeq;
  }

  /** Events numbered and not yet written. */
  get backlog(): number {
    return this.deps.store.events.backlog;
  }

  private readonly seen = (r: StoredEvent) => r.entity_id === null || this.deps.visible(r.entity_id);

  /** A page of past events callers may see; fetched again past hidden ones so a page stays full. */
  read(q: HistoryQuery): StoredEvent[] {
    const out: StoredEvent[] = [];
    let after = q.after;
    for (;;) {
      const rows = this.deps.store.events.query({ ...q, after });
      for (const r of rows) if (this.seen(r) && out.push(r) === q.limit) return out;
      if (rows.length < q.limit) return out;
      after = rows.at(-1)!.seq;
    }
  }

  /** What a stream missed since `after` that matches its filters, oldest first; synchronous, so no live event slips between. */
  replay(after: number, filters: EventFilter[]): Replay {
    const events: StoredEvent[] = [];
    let from = after;
    for (;;) {
      const rows = this.deps.store.events.after(from, filters, REPLAY_MAX + 1);
      for (const r of rows) {
        if (!this.seen(r)) continue;
        if (events.length === REPLAY_MAX) return { events, truncated: { replayed_through: events.at(-1)!.seq, next_seq: r.seq } };
        events.push(r);
      }
      if (rows.length <= REPLAY_MAX) return { events };
      from = rows.at(-1)!.seq;
    }
  }

  /** Prunes the history in small steps, yielding between them so delivery never waits. */
  prune(): void {
    if (this.pruning || this.stopped) return;
    this.pruning = true;
    const { historyDays, historyMaxRows } = this.deps.limits;
    const step = () => {
      try {
        if (!this.stopped && this.deps.store.events.pruneStep(historyDays * 86_400_000, historyMaxRows)) {
          setImmediate(step);
          return;
        }
        if (!this.stopped) this.deps.store.streamStats.prune(Date.now() - 31 * 86_400_000);
      } catch (err) {
        this.deps.log.warn({ err }, 'pruning the event history failed');
      }
      this.pruning = false;
    };
    step();
  }

  /** Stops pruning and writes what is queued. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    try {
      this.deps.store.events.flush();
    } catch (err) {
      this.deps.log.error({ err }, 'writing the event history at shutdown failed');
    }
  }
}
