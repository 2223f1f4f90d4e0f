// The event message every client receives, made once per event from what the
// bus carries, whatever the transport.
import { domainOf, isEntityId } from '../hub/entity-id.js';
import type { HubContext, HubEvent, HubState } from '../hub/types.js';
import type { EventKeys } from '../events/filter.js';

export interface StateView {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
}

export interface EventMessage {
  event_type: string;
  /** The entity the event is about, or null for events about none (homeassistant_start). */
  entity_id: string | null;
  /** For state_changed: old_state and new_state; other events keep the hub's data. */
  data: Record<string, unknown>;
  origin: string;
  time_fired: string;
  context: HubContext;
}

const stateView = (s: HubState | null | undefined): StateView | null =>
  s ? { entity_id: s.entity_id, state: s.state, attributes: s.attributes, last_changed: s.last_changed, last_updated: s.last_updated } : null;

export function eventMessage(e: HubEvent): EventMessage {
  const raw = e.data?.entity_id;
  const entity_id = typeof raw === 'string' ? raw : null;
  const data =
    e.event_type === 'state_changed'
      ? { entity_id, old_state: stateView(e.data.old_state as HubState | null), new_state: stateView(e.data.new_state as HubState | null) }
      : (e.data ?? {});
  const c = e.context ?? { id: '', parent_id: null, user_id: null };
  return {
    event_type: e.event_type,
    entity_id,
    data,
    origin: e.origin ?? 'LOCAL',
    time_fired: e.time_fired,
    context: { id: c.id, parent_id: c.parent_id ?? null, user_id: c.user_id ?? null },
  };
}

export function keysOf(m: EventMessage): EventKeys {
  return { event_type: m.event_type, entity_id: m.entity_id, domain: m.entity_id && isEntityId(m.entity_id) ? domainOf(m.entity_id) : null };
}
