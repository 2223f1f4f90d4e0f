// The route table: every endpoint is registered here once, with whether it needs a token and which
// error shape it speaks. Auth, rate limiting, body parsing and error mapping happen in `serve` below,
// the single wrapper all routes share. /api/v1/... aliases come from `unversioned` in the adapter.
import polka from 'polka';
import { AppError, toAppError, unauthorized } from '../errors.js';
import type { Logger } from '../log.js';
import type { Principal, TokenService } from '../auth/tokens.js';
import { bearerToken } from '../auth/tokens.js';
import { readBody, type BridgeRequest, type ResponseAdapter } from './adapter.js';
import { errorBody, rateLimitBody, type ErrorShape } from './error-body.js';
import type { RateLimiter } from './rate-limit.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequest {
  id: string;
  method: Method;
  path: string;
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string>;
  ip: string;
  principal?: Principal;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  /** True once the client went away; long operations may stop early. */
  readonly aborted: boolean;
}

/** A handler returns a body (sent as 200 JSON) or a Reply for anything else. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}
export const reply = (status: number, body: unknown, headers?: Record<string, string>) => new Reply(status, body, headers);

export interface Route {
  method: Method;
  /** polka pattern, e.g. /api/state/:entity_id */
  path: string;
  summary: string;
  /** Reachable without a token (only /health and /auth/token). */
  public?: boolean;
  /** Counted by the rate limiter (default true; /health is not). */
  rateLimited?: boolean;
  errorShape?: ErrorShape;
  handler: (req: ApiRequest) => unknown;
}

export interface RouteDeps {
  tokens: TokenService;
  limiter: RateLimiter;
  bodyLimit: number;
  log: Logger;
}

/** The part of polka we use, typed for our request and response objects. */
export interface Router {
  add(method: string, path: string, handler: (req: BridgeRequest, res: ResponseAdapter) => unknown): unknown;
  handler(req: BridgeRequest, res: ResponseAdapter): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class RouteTable {
  private readonly list: Route[] = [];

  add(route: Route): this {
    if (this.list.some((r) => r.method === route.method && r.path === route.path)) {
      throw new Error(`route ${route.method} ${route.path} is registered twice`);
    }
    this.list.push(route);
    return this;
  }

  routes(): readonly Route[] {
    return this.list;
  }

  /** Builds the polka app that serves every route of the table. */
  toRouter(deps: RouteDeps): Router {
    const app = polka({
      onNoMatch: (req: BridgeRequest, res: ResponseAdapter) => this.noMatch(req, res),
      onError: (err: unknown, req: BridgeRequest, res: ResponseAdapter) => sendError(res, req, err, 'core', deps.log),
    } as never) as unknown as Router;
    for (const route of this.list) {
      app.add(route.method, route.path, (req: BridgeRequest, res: ResponseAdapter) => serve(route, req, res, deps));
    }
    return app;
  }

  private noMatch(req: BridgeRequest, res: ResponseAdapter): void {
    const allowed = this.list.filter((r) => matches(r.path, req.path)).map((r) => r.method);
    if (allowed.length) {
      res.setHeader('Allow', allowed.join(', '));
      sendJson(req, res, 405, errorBody(new AppError('METHOD_NOT_ALLOWED', 405, `${req.method} is not allowed on ${req.path}`, { allowed }), 'core'));
      return;
    }
    sendJson(req, res, 404, errorBody(new AppError('NOT_FOUND', 404, `No route for ${req.method} ${req.path}`), 'core'));
  }
}

function matches(pattern: string, path: string): boolean {
  const a = pattern.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') || seg === b[i]);
}

export function sendJson(req: BridgeRequest, res: ResponseAdapter, status: number, body: unknown): void {
  // A body we did not read to its end cannot be skipped over reliably: close after answering.
  if (req.body && !req.body.readableEnded) res.closeConnection();
  res.writeHead(status, { 'Content-Type': JSON_TYPE });
  res.end(JSON.stringify(body));
}

function sendError(res: ResponseAdapter, req: BridgeRequest, err: unknown, shape: ErrorShape, log: Logger): void {
  const e = toAppError(err);
  if (e.status >= 500 && !(err instanceof AppError)) {
    log.error({ reqId: req.id, method: req.method, url: req.originalUrl, err }, 'request failed');
  }
  if (!res.finished) sendJson(req, res, e.status, errorBody(e, shape));
}

/** The caller's principal: at once from the token cache, else after verifying the token. */
function authenticate(req: BridgeRequest, tokens: TokenService): Principal | AppError | undefined | Promise<Principal | AppError> {
  const token = bearerToken(req.headers.authorization);
  if (!token) return req.headers.authorization === undefined ? undefined : unauthorized('The Authorization header must be "Bearer <token>"');
  return tokens.cached(token) ?? tokens.verify(token).catch((err: unknown) => toAppError(err));
}

async function parseBody(req: BridgeRequest, limit: number): Promise<unknown> {
  if (!req.body) return undefined;
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw tooLarge(limit);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'The request body must be JSON (Content-Type: application/json)', { content_type: type || null });
  }
  const raw = await readBody(req.body, limit, () => tooLarge(limit));
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new AppError('BAD_REQUEST', 400, 'The request body is not valid JSON', { reason: (err as Error).message });
  }
}

