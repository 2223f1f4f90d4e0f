import { expect, test } from 'vitest';
import { AppError, toAppError } from '../../src/errors.js';
import { errorBody, rateLimitBody } from '../../src/http/error-body.js';

const err = new AppError('INVALID_ENTITY', 404, 'Entity light.x not found', { entity_id: 'light.x', available_entities: [] });

test('core shape', () => {
  expect(errorBody(err, 'core')).toEqual({
    error: true,
    code: 'INVALID_ENTITY',
    message: 'Entity light.x not found',
    details: { entity_id: 'light.x', available_entities: [] },
  });
});

test('SSE-statistics shape', () => {
  expect(errorBody(err, 'sse')).toEqual({ success: false, message: 'Entity light.x not found', error_code: 'INVALID_ENTITY' });
});

test('rate-limit shape', () => {
  expect(rateLimitBody(1_800_000_000)).toEqual({ error: true, code: 'RATE_LIMITED', message: expect.any(String), reset: 1_800_000_000 });
});

test('anything that is not an AppError becomes a 500 that says nothing about itself', () => {
  const e = toAppError(new Error('database password is hunter2'));
  expect(e).toMatchObject({ code: 'INTERNAL_ERROR', status: 500, message: 'Internal server error', details: {} });
  expect(toAppError(err)).toBe(err);
});
