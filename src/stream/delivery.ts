// Delivery and backpressure: every event the log numbered, that callers may see, goes from here
// to every SSE channel and WebSocket topic it matches. A channel's frame is made once and a topic's
// message is sent to its sockets by the transport itself (uWS publish); a channel is written once
// per member per round, in slices that let I/O in between, so a large fan-out never holds up the
// next event. Per-client budgets take a client off its channels and topics for the rest of its
// window; a client that stops reading is closed once what is held for it passes the limit.
import { SseChannel } from './channel.js';
import { ClientBudgets, type Verdict } from './client-budget.js';
import { clock, SseConnection, WsConnection, type StreamConnection, type WsSub } from './connection.js';
import { recordArrivals } from './histogram.js';
import type { LoggedEvent } from './history.js';
import type { DeliveryCounters } from './metrics.js';
import type { ConnectionRegistry } from './registry.js';
import type { TopicPublisher } from './sink.js';
import type { SubscriptionIndex } from './subscription-index.js';
import type { Topic } from './topic.js';

export interface DeliveryLimits {
  rateLimit: number;
  rateWindowMs: number;
  bufferLimit: number;
}

/** Where an event goes: an SSE channel, or a WebSocket topic. */
export type Target = SseChannel<SseConnection> | Topic;

export const HEARTBEAT_MS = 15_000;
/** Writes per slice of a pass: between slices the loop takes in I/O (the next events among it). */
const SLICE = 200;
/** Rounds of writes begin at most this often: events closer together share one write per client. */
const ROUND_GAP_MS = 10;
/** The most bytes of an SSE backlog handed to the transport in one write. */
const WRITE_PIECE = 64 * 1024;
/** While events flow, how often the WebSocket buffers are held against the limit. */
const SWEEP_MS = 250;

export const sseFrame = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * An event's SSE frame (`id: <seq>`, `data: <message>`) encoded into one reused buffer: the view it
 * returns holds until the next event, and each channel copies it into its own log.
 */
class FrameEncoder {
  private buf = Buffer.allocUnsafe(16 * 1024);

  encode(seq: number, json: string): Buffer {
    // UTF-8 takes at most three bytes per UTF-16 unit; the head is ASCII.
    const most = 32 + 3 * json.length;
    if (most > this.buf.length) this.buf = Buffer.allocUnsafe(most * 2);
    const b = this.buf;
    let n = b.write(`id: ${seq}\ndata: `, 0, 'latin1');
    n += b.write(json, n, 'utf8');
    b[n++] = 10;
    b[n++] = 10;
    return b.subarray(0, n);
  }
}

