// How deep JSON nests, measured on text before parsing and on values (src/json-depth.ts).
import { expect, test } from 'vitest';
import { MAX_JSON_DEPTH, textTooDeep, valueTooDeep } from '../../src/json-depth.js';
import { anyObject, check } from '../../src/validation.js';

const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

test('text: the depth of objects and arrays, not of brackets inside strings', () => {
  expect(textTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
  expect(textTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  expect(textTooDeep(`{"a":"${'['.repeat(100)}"}`)).toBe(false);
  // An escaped quote does not end the string.
  expect(textTooDeep(`{"a":"\\"${'{'.repeat(100)}"}`)).toBe(false);
  expect(textTooDeep(Buffer.from(`["é€😀", ${nested(40)}]`))).toBe(true);
});

test('values: the same measure, and anyObject refuses what is deeper', () => {
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = { a: deep };
  expect(valueTooDeep(deep)).toBe(true);
  expect(valueTooDeep(deep.a)).toBe(false);
  expect(() => check(anyObject, deep.a)).not.toThrow();
  expect(() => check(anyObject, deep)).toThrow(/nested more than 32 levels deep/);
});
