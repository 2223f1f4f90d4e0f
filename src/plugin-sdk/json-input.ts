// A tool's arguments given as JSON Schema (2020-12) instead of a valibot object, for what valibot
// cannot say ($defs and $ref, if/then/else, allOf/anyOf): published exactly as written, and
// checked by the MCP SDK's own JSON Schema validator. The schema must refuse what it does not
// name (additionalProperties or unevaluatedProperties false), as every tool's arguments do.
import * as v from 'valibot';
import { fromJsonSchema } from '@modelcontextprotocol/server';

/** Where a JSON-Schema input keeps the schema it publishes. */
export const JSON_SCHEMA = Symbol.for('home-mcp-bridge.json-schema');

// biome-ignore lint/complexity/noBannedTypes: valibot's type for v.looseObject({}), an object with no declared entries
export type JsonInput = v.SchemaWithPipe<readonly [v.LooseObjectSchema<{}, undefined>, v.RawCheckAction<{ [k: string]: unknown }>]> & {
  [JSON_SCHEMA]: Record<string, unknown>;
};

export function jsonInput(schema: Record<string, unknown>): JsonInput {
  if (schema.type !== 'object') throw new TypeError('jsonInput: the schema must have type "object"');
  if (schema.additionalProperties !== false && schema.unevaluatedProperties !== false)
    throw new TypeError('jsonInput: the schema must refuse arguments it does not name (additionalProperties: false)');
  const standard = fromJsonSchema<Record<string, unknown>>(schema as never);
  const checked = v.pipe(
    v.looseObject({}),
    v.rawCheck(({ dataset, addIssue }) => {
      const result = standard['~standard'].validate(dataset.value) as {
        issues?: readonly { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] }[];
      };
      for (const issue of result.issues ?? []) {
        const path = (issue.path ?? []).map((p) => (typeof p === 'object' ? p.key : p)).join('.');
        addIssue({ message: path ? `${path}: ${issue.message}` : issue.message });
      }
    }),
  );
  return Object.assign(checked, { [JSON_SCHEMA]: schema }) as JsonInput;
}

/** The JSON Schema a tool input was written as, when it was. */
export const jsonSchemaOfInput = (input: unknown): Record<string, unknown> | undefined => (input as { [JSON_SCHEMA]?: Record<string, unknown> })[JSON_SCHEMA];
