// The one validator: plain words for every problem, all problems listed, values echoed only as a prefix.
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { AppError } from '../../src/errors.js';
import { check, ECHO_MAX, validate } from '../../src/validation.js';

const schema = v.strictObject({
  entity_id: v.pipe(v.string(), v.maxLength(10)),
  count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5))),
  mode: v.optional(v.picklist(['a', 'b'])),
  tags: v.optional(v.pipe(v.array(v.string()), v.minLength(1))),
  nested: v.optional(v.object({ deep: v.boolean() })),
});

function problems(input: unknown) {
  try {
    check(schema, input);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('no problem found');
}

describe('check', () => {
  test('a missing field is "required", never the library wording', () => {
    const e = problems({});
    expect(e.status).toBe(400);
    expect(e.code).toBe('INVALID_PARAMETERS');
    expect(e.message).toBe('entity_id: is required');
    expect(e.details.field).toBe('entity_id');
  });

  test('every problem is listed, each named by its path, in plain words', () => {
    const e = problems({ entity_id: 7, count: 1.5, mode: 'c', tags: [], nested: { deep: 'yes' }, extra: 1 });
    const issues = e.details.issues as { field: string; message: string }[];
    const byField = Object.fromEntries(issues.map((i) => [i.field, i.message]));
    expect(byField).toEqual({
      entity_id: 'must be a string',
      count: 'must be a whole number',
      mode: 'must be one of "a", "b"',
      tags: 'must be at least 1 items long',
      'nested.deep': 'must be true or false',
      extra: 'unknown field',
    });
    expect(e.message).toMatch(/^entity_id: must be a string \(and 5 more problems\)$/);
    for (const i of issues) expect(i.message).not.toMatch(/Invalid|Expected|received/);
  });

  test('an over-long value is said to be too long, and echoed only as a short prefix', () => {
    const long = 'x'.repeat(5000);
    const e = problems({ entity_id: long });
    const [issue] = e.details.issues as { field: string; message: string; value: string }[];
    expect(issue!.message).toBe('is too long: at most 10 characters');
    expect(issue!.value.length).toBeLessThanOrEqual(ECHO_MAX + 1);
    expect(JSON.stringify(e.details).length).toBeLessThan(400);
  });

  test('messages a schema gives are kept; `at` prefixes the path', () => {
    const named = v.object({ name: v.pipe(v.string(), v.nonEmpty('must not be empty')) });
    expect(() => check(named, { name: '' }, { at: 'actions.3' })).toThrow('actions.3.name: must not be empty');
    expect(() => check(named, 'nope', { what: 'query' })).toThrow('query: must be an object');
  });

  test('validate answers instead of throwing', () => {
    expect(validate(schema, { entity_id: 'light.a' })).toEqual({ ok: true, value: { entity_id: 'light.a' } });
    const bad = validate(schema, { entity_id: 'light.a', count: 9 }, 'options');
    expect(bad).toEqual({ ok: false, issues: [{ field: 'options.count', message: 'must be at most 5', value: 9 }] });
  });
});
