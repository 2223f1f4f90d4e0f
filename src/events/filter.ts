// What a subscription selects: an event type, an entity id and a domain, each optional; an
// omitted one matches everything. The bottom of the event layers: the store, the history and the
// fan-out all read filters through these, and this module imports nothing.

export interface EventFilter {
  event_type?: string;
  entity_id?: string;
  domain?: string;
}

/** The fields of an event that filters look at, computed once per event. */
export interface EventKeys {
  event_type: string;
  entity_id: string | null;
  domain: string | null;
}

/** The filter without its empty members, so `{}` and `{domain: undefined}` are the same. */
export function normalFilter(f: EventFilter): EventFilter {
  const out: EventFilter = {};
  if (f.event_type) out.event_type = f.event_type;
  if (f.entity_id) out.entity_id = f.entity_id;
  if (f.domain) out.domain = f.domain;
  return out;
}

export const isEmptyFilter = (f: EventFilter) => !f.event_type && !f.entity_id && !f.domain;

export function matches(f: EventFilter, e: EventKeys): boolean {
  return (!f.event_type || f.event_type === e.event_type) && (!f.entity_id || f.entity_id === e.entity_id) && (!f.domain || f.domain === e.domain);
}

/** A stable key for "the same filters" (409 on a repeat, one delivery channel per filter). */
export const filterKey = (f: EventFilter) => `${f.event_type ?? ''}\u0000${f.entity_id ?? ''}\u0000${f.domain ?? ''}`;
