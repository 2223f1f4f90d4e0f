// A tool's JSON Schema and annotations as a client reads them, without what says nothing: every
// tool in tools/list costs an assistant context (issue 35's budget), and the schema generator
// writes some keywords that only restate JSON Schema's or MCP's defaults. The meaning is kept:
// a value valid before is valid after, and no hint changes.
import type { ToolAnnotations } from '../plugin-sdk/index.js';

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Keywords whose value is one schema, or a list or map of schemas. */
const ONE = ['items', 'additionalProperties', 'propertyNames', 'not', 'contains', 'if', 'then', 'else'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', '$defs', 'patternProperties'];

/** A schema that only names a type (`{type: 'string'}`), as `anyOf` of a value or null has it. */
const bareType = (s: unknown): string | undefined => (isNode(s) && Object.keys(s).length === 1 && typeof s.type === 'string' ? s.type : undefined);

/**
 * The same schema, shorter: `propertyNames: {type: string}` (JSON's keys are strings),
 * `additionalProperties: {}` and `required: []` (the defaults) are dropped, and `anyOf` of bare
 * types (`string` or `null`) becomes one `type` list.
 */
export function compactSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(compactSchema) as T;
  if (!isNode(schema)) return schema;
  const out: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'propertyNames' && bareType(value) === 'string') continue;
    if (key === 'additionalProperties' && isNode(value) && Object.keys(value).length === 0) continue;
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue;
    if (key === 'anyOf' && Array.isArray(value) && value.length > 1 && value.every((s) => bareType(s)) && out.type === undefined && !('type' in schema)) {
      out.type = value.map(bareType);
      continue;
    }
    if (ONE.includes(key)) out[key] = compactSchema(value);
    else if (LIST.includes(key)) out[key] = Array.isArray(value) ? value.map(compactSchema) : value;
    else if (MAP.includes(key) && isNode(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, s]) => [k, compactSchema(s)]));
    else out[key] = value;
  }
  return out as T;
}

/** MCP's defaults: a tool is not read-only, may destroy, is not idempotent, reaches an open world. */
const DEFAULTS: Partial<Record<keyof ToolAnnotations, boolean>> = { destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * The annotations without hints that state MCP's default. `readOnlyHint` is always kept: the
 * bridge's own rule for read-only callers reads it, and clients show it.
 */
export function compactAnnotations(a: ToolAnnotations): ToolAnnotations {
  return Object.fromEntries(Object.entries(a).filter(([k, value]) => DEFAULTS[k as keyof ToolAnnotations] !== value)) as ToolAnnotations;
}
