// Conditions of automations and scripts, checked against the states as Home Assistant checks them
// (helpers/condition.py), with the trace entries it writes: "condition/0" with the result, and per
// entity "condition/0/entity_id/0" with the state found and the state wanted.
import type { Hub } from '../hub.js';
import { isPlainObject } from '../schema.js';
import type { TraceRun } from './traces.js';

export class ConditionError extends Error {
  override name = 'ConditionError';
}

const list = (x: unknown): unknown[] =>
  x === undefined || x === null ? [] : Array.isArray(x) ? x : typeof x === 'string' ? x.split(',').map((s) => s.trim()) : [x];

export interface ConditionTrace {
  run: TraceRun;
  path: string;
}

/** Whether a condition holds now; each check is recorded in the trace when one is given. */
export function checkCondition(hub: Hub, c: unknown, trace?: ConditionTrace): boolean {
  const record = (path: string, result: Record<string, unknown>) => trace?.run.step(path, { result });
  if (!isPlainObject(c)) throw new ConditionError('the simulator does not evaluate template conditions');
  // The condition's own entry comes before its entities' ones, as Home Assistant writes them.
  const own = trace?.run.step(trace.path, { result: { result: false } });
  const kind = c.condition;
  let result: boolean;
  if (kind === 'state') {
    const wanted = list(c.state).map(String);
    result = true;
    for (const [i, id] of list(c.entity_id).entries()) {
      const state = hub.states.get(String(id))?.state ?? null;
      const ok = state !== null && wanted.includes(state);
      record(`${trace?.path}/entity_id/${i}`, { result: ok, state, wanted_state: wanted.length === 1 ? wanted[0] : wanted });
      // Home Assistant stops at the first entity that fails (match: all).
      if (!ok) {
        result = false;
        break;
      }
    }
  } else if (kind === 'numeric_state') {
    result = true;
    for (const [i, id] of list(c.entity_id).entries()) {
      const raw = hub.states.get(String(id))?.state;
      const value = raw === undefined ? Number.NaN : Number(raw);
      const above = c.above === undefined ? undefined : Number(c.above);
      const below = c.below === undefined ? undefined : Number(c.below);
      const ok = Number.isFinite(value) && (above === undefined || value > above) && (below === undefined || value < below);
      record(`${trace?.path}/entity_id/${i}`, {
        result: ok,
        state: Number.isFinite(value) ? value : (raw ?? null),
        ...(above !== undefined ? { wanted_state_above: above } : {}),
        ...(below !== undefined ? { wanted_state_below: below } : {}),
      });
      if (!ok) {
        result = false;
        break;
      }
    }
  } else if (kind === 'and' || kind === 'or' || kind === 'not') {
    const inner = list(c.conditions).map((x, i) => checkCondition(hub, x, trace ? { run: trace.run, path: `${trace.path}/conditions/${i}` } : undefined));
    result = kind === 'and' ? inner.every(Boolean) : kind === 'or' ? inner.some(Boolean) : !inner.some(Boolean);
  } else {
    throw new ConditionError(`the simulator does not evaluate ${String(kind)} conditions`);
  }
  if (own) own.result = { result };
  return result;
}
