// The Supervisor's REST API for the few endpoints an add-on and Home Assistant use here, with
// its answers: {"result":"ok","data":...} / {"result":"error","message":...} from api_process,
// aiohttp's plain "401: Unauthorized" and "403: Forbidden" from the token middleware
// (supervisor/api/middleware/security.py), and the same for routes and methods it lacks.
// One dispatcher serves both callers: add-ons over HTTP and Home Assistant's `supervisor/api`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HA_ERROR } from './names.js';
import { type Command, schema } from './commands.js';
import { UnauthorizedError } from './errors.js';
import { type Addon, type SimSupervisor, ingressPath } from './supervisor.js';
import { Invalid, type PathPart, dict, humanizeError, isPlainObject, isType, string } from './schema.js';

/** Who is calling, as the middleware sets REQUEST_FROM. */
export type Caller = { kind: 'core' } | { kind: 'addon'; addon: Addon };

export interface SupervisorReply {
  status: number;
  /** A JSON body (the Supervisor's envelope), or aiohttp's plain text. */
  json?: unknown;
  text?: string;
}

const PLAIN: Record<number, string> = {
  401: '401: Unauthorized',
  403: '403: Forbidden',
  404: '404: Not Found',
  405: '405: Method Not Allowed',
  500: '500 Internal Server Error\n\nServer got itself in trouble',
};
const plain = (status: number): SupervisorReply => ({ status, text: PLAIN[status] ?? String(status) });
const ok = (data: unknown = {}): SupervisorReply => ({ status: 200, json: { result: 'ok', data } });
const error = (message: string, status = 400): SupervisorReply => ({ status, json: { result: 'error', message } });

/** The paths the simulator hands to its Supervisor instead of to Home Assistant. */
export const SUPERVISOR_PATH = /^\/(?:discovery|addons|ingress)(?:\/|$)/;

// An add-on passes these without hassio_api (the middleware's ADDONS_API_BYPASS).
const ADDON_BYPASS = /^(?:|\/addons\/self\/(?!security|update)[^/]+|\/addons\/self\/options\/config|\/info|\/services.*|\/discovery.*|\/auth)$/;
const CORE_ONLY = /^\/addons\/[-_.A-Za-z0-9]+\/sys_options$/;

/** The token middleware: no token 401, a token of nobody (or not allowed here) 403. */
export function callerFor(sup: SimSupervisor, path: string, token: string | undefined): Caller | SupervisorReply {
  if (!token) return plain(401);
  if (token === sup.coreToken) return { kind: 'core' };
  if (CORE_ONLY.test(path)) return plain(403);
  const addon = sup.addonForToken(token);
  // An add-on without hassio_api (the simulator's are) reaches only the bypass paths.
  if (addon && ADDON_BYPASS.test(path)) return { kind: 'addon', addon };
  return plain(403);
}

const SCHEMA_DISCOVERY = dict({ service: { v: isType('str'), required: true }, config: { v: isType('dict'), required: true } });
const SCHEMA_SESSION = dict({ user_id: { v: isType('str') } });
const SCHEMA_VALIDATE = dict({ session: { v: isType('str') } });

/** api_validate: the body against a schema, or the APIError it raises (400). */
function validate(schema: (v: unknown, p: []) => unknown, body: unknown): Record<string, unknown> | SupervisorReply {
  if (body === INVALID_JSON) return error('Invalid json');
  // json_loads: an empty body reads as {}.
  const data = body === undefined ? {} : body;
  try {
    return schema(data, []) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof Invalid) return error(humanizeError(data, err));
    throw err;
  }
}
const isReply = (v: unknown): v is SupervisorReply => isPlainObject(v) && typeof v.status === 'number';

/** A request body that was not JSON. */
export const INVALID_JSON = Symbol('invalid json');

