// An SSE delivery channel. Every stream that wants the same events (one filter, or one client's
// stored subscriptions) shares one: each event's frame is made once and kept in the channel's log
// until every member has taken it, and a member writes from its own position, so one write carries
// everything it has not had yet, and many members at the same position share the same bytes.
import type { EventFilter } from '../events/filter.js';
import { recordMany } from './histogram.js';
import type { IndexEntry } from './subscription-index.js';

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
  private frames: Buffer[] = [];
  private arrivals: number[] = [];
  /** Bytes up to the end of each frame, counted from the channel's start. */
  private ends: number[] = [];
  /** Position of frames[0], and the bytes before it. */
  private base = 0;
  private bytesBase = 0;
  private cache?: { from: number; head: number; bytes: Buffer };
  /** Writes of this slice, by the position they started from (for the latency histogram). */
  private readonly writes = new Map<number, number>();

  constructor(
    readonly key: string,
    /** The client whose stored subscriptions it follows, or null for a stream's own filter. */
    readonly follows: string | null,
    readonly filter?: EventFilter,
  ) {}

  /** The position after the last frame. */
  get head(): number {
    return this.base + this.frames.length;
  }

  append(frame: Buffer, arrival: number): void {
    this.frames.push(frame);
    this.arrivals.push(arrival);
    this.ends.push((this.ends.length ? this.ends[this.ends.length - 1]! : this.bytesBase) + frame.length);
  }

  /** Bytes from `pos` to the head. */
  bytesFrom(pos: number): number {
    const i = pos - this.base;
    if (i >= this.frames.length) return 0;
    return this.ends[this.ends.length - 1]! - (i <= 0 ? this.bytesBase : this.ends[i - 1]!);
  }

  /** Everything from `pos` to the head as one buffer: the frame itself when it is one, made once per position and head. */
  slice(pos: number): Buffer {
    const i = Math.max(0, pos - this.base);
    if (i === this.frames.length - 1) return this.frames[i]!;
    const c = this.cache;
    if (c && c.from === pos && c.head === this.head) return c.bytes;
    const bytes = Buffer.concat(i === 0 ? this.frames : this.frames.slice(i));
    this.cache = { from: pos, head: this.head, bytes };
    return bytes;
  }

  /** A member wrote from `from` to the head. */
  noteWrite(from: number): void {
    this.writes.set(from, (this.writes.get(from) ?? 0) + 1);
  }

  /** Records the latency of this slice's writes, each frame once per member that took it. */
  settle(latency: number[], now: number): void {
    if (!this.writes.size) return;
    for (const [from, n] of this.writes)
      for (let i = Math.max(0, from - this.base); i < this.frames.length; i++) recordMany(latency, now - this.arrivals[i]!, n);
    this.writes.clear();
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
    this.bytesBase = this.ends[k - 1]!;
    if (k === this.frames.length) {
      this.frames = [];
      this.arrivals = [];
      this.ends = [];
    } else {
      this.frames = this.frames.slice(k);
      this.arrivals = this.arrivals.slice(k);
      this.ends = this.ends.slice(k);
    }
    this.base = min;
    this.cache = undefined;
  }
}
