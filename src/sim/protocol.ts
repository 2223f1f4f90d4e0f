// Pure builders for the hub's WebSocket messages, including the compressed entity format of
// subscribe_entities: {a: adds}, {c: changes with '+' and '-'}, {r: removals}.
import { MSG } from './names.js';
import type { HubEvent } from './bus.js';
import type { Translation } from './errors.js';
import { type State, type StateChangedData, deepEqual } from './states.js';
import { secondsFromMicros } from './time.js';

export const authRequired = (haVersion: string) => ({ type: MSG.authRequired, ha_version: haVersion });
export const authOk = (haVersion: string) => ({ type: MSG.authOk, ha_version: haVersion });
export const authInvalid = (message: string) => ({ type: MSG.authInvalid, message });

export const resultMessage = (id: number, result: unknown = null) => ({
  id,
  type: MSG.result,
  success: true,
  result,
});

export function errorMessage(id: unknown, code: string, message: string, translation?: Translation) {
  const error: Record<string, unknown> = { code, message };
  if (translation) {
    error.translation_key = translation.key;
    error.translation_placeholders = translation.placeholders;
    error.translation_domain = translation.domain;
  }
  return { id: id ?? null, type: MSG.result, success: false, error };
}

export const pongMessage = (id: number) => ({ id, type: MSG.pong });

/** An event message around an already serialised event body. */
export const eventMessageJson = (id: number, eventJson: string): string => `{"id":${id},"type":"${MSG.event}","event":${eventJson}}`;

export const eventMessage = (id: number, event: unknown) => ({ id, type: MSG.event, event });

/** The first message of subscribe_entities: every matching state, compressed. */
export function entitiesInitial(states: State[]): Record<string, unknown> {
  const a: Record<string, unknown> = {};
  for (const s of states) a[s.entityId] = s.compressed();
  return { a };
}

/** The subscribe_entities message body for one state_changed event. */
export function stateDiff(event: HubEvent<StateChangedData>): Record<string, unknown> {
  const { entity_id: entityId, old_state: oldState, new_state: newState } = event.data;
  if (!newState) return { r: [entityId] };
  if (!oldState) return { a: { [newState.entityId]: newState.compressed() } };
  return { c: { [newState.entityId]: diffStates(oldState, newState) } };
}

export function stateDiffJson(event: HubEvent<StateChangedData>): string {
  event.derived ??= JSON.stringify(stateDiff(event));
  return event.derived;
}

function diffStates(oldState: State, newState: State): Record<string, unknown> {
  const additions: Record<string, unknown> = {};
  const diff: Record<string, unknown> = { '+': additions };
  if (oldState.state !== newState.state) additions.s = newState.state;
  if (oldState.lastChanged !== newState.lastChanged) additions.lc = secondsFromMicros(newState.lastChanged);
  else if (oldState.lastUpdated !== newState.lastUpdated) additions.lu = secondsFromMicros(newState.lastUpdated);

  const oc = oldState.context;
  const nc = newState.context;
  let ctx: Record<string, unknown> | undefined;
  if (oc.parentId !== nc.parentId) (ctx ??= {}).parent_id = nc.parentId;
  if (oc.userId !== nc.userId) (ctx ??= {}).user_id = nc.userId;
  if (oc.id !== nc.id) {
    if (ctx) ctx.id = nc.id;
    else additions.c = nc.id;
  }
  if (ctx) additions.c = ctx;

  const oldAttrs = oldState.attributes;
  const changed: Record<string, unknown> = {};
  let anyChanged = false;
  for (const [key, value] of Object.entries(newState.attributes)) {
    // The hub compares with dict.get(), so a new key whose value is None looks unchanged.
    if (!deepEqual(oldAttrs[key] ?? null, value)) {
      changed[key] = value;
      anyChanged = true;
    }
  }
  if (anyChanged) additions.a = changed;
  const removed = Object.keys(oldAttrs).filter((k) => !(k in newState.attributes));
  if (removed.length > 0) diff['-'] = { a: removed };
  return diff;
}
