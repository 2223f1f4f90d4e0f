// The one in-process event bus: hub events and the service's own events (scene_activated,
// hub_connected, ...) all pass through here on their way to history, subscriptions and the streams.
import { randomUUID } from 'node:crypto';
import mittImport, { type Emitter, type EventType } from 'mitt';
import type { HubContext, HubEvent } from './hub/types.js';

/** `event`: hub and service events; `tools_changed`: a plugin said which tools it offers may have changed (not a hub event: never stored or streamed). */
export type BusEvents = { event: HubEvent; tools_changed: undefined };
export type Bus = Emitter<BusEvents>;

// mitt ships ESM at run time but CommonJS-style types, so the default import is typed as the module.
type Mitt = <E extends Record<EventType, unknown>>() => Emitter<E>;
const mitt = ((mittImport as unknown as { default?: Mitt }).default ?? (mittImport as unknown as Mitt)) as Mitt;

export const createBus = (): Bus => mitt<BusEvents>();

export function newContext(userId: string | null = null): HubContext {
  return { id: randomUUID().replace(/-/g, ''), parent_id: null, user_id: userId };
}

/** An event made by the bridge itself, shaped like the hub's. */
export function serviceEvent(eventType: string, data: object, userId: string | null = null): HubEvent {
  return { event_type: eventType, data: data as Record<string, unknown>, origin: 'LOCAL', time_fired: new Date().toISOString(), context: newContext(userId) };
}

/** The hub connection's own events. */
export const HUB_CONNECTED = 'hub_connected';
export const HUB_DISCONNECTED = 'hub_disconnected';

/** `hub_connected`: the hub client is connected and its states, services and registries are loaded. */
export interface HubConnectedData {
  kind: 'initial' | 'reconnect';
  /** Home Assistant's version. */
  version: string;
  /** Connection attempts this connection took (1: the first try). */
  attempt: number;
  /** Entities known after loading. */
  entities: number;
  /** On a reconnect: entities that changed, appeared or went away meanwhile (each also comes as a state_changed); 0 on the first. */
  changed: number;
  /** On a reconnect: how long the hub was away. */
  disconnected_for_ms?: number;
}

/**
 * `hub_disconnected`: the connection was lost (attempt 0), or an attempt to connect failed for a
 * reason other than the last one's (attempt counts the attempts since the last connection).
 */
export interface HubDisconnectedData {
  reason: 'connection_lost' | 'ping_timeout' | 'unreachable' | 'auth_invalid';
  /** The problem in words. */
  message: string;
  attempt: number;
  /** When the connection was lost, or when the client started if it never connected (ISO 8601). */
  since: string;
}
