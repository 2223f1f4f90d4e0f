// The filters as callers give them: one schema serves the REST body, the SSE query and the
// WebSocket message. What a filter is and how it matches lives below, in src/events/filter.ts.
import * as v from 'valibot';
import { isEntityId, MAX_ENTITY_ID } from '../hub/entity-id.js';

// Home Assistant stores event types up to 64 characters; custom ones are any such name.
const EVENT_TYPE = /^[A-Za-z0-9_.:-]{1,64}$/;
const DOMAIN = /^(?!_)[a-z0-9_]{1,64}(?<!_)$/;

const eventType = v.pipe(
  v.string('must be a string'),
  v.regex(EVENT_TYPE, 'must be an event type such as state_changed (letters, digits, _ . : -, at most 64)'),
);
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
