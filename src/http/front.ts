// Serves the route table on the uWS app. uWS is the transport: it hands every request to the front,
// and WebSocket upgrades too (where a socket route is). The router (router.ts) matches every kind
// of route through polka's one table; every kind passes the same admission, the same input
// validation and the same error mapping, and 404 and 405 come from that table.
import { actorName } from '../auth/tokens.js';
import { AppError, toAppError } from '../errors.js';
import type { Logger } from '../log.js';
import { textTooDeep, tooDeep } from '../json-depth.js';
import { check } from '../validation.js';
import { keepAddress, loggableUrl, readBody, readHead, ResponseAdapter, takeBody, type BridgeRequest, type Books } from './adapter.js';
import type { Admit, Admitted } from './admission.js';
import type { Cors } from './cors.js';
import { errorBody, type ErrorShape } from './error-body.js';
import { Router } from './router.js';
import {
  kindOf,
  versioned,
  type ApiRequest,
  type JsonRoute,
  type Method,
  type Route,
  type RouteTable,
  type SocketData,
  type SocketRoute,
  type StreamRoute,
  type FetchRoute,
  JsonText,
  RawReply,
  Reply,
} from './routes.js';
import { HEADER_POLICIES } from './security-headers.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t, WebSocket, WebSocketBehavior } from './uws.js';

export interface FrontDeps {
  admit: Admit;
  cors: Cors;
  bodyLimit: number;
  log: Logger;
}

/** What the server tracks of every request; the front reports each start, the response its end. */
export interface Tracker extends Books {
  /** A request was refused because the server is closing (it waits until such requests stop). */
  refused(): void;
  /** A request begins (its response says which, and whether it is a long-lived stream); `finished` follows once. */
  begin(response: ResponseAdapter): void;
  /** Open WebSockets, so a shutdown can close them. */
  sockets: Set<WebSocket<SocketData>>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function sendJson(req: BridgeRequest, res: ResponseAdapter, status: number, body: unknown): void {
  sendJsonText(req, res, status, JSON.stringify(body));
}

function sendJsonText(req: BridgeRequest, res: ResponseAdapter, status: number, text: string | Buffer): void {
  // A body we did not read to its end cannot be skipped over reliably: close after answering.
  if (req.body && !req.body.readableEnded) res.closeConnection();
  res.statusCode = status;
  res.setOwnHeader('content-type', 'Content-Type', JSON_TYPE);
  res.end(text);
}

function sendError(res: ResponseAdapter, req: BridgeRequest, err: unknown, shape: ErrorShape, log: Logger): void {
  const e = toAppError(err);
  if (e.status >= 500 && !(err instanceof AppError)) {
    log.error({ reqId: req.id, method: req.method, url: loggableUrl(req.originalUrl), err }, 'request failed');
  }
  if (res.finished) return;
  for (const k in e.headers) res.setHeader(k, e.headers[k]!);
  sendJson(req, res, e.status, errorBody(e, shape));
}

async function parseBody(req: BridgeRequest, limit: number): Promise<unknown> {
  if (!req.body) return undefined;
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw tooLarge(limit);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'The request body must be JSON (Content-Type: application/json)', {
      content_type: type.slice(0, 80) || null,
    });
  }
  const raw = await readBody(req.body, limit, () => tooLarge(limit));
  if (raw.length === 0) return undefined;
  if (textTooDeep(raw)) throw tooDeep();
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new AppError('BAD_REQUEST', 400, 'The request body is not valid JSON', { reason: (err as Error).message });
  }
}

const upgradeRequired = (path: string) => new AppError('BAD_REQUEST', 426, `${path} speaks WebSocket: send an Upgrade request`, {}, { Upgrade: 'websocket' });

const tooLarge = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', 413, `The request body is larger than ${limit} bytes`, { limit });

