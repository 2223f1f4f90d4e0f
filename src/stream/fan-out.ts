// The fan-out: every event the log numbered, that callers may see, goes from here to every open
// SSE stream and WebSocket subscription it matches. Streams that want the same events share one
// channel (SSE) or topic (WebSocket): an event is encoded once per channel or topic, a topic's
// message is sent to its sockets by the transport itself (uWS publish), and a channel is written
// once per member per pass, in slices that let I/O in between, so a large fan-out never holds up
// the next event. Per-client budgets take a client off its channels and topics for the rest of
// its window; a client that stops reading is closed once what is held for it passes the limit.
import type { Closer, CredentialEnd, Credentials } from '../auth/credentials.js';
import type { Principal } from '../auth/tokens.js';
import { AppError, conflict, notFound } from '../errors.js';
import { filterKey, isEmptyFilter, normalFilter, type EventFilter } from '../events/filter.js';
import type { Logger } from '../log.js';
import type { PastConnection, StreamStatsStore } from '../store/stream-stats.js';
import { SseChannel } from './channel.js';
import { ClientBudgets, type Verdict } from './client-budget.js';
import { clock, connectionNumber, isoOf, SseConnection, WsConnection, type ConnectionInfo, type ConnectionOwner, type ConnectionSubscription, type StreamConnection, type WsSub } from './connection.js';
import { newHistogram, recordMany } from './histogram.js';
import type { EventHistory, LoggedEvent } from './history.js';
import type { Sink, TopicPublisher } from './sink.js';
import type { StoredSubscriptions } from './stored-subscriptions.js';
import { subscriptionView, type SubscriptionCap, type SubscriptionView } from './subscription-cap.js';
import { SubscriptionIndex } from './subscription-index.js';
import { Topic, topicName } from './topic.js';

export interface FanOutLimits {
  rateLimit: number;
  rateWindowMs: number;
  maxSseConnections: number;
  bufferLimit: number;
}

/** Where an event goes: an SSE channel, or a WebSocket topic. */
type Target = SseChannel<SseConnection> | Topic;

export const HEARTBEAT_MS = 15_000;
const RETRY_MS = 3000;
/** Writes per slice of a pass: between slices the loop takes in I/O (the next events among it). */
const SLICE = 200;
/** Rounds of writes begin at most this often: events closer together share one write per client. */
const ROUND_GAP_MS = 10;
/** While events flow, how often the WebSocket buffers are held against the limit. */
const SWEEP_MS = 250;

export const sseFrame = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

export interface SseOptions {
  client: string;
  principal?: Principal;
  ip: string;
  userAgent: string;
  filter?: EventFilter;
  lastEventId?: number;
}

export interface SocketOptions {
  principal?: Principal;
  ip: string;
  userAgent: string;
}

export class FanOut implements ConnectionOwner {
  private readonly connections = new Map<number, StreamConnection>();
  /** Open connections per credential: one registration with the credential registry stands for all of them. */
  private readonly held = new Map<Principal, { count: number; close: Closer }>();
  private readonly index = new SubscriptionIndex<Target>();
  private readonly channels = new Map<string, SseChannel<SseConnection>>();
  private readonly topics = new Map<string, Topic>();
  private publisher?: TopicPublisher;
  private sseCount = 0;
  private readonly budgets: ClientBudgets;
  private readonly limited: boolean;
  /** Clients whose budget is spent, with the end of their window (epoch ms). */
  private readonly suspended = new Map<string, number>();
  // Reused per event, so an event allocates nothing for them.
  private readonly matched: Target[] = [];
  private readonly verdicts = new Map<string, Verdict>();
  // Write passes over SSE channels.
  private readonly queue: SseChannel<SseConnection>[] = [];
  private pass?: { ch: SseChannel<SseConnection>; i: number };
  private pumping = false;
  private roundAt = -Infinity;
  private dirtyTopics: Topic[] = [];
  private sweepTimer?: NodeJS.Timeout;
  private closedPending: PastConnection[] = [];
  private recordQueued = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;

