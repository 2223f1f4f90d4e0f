// The one path of every event, the hub's and the bridge's own: bus → history (numbered, written in
// one transaction per tick) → the subscription index → serialised once → queued on each matching
// connection → written at the end of the tick. REST, SSE and WebSocket all use this service for
// subscriptions, history and connections.
import { randomUUID } from 'node:crypto';
import type { Bus } from '../bus.js';
import { AppError, conflict, notFound } from '../errors.js';
import type { ResponseAdapter } from '../http/adapter.js';
import type { WebSocket } from '../http/uws.js';
import type { HubEvent } from '../hub/types.js';
import type { Logger } from '../log.js';
import type { HistoryQuery, StoredEvent } from '../store/events.js';
import type { Store } from '../store/index.js';
import type { PastConnection } from '../store/stream-stats.js';
import type { Subscription } from '../store/subscriptions.js';
import { ClientBudgets, type Verdict } from './client-budget.js';
import { SseConnection, WsConnection, type ConnectionOwner, type ConnectionSubscription, type StreamConnection } from './connection.js';
import { filterKey, isEmptyFilter, normalFilter, type EventFilter, type EventKeys } from '../events/filter.js';
import { newHistogram } from './histogram.js';
import { eventMessage, keysOf } from './message.js';
import { SubscriptionIndex, type IndexEntry } from './subscription-index.js';

export interface EventHubLimits {
  maxSubscriptions: number;
  rateLimit: number;
  rateWindowMs: number;
  maxSseConnections: number;
  bufferLimit: number;
  historyDays: number;
  historyMaxRows: number;
}

/** A subscription as the API shows it. */
export interface SubscriptionView {
  subscription_id: string;
  event_type: string | null;
  entity_id: string | null;
  domain: string | null;
  created_at: string;
}

export const HEARTBEAT_MS = 15_000;
const RETRY_MS = 3000;
/** Most events one resuming stream is replayed; beyond it the stream is told where the gap is. */
export const REPLAY_MAX = 10_000;
const PRUNE_EVERY_MS = 10 * 60_000;

const view = (s: { id: string; created_at: string } & EventFilter): SubscriptionView => ({
  subscription_id: s.id,
  event_type: s.event_type ?? null,
  entity_id: s.entity_id ?? null,
  domain: s.domain ?? null,
  created_at: s.created_at,
});

export const sseFrame = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** What an SSE stream delivers: its own query filter, or its client's stored subscriptions. */
type SseMode = { filter: EventFilter } | { follow: true };