/** The request as a handler sees it, its declared inputs checked by the one validator. */
// biome-ignore lint/suspicious/noExplicitAny: the checked request serves routes of every params/query type (see Route in routes.ts)
class CheckedRequest<B> implements ApiRequest<B, any, any> {
  readonly id: string;
  readonly method: Method;
  readonly path: string;
  // biome-ignore lint/suspicious/noExplicitAny: the checked request serves routes of every params/query type (see Route in routes.ts)
  readonly params: any;
  // biome-ignore lint/suspicious/noExplicitAny: the checked request serves routes of every params/query type (see Route in routes.ts)
  readonly query: any;
  readonly headers: Record<string, string>;
  readonly body: B;

  constructor(
    route: Route,
    private readonly req: BridgeRequest,
    readonly principal: Admitted['principal'],
    body: B,
  ) {
    const json = kindOf(route) === 'json' ? (route as JsonRoute) : undefined;
    this.id = req.id;
    this.method = req.method as Method;
    this.path = req.path;
    this.params = route.params ? check(route.params, req.params, { what: 'path' }) : req.params;
    this.query = route.query ? check(route.query, req.query, { what: 'query' }) : req.query;
    this.headers = req.headers;
    // A route that declares a body schema checks an absent body as {}, so missing fields are named;
    // a body that is there (JSON null included) is checked as it came.
    this.body = json?.body ? (check(json.body, body === undefined ? {} : body) as B) : body;
  }

  get aborted(): boolean {
    return this.req.aborted;
  }

