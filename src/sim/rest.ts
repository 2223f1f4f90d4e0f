// The REST endpoints the bridge uses, answered as the hub answers them: bearer token or a bare
// "401: Unauthorized", {message} bodies where the hub's views write them, and aiohttp's plain
// text for the errors aiohttp itself produces (400, 404, 405, 500).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimUser } from './commands.js';
import type { HubEvent } from './bus.js';
import { Context } from './context.js';
import { HomeAssistantError, ServiceNotFoundError, ServiceValidationError } from './errors.js';
import type { Hub } from './hub.js';
import { Invalid, isPlainObject } from './schema.js';
import type { StateChangedData } from './states.js';
import { SINCE } from './version.js';
import { configRoutes } from './config/rest.js';
import { adminRoutes } from './admin.js';
import { cameraRoutes } from './camera-proxy.js';

const MAX_BODY = 16 * 1024 * 1024;

export interface RestHost {
  hub: Hub;
  userForToken(token: string): SimUser | undefined;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(text);
  }
}

const plain = {
  400: '400: Bad Request',
  401: '401: Unauthorized',
  404: '404: Not Found',
  405: '405: Method Not Allowed',
  500: '500 Internal Server Error\n\nServer got itself in trouble',
} as const;

export const fail = (status: keyof typeof plain) => new HttpError(status, plain[status]);

export function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export const message = (res: ServerResponse, status: number, text: string) => sendJson(res, status, JSON.stringify({ message: text }));

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, '413: Request Entity Too Large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  if (body === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

export type Handler = (ctx: { req: IncomingMessage; res: ServerResponse; user: SimUser; params: string[]; url: URL }) => Promise<void> | void;

