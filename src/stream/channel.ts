// An SSE delivery channel. Every stream that wants the same events (one filter, or one client's
// stored subscriptions) shares one: each event's frame is copied once into the channel's byte log
// and kept until every member has taken it, and a member writes from its own position, so one write
// carries everything it has not had yet as a view of that log: no copy per member, none per write.
import type { EventFilter } from '../events/filter.js';
import { recordArrivals } from './histogram.js';
import type { IndexEntry } from './subscription-index.js';

const EMPTY = Buffer.alloc(0);
/** The smallest log a channel allocates, and the largest it keeps once every member has read it all (bytes). */
const LOG_MIN = 16 * 1024;
const LOG_KEEP = 1024 * 1024;

/** What the channel needs of a member: where it reads from, its slot, its client. */
export interface ChannelMember {
  cursor: number;
  slot: number;
  client: string | null;
}

export class SseChannel<M extends ChannelMember = ChannelMember> {
  /** Members taking events now (not suspended by their budget); each knows its slot. */
  readonly members: M[] = [];
  /** Members per client, for the budgets. */
  readonly clients = new Map<string, number>();
  /** Every stream on this channel, suspended ones included. */
  holders = 0;
  /** Members the transport holds bytes for: their share of the log is held against the limit as it grows. */
  readonly waiting = new Set<M>();
  /** Its entries in the fan-out's index. */
  entries: IndexEntry<SseChannel<M>>[] = [];
  /** The last event put in (an event matched by several entries goes in once). */
  lastSeq = -1;
  /** Waiting for a write pass; `churn`: a member left during one (another pass catches up). */
  queued = false;
  churn = false;
  dead = false;
  /**
   * The frames from `base` to the head, back to back in `log[start, end)`. A view handed to a
   * writer is never written over: bytes are only added past `end`, and a full log is replaced by a
   * new one holding what is still unread.
   */
  private log = EMPTY;
  private start = 0;
  private end = 0;
  /** Frames held (from `base`), with their arrival. */
  private count = 0;
  private arrivals: number[] = [];
  /** Bytes up to the end of each frame, counted from the channel's start. */
  private ends: number[] = [];
  /** Position of the first frame held, and the bytes before it. */
  private base = 0;
  private bytesBase = 0;
  /** Writes of this pass, three numbers each: from, to, and how many members wrote just that (for the latency histogram). */
  private readonly writes: number[] = [];

  constructor(
    readonly key: string,
    /** The client whose stored subscriptions it follows, or null for a stream's own filter. */
    readonly follows: string | null,
    readonly filter?: EventFilter,
  ) {}

  /** The position after the last frame. */
  get head(): number {
    return this.base + this.count;
  }

  append(frame: Uint8Array, arrival: number): void {
    if (this.end + frame.length > this.log.length) this.regrow(frame.length);
    this.log.set(frame, this.end);
    this.end += frame.length;
    this.count++;
    this.arrivals.push(arrival);
    this.ends.push((this.ends.length ? this.ends[this.ends.length - 1]! : this.bytesBase) + frame.length);
  }

  /** A new log with room for what is unread and `more`, twice over (so copies stay one per byte on average). */
  private regrow(more: number): void {
    const held = this.end - this.start;
    const log = Buffer.allocUnsafe(Math.max(LOG_MIN, 2 * (held + more)));
    this.log.copy(log, 0, this.start, this.end);
    this.log = log;
    this.start = 0;
    this.end = held;
  }

  /** Bytes from `pos` to the head. */
  bytesFrom(pos: number): number {
    const i = pos - this.base;
    if (i >= this.count) return 0;
    return this.ends[this.ends.length - 1]! - (i <= 0 ? this.bytesBase : this.ends[i - 1]!);
  }

  /** Bytes held (what the member furthest behind has still to take, at most). */
  bytesHeld(): number {
    return this.end - this.start;
  }

  /** Everything from `pos` to the head as one buffer: a view of the log, valid for as long as it is held. */
  slice(pos: number): Buffer {
    return this.log.subarray(this.end - this.bytesFrom(pos), this.end);
  }

  /**
   * The frames from `pos` that fill at most `max` bytes (one frame at least), as a view of the log
   * and the position after them.
   */
  sliceUpTo(pos: number, max: number): { bytes: Buffer; to: number } {
    const i = Math.max(0, pos - this.base);
    const before = i === 0 ? this.bytesBase : this.ends[i - 1]!;
    // The last frame whose end is within `max` of the start, by halving (ends only grow).
    let lo = i;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.ends[mid]! - before <= max) lo = mid;
      else hi = mid - 1;
    }
    const startAt = this.end - (this.ends[this.count - 1]! - before);
    return { bytes: this.log.subarray(startAt, startAt + (this.ends[lo]! - before)), to: this.base + lo + 1 };
  }

  /** A member wrote the frames from `from` to `to`. */
  noteWrite(from: number, to: number): void {
    const w = this.writes;
    for (let k = 0; k < w.length; k += 3) {
      if (w[k] === from && w[k + 1] === to) {
        w[k + 2]!++;
        return;
      }
    }
    w.push(from, to, 1);
  }

  /** Records the latency of this slice's writes, each frame once per member that took it. */
  settle(latency: number[], now: number): void {
    const w = this.writes;
    if (!w.length) return;
    for (let k = 0; k < w.length; k += 3) {
      recordArrivals(latency, now, this.arrivals, Math.max(0, w[k]! - this.base), Math.min(this.count, w[k + 1]! - this.base), w[k + 2]!);
    }
    w.length = 0;
  }

  add(m: M): void {
    m.cursor = this.head;
    m.slot = this.members.length;
    this.members.push(m);
    this.clients.set(m.client!, (this.clients.get(m.client!) ?? 0) + 1);
  }

  remove(m: M): void {
    const slot = m.slot;
    if (slot < 0 || this.members[slot] !== m) return;
    const last = this.members.pop()!;
    if (last !== m) {
      this.members[slot] = last;
      last.slot = slot;
    }
    m.slot = -1;
    this.waiting.delete(m);
    this.churn = true;
    const n = (this.clients.get(m.client!) ?? 1) - 1;
    if (n > 0) this.clients.set(m.client!, n);
    else this.clients.delete(m.client!);
  }

  /** Drops the frames every member has taken. */
  trim(): void {
    let min = this.head;
    for (const m of this.members) if (m.cursor < min) min = m.cursor;
    const k = min - this.base;
    if (k <= 0) return;
    const bytesBase = this.ends[k - 1]!;
    this.start += bytesBase - this.bytesBase;
    this.bytesBase = bytesBase;
    if (k === this.count) {
      this.arrivals = [];
      this.ends = [];
      // A log grown for a backlog is not kept once the backlog is gone.
      if (this.log.length > LOG_KEEP) this.log = EMPTY;
      if (this.log === EMPTY) this.start = this.end = 0;
    } else {
      this.arrivals = this.arrivals.slice(k);
      this.ends = this.ends.slice(k);
    }
    this.count -= k;
    this.base = min;
  }
}
