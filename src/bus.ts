// The one in-process event bus: hub events and the service's own events (scene_activated, ...)
// all pass through here on their way to history, subscriptions and the streams.
import { randomUUID } from 'node:crypto';
import mittImport, { type Emitter, type EventType } from 'mitt';
import type { HubContext, HubEvent } from './hub/types.js';

export type BusEvents = { event: HubEvent };
export type Bus = Emitter<BusEvents>;

// mitt ships ESM at run time but CommonJS-style types, so the default import is typed as the module.
type Mitt = <E extends Record<EventType, unknown>>() => Emitter<E>;
const mitt = ((mittImport as unknown as { default?: Mitt }).default ?? (mittImport as unknown as Mitt)) as Mitt;

export const createBus = (): Bus => mitt<BusEvents>();

export function newContext(userId: string | null = null): HubContext {
  return { id: randomUUID().replace(/-/g, ''), parent_id: null, user_id: userId };
}

/** An event made by the bridge itself, shaped like the hub's. */
export function serviceEvent(eventType: string, data: Record<string, unknown>, userId: string | null = null): HubEvent {
  return { event_type: eventType, data, origin: 'LOCAL', time_fired: new Date().toISOString(), context: newContext(userId) };
}
