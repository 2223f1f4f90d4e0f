// A tool's arguments refuse what they do not name: the object schema a plugin gives becomes a
// strict one (published with additionalProperties: false), keeping its entries and messages.
import * as v from 'valibot';
import type { ToolInput } from '../plugin-sdk/index.js';
import { jsonSchemaOfInput } from '../plugin-sdk/json-input.js';

export function strictInput(input: ToolInput): v.GenericSchema {
  if (input.type === 'strict_object' || jsonSchemaOfInput(input)) return input;
  return v.strictObject((input as v.ObjectSchema<v.ObjectEntries, undefined>).entries, (input as { message?: unknown }).message as never);
}