  /** Read from uWS when first asked (see `HeadRequest`). */
  get ip(): string {
    return this.req.ip;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the checked request serves routes of every params/query type (see Route in routes.ts)
function apiRequest<B>(route: Route, req: BridgeRequest, principal: Admitted['principal'], body: B): ApiRequest<B, any, any> {
  return new CheckedRequest(route, req, principal, body);
}

type Next<R extends Route> = (a: Admitted, route: R, req: BridgeRequest, res: ResponseAdapter, deps: FrontDeps) => void | Promise<void>;

/**
 * Admission, then `next`; synchronous while nothing waits. Errors end in the route's shape.
 * (`next` gets everything it needs as arguments: the JSON path makes no closure per request.)
 */
function admitted<R extends Route>(route: R, req: BridgeRequest, res: ResponseAdapter, deps: FrontDeps, next: Next<R>): void | Promise<void> {
  res.baseHeaders = HEADER_POLICIES[route.headers ?? 'api'];
  if (deps.cors.enabled) {
    const cors = deps.cors.answer(req.headers.origin);
    for (const k in cors) res.setHeader(k, cors[k]!);
  }
  try {
    const a = deps.admit(req, route);
    const done = a instanceof Promise ? a.then((x) => proceed(x, route, req, res, deps, next)) : proceed(a, route, req, res, deps, next);
    if (done instanceof Promise) return done.catch((err: unknown) => sendError(res, req, err, route.errorShape ?? 'core', deps.log));
  } catch (err) {
    sendError(res, req, err, route.errorShape ?? 'core', deps.log);
  }
}

function proceed<R extends Route>(a: Admitted, route: R, req: BridgeRequest, res: ResponseAdapter, deps: FrontDeps, next: Next<R>): void | Promise<void> {
  if (a.principal) req.user = actorName(a.principal);
  const d = a.rate;
  if (d) {
    res.setOwnHeader('x-ratelimit-limit', 'X-RateLimit-Limit', d.limitText);
    res.setOwnHeader('x-ratelimit-remaining', 'X-RateLimit-Remaining', String(d.remaining));
    res.setOwnHeader('x-ratelimit-reset', 'X-RateLimit-Reset', d.resetText);
  }
  return next(a, route, req, res, deps);
}

const jsonNext: Next<JsonRoute> = ({ principal }, route, req, res, deps) => {
  if (req.body && BODY_METHODS.has(req.method)) {
    return parseBody(req, deps.bodyLimit).then((body) => answer(route, req, res, principal, body));
  }
  return answer(route, req, res, principal, undefined);
};

function serveJson(route: JsonRoute, req: BridgeRequest, res: ResponseAdapter, deps: FrontDeps): void | Promise<void> {
  return admitted(route, req, res, deps, jsonNext);
}

function answer(route: JsonRoute, req: BridgeRequest, res: ResponseAdapter, principal: Admitted['principal'], body: unknown): void | Promise<void> {
  const out = route.handler(apiRequest(route, req, principal, body));
  if (out instanceof Promise) return out.then((value: unknown) => deliver(req, res, value));
  deliver(req, res, out);
}

function deliver(req: BridgeRequest, res: ResponseAdapter, out: unknown): void {
  if (res.finished) return;
  if (out instanceof JsonText) sendJsonText(req, res, 200, out.bytes);
  else if (out instanceof Reply) {
    for (const k in out.headers) res.setHeader(k, out.headers[k]!);
    sendJson(req, res, out.status, out.body);
  } else if (out instanceof RawReply) {
    res.writeHead(out.status, { 'Content-Type': out.contentType });
    res.end(out.body);
  } else {
    sendJson(req, res, 200, out);
  }
}

function noMatch(router: Router, req: BridgeRequest, res: ResponseAdapter, cors: Cors): void {
  const allowed = router.allowed(req.path);
  const preflight = req.method === 'OPTIONS' && allowed.length ? cors.preflight(req.headers.origin, allowed) : undefined;
  if (preflight) {
    for (const k in preflight) res.setHeader(k, preflight[k]!);
    res.writeHead(204);
    res.end();
    return;
  }
  if (allowed.length) {
    res.setHeader('Allow', allowed.join(', '));
    sendJson(req, res, 405, errorBody(new AppError('METHOD_NOT_ALLOWED', 405, `${req.method} is not allowed on ${req.path}`, { allowed }), 'core'));
    return;
  }
  sendJson(req, res, 404, errorBody(new AppError('NOT_FOUND', 404, `No route for ${req.method} ${req.path.slice(0, 200)}`), 'core'));
}

/** Serves a request its route was found for, by the route's kind. */
function serve(route: Route, req: BridgeRequest, res: ResponseAdapter, deps: FrontDeps): void | Promise<void> {
  switch (route.kind) {
    case undefined:
    case 'json':
      return serveJson(route, req, res, deps);
    case 'stream':
      return openStream(route, req, res, deps);
    case 'fetch':
      return exchange(route, req, res, deps);
    case 'websocket':
      // uWS hands a WebSocket route its upgrades; a plain GET arrives here.
      return admitted(route, req, res, deps, () => Promise.reject(upgradeRequired(req.path)));
  }
}

/** A GET to an MCP fetch route is its notification stream, and a stream route's answer stays open unless it says otherwise. */
const longLived = (route: Route): boolean => (route.kind === 'stream' ? route.longLived !== false : route.kind === 'fetch' && route.method === 'GET');

/** A Host header as clients send it: a name or an address, an IPv6 literal in brackets, a port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::[0-9]{1,5})?$/;
// Clients send the same few Host values again and again: the ones found good are remembered.
const goodHosts = new Set<string>();
// A client sends one Host on every request: the last good one is compared, not hashed again.
let lastGoodHost = '';
function hostIsMalformed(host: string): boolean {
  if (host === lastGoodHost || host === '') return false;
  if (!goodHosts.has(host)) {
    if (!HOST.test(host) || !URL.canParse(`http://${host}/`)) return true;
    if (goodHosts.size >= 256) goodHosts.clear();
    goodHosts.add(host);
  }
  lastGoodHost = host;
  return false;
}

/** A short answer written before a request is taken in (it is not tracked and runs no route). */
function answerAtDoor(res: HttpResponse, tracker: Tracker, e: AppError, close: boolean): void {
  const response = new ResponseAdapter(res, HEADER_POLICIES.api, tracker);
  res.onAborted(() => response.abort());
  response.inHandler = true;
  if (close) response.closeConnection();
  for (const k in e.headers) response.setHeader(k, e.headers[k]!);
  response.writeHead(e.status, { 'Content-Type': JSON_TYPE });
  response.end(JSON.stringify(errorBody(e, 'core')));
}

/**
 * Requests no route sees. While the server shuts down, a request that arrives on a connection kept
 * alive from before is answered 503 at once and its connection closed: only requests already in
 * flight are waited for. A malformed Host header is 400 on every path (URLs and OAuth addresses
 * are built from it).
 */
function refusedAtDoor(res: HttpResponse, request: BridgeRequest, tracker: Tracker): boolean {
  if (tracker.closing) {
    tracker.refused();
    answerAtDoor(res, tracker, new AppError('SHUTTING_DOWN', 503, 'The bridge is shutting down; try again when it is back', {}, { 'Retry-After': '5' }), true);
    return true;
  }
  // The Host header as read with the others (no second call into uWS for it).
  if (hostIsMalformed(request.headers.host ?? '')) {
    answerAtDoor(
      res,
      tracker,
      new AppError('BAD_REQUEST', 400, 'The Host header is malformed: it must be a host name or address, with an optional port', { header: 'Host' }),
      true,
    );
    return true;
  }
  return false;
}

/** The response for a request the server tracks: counted, tagged with its id, ended when the client leaves. */
function accept(res: HttpResponse, request: BridgeRequest, tracker: Tracker, longLived: boolean): ResponseAdapter {
  // A stream's owner may ask for the address at any time: it is read while uWS's response is valid.
  if (longLived) keepAddress(request);
  const response = new ResponseAdapter(res, HEADER_POLICIES.api, tracker, request, longLived);
  response.headOnly = request.method === 'HEAD';
  tracker.begin(response);
  response.setOwnHeader('x-request-id', 'X-Request-Id', request.id);
  return response;
}

/**
 * Called when uWS's handler returns: an answer still to come needs uWS's abort handler (one
 * answered at once does not: the client cannot leave while the handler runs).
 */
function awaitAnswer(res: HttpResponse, response: ResponseAdapter): void {
  if (response.finished) return;
  // What still runs may ask for the address, by when uWS's response may be gone.
  keepAddress(response.request!);
  res.onAborted(response.clientLeft.bind(response));
}

/** A stream route: admitted, then the route writes natively. */
function openStream(route: StreamRoute, request: BridgeRequest, response: ResponseAdapter, deps: FrontDeps): void | Promise<void> {
  return admitted(route, request, response, deps, ({ principal }) => {
    route.open(apiRequest(route, request, principal, undefined), response);
    // The stream lives on; its request's headers (the token among them) need not.
    request.headers = {};
  });
}

/**
 * uWS takes WebSocket upgrades by pattern (each socket route has its own limits), at the route's
 * path and its /api/v1 alias; the request is then matched by the router like any other.
 */
function mountSocket(app: TemplatedApp, route: SocketRoute, router: Router, deps: FrontDeps, tracker: Tracker): void {
  const h = route.socket;
  const behavior: WebSocketBehavior<SocketData> = {
    maxPayloadLength: h.maxPayloadLength ?? 64 * 1024,
    idleTimeout: h.idleTimeout ?? 120,
    maxBackpressure: h.maxBackpressure ?? 1024 * 1024,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      const request = readHead(res, req);
      if (refusedAtDoor(res, request, tracker)) return;
      // The socket keeps its address; uWS's response is gone once it upgrades.
      keepAddress(request);
      takeBody(res, request);
      // The route is the one uWS mounted; the router fills its path, query and params.
      router.route(request);
      const response = new ResponseAdapter(res, HEADER_POLICIES.api, tracker);
      response.setHeader('X-Request-Id', request.id);
      res.onAborted(() => {
        request.aborted = true;
        response.abort();
      });
      const key = request.headers['sec-websocket-key'];
      response.inHandler = true;
      try {
        void admitted(route, request, response, deps, ({ principal }) => {
          if (!key) throw upgradeRequired(request.path);
          if (request.aborted) return;
          const data: SocketData = { principal, request: apiRequest(route, request, principal, undefined) };
          const upgrade = () =>
            res.upgrade(data, key, request.headers['sec-websocket-protocol'] ?? '', request.headers['sec-websocket-extensions'] ?? '', context);
          // The upgrade happens inside uWS's handler call (already corked), as admission by token
          // never waits. Only a wait (an ingress user's check) upgrades later, in a cork of its own,
          // where uWS 20.57 may close the new socket as that cork ends (uNetworking/uWebSockets#1929);
          // uncorked, some upgrades never got their answer at all, which is worse.
          if (response.inHandler) upgrade();
          else res.cork(upgrade);
          response.finished = true;
        });
      } finally {
        response.inHandler = false;
      }
    },
    open: (ws) => {
      tracker.sockets.add(ws);
      h.open?.(ws);
    },
    message: h.message,
    drain: h.drain,
    ...(h.dropped ? { dropped: h.dropped } : {}),
    close: (ws, code, reason) => {
      tracker.sockets.delete(ws);
      h.close?.(ws, code, reason);
    },
  };
  for (const pattern of [route.path, versioned(route.path)]) if (pattern) app.ws<SocketData>(pattern, behavior);
}

/** Headers that belong to one hop of HTTP and are not handed on to a Fetch handler. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection']);

/** Writes a Fetch Response natively: head, then the body as it comes, waiting while the client is behind. */
async function sendResponse(answer: Response, res: ResponseAdapter): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, key) => {
    if (!HOP_BY_HOP.has(key) && key !== 'content-length') headers[key] = value;
  });
  res.writeHead(answer.status, headers);
  if (!answer.body) {
    res.end();
    return;
  }
  const reader = answer.body.getReader();
  const gone = new Promise<void>((resolve) => res.onClose(resolve));
  void gone.then(() => reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.finished) break;
    if (!res.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength)) && !res.finished) {
      await Promise.race([new Promise<void>((resolve) => res.onDrain(resolve)), gone]);
    }
  }
  res.end();
}

