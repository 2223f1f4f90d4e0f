// Home Assistant's `mcp` integration converts every tool's input schema and refuses the whole
// server when one does not convert. The rule, and every built-in tool held to it. (The end-to-end
// suite runs Home Assistant's own converter on the same schemas.)
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import type { PluginDefinition } from '../../src/plugin-sdk/index.js';
import { strictInput } from '../../src/plugin-host/strict-input.js';
import { homeAssistantSchemaProblems } from '../../src/plugin-host/ha-schema.js';
import { jsonSchemaOf } from '../../src/validation.js';

const byte = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255));
const problemsOf = (schema: v.GenericSchema) => homeAssistantSchemaProblems(jsonSchemaOf(v.object({ x: schema })));

describe('the rule', () => {
  test('an open tuple is refused; a closed one and a list with a length are not', () => {
    expect(problemsOf(v.tuple([byte, byte, byte]))).toEqual([expect.stringMatching(/inputSchema\.x: an open tuple/)]);
    expect(problemsOf(v.strictTuple([byte, byte, byte]))).toEqual([]);
    expect(problemsOf(v.pipe(v.array(byte), v.length(3)))).toEqual([]);
  });

  test('found wherever it nests: in a list, a union, an optional object', () => {
    const nested = v.object({
      colours: v.array(v.tuple([byte, byte])),
      either: v.union([v.string(), v.tuple([v.string()])]),
      deep: v.optional(v.object({ t: v.tuple([v.number()]) })),
    });
    expect(homeAssistantSchemaProblems(jsonSchemaOf(nested)).map((p) => p.split(':')[0])).toEqual([
      'inputSchema.colours.items',
      'inputSchema.either.anyOf[1]',
      'inputSchema.deep.t',
    ]);
  });

  test('keywords the converter does not evaluate, the positional items form, outside $ref, bad types', () => {
    const raw = {
      type: 'object',
      properties: {
        a: { type: 'object', patternProperties: { '^x': { type: 'string' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited
        b: { if: { type: 'string' }, then: { minLength: 1 } },
        c: { type: 'array', items: [{ type: 'string' }] },
        d: { $ref: 'https://example.com/schema.json' },
        e: { type: 'text' },
        f: { type: 'object', unevaluatedProperties: false },
      },
    };
    expect(homeAssistantSchemaProblems(raw)).toEqual([
      'inputSchema.a: "patternProperties" is not supported',
      'inputSchema.b: "if" is not supported',
      'inputSchema.c: the positional "items": [...] form is not supported',
      'inputSchema.d: $ref "https://example.com/schema.json" points outside the document',
      'inputSchema.e: "text" is not a JSON Schema type',
      'inputSchema.f: "unevaluatedProperties" is not supported',
    ]);
    expect(homeAssistantSchemaProblems({ type: 'object', properties: { ok: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } })).toEqual([]);
  });

  test("patterns in JavaScript's own syntax, which Python's re refuses", () => {
    expect(problemsOf(v.pipe(v.string(), v.regex(/^(?<room>[a-z]+)$/)))).toEqual([expect.stringContaining('named group')]);
    // valibot refuses to publish a flagged pattern such as /\p{L}/u, so a plugin's raw schema could only bring it.
    expect(homeAssistantSchemaProblems({ type: 'string', pattern: '^\\p{L}+$' })).toEqual([expect.stringContaining('Unicode property')]);
    expect(problemsOf(v.pipe(v.string(), v.regex(/^light\.[a-z0-9_]+$/)))).toEqual([]);
    expect(problemsOf(v.pipe(v.string(), v.regex(/^(?<=a)b(?!c)$/)))).toEqual([]);
  });

  test('dependentRequired only in its symmetric form', () => {
    expect(homeAssistantSchemaProblems({ type: 'object', dependentRequired: { a: ['b'] } })).toEqual([expect.stringContaining('symmetric (a needs b')]);
    expect(homeAssistantSchemaProblems({ type: 'object', dependentRequired: { a: ['b'], b: ['a'] } })).toEqual([]);
  });
});

test("every built-in tool's input schema converts, as tools/list publishes it", async () => {
  const dir = fileURLToPath(new URL('../../plugins/', import.meta.url));
  const names: string[] = [];
  for (const folder of readdirSync(dir)
    .sort()
    .filter((f) => existsSync(`${dir}${f}/index.ts`))) {
    const plugin = ((await import(new URL(`../../plugins/${folder}/index.ts`, import.meta.url).href)) as { default: PluginDefinition }).default;
    for (const tool of plugin.tools ?? []) {
      names.push(tool.name);
      // As the registry publishes it: strict, additionalProperties false.
      expect(homeAssistantSchemaProblems(jsonSchemaOf(strictInput(tool.input))), tool.name).toEqual([]);
    }
  }
  expect(names).toContain('control_lights');
  expect(names.length).toBeGreaterThanOrEqual(18);
});
