// The one place where errors become wire bodies. Three shapes exist (docs/api.md: Errors).
import type { AppError } from '../errors.js';

export type ErrorShape = 'core' | 'sse';

export function errorBody(err: AppError, shape: ErrorShape): Record<string, unknown> {
  if (shape === 'sse') return { success: false, message: err.message, error_code: err.code };
  if (err.code === 'RATE_LIMITED' && typeof err.details.reset === 'number') return rateLimitBody(err.details.reset);
  return { error: true, code: err.code, message: err.message, details: err.details };
}

/** 429 has its own shape: `reset` is the epoch second when the window opens again (and `code`, as every error has). */
export function rateLimitBody(resetEpochSeconds: number): Record<string, unknown> {
  return { error: true, code: 'RATE_LIMITED', message: 'Too many requests, retry after the reset time', reset: resetEpochSeconds };
}