/** A fetch route (MCP's Streamable HTTP): admitted, then the whole request handed over and its Response written as it comes. */
function exchange(route: FetchRoute, request: BridgeRequest, response: ResponseAdapter, deps: FrontDeps): void | Promise<void> {
  return admitted(route, request, response, deps, async ({ principal }) => {
    const body = request.body ? await readBody(request.body, deps.bodyLimit, () => tooLarge(deps.bodyLimit)) : undefined;
    if (body && /json/i.test(request.headers['content-type'] ?? '') && textTooDeep(body)) throw tooDeep();
    const headers = new Headers();
    for (const k in request.headers) if (!HOP_BY_HOP.has(k)) headers.set(k, request.headers[k]!);
    const aborted = new AbortController();
    response.onClose(() => aborted.abort());
    const fetchRequest = new Request(`http://${request.headers.host ?? 'localhost'}${request.originalUrl}`, {
      method: request.method,
      headers,
      body,
      signal: aborted.signal,
    });
    const answer = await route.handle(fetchRequest, apiRequest(route, request, principal, undefined));
    if (!response.finished) await sendResponse(answer, response);
  });
}

/**
 * Mounts the route table on the uWS app: every request goes to the one catch-all, where the router
 * finds its route (or its 404/405); WebSocket upgrades go to their socket routes.
 */
export function mountFront(app: TemplatedApp, table: RouteTable, deps: FrontDeps, tracker: Tracker): void {
  const router = new Router(table);
  for (const route of table.routes()) if (kindOf(route) === 'websocket') mountSocket(app, route as SocketRoute, router, deps, tracker);
  const fail = (req: BridgeRequest, res: ResponseAdapter) => (err: unknown) => sendError(res, req, err, 'core', deps.log);
  app.any('/*', (res, req) => {
    const request = readHead(res, req);
    if (refusedAtDoor(res, request, tracker)) return;
    takeBody(res, request);
    const route = router.route(request);
    const response = accept(res, request, tracker, route !== undefined && longLived(route));
    response.inHandler = true;
    try {
      if (!route) noMatch(router, request, response, deps.cors);
      else {
        const out = serve(route, request, response, deps);
        if (out instanceof Promise) out.catch(fail(request, response));
      }
    } catch (err) {
      fail(request, response)(err);
    } finally {
      response.inHandler = false;
      awaitAnswer(res, response);
    }
  });
}
