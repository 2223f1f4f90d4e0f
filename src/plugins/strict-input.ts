// A tool's arguments refuse what they do not name: the object schema a plugin gives becomes a
// strict one (published with additionalProperties: false), keeping its entries and messages.
import * as v from 'valibot';
import type { ToolInput } from '../plugin/index.js';

export function strictInput(input: ToolInput): v.GenericSchema {
  if (input.type === 'strict_object') return input;
  return v.strictObject(input.entries, input.message as never);
}
