// The tool list without keywords that only restate a default: the same schema, fewer tokens.
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { compactAnnotations, compactSchema } from '../../src/plugin-host/compact-schema.js';
import { jsonSchemaOf } from '../../src/validation.js';

describe('compactSchema', () => {
  test('a record of anything is an object; an empty required list and an open additionalProperties go', () => {
    const { $schema: _, ...schema } = jsonSchemaOf(v.object({ data: v.record(v.string(), v.unknown()), note: v.optional(v.string()) })) as Record<
      string,
      unknown
    >;
    expect(schema.properties).toMatchObject({ data: { propertyNames: { type: 'string' }, additionalProperties: {} } });
    expect(compactSchema(schema)).toEqual({ type: 'object', properties: { data: { type: 'object' }, note: { type: 'string' } }, required: ['data'] });
    expect(compactSchema({ type: 'object', properties: {}, required: [] })).toEqual({ type: 'object', properties: {} });
  });

  test('a value or null is one type list; an anyOf with constraints stays', () => {
    expect(compactSchema({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toEqual({ type: ['string', 'null'] });
    const either = {
      anyOf: [
        { type: 'string', pattern: '^a' },
        { type: 'array', items: { type: 'string' } },
      ],
    };
    expect(compactSchema(either)).toEqual(either);
  });

  test('what constrains is kept: closed objects, typed keys, limits, nested everywhere', () => {
    const closed = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { x: { anyOf: [{ type: 'number' }, { type: 'null' }] } }, required: [] }, minItems: 1 },
        keyed: { type: 'object', propertyNames: { type: 'string', pattern: '^[a-z]+$' }, additionalProperties: { type: 'number' } },
      },
      additionalProperties: false,
      required: ['list'],
    };
    expect(compactSchema(closed)).toEqual({
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { x: { type: ['number', 'null'] } } }, minItems: 1 },
        keyed: closed.properties.keyed,
      },
      additionalProperties: false,
      required: ['list'],
    });
  });
});

test('compactAnnotations drops the hints that state MCP’s defaults and keeps readOnlyHint', () => {
  expect(compactAnnotations({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false })).toEqual({
    readOnlyHint: false,
    destructiveHint: false,
    openWorldHint: false,
  });
  expect(compactAnnotations({ readOnlyHint: true, idempotentHint: true, destructiveHint: true, openWorldHint: true })).toEqual({
    readOnlyHint: true,
    idempotentHint: true,
  });
});
