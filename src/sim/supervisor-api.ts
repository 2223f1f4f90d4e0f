// The Supervisor's REST API for the few endpoints an add-on and Home Assistant use here, with
// its answers: {"result":"ok","data":...} / {"result":"error","message":...} from api_process,
// aiohttp's plain "401: Unauthorized" and "403: Forbidden" from the token middleware
// (supervisor/api/middleware/security.py), and the same for routes and methods it lacks.
// One dispatcher serves both callers: add-ons over HTTP and Home Assistant's `supervisor/api`.
// Endpoints (v1 paths; source home-assistant/supervisor at 090ef31, 2026-08-21: api/__init__.py,
// apps.py, backups.py, jobs.py, discovery.py, ingress.py): GET /addons, GET /addons/{slug}/info,
// POST /addons/{slug}/start|stop|restart, POST /backups/new/full|partial (background: true),
// GET /backups/{slug}/info, GET /jobs/{uuid}, /discovery, /ingress/*. An add-on's token
// reaches a path by its hassio_api and hassio_role as the middleware's v1 role table says.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HA_ERROR } from './names.js';
import { type Command, schema } from './commands.js';
import { UnauthorizedError } from './errors.js';
import { type Addon, type HassioRole, type SimJob, type SimSupervisor, ingressPath } from './supervisor.js';
import { Invalid, type PathPart, all, any, boolean, dict, humanizeError, isPlainObject, isType, listOf, literal, oneOf, string } from './schema.js';

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
export const SUPERVISOR_PATH = /^\/(?:discovery|addons|ingress|backups|jobs)(?:\/|$)/;

// An add-on passes these without hassio_api (the middleware's ADDONS_API_BYPASS).
const ADDON_BYPASS = /^(?:|\/addons\/self\/(?!security|update)[^/]+|\/addons\/self\/options\/config|\/info|\/services.*|\/discovery.*|\/auth)$/;
const CORE_ONLY = /^\/addons\/[-_.A-Za-z0-9]+\/sys_options$/;
const RE_SLUG = '[-_.A-Za-z0-9]+';
/** What each hassio_role reaches (the middleware's v1 role_access); admin reaches everything. */
const ROLE_ACCESS: Record<HassioRole, RegExp> = {
  default: /^(?:|\/.+\/info)$/,
  homeassistant: /^(?:|\/.+\/info|\/core\/.+|\/homeassistant\/.+)$/,
  backup: /^(?:|\/.+\/info|\/backups.*)$/,
  manager: new RegExp(
    `^(?:|/.+/info|/addons(?:/${RE_SLUG}/(?!security).+|/reload)?|/audio/.+|/auth/cache|/available_updates|/backups.*|/cli/.+|/core/.+|/dns/.+|/docker/.+|/jobs/.+|/hardware/.+|/homeassistant/.+|/host/.+|/mounts.*|/multicast/.+|/network/.+|/observer/.+|/os/(?!datadisk/wipe).+|/refresh_updates|/resolution/.+|/security/.+|/snapshots.*|/store.*|/supervisor/.+)$`,
  ),
  admin: /.*/,
};

/** The token middleware: no token 401, a token of nobody (or not allowed here) 403. */
export function callerFor(sup: SimSupervisor, path: string, token: string | undefined): Caller | SupervisorReply {
  if (!token) return plain(401);
  if (token === sup.coreToken) return { kind: 'core' };
  if (CORE_ONLY.test(path)) return plain(403);
  const addon = sup.addonForToken(token);
  if (!addon) return plain(403);
  if (ADDON_BYPASS.test(path)) return { kind: 'addon', addon };
  // Past the bypass: only with hassio_api, and only what its role reaches.
  if (addon.hassioApi && ROLE_ACCESS[addon.hassioRole].test(path)) return { kind: 'addon', addon };
  return plain(403);
}

