// Finds the listeners an event is for without looking at every subscription: each entry is filed
// under its most selective filter (entity id, else domain, else event type, else "everything"),
// so an event looks in four buckets and checks only the entries there.
import { matches, type EventFilter, type EventKeys } from '../events/filter.js';

export interface IndexEntry<T> {
  filter: EventFilter;
  target: T;
}

export class SubscriptionIndex<T> {
  private readonly byEntity = new Map<string, Set<IndexEntry<T>>>();
  private readonly byDomain = new Map<string, Set<IndexEntry<T>>>();
  private readonly byType = new Map<string, Set<IndexEntry<T>>>();
  private readonly everything = new Set<IndexEntry<T>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  private bucket(f: EventFilter, create: boolean): Set<IndexEntry<T>> | undefined {
    const [map, key] = f.entity_id
      ? [this.byEntity, f.entity_id]
      : f.domain
        ? [this.byDomain, f.domain]
        : f.event_type
          ? [this.byType, f.event_type]
          : [undefined, ''];
    if (!map) return this.everything;
    let set = map.get(key);
    if (!set && create) map.set(key, (set = new Set()));
    return set;
  }

  add(entry: IndexEntry<T>): void {
    const set = this.bucket(entry.filter, true)!;
    if (!set.has(entry)) this.count++;
    set.add(entry);
  }

  remove(entry: IndexEntry<T>): void {
    const f = entry.filter;
    const set = this.bucket(f, false);
    if (!set?.delete(entry)) return;
    this.count--;
    if (set.size === 0 && set !== this.everything) {
      if (f.entity_id) this.byEntity.delete(f.entity_id);
      else if (f.domain) this.byDomain.delete(f.domain);
      else if (f.event_type) this.byType.delete(f.event_type);
    }
  }

  /** Calls `visit` for every entry whose filter matches the event. */
  forEachMatch(e: EventKeys, visit: (entry: IndexEntry<T>) => void): void {
    const scan = (set: Set<IndexEntry<T>> | undefined) => {
      if (set) for (const entry of set) if (matches(entry.filter, e)) visit(entry);
    };
    scan(this.everything);
    scan(this.byType.get(e.event_type));
    if (e.entity_id) scan(this.byEntity.get(e.entity_id));
    if (e.domain) scan(this.byDomain.get(e.domain));
  }
}
