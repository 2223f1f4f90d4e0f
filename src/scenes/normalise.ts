// Scene bodies in both accepted action shapes (docs/api.md: Scenes), brought to one stored form: DeviceCommand
// {entity_id, action, parameters}. The shorthand {device, action, value} maps as
//   on / off          -> turn_on / turn_off
//   dim + value       -> turn_on {brightness_pct: value}
//   anything else     -> that action by name, with the value (if any) as parameters.value
// Every action is then checked by ActionExecutor.plan, the one place that knows entities and
// services; the stored action keeps the generic name (close, set_value) and is resolved to a
// service again at activation, against the hub's services of that moment.
import * as v from 'valibot';
import { checkEntityId, type ActionExecutor } from '../actions/executor.js';
import { AppError, invalidParameters } from '../errors.js';
import type { SceneAction } from '../store/scenes.js';
import { anyObject, check } from '../validation.js';

const actionName = v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters'));

const commandShape = v.strictObject({
  entity_id: v.string('must be a string'),
  action: actionName,
  parameters: v.optional(anyObject),
});

const shorthandShape = v.strictObject({
  device: v.string('must be a string'),
  action: actionName,
  value: v.optional(v.union([v.number(), v.string(), v.boolean()], 'must be a number, a string or true/false')),
});

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** One action in either shape, in the stored form (not yet checked against the hub). */
export function normaliseAction(item: unknown, at: string): SceneAction {
  if (!isObject(item)) throw invalidParameters(`${at}: must be {entity_id, action, parameters?} or {device, action, value?}`, { field: at });
  if ('entity_id' in item || !('device' in item)) {
    const c = check(commandShape, item, { at });
    return { entity_id: c.entity_id, action: c.action, parameters: c.parameters ?? {} };
  }
  const s = check(shorthandShape, item, { at });
  const { device: entity_id, action, value } = s;
  switch (action) {
    case 'on':
    case 'off':
      if (value !== undefined) throw invalidParameters(`${at}.value: ${action} takes no value (dim takes a brightness percent)`, { field: `${at}.value` });
      return { entity_id, action: action === 'on' ? 'turn_on' : 'turn_off', parameters: {} };
    case 'dim':
      if (typeof value !== 'number') throw invalidParameters(`${at}.value: dim needs a brightness percent (0-100)`, { field: `${at}.value` });
      return { entity_id, action: 'turn_on', parameters: { brightness_pct: value } };
    default:
      return { entity_id, action, parameters: value === undefined ? {} : { value } };
  }
}

/** Checks a stored-form action against the hub; its errors name the action's place. */
export function checkAction(executor: ActionExecutor, a: SceneAction, at: string, allowUnknownEntity: boolean): void {
  try {
    // The bridge's own scenes keep ids as the hub writes them: a direct command may spell one in any case, a stored scene may not.
    checkEntityId(a.entity_id);
    executor.plan(a, { allowUnknownEntity });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw new AppError(err.code, err.status, `${at}: ${err.message}`, { ...err.details, at });
  }
}