export class EventHub implements ConnectionOwner {
  /** Live delivery: stream filters, "everything" entries, WebSocket subscriptions. */
  private readonly index = new SubscriptionIndex<StreamConnection>();
  /** Stored subscriptions, matched for their last_event and for the streams that follow them. */
  private readonly storedIndex = new SubscriptionIndex<Subscription>();
  private readonly storedEntries = new Map<string, IndexEntry<Subscription>>();
  private readonly storedByClient = new Map<string, Map<string, Subscription>>();
  /** SSE streams that deliver their client's stored subscriptions (or everything while it has none). */
  private readonly followers = new Map<string, Set<SseConnection>>();
  private readonly socketSubs = new Map<WsConnection, Map<string, EventFilter & { id: string; created_at: string }>>();
  /** WebSocket subscriptions per client, for the cap without a scan. */
  private readonly socketSubCount = new Map<string, number>();
  private readonly wsHeads = new Map<string, Buffer>();
  readonly connections = new Map<string, StreamConnection>();
  private sseCount = 0;
  private readonly budgets: ClientBudgets;
  private readonly limited: boolean;
  private dirtyList: StreamConnection[] = [];
  private flushQueued = false;
  private seen = new Map<string, string>();
  private closedPending: PastConnection[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private pruning = false;
  private stopped = false;
  // Reused per event, so dispatch allocates nothing for them.
  private readonly visited = new Set<StreamConnection>();
  private readonly verdicts = new Map<string, Verdict>();

  /** Latency of this sampling interval (event arrival → write to the socket). */
  latency = newHistogram();
  eventsIn = 0;
  /** Events written to connections: in all, and since the last sample. */
  delivered = 0;
  deliveredSinceSample = 0;
  droppedByLimit = 0;
  private readonly secondBuckets = new Float64Array(10);
  private bucketSecond = 0;

  constructor(
    private readonly deps: { bus: Bus; store: Store; log: Logger; limits: EventHubLimits },
  ) {
    this.budgets = new ClientBudgets(deps.limits.rateLimit, deps.limits.rateWindowMs);
    this.limited = deps.limits.rateLimit > 0;
    for (const s of deps.store.subscriptions.all()) this.addStored(s);
  }

  start(): void {
    this.deps.bus.on('event', this.onEvent);
    this.timers.push(setInterval(() => this.heartbeat(), HEARTBEAT_MS));
    this.timers.push(setInterval(() => this.prune(), PRUNE_EVERY_MS));
    this.timers.push(setTimeout(() => this.prune(), 5000));
    for (const t of this.timers) t.unref();
  }

  // ---- dispatch -------------------------------------------------------------------------------

  private readonly onEvent = (e: HubEvent): void => {
    if (this.stopped) return;
    const arrival = performance.now();
    const message = eventMessage(e);
    const keys = keysOf(message);
    const json = JSON.stringify(message);
    const now = Date.now();
    const seq = this.deps.store.events.append(keys, Date.parse(message.time_fired) || now, json, now);
    this.eventsIn++;
    this.dispatch(keys, seq, json, message.time_fired, arrival, now);
    this.queueFlush();
  };

  private dispatch(keys: EventKeys, seq: number, json: string, time: string, arrival: number, now: number): void {
    const visited = this.visited;
    const verdicts = this.verdicts;
    let sse: Buffer | undefined;
    let wsTail: Buffer | undefined;
    const deliver = (c: StreamConnection, subscriptionId: string | null) => {
      if (visited.has(c) || c.closed || c.client === null) return;
      visited.add(c);
      let verdict: Verdict = 'deliver';
      if (this.limited) {
        verdict = verdicts.get(c.client) ?? 'deliver';
        if (!verdicts.has(c.client)) verdicts.set(c.client, (verdict = this.budgets.take(c.client, now)));
      }
      if (verdict !== 'deliver') {
        c.eventsDropped++;
        this.droppedByLimit++;
        if (verdict === 'drop_and_announce') this.announceLimit(c.client);
        return;
      }
      // Encoded once per event: every client gets the same bytes (WebSocket: behind a head of its own subscription).
      if (c.transport === 'sse') c.push((sse ??= Buffer.from(`id: ${seq}\ndata: ${json}\n\n`)), arrival);
      else c.push([this.wsHead(subscriptionId), (wsTail ??= Buffer.from(`,"seq":${seq},"event":${json}}`))], arrival);
    };
    this.index.forEachMatch(keys, (entry) => deliver(entry.target, entry.subscriptionId));
    this.storedIndex.forEachMatch(keys, (entry) => {
      const sub = entry.target;
      sub.last_event = time;
      this.seen.set(sub.id, time);
      const follow = this.followers.get(sub.client);
      if (follow) for (const c of follow) deliver(c, sub.id);
    });
    visited.clear();
    verdicts.clear();
  }

  /** The start of a WebSocket event message for one subscription, made once per subscription. */
  private wsHead(subscriptionId: string | null): Buffer {
    const key = subscriptionId ?? '';
    let head = this.wsHeads.get(key);
    if (!head) this.wsHeads.set(key, (head = Buffer.from(`{"type":"event","subscription_id":${JSON.stringify(subscriptionId)}`)));
    return head;
  }

  /** The client's budget ran out: each of its connections is told once per window. */
  private announceLimit(client: string): void {
    const notice = { type: 'rate_limited', message: 'event rate limit reached: further events in this window are dropped', ...this.budgets.notice(client) };
    for (const c of this.connections.values()) {
      if (c.client !== client) continue;
      c.push(c.transport === 'sse' ? sseFrame('notice', notice) : JSON.stringify({ type: 'notice', data: notice }));
    }
    // Verdicts are cached per event: a drop_and_announce must not repeat within this one.
    this.verdicts.set(client, 'drop');
  }

  dirty(c: StreamConnection): void {
    this.dirtyList.push(c);
    this.queueFlush();
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(this.flush);
  }

  /** The end of a tick: one history transaction, then one write per connection with news. */
  private readonly flush = (): void => {
    this.flushQueued = false;
    const { store, log } = this.deps;
    try {
      store.events.flush();
      if (this.seen.size) {
        store.subscriptions.touch(this.seen);
        this.seen = new Map();
      }
      if (this.closedPending.length) {
        store.streamStats.recordConnections(this.closedPending);
        this.closedPending = [];
      }
    } catch (err) {
      log.error({ err }, 'writing the event history failed; delivery goes on');
    }
    const list = this.dirtyList;
    this.dirtyList = [];
    let sent = 0;
    for (const c of list) sent += c.flush(this.latency);
    if (sent) this.countDelivered(sent);
  };

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

  /** Events queued anywhere and not yet written (history and connections). */
  backlog(): number {
    let n = this.deps.store.events.backlog;
    for (const c of this.connections.values()) n += c.queuedEvents;
    return n;
  }

  private heartbeat(): void {
    for (const c of this.connections.values()) if (c.transport === 'sse') c.push(': keep-alive\n\n');
  }

  /** Prunes the history in small steps, yielding between them so delivery never waits. */
  private prune(): void {
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

  // ---- stored subscriptions (REST) -------------------------------------------------------------

  private addStored(s: Subscription): void {
    let mine = this.storedByClient.get(s.client);
    if (!mine) this.storedByClient.set(s.client, (mine = new Map()));
    mine.set(s.id, s);
    const entry: IndexEntry<Subscription> = { filter: normalFilter(s), target: s, subscriptionId: s.id };
    this.storedEntries.set(s.id, entry);
    this.storedIndex.add(entry);
  }

  private countFor(client: string): number {
    return (this.storedByClient.get(client)?.size ?? 0) + (this.socketSubCount.get(client) ?? 0);
  }

  private countSocketSubs(client: string, delta: number): void {
    const n = (this.socketSubCount.get(client) ?? 0) + delta;
    if (n > 0) this.socketSubCount.set(client, n);
    else this.socketSubCount.delete(client);
  }

  private checkCap(client: string): void {
    const max = this.deps.limits.maxSubscriptions;
    if (this.countFor(client) >= max) {
      throw new AppError('SUBSCRIPTION_LIMIT', 429, `A client may hold at most ${max} event subscriptions; remove one first`, { limit: max });
    }
  }

  subscribe(client: string, filter: EventFilter): SubscriptionView {
    const f = normalFilter(filter);
    const key = filterKey(f);
    for (const s of this.storedByClient.get(client)?.values() ?? []) {
      if (filterKey(normalFilter(s)) === key) throw conflict('You already have a subscription with these filters', { subscription_id: s.id });
    }
    this.checkCap(client);
    const s: Subscription = { id: randomUUID(), client, ...f, created_at: new Date().toISOString(), last_event: null };
    if (!this.deps.store.subscriptions.insert(s)) throw conflict('You already have a subscription with these filters');
    const first = !this.storedByClient.get(client)?.size;
    this.addStored(s);
    // Streams that took everything while the client had no subscription now take only these.
    if (first) for (const c of this.followers.get(client) ?? []) this.setFollowEntries(c);
    return view(s);
  }

  unsubscribe(client: string, id: string): SubscriptionView {
    const mine = this.storedByClient.get(client);
    const s = mine?.get(id);
    // Another client's subscription is answered like one that does not exist.
    if (!s || !mine) throw notFound(`No subscription ${id.slice(0, 64)} of yours`, { subscription_id: id.slice(0, 64) });
    this.deps.store.subscriptions.delete(id);
    mine.delete(id);
    if (mine.size === 0) this.storedByClient.delete(client);
    const entry = this.storedEntries.get(id);
    if (entry) this.storedIndex.remove(entry);
    this.storedEntries.delete(id);
    if (!this.storedByClient.has(client)) for (const c of this.followers.get(client) ?? []) this.setFollowEntries(c);
    return view(s);
  }

  subscriptions(client: string): (SubscriptionView & { id: string; last_event: string | null })[] {
    return [...(this.storedByClient.get(client)?.values() ?? [])].map((s) => ({ id: s.id, ...view(s), last_event: s.last_event }));
  }

  history(q: HistoryQuery): StoredEvent[] {
    return this.deps.store.events.query(q);
  }

  // ---- SSE -------------------------------------------------------------------------------------

  /** Opens an event stream on a native response: headers, replay from `lastEventId`, then live. */
  openSse(res: ResponseAdapter, o: { client: string; ip: string; userAgent: string; filter?: EventFilter; lastEventId?: number }): SseConnection {
    if (this.stopped) throw new AppError('OVERLOADED', 503, 'The bridge is shutting down');
    if (this.sseCount >= this.deps.limits.maxSseConnections) {
      throw new AppError('OVERLOADED', 503, `The bridge serves at most ${this.deps.limits.maxSseConnections} event streams at once; try again later`, { limit: this.deps.limits.maxSseConnections });
    }
    const filter = o.filter && !isEmptyFilter(o.filter) ? normalFilter(o.filter) : undefined;
    const mode: SseMode = filter ? { filter } : { follow: true };
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    const c = new SseConnection(res, o.client, o.ip, o.userAgent, this.deps.limits.bufferLimit, this);
    this.connections.set(c.id, c);
    this.sseCount++;
    let head = `retry: ${RETRY_MS}\n\n` + sseFrame('connected', { connection_id: c.id, last_event_id: this.deps.store.events.lastSeq });
    if (o.lastEventId !== undefined) head += this.replay(o.lastEventId, 'filter' in mode ? [mode.filter] : this.followFilters(o.client));
    res.write(head);
    if ('filter' in mode) this.attach(c, { filter: mode.filter, target: c, subscriptionId: null });
    else {
      let set = this.followers.get(o.client);
      if (!set) this.followers.set(o.client, (set = new Set()));
      set.add(c);
      this.setFollowEntries(c);
    }
    return c;
  }

  /** The filters a following stream delivers: its client's subscriptions, or everything ([]). */
  private followFilters(client: string): EventFilter[] {
    return [...(this.storedByClient.get(client)?.values() ?? [])].map(normalFilter);
  }

  /** What the stream missed since `after`, from history; synchronous, so no live event slips between. */
  private replay(after: number, filters: EventFilter[]): string {
    const rows = this.deps.store.events.after(after, filters, REPLAY_MAX + 1);
    let out = '';
    for (let i = 0; i < Math.min(rows.length, REPLAY_MAX); i++) out += `id: ${rows[i]!.seq}\ndata: ${rows[i]!.message}\n\n`;
    if (rows.length > REPLAY_MAX) {
      out += sseFrame('notice', { type: 'replay_truncated', message: `more than ${REPLAY_MAX} events were missed; read the rest from /api/events/history`, replayed_through: rows[REPLAY_MAX - 1]!.seq, next_seq: rows[REPLAY_MAX]!.seq });
    }
    return out;
  }

  /** A following stream gets "everything" while its client has no subscription; else its subscriptions, through the stored index. */
  private setFollowEntries(c: StreamConnection): void {
    for (const e of c.entries) this.index.remove(e);
    c.entries = [];
    if (!this.storedByClient.get(c.client!)?.size) this.attach(c, { filter: {}, target: c, subscriptionId: null });
  }

  private attach(c: StreamConnection, entry: IndexEntry<StreamConnection>): void {
    c.entries.push(entry);
    this.index.add(entry);
  }

  // ---- WebSocket ---------------------------------------------------------------------------------

  openSocket(ws: WebSocket<unknown>, o: { client: string | null; ip: string; userAgent: string }): WsConnection {
    const c = new WsConnection(ws, o.client, o.ip, o.userAgent, this.deps.limits.bufferLimit, this);
    this.connections.set(c.id, c);
    this.socketSubs.set(c, new Map());
    return c;
  }

  authenticate(c: WsConnection, client: string): void {
    c.client = client;
  }

  subscribeSocket(c: WsConnection, filter: EventFilter): SubscriptionView {
    const subs = this.socketSubs.get(c)!;
    const f = normalFilter(filter);
    const key = filterKey(f);
    for (const s of subs.values()) if (filterKey(normalFilter(s)) === key) throw conflict('This connection already has a subscription with these filters', { subscription_id: s.id });
    this.checkCap(c.client!);
    const s = { id: `ws-${randomUUID()}`, ...f, created_at: new Date().toISOString() };
    subs.set(s.id, s);
    this.attach(c, { filter: f, target: c, subscriptionId: s.id });
    this.countSocketSubs(c.client!, 1);
    return view(s);
  }

  unsubscribeSocket(c: WsConnection, id: string): SubscriptionView {
    const subs = this.socketSubs.get(c)!;
    const s = subs.get(id);
    if (!s) throw notFound(`No subscription ${id.slice(0, 64)} on this connection`, { subscription_id: id.slice(0, 64) });
    subs.delete(id);
    this.countSocketSubs(c.client!, -1);
    this.wsHeads.delete(id);
    const entry = c.entries.find((e) => e.subscriptionId === id);
    if (entry) {
      this.index.remove(entry);
      c.entries.splice(c.entries.indexOf(entry), 1);
    }
    return view(s);
  }

  // ---- connections -------------------------------------------------------------------------------

  /** What a connection delivers, for the statistics. */
  subscriptionsOf(c: StreamConnection): ConnectionSubscription[] {
    if (c instanceof WsConnection) return [...(this.socketSubs.get(c)?.values() ?? [])].map(({ id, event_type, entity_id, domain }) => ({ id, event_type, entity_id, domain }));
    const own = c.entries.find((e) => e.subscriptionId === null && !isEmptyFilter(e.filter));
    if (own) return [{ id: null, ...own.filter }];
    return [...(this.storedByClient.get(c.client!)?.values() ?? [])].map((s) => ({ id: s.id, ...normalFilter(s) }));
  }

  closed(c: StreamConnection): void {
    if (!this.connections.delete(c.id)) return;
    for (const e of c.entries) this.index.remove(e);
    c.entries = [];
    if (c instanceof SseConnection) {
      this.sseCount--;
      const set = this.followers.get(c.client!);
      if (set?.delete(c) && set.size === 0) this.followers.delete(c.client!);
    } else {
      const subs = this.socketSubs.get(c as WsConnection);
      if (subs?.size && c.client) this.countSocketSubs(c.client, -subs.size);
      for (const id of subs?.keys() ?? []) this.wsHeads.delete(id);
      this.socketSubs.delete(c as WsConnection);
    }
    this.closedPending.push({
      id: c.id,
      transport: c.transport,
      client_id: c.client ?? '',
      ip_address: c.ip,
      user_agent: c.userAgent,
      connected_at: c.connectedAt,
      disconnected_at: new Date().toISOString(),
      events_sent: c.eventsSent,
      events_dropped: c.eventsDropped,
      close_reason: c.closeReason,
    });
    if (!this.stopped) this.queueFlush();
  }

  get sseConnections(): number {
    return this.sseCount;
  }

  /** Stops delivery, closes every connection with a last frame, writes what is queued. */
  close(): void {
    if (this.stopped) return;
    this.deps.bus.off('event', this.onEvent);
    this.flush();
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    for (const c of [...this.connections.values()]) c.close('shutdown');
    try {
      this.deps.store.events.flush();
      if (this.closedPending.length) this.deps.store.streamStats.recordConnections(this.closedPending);
      this.closedPending = [];
    } catch (err) {
      this.deps.log.error({ err }, 'writing the event history at shutdown failed');
    }
  }
}
