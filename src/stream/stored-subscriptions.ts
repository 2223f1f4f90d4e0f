// Clients' stored subscriptions (POST /api/events/subscribe): kept in SQLite across restarts,
// matched against every event for the time of their latest one (written once per tick), and
// followed by the SSE streams a client opens without filters.
import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '../errors.js';
import { filterKey, normalFilter, type EventFilter, type EventKeys } from '../events/filter.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import type { Subscription } from '../store/subscriptions.js';
import { subscriptionView, type SubscriptionCap, type SubscriptionView } from './subscription-cap.js';
import { SubscriptionIndex, type IndexEntry } from './subscription-index.js';

export type StoredView = SubscriptionView & { id: string; last_event: string | null };

export class StoredSubscriptions {
  private readonly index = new SubscriptionIndex<Subscription>();
  private readonly entries = new Map<string, IndexEntry<Subscription>>();
  private readonly byClient = new Map<string, Map<string, Subscription>>();
  private readonly listeners: ((client: string) => void)[] = [];
  private seen = new Map<string, string>();
  private flushQueued = false;

  constructor(private readonly deps: { store: Store; cap: SubscriptionCap; visible: (entityId: string) => boolean; log: Logger }) {
    for (const s of deps.store.subscriptions.all()) this.add(s);
  }

  private add(s: Subscription): void {
    let mine = this.byClient.get(s.client);
    if (!mine) this.byClient.set(s.client, (mine = new Map()));
    mine.set(s.id, s);
    const entry: IndexEntry<Subscription> = { filter: normalFilter(s), target: s };
    this.entries.set(s.id, entry);
    this.index.add(entry);
    this.deps.cap.count(s.client, 1);
  }

  /** Called with the client whenever its subscriptions change (its following streams re-aim). */
  onChange(listener: (client: string) => void): void {
    this.listeners.push(listener);
  }

  subscribe(client: string, filter: EventFilter): SubscriptionView {
    const f = normalFilter(filter);
    const key = filterKey(f);
    for (const s of this.byClient.get(client)?.values() ?? []) {
      if (filterKey(normalFilter(s)) === key) throw conflict('You already have a subscription with these filters', { subscription_id: s.id });
    }
    this.deps.cap.check(client);
    const s: Subscription = { id: randomUUID(), client, ...f, created_at: new Date().toISOString(), last_event: null };
    if (!this.deps.store.subscriptions.insert(s)) throw conflict('You already have a subscription with these filters');
    this.add(s);
    for (const l of this.listeners) l(client);
    return subscriptionView(s.id, f, s.created_at);
  }

  unsubscribe(client: string, id: string): SubscriptionView {
    const mine = this.byClient.get(client);
    const s = mine?.get(id);
    // Another client's subscription is answered like one that does not exist.
    if (!s || !mine) throw notFound(`No subscription ${id.slice(0, 64)} of yours`, { subscription_id: id.slice(0, 64) });
    this.deps.store.subscriptions.delete(id);
    mine.delete(id);
    if (mine.size === 0) this.byClient.delete(client);
    const entry = this.entries.get(id);
    if (entry) this.index.remove(entry);
    this.entries.delete(id);
    this.deps.cap.count(client, -1);
    for (const l of this.listeners) l(client);
    return subscriptionView(s.id, normalFilter(s), s.created_at);
  }

  list(client: string): StoredView[] {
    return [...(this.byClient.get(client)?.values() ?? [])].map((s) => ({
      id: s.id,
      ...subscriptionView(s.id, normalFilter(s), s.created_at),
      last_event: s.last_event,
    }));
  }

  /** The client's subscriptions, each with its id and filters. */
  of(client: string): Subscription[] {
    return [...(this.byClient.get(client)?.values() ?? [])];
  }

  /** An event went by: the subscriptions it matches note its time (written once per tick). Hidden entities leave no trace. */
  saw(keys: EventKeys, time: string): void {
    if (keys.entity_id !== null && !this.deps.visible(keys.entity_id)) return;
    this.index.forEachMatch(keys, (entry) => {
      entry.target.last_event = time;
      this.seen.set(entry.target.id, time);
      if (!this.flushQueued) {
        this.flushQueued = true;
        setImmediate(this.flush);
      }
    });
  }

  readonly flush = (): void => {
    this.flushQueued = false;
    if (!this.seen.size) return;
    try {
      this.deps.store.subscriptions.touch(this.seen);
    } catch (err) {
      this.deps.log.error({ err }, 'noting the latest event of subscriptions failed');
    }
    this.seen = new Map();
  };
}
