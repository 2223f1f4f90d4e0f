// The one router of the HTTP API: polka's route table holds every route of every kind (JSON,
// stream, fetch, WebSocket), and every request is matched by it. 404, 405 and `Allow` come from
// the same table; the /api/v1 alias is taken off here, before matching, and nowhere else.
import { parse as parseQueryString } from 'node:querystring';
import polka from 'polka';
import type { BridgeRequest } from './adapter.js';
import { kindOf, unversioned, type Method, type Query, type Route, type RouteTable } from './routes.js';

/** The part of polka we use: its route table (holding our routes as its handlers) and its match. */
interface Table {
  add(method: string, path: string, route: Route): unknown;
  find(method: string, path: string): { params: Record<string, string>; handlers: Route[] };
}

/** Every method a route may have, in the order an `Allow` header lists them. */
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** How many found paths without parameters are remembered (a client picks the paths). */
const REMEMBERED = 1024;

export class Router {
  private readonly table = polka() as unknown as Table;
  // The route of each found path without parameters, by method then path: polka's table is
  // scanned once per path (and no key string is built per request).
  private readonly fixed = new Map<string, Map<string, Route>>();
  private remembered = 0;
  private lastPath?: string;
  private lastMethod?: string;
  private lastRoute?: Route;

  constructor(routes: RouteTable) {
    for (const route of routes.routes()) this.table.add(route.method, route.path, route);
  }

  /**
   * The route that serves a request, or undefined. Fills the request's url (its /api/v1 alias
   * taken off), path, query and params.
   */
  route(req: BridgeRequest): Route | undefined {
    const url = (req.url = unversioned(req.originalUrl));
    const q = url.indexOf('?');
    const path = (req.path = q === -1 ? url : url.slice(0, q));
    req.query = q === -1 ? {} : (parseQueryString(url.slice(q + 1)) as Query);
    // The path of the last request found is compared before any map is asked (clients repeat paths).
    const known = path === this.lastPath && req.method === this.lastMethod ? this.lastRoute : this.fixed.get(req.method)?.get(path);
    if (known) {
      req.params = {};
      this.lastPath = path;
      this.lastMethod = req.method;
      this.lastRoute = known;
      return known;
    }
    const { params, handlers } = this.table.find(req.method, path);
    if (path.indexOf('%', 1) !== -1) {
      for (const k in params) {
        try {
          params[k] = decodeURIComponent(params[k]!);
        } catch {
          // a malformed segment stays as it came
        }
      }
    }
    req.params = params;
    const route = handlers[0];
    if (!route || (req.method === 'HEAD' && !answersHead(route))) return undefined;
    if (Object.keys(params).length === 0 && this.remembered < REMEMBERED) {
      let paths = this.fixed.get(req.method);
      if (!paths) this.fixed.set(req.method, (paths = new Map()));
      if (!paths.has(path)) {
        paths.set(path, route);
        this.remembered++;
      }
    }
    return route;
  }

  /** The methods a path has (for 405 and its `Allow`), from the same table. */
  allowed(path: string): Method[] {
    return METHODS.filter((m) => this.table.find(m, path).handlers.length > 0);
  }
}

/**
 * polka answers HEAD with a path's GET route. A JSON answer (or a WebSocket route's 426) can be
 * given as a head alone; a stream or an MCP exchange has no end for a HEAD answer to report, so
 * HEAD there gets 405 like any other method those routes lack.
 */
const answersHead = (route: Route): boolean => {
  const kind = kindOf(route);
  return kind === 'json' || kind === 'websocket';
};