function addonInfo(a: Addon): Record<string, unknown> {
  const port = Number(a.url.port || 80);
  return {
    name: a.name,
    slug: a.slug,
    hostname: a.hostname,
    dns: [],
    description: '',
    state: a.state,
    version: a.version,
    version_latest: a.version,
    update_available: false,
    url: null,
    webui: null,
    ingress: true,
    ingress_entry: `/api/hassio_ingress/${a.ingressToken}`,
    ingress_url: ingressPath(a),
    ingress_port: port,
    ingress_panel: true,
    ip_address: a.url.hostname,
    discovery: [...a.discovery],
    homeassistant_api: a.homeassistantApi,
    hassio_api: false,
    hassio_role: 'default',
    auth_api: false,
    options: {},
    boot: 'auto',
    watchdog: false,
  };
}

/** The Supervisor answering one request from an authenticated caller. */
export function dispatch(sup: SimSupervisor, caller: Caller, method: string, path: string, body: unknown): SupervisorReply {
  const m = method.toUpperCase();
  const need = (allowed: string) => (m === allowed ? undefined : plain(405));
  // require_home_assistant raises HTTPUnauthorized, which api_process does not catch.
  const coreOnly = () => (caller.kind === 'core' ? undefined : plain(401));
  let match: RegExpMatchArray | null;

  if (path === '/discovery') {
    if (m === 'GET') {
      const denied = coreOnly();
      if (denied) return denied;
      const services: Record<string, string[]> = {};
      for (const a of sup.allAddons()) for (const s of a.discovery) (services[s] ??= []).push(a.slug);
      // Only messages of started add-ons are listed.
      const discovery = sup.discoveries().filter((d) => sup.addon(d.addon)?.state === 'started');
      return ok({ discovery, services });
    }
    if (m === 'POST') {
      const valid = validate(SCHEMA_DISCOVERY, body);
      if (isReply(valid)) return valid;
      // Home Assistant is no add-on: the view fails on it (a bare 500).
      if (caller.kind !== 'addon') return plain(500);
      const service = valid.service as string;
      if (!caller.addon.discovery.includes(service)) return error('Add-ons must list services they provide via discovery in their config!', 403);
      return ok({ uuid: sup.announce(caller.addon, service, valid.config as Record<string, unknown>).uuid });
    }
    return plain(405);
  }
  if ((match = path.match(/^\/discovery\/([^/]+)$/))) {
    const message = sup.discovery(decodeURIComponent(match[1]!));
    if (m === 'GET') {
      const denied = coreOnly();
      if (denied) return denied;
      return message ? ok({ ...message }) : error('Discovery message not found', 404);
    }
    if (m === 'DELETE') {
      if (!message) return error('Discovery message not found', 404);
      if (caller.kind !== 'addon') return plain(500);
      if (message.addon !== caller.addon.slug) return error("Can't remove discovery message", 403);
      sup.removeDiscovery(message.uuid);
      return ok();
    }
    return plain(405);
  }
  if (path === '/addons') {
    const denied = need('GET');
    if (denied) return denied;
    // The store's list of installed add-ons (api/addons.py list_addons), the fields a client picks by.
    const addons = sup.allAddons().map((a) => ({
      name: a.name,
      slug: a.slug,
      description: '',
      state: a.state,
      version: a.version,
      version_latest: a.version,
      update_available: false,
      repository: 'local',
      icon: false,
      logo: false,
    }));
    return ok({ addons });
  }
  if ((match = path.match(/^\/addons\/([^/]+)\/info$/))) {
    const denied = need('GET');
    if (denied) return denied;
    const slug = decodeURIComponent(match[1]!);
    if (slug === 'self') return caller.kind === 'addon' ? ok(addonInfo(caller.addon)) : error('Self is not an Addon');
    const addon = sup.addon(slug);
    return addon ? ok(addonInfo(addon)) : error(`Addon ${slug} does not exist`, 404);
  }
  if (path === '/ingress/session') {
    const denied = need('POST') ?? coreOnly();
    if (denied) return denied;
    const valid = validate(SCHEMA_SESSION, body);
    if (isReply(valid)) return valid;
    return ok({ session: sup.createSession(valid.user_id as string | undefined) });
  }
  if (path === '/ingress/validate_session') {
    const denied = need('POST') ?? coreOnly();
    if (denied) return denied;
    const valid = validate(SCHEMA_VALIDATE, body);
    if (isReply(valid)) return valid;
    // The key is optional in its schema but read unconditionally: a KeyError, a bare 500.
    if (typeof valid.session !== 'string') return plain(500);
    return sup.validateSession(valid.session) ? ok() : plain(401);
  }
  if (path === '/ingress/panels') {
    const denied = need('GET');
    if (denied) return denied;
    const panels = Object.fromEntries(sup.allAddons().map((a) => [a.slug, { title: a.panelTitle, icon: a.panelIcon, admin: a.panelAdmin, enable: true }]));
    return ok({ panels });
  }
  return plain(404);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** extract_supervisor_token: X-Supervisor-Token, the old X-Hassio-Key, then the bearer's last word. */
function tokenOf(req: IncomingMessage): string | undefined {
  const h = req.headers;
  const direct = h['x-supervisor-token'] ?? h['x-hassio-key'];
  if (typeof direct === 'string' && direct) return direct;
  const auth = h.authorization;
  return auth ? auth.split(' ').at(-1) : undefined;
}

export function sendReply(res: ServerResponse, reply: SupervisorReply): void {
  const json = reply.json !== undefined;
  const body = json ? JSON.stringify(reply.json) : (reply.text ?? '');
  res.writeHead(reply.status, {
    'Content-Type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The Supervisor's HTTP side for add-ons (http://supervisor/... in a real add-on). */
export async function handleSupervisorHttp(sup: SimSupervisor, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://supervisor').pathname;
  const caller = callerFor(sup, path, tokenOf(req));
  const raw = (await readBody(req)).toString('utf8');
  if ('status' in caller) return sendReply(res, caller);
  let body: unknown;
  if (raw !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      body = INVALID_JSON;
    }
  }
  sendReply(res, dispatch(sup, caller, req.method ?? 'GET', path, body));
}

// --- Home Assistant's `supervisor/api` WebSocket command (hassio/websocket_api.py) ----------

/** Endpoints a non-admin may call, for ingress panels with `panel_admin: false` (since 2021.12). */
const WS_NO_ADMIN_ENDPOINTS = /^(?:|\/ingress\/(session|validate_session)|\/addons\/[^/]+\/info)$/;

/** vol.Any(Number, None); Python's bools are Numbers too. */
const numberOrNone = (v: unknown, path: PathPart[]) => {
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
  throw new Invalid('not a valid value', path);
};

/** HassIO.send_command: refuses a path its URL would normalise differently (e.g. with ../). */
function cleanPath(endpoint: string): boolean {
  if (!endpoint.startsWith('/')) return false;
  try {
    return new URL(endpoint, 'http://supervisor').pathname === endpoint;
  } catch {
    return false;
  }
}

export function supervisorApiCommand(sup: SimSupervisor): Command {
  return {
    schema: schema('supervisor/api', {
      endpoint: { v: string, required: true },
      method: { v: string, required: true },
      data: { v: isType('dict') },
      timeout: { v: numberOrNone },
    }),
    handle(conn, msg) {
      const endpoint = msg.endpoint as string;
      // Checked inside the handler, after the schema: the same error as require_admin.
      if (!conn.user.isAdmin && !WS_NO_ADMIN_ENDPOINTS.test(endpoint)) throw new UnauthorizedError();
      const payload = { ...((msg.data as Record<string, unknown> | undefined) ?? {}) };
      // So the Supervisor can tie the session to the user (X-Remote-User-* headers).
      if (endpoint === '/ingress/session') payload.user_id = conn.user.id;
      // A failure HA cannot read as the Supervisor's JSON error becomes HassioAPIError() with no text.
      if (!cleanPath(endpoint)) return conn.sendError(msg.id, HA_ERROR.unknownError, '');
      const path = new URL(endpoint, 'http://supervisor').pathname;
      const reply = dispatch(sup, { kind: 'core' }, msg.method as string, path, payload);
      if (reply.status !== 200) {
        const body = reply.json as { result?: string; message?: string } | undefined;
        return conn.sendError(msg.id, HA_ERROR.unknownError, body?.result === 'error' ? String(body.message ?? '') : '');
      }
      conn.sendResult(msg.id, (reply.json as { data?: unknown }).data ?? {});
    },
  };
}