const tooLarge = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', 413, `The request body is larger than ${limit} bytes`, { limit });

/**
 * The wrapper every route runs in. It stays synchronous while nothing needs to wait (a cached
 * token, no body, a handler that answers at once), so most answers are written inside uWS's own
 * handler call; the first thing that returns a promise switches the rest to the async path.
 */
function serve(route: Route, req: BridgeRequest, res: ResponseAdapter, deps: RouteDeps): void | Promise<void> {
  const shape = route.errorShape ?? 'core';
  const fail = (err: unknown) => sendError(res, req, err, shape, deps.log);
  try {
    const auth = authenticate(req, deps.tokens);
    const done = auth instanceof Promise ? auth.then((a) => admit(route, req, res, deps, a)) : admit(route, req, res, deps, auth);
    if (done instanceof Promise) return done.catch(fail);
  } catch (err) {
    fail(err);
  }
}

function admit(route: Route, req: BridgeRequest, res: ResponseAdapter, deps: RouteDeps, auth: Principal | AppError | undefined): void | Promise<void> {
  const principal = auth instanceof AppError ? undefined : auth;
  if (route.rateLimited !== false && deps.limiter.enabled) {
    const d = deps.limiter.hit(principal ? `u:${principal.sub}` : `ip:${req.ip}`);
    res.setHeader('X-RateLimit-Limit', d.limit);
    res.setHeader('X-RateLimit-Remaining', d.remaining);
    res.setHeader('X-RateLimit-Reset', d.reset);
    if (d.limited) {
      res.setHeader('Retry-After', Math.max(1, d.reset - Math.floor(Date.now() / 1000)));
      sendJson(req, res, 429, rateLimitBody(d.reset));
      return;
    }
  }
  if (!route.public && !principal) throw auth instanceof AppError ? auth : unauthorized();
  if (req.body && BODY_METHODS.has(req.method)) {
    return parseBody(req, deps.bodyLimit).then((body) => answer(route, req, res, principal, body));
  }
  return answer(route, req, res, principal, undefined);
}

function answer(route: Route, req: BridgeRequest, res: ResponseAdapter, principal: Principal | undefined, body: unknown): void | Promise<void> {
  const api: ApiRequest = {
    id: req.id,
    method: req.method as Method,
    path: req.path,
    params: req.params,
    query: req.query,
    headers: req.headers,
    ip: req.ip,
    principal,
    body,
    get aborted() {
      return req.aborted;
    },
  };
  const out = route.handler(api);
  if (out instanceof Promise) return out.then((value: unknown) => deliver(req, res, value));
  deliver(req, res, out);
}

function deliver(req: BridgeRequest, res: ResponseAdapter, out: unknown): void {
  if (res.finished) return;
  if (out instanceof Reply) {
    for (const k in out.headers) res.setHeader(k, out.headers[k]!);
    sendJson(req, res, out.status, out.body);
  } else {
    sendJson(req, res, 200, out);
  }
}
