// The hub that acts: service calls, any WebSocket command, REST writes to the config API. Made only
// by the composition root (src/app.ts) and handed only to the action executor and the config service,
// so every change to the home passes the policy checkpoint; everyone else reads (src/hub/reader.ts).
import type { TargetKey } from './protocol.js';
import type { RestAnswer } from './reader.js';
import type { HubContext, HubState } from './types.js';

/** A call_service message's content, sent to the hub as it is. */
export interface HubServiceCall {
  domain: string;
  service: string;
  service_data?: Record<string, unknown>;
  /** The target as Home Assistant takes it; absent for services that take none. */
  target?: Partial<Record<TargetKey, string | string[]>>;
  return_response?: boolean;
}

export interface CallResult {
  context: HubContext;
  /** Each watched entity's state after the call (or its last known state if none came in time). */
  states: Map<string, HubState | undefined>;
  /** The service's response, when return_response was asked for. */
  response?: unknown;
}

export interface ActingHub {
  /**
   * Sends a call_service as it is given, and returns the state after the call of each watched
   * entity: the state_changed that carries the call's context when it came with the result, else
   * the next one within settleMs, else the cache.
   */
  call(call: HubServiceCall, opts?: { watch?: readonly string[]; settleMs?: number }): Promise<CallResult>;
  /** call() on entity ids, given as an entity_id target and watched. */
  callService(domain: string, service: string, data: Record<string, unknown>, entityIds: string[], opts?: { settleMs?: number }): Promise<CallResult>;
  /** Any command of the hub's WebSocket API, writes included (helpers, dashboards), answered with its result. */
  command<T>(message: { type: string; [k: string]: unknown }): Promise<T>;
  /** Fires an event on the hub's bus. */
  fireEvent(eventType: string, eventData: Record<string, unknown>): Promise<{ context?: HubContext }>;
  /** Home Assistant's REST API with any method: the config API's writes. */
  rest(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<RestAnswer>;
}
