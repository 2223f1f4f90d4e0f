// One error type for the whole service. Its wire shapes are chosen in src/http/error-body.ts.

export type ErrorCode =
  | 'INVALID_ENTITY'
  | 'INVALID_ACTION'
  | 'INVALID_PARAMETERS'
  | 'AUTHENTICATION_ERROR'
  | 'CONNECTION_ERROR'
  | 'DEVICE_NOT_FOUND'
  | 'FORBIDDEN'
  | 'CONFIRMATION_REQUIRED'
  | 'NOT_UNDERSTOOD'
  | 'AMBIGUOUS'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'BAD_REQUEST'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'METHOD_NOT_ALLOWED'
  | 'RATE_LIMITED'
  | 'SUBSCRIPTION_LIMIT'
  | 'OVERLOADED'
  | 'UNSUPPORTED_BY_CLIENT'
  | 'HUB_ERROR'
  | 'SHUTTING_DOWN'
  | 'INTERNAL_ERROR';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;
  /** Response headers that belong to this error (Retry-After, WWW-Authenticate). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, status: number, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = details;
    this.headers = headers;
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) => new AppError('BAD_REQUEST', 400, message, details);
export const invalidParameters = (message: string, details?: Record<string, unknown>) => new AppError('INVALID_PARAMETERS', 400, message, details);
export const notFound = (message: string, details?: Record<string, unknown>) => new AppError('NOT_FOUND', 404, message, details);
export const conflict = (message: string, details?: Record<string, unknown>) => new AppError('CONFLICT', 409, message, details);
/** One entity an ambiguous request may have meant. */
export interface Candidate {
  entity_id: string;
  /** Its name as the hub gives it (friendly name, else the id). */
  name: string;
  /** Its area's name, or null. */
  area: string | null;
}

/**
 * A request that names more than one entity where it means one ("the lamp" with three lamps) and
 * no way to ask which: nothing is done, and the caller reads the candidates (entities of the
 * domain the request acts on only) to call again with one. 409 over REST; an isError result over
 * MCP; the same details everywhere: `candidates`, and where known `noun` (the word that matched
 * several) and `domain`.
 */
export const ambiguous = (message: string, candidates: readonly Candidate[], details: { noun?: string; domain?: string; [k: string]: unknown } = {}) =>
  new AppError('AMBIGUOUS', 409, message, { ...details, candidates: candidates.map(({ entity_id, name, area }) => ({ entity_id, name, area })) });

export const unauthorized = (message = 'A valid bearer token is required') => new AppError('AUTHENTICATION_ERROR', 401, message);
export const hubUnavailable = (message = 'The hub is not connected') => new AppError('CONNECTION_ERROR', 503, message);

/** Wraps anything thrown into an AppError; unknown errors become a 500 that leaks nothing. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('INTERNAL_ERROR', 500, 'Internal server error');
}
