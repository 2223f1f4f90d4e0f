// What a subscription selects: an event type, an entity id and a domain, each optional; an
// omitted one matches everything (interface part 6). One definition serves the REST body, the SSE
// query, the WebSocket message, the in-memory match and the history query.
import * as v from 'valibot';
import { isEntityId, MAX_ENTITY_ID } from '../hub/entity-id.js';

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

// Home Assistant stores event types up to 64 characters; custom ones are any such name.
const EVENT_TYPE = /^[A-Za-z0-9_.:-]{1,64}$/;
const DOMAIN = /^(?!_)[a-z0-9_]{1,64}(?<!_)$/;

const eventType = v.pipe(v.string('must be a string'), v.regex(EVENT_TYPE, 'must be an event type such as state_changed (letters, digits, _ . : -, at most 64)'));
const entityId = v.pipe(
  v.string('must be a string'),
  v.maxLength(MAX_ENTITY_ID, `must be at most ${MAX_ENTITY_ID} characters`),
  v.check((s: string) => isEntityId(s), 'must be an entity id such as light.kitchen'),
);
const domain = v.pipe(v.string('must be a string'), v.regex(DOMAIN, 'must be a domain such as light'));

/** The filters as a JSON body or WebSocket message fields: unknown keys are refused. */
export const filterFields = { event_type: v.optional(eventType), entity_id: v.optional(entityId), domain: v.optional(domain) };
export const filterSchema = v.strictObject(filterFields, 'must be an object with only event_type, entity_id and domain');

/** The filters as query parameters (other query parameters belong to the route). */
export const filterQuery = {
  event_type: v.optional(eventType),
  entity_id: v.optional(entityId),
  domain: v.optional(domain),
};

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

/** A stable key for "the same filters" (409 on a repeat). */
export const filterKey = (f: EventFilter) => `${f.event_type ?? ''}\u0000${f.entity_id ?? ''}\u0000${f.domain ?? ''}`;

/** SQL for "matches any of these filters" over the events table, with its parameters. */
export function filtersWhere(filters: readonly EventFilter[]): { sql: string; params: string[] } {
  if (filters.length === 0 || filters.some(isEmptyFilter)) return { sql: '1', params: [] };
  const params: string[] = [];
  const parts = filters.map((f) => {
    const c: string[] = [];
    if (f.event_type) c.push('event_type = ?'), params.push(f.event_type);
    if (f.entity_id) c.push('entity_id = ?'), params.push(f.entity_id);
    if (f.domain) c.push('domain = ?'), params.push(f.domain);
    return `(${c.join(' AND ')})`;
  });
  return { sql: `(${parts.join(' OR ')})`, params };
}