  /** Latency of this sampling interval (event arrival → write to the socket). */
  latency = newHistogram();
  /** Events written to connections: in all, and since the last sample. */
  delivered = 0;
  deliveredSinceSample = 0;
  private readonly secondBuckets = new Float64Array(10);
  private bucketSecond = 0;

  constructor(
    private readonly deps: {
      history: EventHistory;
      subscriptions: StoredSubscriptions;
      cap: SubscriptionCap;
      stats: StreamStatsStore;
      credentials?: Credentials;
      visible: (entityId: string) => boolean;
      log: Logger;
      limits: FanOutLimits;
    },
  ) {
    this.budgets = new ClientBudgets(deps.limits.rateLimit, deps.limits.rateWindowMs);
    this.limited = deps.limits.rateLimit > 0;
    deps.subscriptions.onChange((client) => {
      const ch = this.channels.get(followKey(client));
      if (ch) this.aim(ch);
    });
  }

  start(): void {
    this.timers.push(setInterval(() => this.heartbeat(), HEARTBEAT_MS));
    for (const t of this.timers) t.unref();
  }

  /** The transport's publish, for WebSocket topics (set once the server listens). */
  usePublisher(p: TopicPublisher): void {
    this.publisher = p;
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
    this.index.forEachMatch(keys, (entry) => {
      const t = entry.target;
      if (t.lastSeq === seq) return;
      t.lastSeq = seq;
      matched.push(t);
    });
    if (!matched.length) return;
    if (this.limited) this.judge(now);
    let frame: Buffer | undefined;
    for (const t of matched) {
      if (t instanceof SseChannel) {
        t.append((frame ??= Buffer.from(`id: ${seq}\ndata: ${ev.json}\n\n`)), ev.arrival);
        // A stream that is behind is held against the limit as its share grows, not a pass later.
        for (const m of t.waiting) if (t.bytesFrom(m.cursor) > this.deps.limits.bufferLimit) m.close('buffer_limit');
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
  private flushTopic(t: Topic, at: number, now: number): void {
    t.queued = false;
    if (!t.pending.length) return;
    const pending = t.pending;
    const arrivals = t.arrivals;
    t.pending = [];
    t.arrivals = [];
    if (t.size === 0 || !this.publisher) return;
    for (const m of pending) this.publisher.publish(t.name, m);
    t.lastAt = at;
    this.countDelivered(t.size * pending.length);
    for (const a of arrivals) recordMany(this.latency, now - a, t.size);
    this.sweepSoon();
  }

  // ---- write rounds -------------------------------------------------------------------------------

  private enqueue(ch: SseChannel<SseConnection>): void {
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
        ch.settle(this.latency, now);
        ch.trim();
        this.pass = undefined;
        if (ch.churn && !ch.dead) this.enqueue(ch);
      }
    }
    this.pass?.ch.settle(this.latency, now);
    if (this.pass || this.queue.length) setImmediate(this.pump);
    else this.pumping = false;
  };

  private write(ch: SseChannel<SseConnection>, m: SseConnection, at: number): void {
    if (m.waiting) {
      if (ch.bytesFrom(m.cursor) > this.deps.limits.bufferLimit) m.close('buffer_limit');
      return;
    }
    const n = ch.head - m.cursor;
    const bytes = ch.slice(m.cursor);
    ch.noteWrite(m.cursor);
    m.cursor = ch.head;
    m.eventsSent += n;
    m.lastEventAt = at;
    this.countDelivered(n);
    if (!m.sink.write(bytes)) this.behind(m);
  }

  private behind(m: SseConnection): void {
    m.waiting = true;
    if (!m.suspended) m.channel.waiting.add(m);
  }

  drained(c: StreamConnection): void {
    if (!(c instanceof SseConnection)) return;
    c.waiting = false;
    c.channel.waiting.delete(c);
    if (!c.suspended && c.cursor < c.channel.head) this.enqueue(c.channel);
  }

  /** Holds each WebSocket's buffer against the limit, a moment after events went out. */
  private sweepSoon(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = undefined;
      for (const c of this.connections.values()) if (c instanceof WsConnection) this.checkBuffer(c);
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
    const notice = announce ? { type: 'rate_limited', message: 'event rate limit reached: further events in this window are dropped', ...this.budgets.notice(client) } : undefined;
    // A client's connections are found by a walk: budgets run out rarely, and no per-client set is kept.
    for (const c of this.connections.values()) {
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
      this.countDelivered(ch.head - c.cursor);
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
  private handOver(c: WsConnection, sub: WsSub): void {
    const t = sub.topic;
    for (const m of t.pending) c.send(m);
    if (t.pending.length) {
      this.countDelivered(t.pending.length);
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
      for (const c of this.connections.values()) if (c.client === client && c.suspended) this.putBack(c);
    }
  }

  /** A WebSocket's messages of one subscription since its mark count as sent. */
  private settleSent(c: WsConnection, sub: WsSub): void {
    const t = sub.topic;
    const n = t.published - sub.mark;
    if (n > 0) {
      c.eventsSent += n;
      if (t.lastAt > c.lastEventAt) c.lastEventAt = t.lastAt;
    }
    sub.mark = t.published;
  }

  // ---- SSE -----------------------------------------------------------------------------------------

  /**
   * Takes one of the SSE_MAX_CONNECTIONS slots for an event stream, or refuses with 503; returns
   * the function that gives it back. Every long-lived stream of the bridge counts here.
   */
  reserveSse(): () => void {
    if (this.stopped) throw new AppError('OVERLOADED', 503, 'The bridge is shutting down');
    const max = this.deps.limits.maxSseConnections;
    if (this.sseCount >= max) throw new AppError('OVERLOADED', 503, `The bridge serves at most ${max} event streams at once; try again later`, { limit: max });
    this.sseCount++;
    let given = false;
    return () => {
      if (!given) this.sseCount--;
      given = true;
    };
  }

  get sseConnections(): number {
    return this.sseCount;
  }

  /** Opens an event stream on a sink: the head, the replay from `lastEventId`, then live events. */
  openSse(sink: Sink, o: SseOptions): SseConnection {
    this.reserveSse();
    try {
      const filter = o.filter && !isEmptyFilter(o.filter) ? normalFilter(o.filter) : undefined;
      const channel = filter ? this.filterChannel(filter) : this.followChannel(o.client);
      let head = `retry: ${RETRY_MS}\n\n`;
      const c = new SseConnection(sink, o.client, o.principal, o.ip, o.userAgent, this, channel);
      head += sseFrame('connected', { connection_id: c.id, last_event_id: this.deps.history.lastSeq });
      if (o.lastEventId !== undefined) head += this.replay(o.lastEventId, filter ? [filter] : this.deps.subscriptions.of(o.client).map(normalFilter));
      sink.write(head);
      channel.holders++;
      this.register(c);
      if (this.suspended.has(o.client)) {
        c.suspended = true;
        c.suspendedAt = channel.head;
      } else channel.add(c);
      return c;
    } catch (err) {
      this.sseCount--;
      throw err;
    }
  }

  private replay(after: number, filters: EventFilter[]): string {
    const { events, truncated } = this.deps.history.replay(after, filters);
    let out = '';
    for (const r of events) out += `id: ${r.seq}\ndata: ${r.message}\n\n`;
    if (truncated) out += sseFrame('notice', { type: 'replay_truncated', message: `more than ${events.length} events were missed; read the rest from /api/events/history`, ...truncated });
    return out;
  }

  private filterChannel(filter: EventFilter): SseChannel<SseConnection> {
    const key = `filter\u0000${filterKey(filter)}`;
    let ch = this.channels.get(key);
    if (!ch) {
      ch = new SseChannel<SseConnection>(key, null, filter);
      ch.entries = [{ filter, target: ch }];
      this.index.add(ch.entries[0]!);
      this.channels.set(key, ch);
    }
    return ch;
  }

  private followChannel(client: string): SseChannel<SseConnection> {
    const key = followKey(client);
    let ch = this.channels.get(key);
    if (!ch) {
      ch = new SseChannel<SseConnection>(key, client);
      this.channels.set(key, ch);
      this.aim(ch);
    }
    return ch;
  }

  /** A following channel takes its client's stored subscriptions, or everything while it has none. */
  private aim(ch: SseChannel<SseConnection>): void {
    for (const e of ch.entries) this.index.remove(e);
    const subs = this.deps.subscriptions.of(ch.follows!);
    ch.entries = subs.length ? subs.map((s) => ({ filter: normalFilter(s), target: ch })) : [{ filter: {}, target: ch }];
    for (const e of ch.entries) this.index.add(e);
  }

  // ---- WebSocket --------------------------------------------------------------------------------

  openSocket(sink: Sink, o: SocketOptions): WsConnection {
    if (this.stopped) throw new AppError('OVERLOADED', 503, 'The bridge is shutting down');
    const c = new WsConnection(sink, o.principal?.sub ?? null, o.principal, o.ip, o.userAgent, this);
    this.register(c);
    return c;
  }

  /** A WebSocket that sent its token as a message is now this principal's. */
  authenticate(c: WsConnection, principal: Principal): void {
    if (c.ended) return;
    c.client = principal.sub;
    c.principal = principal;
    this.register(c);
  }

  subscribeSocket(c: WsConnection, filter: EventFilter): SubscriptionView {
    const f = normalFilter(filter);
    const name = topicName(f);
    if (c.subs?.some((x) => x.topic.name === name)) throw conflict('This connection already has a subscription with these filters', { subscription_id: name });
    const client = c.client!;
    this.deps.cap.check(client);
    let t = this.topics.get(name);
    if (!t) {
      t = new Topic(name, f);
      this.topics.set(name, t);
      this.index.add(t.entry);
    }
    const sub: WsSub = { topic: t, mark: t.published, made: clock() };
    // An array of exactly its length: most sockets hold one subscription.
    c.subs = c.subs ? [...c.subs, sub] : [sub];
    t.holders++;
    this.deps.cap.count(client, 1);
    if (!c.suspended) {
      // Messages made before it subscribed are not for it.
      if (t.pending.length) this.flushTopic(t, clock(), performance.now());
      t.join(client);
      c.sink.subscribe?.(name);
    }
    return subscriptionView(name, f, isoOf(sub.made));
  }

  unsubscribeSocket(c: WsConnection, id: string): SubscriptionView {
    const sub = c.subs?.find((x) => x.topic.name === id);
    if (!sub) throw notFound(`No subscription ${id.slice(0, 64)} on this connection`, { subscription_id: id.slice(0, 64) });
    this.dropSub(c, sub);
    return subscriptionView(sub.topic.name, sub.topic.filter, isoOf(sub.made));
  }

  private dropSub(c: WsConnection, sub: WsSub): void {
    const t = sub.topic;
    if (c.suspended) c.eventsDropped += t.published - sub.mark;
    else {
      // Events from while it was subscribed still go to a socket that stays open.
      if (!c.ended) this.handOver(c, sub);
      this.settleSent(c, sub);
      t.leave(c.client!);
      c.sink.unsubscribe?.(t.name);
    }
    const rest = c.subs!.filter((x) => x !== sub);
    c.subs = rest.length ? rest : undefined;
    this.deps.cap.count(c.client!, -1);
    if (--t.holders === 0) {
      this.index.remove(t.entry);
      this.topics.delete(t.name);
    }
  }

  // ---- connections ------------------------------------------------------------------------------

  private register(c: StreamConnection): void {
    this.connections.set(c.n, c);
    // Closed with its credential: revoked, password changed, user removed, expired.
    if (c.principal) this.hold(c.principal);
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

  list(): StreamConnection[] {
    return [...this.connections.values()];
  }

  find(id: string): StreamConnection | undefined {
    const n = connectionNumber(id);
    return n === undefined ? undefined : this.connections.get(n);
  }

  /** What a connection delivers, for the statistics. */
  subscriptionsOf(c: StreamConnection): ConnectionSubscription[] {
    if (c instanceof WsConnection) return (c.subs ?? []).map(({ topic }) => ({ id: topic.name, ...topic.filter }));
    const ch = (c as SseConnection).channel;
    if (ch.filter) return [{ id: null, ...ch.filter }];
    return this.deps.subscriptions.of(ch.follows!).map((s) => ({ id: s.id, ...normalFilter(s) }));
  }

  info(c: StreamConnection): ConnectionInfo {
    let sent = c.eventsSent;
    let dropped = c.eventsDropped;
    let last = c.lastEventAt;
    if (c instanceof SseConnection) {
      if (c.suspended) dropped += c.channel.head - c.suspendedAt;
    } else if (c instanceof WsConnection && c.subs) {
      for (const { topic: t, mark } of c.subs) {
        const n = t.published - mark;
        if (c.suspended) dropped += n;
        else if (n > 0) {
          sent += n;
          if (t.lastAt > last) last = t.lastAt;
        }
      }
    }
    return c.info(this.subscriptionsOf(c), sent, dropped, last);
  }

  closed(c: StreamConnection): void {
    if (!this.connections.delete(c.n)) return;
    if (c.principal) this.letGo(c.principal);
    if (c instanceof SseConnection) {
      this.sseCount--;
      const ch = c.channel;
      ch.remove(c);
      if (--ch.holders === 0) {
        for (const e of ch.entries) this.index.remove(e);
        this.channels.delete(ch.key);
        ch.dead = true;
      }
    } else if (c instanceof WsConnection) {
      while (c.subs) this.dropSub(c, c.subs[c.subs.length - 1]!);
    }
    const info = this.info(c);
    this.closedPending.push({
      id: info.id,
      transport: c.transport,
      client_id: c.client ?? '',
      ip_address: c.ip,
      user_agent: c.userAgent,
      connected_at: info.connected_at,
      disconnected_at: new Date().toISOString(),
      events_sent: info.events_sent,
      events_dropped: info.events_dropped,
      close_reason: c.closeReason,
    });
    if (!this.recordQueued && !this.stopped) {
      this.recordQueued = true;
      setImmediate(this.recordClosed);
    }
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

  // ---- statistics ---------------------------------------------------------------------------------

  private countDelivered(n: number): void {
    this.delivered += n;
    this.deliveredSinceSample += n;
    const sec = Math.floor(Date.now() / 1000);
    if (sec !== this.bucketSecond) {
      // Clear the buckets of the seconds that passed without deliveries.
      for (let s = Math.max(this.bucketSecond + 1, sec - 9); s <= sec; s++) this.secondBuckets[s % 10] = 0;
      this.bucketSecond = sec;
    }
    this.secondBuckets[sec % 10]! += n;
  }

  /** Deliveries per second over the last ten seconds. */
  ratePerSecond(): number {
    const sec = Math.floor(Date.now() / 1000);
    if (sec - this.bucketSecond >= 10) return 0;
    let sum = 0;
    // Only the buckets of the last ten seconds that were written since.
    for (let s = sec - 9; s <= sec; s++) if (s <= this.bucketSecond) sum += this.secondBuckets[((s % 10) + 10) % 10]!;
    return Math.round((sum / 10) * 100) / 100;
  }

  /** Events queued and not yet written (history, and SSE streams behind their channel). */
  backlog(): number {
    let n = this.deps.history.backlog;
    for (const ch of this.channels.values()) for (const m of ch.members) n += ch.head - m.cursor;
    return n;
  }

  private heartbeat(): void {
    for (const c of this.connections.values()) if (c instanceof SseConnection && !c.waiting) c.sink.write(': keep-alive\n\n');
    this.budgets.sweep(Date.now());
  }

  /** Stops delivery and closes every connection with a last frame. */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.sweepTimer);
    for (const c of [...this.connections.values()]) c.close('shutdown');
    this.recordClosed();
  }
}

const followKey = (client: string) => `follow\u0000${client}`;
