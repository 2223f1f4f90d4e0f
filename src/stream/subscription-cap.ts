// What every kind of subscription shares: the view callers get, and the cap on how many one
// client holds, stored and WebSocket ones together.
import { AppError } from '../errors.js';
import type { EventFilter } from '../events/filter.js';

/** A subscription as the API shows it. */
export interface SubscriptionView {
  subscription_id: string;
  event_type: string | null;
  entity_id: string | null;
  domain: string | null;
  created_at: string;
}

export const subscriptionView = (id: string, f: EventFilter, createdAt: string): SubscriptionView => ({
  subscription_id: id,
  event_type: f.event_type ?? null,
  entity_id: f.entity_id ?? null,
  domain: f.domain ?? null,
  created_at: createdAt,
});

export class SubscriptionCap {
  private readonly held = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Refuses a new subscription for a client that holds the most it may (429). */
  check(client: string): void {
    if ((this.held.get(client) ?? 0) >= this.max) {
      throw new AppError('SUBSCRIPTION_LIMIT', 429, `A client may hold at most ${this.max} event subscriptions; remove one first`, { limit: this.max });
    }
  }

  count(client: string, delta: number): void {
    const n = (this.held.get(client) ?? 0) + delta;
    if (n > 0) this.held.set(client, n);
    else this.held.delete(client);
  }
}
