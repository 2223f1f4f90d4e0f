// A WebSocket topic: every subscription with the same filter, on any connection, is the same
// topic, with an id made from the filter, so each event's message is made once and the transport
// sends the very same bytes to every socket subscribed (uWS's own publish).
import { createHash } from 'node:crypto';
import { filterKey, type EventFilter } from '../events/filter.js';
import type { IndexEntry } from './subscription-index.js';

/** The subscription id (and topic name) of a filter: the same filter, the same id, on every connection. */
export const topicName = (f: EventFilter): string => `ws-${createHash('sha256').update(filterKey(f)).digest('base64url').slice(0, 22)}`;

export class Topic {
  /** Sockets subscribed now (not suspended by their budget), and how many of them per client. */
  size = 0;
  readonly clients = new Map<string, number>();
  /** Connections holding this subscription, suspended ones included. */
  holders = 0;
  /** Messages published since the topic began, and when the last one went (connections' clock, -1: none). */
  published = 0;
  lastAt = -1;
  lastSeq = -1;
  /** Messages made this round, not yet handed to the transport, with their events' arrival. */
  pending: string[] = [];
  arrivals: number[] = [];
  queued = false;
  readonly entry: IndexEntry<Topic>;

  constructor(
    readonly name: string,
    readonly filter: EventFilter,
  ) {
    this.entry = { filter, target: this };
  }

  /** The event message of one event for this topic. */
  message(seq: number, json: string): string {
    return `{"type":"event","subscription_id":"${this.name}","seq":${seq},"event":${json}}`;
  }

  join(client: string): void {
    this.size++;
    this.clients.set(client, (this.clients.get(client) ?? 0) + 1);
  }

  leave(client: string): void {
    this.size--;
    const n = (this.clients.get(client) ?? 1) - 1;
    if (n > 0) this.clients.set(client, n);
    else this.clients.delete(client);
  }
}
