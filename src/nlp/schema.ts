// The command's input and result, as schemas: the REST route, the WebSocket message and the MCP tool
// check the same input and publish the same result.
import * as v from 'valibot';

const text = v.string();

/** {command, context?: {area?}, dry_run?, language?, confirm?, choose?, code?}; the length limit is COMMAND_MAX_LENGTH, checked by the service. */
export const commandFields = {
  command: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty')),
  context: v.optional(
    v.strictObject(
      { area: v.optional(v.pipe(v.string('must be a string'), v.maxLength(100, 'must be at most 100 characters'))) },
      'must be an object such as {"area": "Kitchen"}',
    ),
  ),
  dry_run: v.optional(v.boolean('must be true or false')),
  language: v.optional(
    v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag (BCP 47) such as en, de or de-CH')),
  ),
  confirm: v.optional(v.boolean('must be true or false')),
  /** Settles an ambiguity: the entity meant, one of the candidates the last answer listed. */
  choose: v.optional(
    v.pipe(v.string('must be a string'), v.regex(/^[a-z_]+\.[a-z0-9_]+$/, 'must be an entity id from the candidates, such as light.desk_lamp')),
  ),
  /** The code for a lock or alarm panel that wants one, where the words gave none. */
  code: v.optional(v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(32, 'must be at most 32 characters'))),
};
export const commandSchema = v.strictObject(commandFields);

export const commandResult = v.object({
  success: v.boolean(),
  actions: v.array(
    v.object({
      entity_id: text,
      action: text,
      parameters: v.record(v.string(), v.unknown()),
      status: v.picklist(['planned', 'completed', 'failed']),
      needs_confirmation: v.optional(v.boolean()),
      state: v.optional(v.nullable(text)),
      verified: v.optional(v.boolean()),
      pending: v.optional(v.boolean()),
      expected: v.optional(v.record(v.string(), v.unknown())),
      actual: v.optional(v.record(v.string(), v.unknown())),
      error: v.optional(v.object({ code: text, message: text })),
    }),
  ),
  message: text,
  dry_run: v.boolean(),
  action: v.optional(text),
  device: v.optional(text),
  query: v.optional(v.object({ question: text, entities: v.array(text), matching: v.array(text), answer: text })),
  candidates: v.optional(v.array(v.object({ entity_id: text, name: text, area: v.nullable(text) }))),
  effects: v.optional(
    v.array(
      v.object({ entity_id: v.string(), service: text, via: v.optional(text), needs_confirmation: v.optional(v.boolean()), cannot_tell: v.optional(text) }),
    ),
  ),
  may_also_run: v.optional(v.array(v.object({ automation: text, because: text }))),
});
