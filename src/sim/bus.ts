// The hub's event bus: listeners per event type or for all ('*'), events serialised once and
// shared by every connection that forwards them (as the hub caches its event JSON).
import { Context } from './context.js';
import { isoFromMicros, nowMicros } from './time.js';

export const MATCH_ALL = '*';

export type EventOrigin = 'LOCAL' | 'REMOTE';

export class HubEvent<D extends object = Record<string, unknown>> {
  private cachedJson: string | undefined;
  /** Per-event cache slot for derived serialisations (the compressed state diff). */
  derived: string | undefined;

  constructor(
    readonly eventType: string,
    readonly data: D,
    readonly origin: EventOrigin,
    readonly timeFiredMicros: number,
    readonly context: Context,
  ) {}

  toJSON(): Record<string, unknown> {
    return {
      event_type: this.eventType,
      data: this.data,
      origin: this.origin,
      time_fired: isoFromMicros(this.timeFiredMicros),
      context: this.context,
    };
  }

  get json(): string {
    this.cachedJson ??= JSON.stringify(this);
    return this.cachedJson;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: one listener list takes events of every data type; each subscriber narrows by event type
export type Listener = (event: HubEvent<any>) => void;

export class Bus {
  private readonly listeners = new Map<string, Set<Listener>>();

  listen(eventType: string, listener: Listener): () => void {
    let set = this.listeners.get(eventType);
    if (!set) {
      set = new Set();
      this.listeners.set(eventType, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  fire<D extends object>(eventType: string, data: D, opts: { origin?: EventOrigin; context?: Context; timeFiredMicros?: number } = {}): HubEvent<D> {
    const event = new HubEvent(eventType, data, opts.origin ?? 'LOCAL', opts.timeFiredMicros ?? nowMicros(), opts.context ?? new Context());
    for (const key of [eventType, MATCH_ALL]) {
      const set = this.listeners.get(key);
      if (!set) continue;
      for (const listener of [...set]) listener(event);
    }
    return event;
  }

  /** [{event, listener_count}] as GET /api/events reports it. */
  listenerCounts(): Array<{ event: string; listener_count: number }> {
    return [...this.listeners.entries()].filter(([, set]) => set.size > 0).map(([event, set]) => ({ event, listener_count: set.size }));
  }
}
