// The route table: every endpoint of every kind (JSON through polka, native SSE streams, native
// WebSocket upgrades) is declared here once, with its admission policy, error shape, header policy
// and the schemas of its input. The router (router.ts) matches every kind through this one table.
import type * as v from 'valibot';
import type { Principal } from '../auth/tokens.js';
import type { AdmissionPolicy } from './admission.js';
import type { ErrorShape } from './error-body.js';
import type { HeaderPolicy } from './security-headers.js';
import type { ResponseAdapter } from './adapter.js';
import type { WebSocket } from './uws.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | string[] | undefined>;

export interface ApiRequest<B = unknown, Q = Query, P = Record<string, string>> {
  id: string;
  method: Method;
  path: string;
  params: P;
  query: Q;
  headers: Record<string, string>;
  ip: string;
  principal?: Principal;
  /** The body, checked against the route's body schema when it declares one; undefined when none came. */
  body: B;
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

/**
 * A 200 JSON answer already serialised: a body that seldom changes is kept as text, not built again
 * per request, and as its UTF-8 bytes, which uWS copies as they are (a string is encoded per call).
 */
export class JsonText {
  readonly bytes: Buffer;
  constructor(readonly text: string) {
    this.bytes = Buffer.from(text);
  }
}

/**
 * Keeps a JSON answer as text while the values it is made from stay the same: `inputs` lists them
 * (cheap to read, compared one by one), `build` makes the body, serialised only when one changed.
 */
export function jsonMemo(inputs: () => readonly unknown[], build: () => unknown): () => JsonText {
  let kept: readonly unknown[] = [];
  let text: JsonText | undefined;
  return () => {
    const now = inputs();
    if (!text || changed(now, kept)) {
      text = new JsonText(JSON.stringify(build()));
      kept = now;
    }
    return text;
  };
}

/** Whether two lists of memo inputs differ (a loop: no closure made per request). */
function changed(now: readonly unknown[], kept: readonly unknown[]): boolean {
  if (now.length !== kept.length) return true;
  for (let i = 0; i < now.length; i++) if (!Object.is(now[i], kept[i])) return true;
  return false;
}

/** An answer that is not JSON: bytes with their own content type (pages, scripts, styles). */
export class RawReply {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly contentType: string,
  ) {}
}

/** One answer a route can give: what it means, and the shape of its body. */
export interface ResponseSpec {
  description: string;
  schema?: v.GenericSchema;
  /** Default application/json. */
  contentType?: string;
  /** OpenAPI links from this answer to other operations (stateful testing follows them). */
  links?: Record<string, { operationId: string; parameters: Record<string, string>; description?: string }>;
}

type Schema = v.GenericSchema;
type Out<S, Else> = S extends v.GenericSchema ? v.InferOutput<S> : Else;

interface RouteCommon extends AdmissionPolicy {
  method: Method;
  /** polka-style pattern, e.g. /api/state/:entity_id */
  path: string;
  summary: string;
  errorShape?: ErrorShape;
  /** Security headers of the answers (default api: nothing may frame it). */
  headers?: HeaderPolicy;
  params?: Schema;
  query?: Schema;
  /** Every answer it can give by status, beyond those the table adds for its policy (401, 429, 400/413/415 for bodies). */
  responses?: Record<number, ResponseSpec>;
  /** OpenAPI operation id (default: made from method and path). */
  operationId?: string;
}

export interface JsonRoute extends RouteCommon {
  kind?: 'json';
  body?: Schema;
  // biome-ignore lint/suspicious/noExplicitAny: one table holds routes of every params/query type; each handler is typed where its route is declared
  handler: (req: ApiRequest<any, any, any>) => unknown;
}

/** A long-lived response written natively on uWS (Server-Sent Events). */
export interface StreamRoute extends RouteCommon {
  kind: 'stream';
  method: 'GET';
  /** False for a response that ends by itself (a file): a shutdown waits for it instead of cutting it. */
  longLived?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: one table holds routes of every params/query type; each handler is typed where its route is declared
  open: (req: ApiRequest<undefined, any, any>, stream: ResponseAdapter) => void;
}

/** What each WebSocket carries from its upgrade. */
export interface SocketData {
  principal?: Principal;
  /** The upgrade request; a route may let it go once open (its headers carry the token). */
  request?: Omit<ApiRequest<undefined>, 'aborted'>;
  /** Free for the route's own per-connection state. */
  state?: unknown;
}

export interface SocketHandlers {
  open?: (ws: WebSocket<SocketData>) => void;
  message: (ws: WebSocket<SocketData>, data: ArrayBuffer, isBinary: boolean) => void;
  drain?: (ws: WebSocket<SocketData>) => void;
  /** uWS dropped a message: the socket holds more than maxBackpressure. */
  dropped?: (ws: WebSocket<SocketData>) => void;
  close?: (ws: WebSocket<SocketData>, code: number, reason: ArrayBuffer) => void;
  /** Largest message accepted (bytes); larger ones close the socket. */
  maxPayloadLength?: number;
  /** Seconds of silence before uWS pings / closes. */
  idleTimeout?: number;
  maxBackpressure?: number;
}

/** A WebSocket endpoint: admission happens at the upgrade, like any other request. */
export interface SocketRoute extends RouteCommon {
  kind: 'websocket';
  method: 'GET';
  socket: SocketHandlers;
}

/**
 * A route that answers a whole Fetch `Request` with a `Response`, written natively and streamed as
 * it comes (MCP's Streamable HTTP transport). Admission runs first, like for every other kind.
 */
export interface FetchRoute extends RouteCommon {
  kind: 'fetch';
  // biome-ignore lint/suspicious/noExplicitAny: one table holds routes of every params/query type; each handler is typed where its route is declared
  handle: (request: Request, req: ApiRequest<undefined, any, any>) => Promise<Response>;
}

export type Route = JsonRoute | StreamRoute | SocketRoute | FetchRoute;

/** A JSON route whose handler sees its inputs typed by the schemas it declares. */
export function jsonRoute<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, P extends Schema | undefined = undefined>(
  r: Omit<JsonRoute, 'handler' | 'body' | 'query' | 'params'> & {
    body?: B;
    query?: Q;
    params?: P;
    handler: (req: ApiRequest<Out<B, unknown>, Out<Q, Query>, Out<P, Record<string, string>>>) => unknown;
  },
): JsonRoute {
  return r as JsonRoute;
}

/**
 * The one alias rule: /api/v1/... is the current version of /api/..., served by the same route.
 * The router takes the alias off every request before matching; `versioned` says where uWS must
 * also hand over WebSocket upgrades and what the OpenAPI document lists.
 */
const API = '/api';
const API_V1 = '/api/v1';

/** A request's URL with its /api/v1 alias taken off (/api/v10/... is not an alias). */
export function unversioned(url: string): string {
  const n = API_V1.length;
  return url.startsWith(API_V1) && (url.length === n || url[n] === '/' || url[n] === '?') ? API + url.slice(n) : url;
}

/** The /api/v1 form of a route's path, for routes under /api. */
export const versioned = (path: string): string | undefined => (path.startsWith(`${API}/`) ? API_V1 + path.slice(API.length) : undefined);

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
}

export const kindOf = (r: Route): 'json' | 'stream' | 'websocket' | 'fetch' => r.kind ?? 'json';