/** supervisor/backups/const.py's v1 folder names (SCHEMA_FOLDERS_V1). */
const FOLDERS_V1 = ['homeassistant', 'ssl', 'share', 'addons/local', 'media'];
const unique = (v: unknown, path: PathPart[]) => {
  if (new Set(v as unknown[]).size !== (v as unknown[]).length) throw new Invalid('contains duplicate items', path);
  return v;
};
const SCHEMA_BACKUP_FULL_FIELDS = {
  name: { v: isType('str') },
  password: { v: any(literal(null), isType('str')) },
  compressed: { v: any(literal(null), boolean) },
  homeassistant_exclude_database: { v: boolean },
  background: { v: boolean },
};
const SCHEMA_BACKUP_FULL = dict(SCHEMA_BACKUP_FULL_FIELDS);
const SCHEMA_BACKUP_PARTIAL = dict({
  ...SCHEMA_BACKUP_FULL_FIELDS,
  addons: { v: any(literal('ALL'), all(isType('list'), listOf(isType('str')), unique)) },
  folders: { v: all(isType('list'), listOf(oneOf(FOLDERS_V1)), unique) },
  homeassistant: { v: boolean },
});
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
    hassio_api: a.hassioApi,
    hassio_role: a.hassioRole,
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
  if ((match = path.match(/^\/addons\/([^/]+)\/(start|stop|restart)$/))) {
    const denied = need('POST');
    if (denied) return denied;
    const addon = sup.addon(decodeURIComponent(match[1]!));
    if (!addon) return error(`Addon ${decodeURIComponent(match[1]!)} does not exist`, 404);
    // App.start/stop/restart wait for the container; the simulator's answer at once.
    sup.setAddonState(addon.slug, match[2] === 'stop' ? 'stopped' : 'started');
    return ok();
  }
  if ((match = path.match(/^\/backups\/new\/(full|partial)$/))) {
    const denied = need('POST');
    if (denied) return denied;
    const full = match[1] === 'full';
    const valid = validate(full ? SCHEMA_BACKUP_FULL : SCHEMA_BACKUP_PARTIAL, body);
    if (isReply(valid)) return valid;
    const addons = full ? 'ALL' : ((valid.addons as string[] | 'ALL' | undefined) ?? []);
    if (Array.isArray(addons)) {
      const missing = addons.find((a) => !sup.addon(a));
      // _validate_apps (api/backups.py): an app that is not installed is refused up front.
      if (missing) return error(`App ${missing} is not installed, cannot backup`);
    }
    const job = sup.startBackup({
      ...(valid.name !== undefined ? { name: valid.name as string } : {}),
      type: full ? 'full' : 'partial',
      homeassistant: full || valid.homeassistant === true,
      addons,
      folders: full ? FOLDERS_V1 : ((valid.folders as string[] | undefined) ?? []),
    });
    // background: the job's id at once; else the Supervisor answers when the backup is made (the simulator: refused, nothing here waits).
    if (valid.background !== true) return error('The simulated Supervisor makes backups only with background: true');
    return ok({ job_id: job.uuid });
  }
  if ((match = path.match(/^\/backups\/([^/]+)\/info$/))) {
    const denied = need('GET');
    if (denied) return denied;
    const b = sup.backup(decodeURIComponent(match[1]!));
    if (!b) return error('Backup does not exist', 404);
    return ok({
      slug: b.slug,
      type: b.type,
      name: b.name,
      date: b.date,
      size: b.size,
      size_bytes: Math.round(b.size * 1_048_576),
      compressed: true,
      protected: false,
      supervisor_version: '2026.08.1',
      homeassistant: b.homeassistant,
      location: null,
      locations: [null],
      addons: b.addons,
      repositories: [],
      folders: b.folders,
      homeassistant_exclude_database: false,
      extra: {},
    });
  }
  if ((match = path.match(/^\/jobs\/([^/]+)$/))) {
    const denied = need('GET');
    if (denied) return denied;
    const job: SimJob | undefined = sup.job(decodeURIComponent(match[1]!));
    return job ? ok({ ...job, child_jobs: [] }) : error(`No job found with id ${match[1]}`, 404);
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