export class Delivery {
  private readonly publisher?: TopicPublisher;
  private readonly budgets: ClientBudgets;
  private readonly limited: boolean;
  /** Clients whose budget is spent, with the end of their window (epoch ms). */
  private readonly suspended = new Map<string, number>();
  // Reused per event, so an event allocates nothing for them.
  private readonly matched: Target[] = [];
  private readonly verdicts = new Map<string, Verdict>();
  private readonly frames = new FrameEncoder();
  // Write passes over SSE channels.
  private readonly queue: SseChannel<SseConnection>[] = [];
  private pass?: { ch: SseChannel<SseConnection>; i: number };
  private pumping = false;
  private roundAt = -Infinity;
  private dirtyTopics: Topic[] = [];
  private sweepTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly deps: {
      index: SubscriptionIndex<Target>;
      connections: ConnectionRegistry;
      counters: DeliveryCounters;
      visible: (entityId: string) => boolean;
      limits: DeliveryLimits;
      /** The transport's publish, for WebSocket topics. */
      publisher?: TopicPublisher;
    },
  ) {
    this.publisher = deps.publisher;
    this.budgets = new ClientBudgets(deps.limits.rateLimit, deps.limits.rateWindowMs);
    this.limited = deps.limits.rateLimit > 0;
  }

  start(): void {
    this.heartbeatTimer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.sweepTimer);
  }

  /** Whether a client's budget is spent (its new connections start taken off). */
  isSuspended(client: string): boolean {
    return this.suspended.has(client);
  }

  // ---- the entrance ---------------------------------------------------------------------------

  /** One numbered event: to every channel and topic it matches, unless callers may not see its entity. */
  deliver(ev: LoggedEvent): void {
    if (this.stopped) return;
    const { keys, seq } = ev;
    if (keys.entity_id !== null && !this.deps.visible(keys.entity_id)) return;
    const now = Date.now();
    if (this.suspended.size) this.resumeDue(now);
    const matched = this.matched;
    this.deps.index.forEachMatch(keys, (entry) => {
      const t = entry.target;
      if (t.lastSeq === seq) return;
      t.lastSeq = seq;
      matched.push(t);
    });
    if (!matched.length) return;
    if (this.limited) this.judge(now);
    let frame: Buffer | undefined;
    const limit = this.deps.limits.bufferLimit;
    for (const t of matched) {
      if (t instanceof SseChannel) {
        t.append((frame ??= this.frames.encode(seq, ev.json)), ev.arrival);
        // A stream that is behind is held against the limit as its share grows, not a pass later
        // (none can be over it while the whole log is within it).
        if (t.waiting.size && t.bytesHeld() > limit) for (const m of t.waiting) if (t.bytesFrom(m.cursor) > limit) m.close('buffer_limit');
        this.enqueue(t);
      } else this.publish(t, ev);
    }
    matched.length = 0;
    this.verdicts.clear();
  }

  /** Every client the event would reach takes one from its budget; a spent one is taken off for the rest of its window. */
  private judge(now: number): void {
    const verdicts = this.verdicts;
    for (const t of this.matched) {
      for (const client of t.clients.keys()) {
        if (verdicts.has(client)) continue;
        const v = this.budgets.take(client, now);
        verdicts.set(client, v);
        if (v !== 'deliver') this.suspend(client, v === 'drop_and_announce', now);
      }
    }
  }

  /** The event's message for the topic, made now and published with the next round (several in one write per socket). */
  private publish(t: Topic, ev: LoggedEvent): void {
    t.published++;
    if (t.size === 0 || !this.publisher) return;
    t.pending.push(t.message(ev.seq, ev.json));
    t.arrivals.push(ev.arrival);
    if (!t.queued) {
      t.queued = true;
      this.dirtyTopics.push(t);
      this.schedule();
    }
  }

  /** Hands a topic's messages to the transport, which sends each socket everything of this round in one write. */
  flushTopic(t: Topic, at: number, now: number): void {
    t.queued = false;
    if (!t.pending.length) return;
    const pending = t.pending;
    const arrivals = t.arrivals;
    t.pending = [];
    t.arrivals = [];
    if (t.size === 0 || !this.publisher) return;
    for (const m of pending) this.publisher.publish(t.name, m);
    t.lastAt = at;
    this.deps.counters.count(t.size * pending.length);
    const latency = this.deps.counters.latency;
    recordArrivals(latency, now, arrivals, 0, arrivals.length, t.size);
    this.sweepSoon();
  }

  // ---- write rounds -------------------------------------------------------------------------------

  /** A channel has events some member has not had: it joins the next round. */
  enqueue(ch: SseChannel<SseConnection>): void {
    if (ch.queued) return;
    ch.queued = true;
    this.queue.push(ch);
    this.schedule();
  }

  /**
   * Starts a round: at once when the last one began more than ROUND_GAP_MS ago, else at that
   * mark, so events close together go out in one write per client instead of one each.
   */
  private schedule(): void {
    if (this.pumping) return;
    this.pumping = true;
    const wait = this.roundAt + ROUND_GAP_MS - performance.now();
    if (wait >= 1) setTimeout(this.round, wait);
    else setImmediate(this.round);
  }

  private readonly round = (): void => {
    this.roundAt = performance.now();
    this.pump();
  };

  /**
   * Publishes the topics' messages, then writes up to SLICE SSE members and yields to I/O; members
   * written later take what arrived meanwhile in the same write.
   */
  private readonly pump = (): void => {
    let budget = SLICE;
    const now = performance.now();
    const at = clock();
    if (this.dirtyTopics.length) {
      const topics = this.dirtyTopics;
      this.dirtyTopics = [];
      for (const t of topics) this.flushTopic(t, at, now);
    }
    while (budget > 0) {
      let p = this.pass;
      if (!p) {
        const ch = this.queue.shift();
        if (!ch) break;
        ch.queued = false;
        ch.churn = false;
        if (ch.dead) continue;
        p = this.pass = { ch, i: 0 };
      }
      const { ch } = p;
      const members = ch.members;
      const head = ch.head;
      while (p.i < members.length && budget > 0) {
        const m = members[p.i++]!;
        if (m.cursor >= head) continue;
        budget--;
        this.write(ch, m, at);
      }
      if (p.i >= members.length) {
        ch.settle(this.deps.counters.latency, now);
        ch.trim();
        this.pass = undefined;
        if (ch.churn && !ch.dead) this.enqueue(ch);
      }
    }
    this.pass?.ch.settle(this.deps.counters.latency, now);
    if (this.pass || this.queue.length) setImmediate(this.pump);
    else this.pumping = false;
  };

  private write(ch: SseChannel<SseConnection>, m: SseConnection, at: number): void {
    if (m.waiting) {
      if (ch.bytesFrom(m.cursor) > this.deps.limits.bufferLimit) m.close('buffer_limit');
      return;
    }
    const from = m.cursor;
    const head = ch.head;
    // In pieces the socket can take: what uWS cannot send at once it copies and holds, and a held
    // megabyte is moved down again after each part sent (bench/events: a fifth of the CPU).
    let ok = true;
    while (ok && m.cursor < head) {
      const piece = ch.sliceUpTo(m.cursor, WRITE_PIECE);
      m.cursor = piece.to;
      ok = m.sink.write(piece.bytes);
    }
    const n = m.cursor - from;
    ch.noteWrite(from, m.cursor);
    m.eventsSent += n;
    m.lastEventAt = at;
    this.deps.counters.count(n);
    if (ok) return;
    this.behind(m);
    // What it could not take stays in the channel's log for it, held against the limit at once.
    if (ch.bytesFrom(m.cursor) > this.deps.limits.bufferLimit) m.close('buffer_limit');
  }

  private behind(m: SseConnection): void {
    m.waiting = true;
    if (!m.suspended) m.channel.waiting.add(m);
  }

  /**
   * The transport can take more for this connection: an SSE stream takes what it missed now, in
   * the transport's drain (uWS sends what it still holds only with a write made there).
   */
  drained(c: StreamConnection): void {
    if (!(c instanceof SseConnection)) return;
    c.waiting = false;
    const ch = c.channel;
    ch.waiting.delete(c);
    if (c.suspended || c.cursor >= ch.head) return;
    this.write(ch, c, clock());
    ch.settle(this.deps.counters.latency, performance.now());
    // Its log is kept for this member until a pass trims it.
    this.enqueue(ch);
  }

  /** Holds each WebSocket's buffer against the limit, a moment after events went out. */
  private sweepSoon(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = undefined;
      for (const c of this.deps.connections.values()) if (c instanceof WsConnection) this.checkBuffer(c);
    }, SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** A WebSocket holding more than the limit is closed (the transport drops what would pass it, and tells: `dropped`). */
  checkBuffer(c: WsConnection): void {
    if (!c.ended && c.sink.buffered() > this.deps.limits.bufferLimit) c.close('buffer_limit');
  }

  // ---- budgets -----------------------------------------------------------------------------------

  private suspend(client: string, announce: boolean, now: number): void {
    this.suspended.set(client, this.budgets.windowEnd(client, now));
    const notice = announce
      ? { type: 'rate_limited', message: 'event rate limit reached: further events in this window are dropped', ...this.budgets.notice(client) }
      : undefined;
    // A client's connections are found by a walk: budgets run out rarely, and no per-client set is kept.
    for (const c of this.deps.connections.values()) {
      if (c.client !== client || c.suspended) continue;
      if (c instanceof SseConnection) this.takeOffStream(c, notice && sseFrame('notice', notice));
      else if (c instanceof WsConnection) this.takeOffSocket(c, notice && JSON.stringify({ type: 'notice', data: notice }));
    }
  }

  /** Off its channel: it first gets what it has not had yet (nothing from before the budget ran out is lost), then the notice. */
  private takeOffStream(c: SseConnection, notice: string | undefined): void {
    c.suspended = true;
    const ch = c.channel;
    if (c.cursor < ch.head) {
      c.eventsSent += ch.head - c.cursor;
      c.lastEventAt = clock();
      this.deps.counters.count(ch.head - c.cursor);
      if (!c.sink.write(ch.slice(c.cursor))) c.waiting = true;
    }
    if (notice) c.sink.write(notice);
    ch.remove(c);
    c.suspendedAt = ch.head;
  }

  /** Off its topics: their messages of this round go to it straight (before the notice), then it leaves them. */
  private takeOffSocket(c: WsConnection, notice: string | undefined): void {
    c.suspended = true;
    for (const sub of c.subs ?? []) this.handOver(c, sub);
    if (notice) c.send(notice);
    for (const sub of c.subs ?? []) {
      this.settleSent(c, sub);
      sub.topic.leave(c.client!);
      c.sink.unsubscribe?.(sub.topic.name);
    }
  }

  /**
   * A socket about to leave a topic gets the topic's messages of this round itself (the round's
   * publish will no longer reach it); counted as sent when the subscription is settled.
   */
  handOver(c: WsConnection, sub: WsSub): void {
    const t = sub.topic;
    for (const m of t.pending) c.send(m);
    if (t.pending.length) {
      this.deps.counters.count(t.pending.length);
      t.lastAt = clock();
    }
  }

  private putBack(c: StreamConnection): void {
    c.suspended = false;
    if (c instanceof SseConnection) {
      c.eventsDropped += c.channel.head - c.suspendedAt;
      c.channel.add(c);
      if (c.waiting) c.channel.waiting.add(c);
    } else if (c instanceof WsConnection && c.subs) {
      for (const sub of c.subs) {
        if (sub.topic.pending.length) this.flushTopic(sub.topic, clock(), performance.now());
        c.eventsDropped += sub.topic.published - sub.mark;
        sub.mark = sub.topic.published;
        sub.topic.join(c.client!);
        c.sink.subscribe?.(sub.topic.name);
      }
    }
  }

  private resumeDue(now: number): void {
    for (const [client, until] of this.suspended) {
      if (until > now) continue;
      this.suspended.delete(client);
      for (const c of this.deps.connections.values()) if (c.client === client && c.suspended) this.putBack(c);
    }
  }

  /** A WebSocket's messages of one subscription since its mark count as sent. */
  settleSent(c: WsConnection, sub: WsSub): void {
    const t = sub.topic;
    const n = t.published - sub.mark;
    if (n > 0) {
      c.eventsSent += n;
      if (t.lastAt > c.lastEventAt) c.lastEventAt = t.lastAt;
    }
    sub.mark = t.published;
  }

  private heartbeat(): void {
    for (const c of this.deps.connections.values()) if (c instanceof SseConnection && !c.waiting) c.sink.write(': keep-alive\n\n');
    this.budgets.sweep(Date.now());
  }
}
