// The fan-out: live events to every open SSE stream and WebSocket subscription. It opens
// connections and gives each what it follows: streams that want the same events share one SSE
// channel, and WebSocket subscriptions with the same filter one topic (src/stream/channel.ts,
// topic.ts), found for each event through one index. Delivery and backpressure are
// src/stream/delivery.ts; the open connections and the record of ended ones, src/stream/registry.ts;
// the counters the statistics read, src/stream/metrics.ts.
import type { Credentials } from '../auth/credentials.js';
import type { Principal } from '../auth/tokens.js';
import { AppError, conflict, notFound } from '../errors.js';
import { filterKey, isEmptyFilter, normalFilter, type EventFilter } from '../events/filter.js';
import type { Logger } from '../log.js';
import type { StreamStatsStore } from '../store/stream-stats.js';
import { SseChannel } from './channel.js';
import {
  clock,
  isoOf,
  SseConnection,
  WsConnection,
  type ConnectionInfo,
  type ConnectionOwner,
  type ConnectionSubscription,
  type StreamConnection,
  type WsSub,
} from './connection.js';
import { Delivery, sseFrame, type DeliveryLimits, type Target } from './delivery.js';
import type { EventHistory, LoggedEvent } from './history.js';
import { DeliveryCounters, type StreamView } from './metrics.js';
import { ConnectionRegistry } from './registry.js';
import type { Sink, TopicPublisher } from './sink.js';
import type { StoredSubscriptions } from './stored-subscriptions.js';
import { subscriptionView, type SubscriptionCap, type SubscriptionView } from './subscription-cap.js';
import { SubscriptionIndex } from './subscription-index.js';
import { Topic, topicName } from './topic.js';

export { HEARTBEAT_MS, sseFrame } from './delivery.js';

export interface FanOutLimits extends DeliveryLimits {
  maxSseConnections: number;
}

const RETRY_MS = 3000;

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

export class FanOut implements ConnectionOwner, StreamView {
  private readonly connections: ConnectionRegistry;
  private readonly index = new SubscriptionIndex<Target>();
  private readonly channels = new Map<string, SseChannel<SseConnection>>();
  private readonly topics = new Map<string, Topic>();
  private readonly delivery: Delivery;
  private sseCount = 0;
  private stopped = false;
  /** What delivery has done, for the statistics (src/stream/metrics.ts owns it). */
  readonly counters = new DeliveryCounters();

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
      /** The transport's publish, for WebSocket topics. */
      publisher?: TopicPublisher;
    },
  ) {
    this.connections = new ConnectionRegistry({ stats: deps.stats, credentials: deps.credentials, log: deps.log });
    this.delivery = new Delivery({
      index: this.index,
      connections: this.connections,
      counters: this.counters,
      visible: deps.visible,
      limits: deps.limits,
      publisher: deps.publisher,
    });
    deps.subscriptions.onChange((client) => {
      const ch = this.channels.get(followKey(client));
      if (ch) this.aim(ch);
    });
  }

  start(): void {
    this.delivery.start();
  }

  /** One numbered event: to every channel and topic it matches, unless callers may not see its entity. */
  deliver(ev: LoggedEvent): void {
    if (!this.stopped) this.delivery.deliver(ev);
  }

  drained(c: StreamConnection): void {
    this.delivery.drained(c);
  }

  /** A WebSocket holding more than the limit is closed. */
  checkBuffer(c: WsConnection): void {
    this.delivery.checkBuffer(c);
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
      this.connections.register(c);
      if (this.delivery.isSuspended(o.client)) {
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
    if (truncated)
      out += sseFrame('notice', {
        type: 'replay_truncated',
        message: `more than ${events.length} events were missed; read the rest from /api/events/history`,
        ...truncated,
      });
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
    this.connections.register(c);
    return c;
  }

  /** A WebSocket that sent its token as a message is now this principal's. */
  authenticate(c: WsConnection, principal: Principal): void {
    if (c.ended) return;
    c.client = principal.sub;
    c.principal = principal;
    this.connections.register(c);
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
      if (t.pending.length) this.delivery.flushTopic(t, clock(), performance.now());
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
      if (!c.ended) this.delivery.handOver(c, sub);
      this.delivery.settleSent(c, sub);
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

  get size(): number {
    return this.connections.size;
  }

  list(): StreamConnection[] {
    return this.connections.list();
  }

  find(id: string): StreamConnection | undefined {
    return this.connections.find(id);
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

  /** A connection ended: it leaves its channel or topics, and its record is kept. */
  closed(c: StreamConnection): void {
    if (!this.connections.remove(c)) return;
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
    this.connections.record({
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
  }

  /** Events queued and not yet written (history, and SSE streams behind their channel). */
  backlog(): number {
    let n = this.deps.history.backlog;
    for (const ch of this.channels.values()) for (const m of ch.members) n += ch.head - m.cursor;
    return n;
  }

  /** Stops delivery and closes every connection with a last frame. */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.delivery.stop();
    this.connections.stop();
    for (const c of this.connections.list()) c.close('shutdown');
    this.connections.flush();
  }
}

const followKey = (client: string) => `follow\u0000${client}`;