export function createRestHandler(host: RestHost): (req: IncomingMessage, res: ServerResponse) => void {
  const hub = host.hub;
  const routes: Array<{ re: RegExp; methods: Record<string, Handler> }> = [
    { re: /^\/api\/$/, methods: { GET: ({ res }) => message(res, 200, 'API running.') } },
    { re: /^\/api\/config$/, methods: { GET: ({ res }) => sendJson(res, 200, JSON.stringify(hub.configDict())) } },
    {
      re: /^\/api\/core\/state$/,
      methods: {
        GET: ({ res }) => sendJson(res, 200, JSON.stringify({ state: 'RUNNING', recorder_state: { migration_in_progress: false, migration_is_live: false } })),
      },
    },
    { re: /^\/api\/components$/, methods: { GET: ({ res }) => sendJson(res, 200, JSON.stringify(hub.configDict().components)) } },
    {
      re: /^\/api\/states$/,
      methods: {
        GET: ({ res }) =>
          sendJson(
            res,
            200,
            `[${hub.states
              .all()
              .map((s) => s.json)
              .join(',')}]`,
          ),
      },
    },
    {
      re: /^\/api\/states\/([^/]+)$/,
      methods: {
        GET: ({ res, params }) => {
          const state = hub.states.get(params[0] ?? '');
          if (state) sendJson(res, 200, state.json);
          else message(res, 404, 'Entity not found.');
        },
        POST: async ({ req, res, user, params }) => {
          if (!user.isAdmin) throw fail(401);
          const entityId = params[0] ?? '';
          const parsed = parseJson(await readBody(req));
          if (!parsed.ok) return message(res, 400, 'Invalid JSON specified.');
          const data = parsed.value;
          // 2024.3 does not check that the body is an object: its view fails (a bare 500).
          if (!isPlainObject(data)) {
            if (hub.legacy) throw fail(500);
            return message(res, 400, 'State data should be a JSON object');
          }
          if (data.state === undefined || data.state === null) {
            return message(res, 400, hub.legacy || hub.since(SINCE.current) ? 'No state specified.' : 'No state attribute specified.');
          }
          const isNew = !hub.states.get(entityId);
          let state: ReturnType<typeof hub.states.set>;
          try {
            state = hub.states.set(entityId, String(data.state), isPlainObject(data.attributes) ? data.attributes : {}, {
              forceUpdate: data.force_update === true,
              context: new Context(user.id),
            });
          } catch (err) {
            const text = String((err as Error).message);
            return message(res, 400, text.startsWith('Invalid entity ID') ? 'Invalid entity ID specified.' : 'Invalid state specified.');
          }
          sendJson(res, isNew ? 201 : 200, state.json, { Location: `/api/states/${state.entityId}` });
        },
        DELETE: ({ res, user, params }) => {
          if (!user.isAdmin) throw fail(401);
          // Only the state goes: states written over REST have no registry entry to remove.
          if (hub.states.remove(params[0] ?? '')) message(res, 200, 'Entity removed.');
          else message(res, 404, 'Entity not found.');
        },
      },
    },
    {
      re: /^\/api\/services$/,
      methods: {
        GET: ({ res }) => sendJson(res, 200, JSON.stringify(Object.entries(hub.services.describe()).map(([domain, services]) => ({ domain, services })))),
      },
    },
    {
      re: /^\/api\/services\/([^/]+)\/([^/]+)$/,
      methods: {
        POST: async ({ req, res, user, params, url }) => {
          const [domain = '', service = ''] = params;
          const parsed = parseJson(await readBody(req));
          if (!parsed.ok) return message(res, 400, 'Data should be valid JSON.');
          if (!hub.services.has(domain, service)) throw fail(400);
          // 2024.3 does not know ?return_response and answers the changed states as usual.
          const wantResponse = !hub.legacy && url.searchParams.has('return_response');
          const context = new Context(user.id);
          const changed: string[] = [];
          const stop = hub.bus.listen('state_changed', (event: HubEvent<StateChangedData>) => {
            if (event.context === context && event.data.new_state) changed.push(event.data.new_state.json);
          });
          let response: unknown;
          try {
            response = await hub.services.call(domain, service, isPlainObject(parsed.value) ? parsed.value : undefined, {
              context,
              returnResponse: wantResponse,
            });
          } catch (err) {
            if (err instanceof ServiceNotFoundError || err instanceof Invalid) throw fail(400);
            if (wantResponse && err instanceof HomeAssistantError && err.translation?.key === 'service_does_not_support_response') {
              return message(res, 400, 'Service does not support responses. Remove return_response from request.');
            }
            if (!wantResponse && err instanceof HomeAssistantError && err.translation?.key === 'service_lacks_response_request') {
              return message(res, 400, 'Service call requires responses but caller did not ask for responses. Add ?return_response to query parameters.');
            }
            // 2026.11 answers a validation error as a 400 with its message (a bare 500 before).
            if (err instanceof ServiceValidationError && hub.since(SINCE.current)) return message(res, 400, err.message.replace(/\.$/, ''));
            throw fail(500);
          } finally {
            stop();
          }
          const list = `[${changed.join(',')}]`;
          if (wantResponse) sendJson(res, 200, `{"changed_states":${list},"service_response":${JSON.stringify(response ?? null)}}`);
          else sendJson(res, 200, list);
        },
      },
    },
    { re: /^\/api\/events$/, methods: { GET: ({ res }) => sendJson(res, 200, JSON.stringify(hub.bus.listenerCounts())) } },
    {
      re: /^\/api\/events\/([^/]+)$/,
      methods: {
        POST: async ({ req, res, user, params }) => {
          if (!user.isAdmin) throw fail(401);
          const eventType = params[0] ?? '';
          const parsed = parseJson(await readBody(req));
          if (!parsed.ok) return message(res, 400, 'Event data should be valid JSON.');
          if (parsed.value !== null && !isPlainObject(parsed.value)) return message(res, 400, 'Event data should be a JSON object');
          hub.bus.fire(eventType, (parsed.value as Record<string, unknown> | null) ?? {}, { origin: 'REMOTE', context: new Context(user.id) });
          message(res, 200, `Event ${eventType} fired.`);
        },
      },
    },
    ...configRoutes(hub),
    ...adminRoutes(hub),
    ...cameraRoutes(hub),
  ];

  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const run = async () => {
      const route = routes.find((r) => r.re.test(url.pathname));
      if (!route) throw fail(404);
      const handler = route.methods[req.method ?? 'GET'];
      if (!handler) throw fail(405);
      const auth = req.headers.authorization ?? '';
      const token = auth.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
      const user = token ? host.userForToken(token) : undefined;
      if (!user) throw fail(401);
      const params = (url.pathname.match(route.re) ?? []).slice(1).map((p) => decodeURIComponent(p));
      await handler({ req, res, user, params, url });
    };
    run().catch((err: unknown) => {
      const e = err instanceof HttpError ? err : fail(500);
      if (!(err instanceof HttpError)) hub.log.error(`REST handler failed: ${err instanceof Error ? err.stack : String(err)}`);
      if (res.headersSent) {
        res.end();
        return;
      }
      res.writeHead(e.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(e.text) });
      res.end(e.text);
    });
  };
}
