// The table of settings, the only list of them: each with its environment name, its key in a
// config file and in the add-on's options, its default, unit, schema and (where a user of the
// add-on should touch it) its add-on option schema. The Config type, the settings table (docs/settings.md),
// config.yaml's options and translations/en.yaml are all checked against this list.
import * as v from 'valibot';
import { LOG_FORMATS } from '../log.js';

type Schema = v.GenericSchema<unknown, unknown>;

export interface Setting {
  env: string;
  /** Key in a config file (YAML/JSON) and in the add-on's /data/options.json. */
  file: string;
  default?: unknown;
  unit?: string;
  description: string;
  schema: Schema;
  /** Environment values are strings; this turns one into the schema's input type. */
  fromEnv?: (raw: string) => unknown;
  secret?: boolean;
  /** The Supervisor's option schema, when the add-on offers this setting (`int(1,10)?`, `str?`, `list(a|b)`, `password?`; a list: ["str"]). */
  addon?: string | [string];
  /** The add-on's own default, where it differs from the service's (a folder the add-on maps): config.yaml's options hold it. */
  addonDefault?: unknown;
}

const toInt = (raw: string): unknown => (/^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw);
/** A list from the environment: comma-separated. */
const toList = (raw: string): unknown =>
  raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const toBool = (raw: string): unknown => (/^(true|1|yes|on)$/i.test(raw.trim()) ? true : /^(false|0|no|off)$/i.test(raw.trim()) ? false : raw);
const int = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );
const text = v.pipe(v.string('must be a string'), v.trim());
const url = v.pipe(text, v.regex(/^(https?|wss?):\/\/[^\s/]+/i, 'must be an http(s):// or ws(s):// URL'));
/** A list of names: a YAML/JSON list, or one comma-separated string. */
const names = (item: v.GenericSchema<string, string>) =>
  v.pipe(
    v.union([v.array(v.string('each must be text')), v.string()], 'must be a list of names or one comma-separated string'),
    v.transform((x) => (Array.isArray(x) ? x : x.split(',')).map((s) => s.trim()).filter(Boolean)),
    v.array(item),
  );
const origin = v.pipe(
  v.string(),
  v.regex(/^(https?:\/\/[^\s/]+|\*)$/i, 'each must be an origin such as https://example.com (scheme, host and port, no path), or *'),
);

/** A domain (`light`) or an entity-id pattern with `*` (`switch.garden_*`). */
const entityPattern = v.pipe(v.string(), v.regex(/^[a-z0-9_*]+(\.[a-z0-9_*]+)?$/, 'each must be a domain or an entity-id pattern such as switch.garden_*'));

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const SETTINGS = {
  port: { env: 'PORT', file: 'port', default: 3000, description: 'TCP port for HTTP, SSE, WebSocket and MCP', schema: int(0, 65535), fromEnv: toInt },
  host: { env: 'HOST', file: 'host', default: '0.0.0.0', description: 'Address to listen on', schema: v.pipe(text, v.nonEmpty('must not be empty')) },
  logLevel: {
    env: 'LOG_LEVEL',
    file: 'log_level',
    default: 'info',
    description: `Log level: ${LOG_LEVELS.join(', ')}`,
    schema: v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`),
    addon: 'list(trace|debug|info|warn|error|fatal)',
  },
  logFormat: {
    env: 'LOG_FORMAT',
    file: 'log_format',
    default: 'plain',
    description: `Log lines: \`plain\` (time, level, message and the fields it does not say, one line a person reads) or \`json\` (pino's JSON, one object a line, for log collectors)`,
    schema: v.picklist(LOG_FORMATS, `must be one of ${LOG_FORMATS.join(', ')}`),
    addon: 'list(plain|json)?',
  },
  dataDir: {
    env: 'DATA_DIR',
    file: 'data_dir',
    default: './data',
    description:
      'Folder for everything the service keeps (database, generated secret, admin password hash); /data in the add-on; for `stdio`, the per-user data folder ($XDG_DATA_HOME or ~/.local/share, ~/Library/Application Support, %LOCALAPPDATA%, each + /home-mcp-bridge)',
    schema: v.pipe(text, v.nonEmpty('must not be empty')),
  },
  bodyLimit: {
    env: 'BODY_LIMIT',
    file: 'body_limit',
    default: 1048576,
    unit: 'bytes',
    description: 'Largest accepted request body; larger bodies get 413',
    schema: int(1024, 64 * 1048576),
    fromEnv: toInt,
    addon: 'int(1024,67108864)?',
  },
  hassUrl: {
    env: 'HASS_URL',
    file: 'hass_url',
    description:
      'Home Assistant base URL (e.g. http://homeassistant.local:8123). Unset: the built-in simulator is used, unless SUPERVISOR_TOKEN is set (add-on)',
    schema: url,
  },
  hassToken: {
    env: 'HASS_TOKEN',
    file: 'hass_token',
    description: 'Home Assistant long-lived access token (required with HASS_URL)',
    schema: v.pipe(text, v.nonEmpty('must not be empty')),
    secret: true,
  },
  simHome: {
    env: 'SIM_HOME',
    file: 'sim_home',
    default: 'demo',
    description: 'Home the embedded simulator loads when no hub is configured: `demo` or a path to a home YAML file',
    schema: v.pipe(text, v.nonEmpty('must not be empty')),
  },
  jwtSecret: {
    env: 'JWT_SECRET',
    file: 'jwt_secret',
    description: 'HS256 signing secret, at least 32 characters. Unset: a random secret is generated once and kept in DATA_DIR/jwt-secret',
    schema: v.pipe(v.string('must be a string'), v.minLength(32, 'must be at least 32 characters')),
    secret: true,
  },
  jwtTtl: {
    env: 'JWT_TTL',
    file: 'jwt_ttl',
    default: 86400,
    unit: 'seconds',
    description: 'Lifetime of issued access tokens',
    schema: int(60, 366 * 86400),
    fromEnv: toInt,
    addon: 'int(60,31622400)?',
  },
  authUsername: {
    env: 'AUTH_USERNAME',
    file: 'auth_username',
    description: 'User allowed to obtain tokens (with AUTH_PASSWORD). Unset and no `users` list: an `admin` user is created on first start',
    schema: v.pipe(text, v.nonEmpty('must not be empty'), v.maxLength(128, 'must be at most 128 characters')),
    addon: 'str?',
  },
  authPassword: {
    env: 'AUTH_PASSWORD',
    file: 'auth_password',
    description: 'Password of AUTH_USERNAME, at least 8 characters',
    schema: v.pipe(v.string('must be a string'), v.minLength(8, 'must be at least 8 characters'), v.maxLength(1024, 'must be at most 1024 characters')),
    secret: true,
    addon: 'password?',
  },
  rateLimitWindow: {
    env: 'RATE_LIMIT_WINDOW',
    file: 'rate_limit_window',
    default: 1,
    unit: 'minutes',
    description: 'Rate-limit window (in a config file, `security.rateLimitWindow` gives it in milliseconds)',
    schema: int(1, 24 * 60),
    fromEnv: toInt,
    addon: 'int(1,1440)?',
  },
  rateLimitMax: {
    env: 'RATE_LIMIT_MAX',
    file: 'rate_limit_max',
    default: 100,
    unit: 'requests per window',
    description: 'Requests a client (a token, else an address) may make per window (in a config file also `security.rateLimit`); 0 turns rate limiting off',
    schema: int(0, 10_000_000),
    fromEnv: toInt,
    addon: 'int(0,10000000)?',
  },
  allowedOrigins: {
    env: 'ALLOWED_ORIGINS',
    file: 'allowed_origins',
    default: [],
    description:
      'Browser origins allowed to call the API across origins (CORS), e.g. `https://inspector.example`; comma-separated in the environment; `*` allows any. Default: none',
    schema: names(origin),
    fromEnv: toList,
    addon: ['str'],
  },
  pluginsDir: {
    env: 'PLUGINS_DIR',
    file: 'plugins_dir',
    description:
      "Folder of the user's own plugins (`.js`/`.mjs` files or folders with an index), loaded after the built-in ones; in the add-on `/config/plugins`, the `plugins` folder in its own config folder",
    schema: v.pipe(text, v.nonEmpty('must not be empty')),
    addon: 'str?',
    addonDefault: '/config/plugins',
  },
  pluginsDisabled: {
    env: 'PLUGINS_DISABLED',
    file: 'plugins_disabled',
    default: [],
    description: 'Plugins to turn off, by name (comma-separated in the environment)',
    schema: names(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/, 'each must be a plugin name in lower snake case'))),
    fromEnv: toList,
    addon: ['str'],
  },
  toolsReadOnly: {
    env: 'TOOLS_READ_ONLY',
    file: 'tools_read_only',
    default: false,
    description:
      'Nothing may change the home or what the bridge keeps of it, on any transport (REST, tools, MCP, WebSocket, commands, the panel): every action, notification and scene or group write is refused; reading goes on',
    schema: v.boolean('must be true or false'),
    fromEnv: toBool,
    addon: 'bool?',
  },
  toolsExposedOnly: {
    env: 'TOOLS_EXPOSED_ONLY',
    file: 'tools_exposed_only',
    default: false,
    description:
      "Every caller sees and acts on only the entities Home Assistant exposes to its own assistant (Assist; Settings → Voice assistants → Expose), by Home Assistant's own choices and default rule",
    schema: v.boolean('must be true or false'),
    fromEnv: toBool,
    addon: 'bool?',
  },
  toolsAllow: {
    env: 'TOOLS_ALLOW',
    file: 'tools_allow',
    default: [],
    description:
      'Domains (`light`) or entity-id patterns (`switch.garden_*`) any caller may act on, on every transport; empty allows all (comma-separated in the environment)',
    schema: names(entityPattern),
    fromEnv: toList,
    addon: ['str'],
  },
  toolsDeny: {
    env: 'TOOLS_DENY',
    file: 'tools_deny',
    default: [],
    description: 'Domains or entity-id patterns no caller may ever act on, on any transport; wins over TOOLS_ALLOW',
    schema: names(entityPattern),
    fromEnv: toList,
    addon: ['str'],
  },
  requireConfirmation: {
    env: 'REQUIRE_CONFIRMATION',
    file: 'require_confirmation',
    default: true,
    description:
      'Unlocking, opening a lock, disarming an alarm, opening a garage door or gate and opening a water or gas valve need `confirm: true`, on every transport',
    schema: v.boolean('must be true or false'),
    fromEnv: toBool,
    addon: 'bool?',
  },
  configEditing: {
    env: 'CONFIG_EDITING',
    file: 'config_editing',
    default: false,
    description:
      "Assistants and the API may change Home Assistant's automations, scripts, helpers and dashboards (the config tools and /api/ha-config); each change is previewed, confirmed and kept as a version. Off: they may only read them",
    schema: v.boolean('must be true or false'),
    fromEnv: toBool,
    addon: 'bool?',
  },
  adminTools: {
    env: 'ADMIN_TOOLS',
    file: 'admin_tools',
    default: false,
    description:
      'Assistants with the `admin` scope may look after Home Assistant itself: areas, floors, labels, devices, entities and their exposure, zones, repairs, integrations, system health and the error log, updates, backups, restarts and apps; each change is previewed and confirmed. Off: the admin tools are not offered',
    schema: v.boolean('must be true or false'),
    fromEnv: toBool,
    addon: 'bool?',
  },
  configVersionsMax: {
    env: 'CONFIG_VERSIONS_MAX',
    file: 'config_versions_max',
    default: 50,
    unit: 'versions per item',
    description: 'Versions kept of each automation, script, helper and dashboard the bridge changed; the oldest go first',
    schema: int(2, 10_000),
    fromEnv: toInt,
    addon: 'int(2,10000)?',
  },
  eventSubMaxSubscriptions: {
    env: 'EVENT_SUB_MAX_SUBSCRIPTIONS',
    file: 'event_sub_max_subscriptions',
    default: 100,
    unit: 'subscriptions',
    description: 'Event subscriptions one client (a token subject) may hold, stored and WebSocket ones together; more get 429',
    schema: int(1, 100_000),
    fromEnv: toInt,
    addon: 'int(1,100000)?',
  },
  eventSubRateLimit: {
    env: 'EVENT_SUB_RATE_LIMIT',
    file: 'event_sub_rate_limit',
    default: 1000,
    unit: 'events per window',
    description: 'Events delivered to one client per EVENT_SUB_RATE_WINDOW; the rest are dropped, counted and announced once per window; 0 turns the limit off',
    schema: int(0, 100_000_000),
    fromEnv: toInt,
    addon: 'int(0,100000000)?',
  },
  eventSubRateWindow: {
    env: 'EVENT_SUB_RATE_WINDOW',
    file: 'event_sub_rate_window',
    default: 60,
    unit: 'seconds',
    description: 'Window of EVENT_SUB_RATE_LIMIT',
    schema: int(1, 86_400),
    fromEnv: toInt,
  },
  sseMaxConnections: {
    env: 'SSE_MAX_CONNECTIONS',
    file: 'sse_max_connections',
    default: 2000,
    unit: 'connections',
    description:
      'Open SSE streams the bridge serves at once (event streams, MCP 2024-11-05 /sse streams and MCP 2026-07-28 subscriptions/listen streams together); more get 503',
    schema: int(1, 1_000_000),
    fromEnv: toInt,
    addon: 'int(1,1000000)?',
  },
  streamBufferLimit: {
    env: 'STREAM_BUFFER_LIMIT',
    file: 'stream_buffer_limit',
    default: 1048576,
    unit: 'bytes',
    description: 'Unsent data one SSE or WebSocket connection may hold; a client that falls further behind is closed with a last frame saying why',
    schema: int(4096, 256 * 1048576),
    fromEnv: toInt,
  },
  eventHistoryDays: {
    env: 'EVENT_HISTORY_DAYS',
    file: 'event_history_days',
    default: 7,
    unit: 'days',
    description: 'How long the event history keeps events (pruned in the background)',
    schema: int(1, 3650),
    fromEnv: toInt,
    addon: 'int(1,3650)?',
  },
  streamHistoryMaxRows: {
    env: 'STREAM_HISTORY_MAX_ROWS',
    file: 'stream_history_max_rows',
    default: 10000,
    unit: 'connections',
    description: 'Most ended SSE and WebSocket connections GET /api/sse/history keeps (also at most 31 days); the oldest go first',
    schema: int(10, 10_000_000),
    fromEnv: toInt,
  },
  cameraSnapshotMaxBytes: {
    env: 'CAMERA_SNAPSHOT_MAX_BYTES',
    file: 'camera_snapshot_max_bytes',
    default: 1048576,
    unit: 'bytes',
    description:
      'Largest camera snapshot a tool returns; a JPEG over it is asked of Home Assistant smaller (scaled there when it has libturbojpeg), and refused when it still does not fit',
    schema: int(1024, 20 * 1048576),
    fromEnv: toInt,
    addon: 'int(1024,20971520)?',
  },
  eventHistoryMaxRows: {
    env: 'EVENT_HISTORY_MAX_ROWS',
    file: 'event_history_max_rows',
    default: 200000,
    unit: 'events',
    description: 'Most events the history keeps; the oldest go first',
    schema: int(1000, 100_000_000),
    fromEnv: toInt,
    addon: 'int(1000,100000000)?',
  },
  streamSampleInterval: {
    env: 'STREAM_SAMPLE_INTERVAL',
    file: 'stream_sample_interval',
    default: 60,
    unit: 'seconds',
    description: 'How often stream metrics are sampled into the database (GET /api/sse/metrics reads the samples)',
    schema: int(1, 3600),
    fromEnv: toInt,
  },
  mcpResourceDebounce: {
    env: 'MCP_RESOURCE_DEBOUNCE',
    file: 'mcp_resource_debounce',
    default: 500,
    unit: 'milliseconds',
    description: 'An MCP client subscribed to a resource is told it changed at most once per this time',
    schema: int(0, 60_000),
    fromEnv: toInt,
    addon: 'int(0,60000)?',
  },
  templateMaxOutput: {
    env: 'TEMPLATE_MAX_OUTPUT',
    file: 'template_max_output',
    default: 16384,
    unit: 'characters',
    description: 'Longest result render_template answers with; a longer one is cut there and marked truncated',
    schema: int(64, 1_048_576),
    fromEnv: toInt,
  },
  mcpMaxSessions: {
    env: 'MCP_MAX_SESSIONS',
    file: 'mcp_max_sessions',
    default: 32,
    unit: 'sessions',
    description:
      'MCP sessions (Streamable HTTP and 2024-11-05 /sse) one client (a token subject) may hold, a new one past it ending the session that client used least recently; also the 2026-07-28 subscriptions/listen streams one client may hold open, a new one past it getting 429',
    schema: int(1, 10_000),
    fromEnv: toInt,
  },
  mcpSessionIdle: {
    env: 'MCP_SESSION_IDLE',
    file: 'mcp_session_idle',
    default: 3600,
    unit: 'seconds',
    description: 'An MCP session (Streamable HTTP) that sees no request for this long is closed',
    schema: int(1, 7 * 86_400),
    fromEnv: toInt,
    addon: 'int(1,604800)?',
  },
  mcpAllowedHosts: {
    env: 'MCP_ALLOWED_HOSTS',
    file: 'mcp_allowed_hosts',
    default: [],
    description:
      'Host names /mcp answers to (DNS-rebinding protection), e.g. `homeassistant.local`; empty allows any. Browser origins are checked against ALLOWED_ORIGINS: a request to /mcp with any other Origin gets 403',
    schema: names(v.pipe(v.string(), v.regex(/^[A-Za-z0-9.\-[\]:]{1,255}$/, 'each must be a host name, optionally with :port'))),
    fromEnv: toList,
    addon: ['str'],
  },
  commandMaxLength: {
    env: 'COMMAND_MAX_LENGTH',
    file: 'command_max_length',
    default: 500,
    unit: 'characters',
    description: 'Longest natural-language command accepted (POST /api/command, the WebSocket `command` message, the `command` tool); longer ones get 400',
    schema: int(1, 100_000),
    fromEnv: toInt,
    addon: 'int(1,100000)?',
  },
  commandLanguage: {
    env: 'COMMAND_LANGUAGE',
    file: 'command_language',
    default: 'auto',
    description:
      "Language of natural-language commands that name none (`language` in the request): a BCP 47 tag such as `en`, `de` or `de-CH` (answered in the nearest language the bridge has words for), or `auto` for Home Assistant's own language (English when the bridge has no words for it)",
    schema: v.pipe(text, v.regex(/^(auto|[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*)$/, 'must be auto or a language tag such as en, de or de-CH')),
    addon: 'str?',
  },
  ingressProxy: {
    env: 'INGRESS_PROXY',
    file: 'ingress_proxy',
    default: '172.30.32.2',
    description:
      "Address of Home Assistant's ingress proxy (the Supervisor). Requests from it are trusted as the Home Assistant user its X-Remote-User-* headers name; from any other address those headers are ignored",
    schema: v.pipe(text, v.regex(/^[0-9a-fA-F:.]{2,45}$/, 'must be an IP address')),
  },
  ingressUsers: {
    env: 'INGRESS_USERS',
    file: 'ingress_users',
    default: 'admins',
    description:
      'Home Assistant users who may use the bridge through ingress (the panel, and assistants through `connect --home-assistant`): `admins`, `all`, or their user ids, comma-separated; others get 403',
    schema: v.pipe(
      text,
      v.regex(
        /^(all|admins|[0-9a-fA-F]{32}(\s*,\s*[0-9a-fA-F]{32})*)$/i,
        'must be all, admins, or Home Assistant user ids (32 hex digits) separated by commas',
      ),
    ),
    addon: 'str?',
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    file: 'public_url',
    description:
      "The bridge's address as remote assistants reach it (your own domain or tunnel, e.g. https://bridge.example.com); OAuth metadata and tokens use it. Unset: taken from each request's Host",
    schema: v.pipe(text, v.regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i, 'must be an http(s):// URL without query or fragment')),
    addon: 'str?',
  },
  oauthRegistration: {
    env: 'OAUTH_REGISTRATION',
    file: 'oauth_registration',
    default: true,
    description:
      'Remote assistants may register themselves (OAuth dynamic client registration, RFC 7591); off: only clients identified by a client ID metadata document',
    schema: v.boolean('must be true or false'),
    fromEnv: toBool,
    addon: 'bool?',
  },
  oauthMetadataPrivate: {
    env: 'OAUTH_METADATA_PRIVATE',
    file: 'oauth_metadata_private',
    default: false,
    description:
      'Client ID metadata documents may be fetched from private, loopback and link-local addresses, and over plain http (for development; off, only public https addresses are fetched)',
    schema: v.boolean('must be true or false'),
    fromEnv: toBool,
  },
  oauthAccessTtl: {
    env: 'OAUTH_ACCESS_TTL',
    file: 'oauth_access_ttl',
    default: 3600,
    unit: 'seconds',
    description: 'Lifetime of access tokens issued to OAuth clients (refresh tokens renew them)',
    schema: int(60, 86_400),
    fromEnv: toInt,
    addon: 'int(60,86400)?',
  },
  oauthRefreshDays: {
    env: 'OAUTH_REFRESH_DAYS',
    file: 'oauth_refresh_days',
    default: 30,
    unit: 'days',
    description: 'A grant an OAuth client has not refreshed for this long ends',
    schema: int(1, 365),
    fromEnv: toInt,
    addon: 'int(1,365)?',
  },
  supervisorUrl: {
    env: 'SUPERVISOR_URL',
    file: 'supervisor_url',
    default: 'http://supervisor',
    description: "The Supervisor's API inside the add-on (with SUPERVISOR_TOKEN): the hub is its /core/websocket, discovery goes to its /discovery",
    schema: url,
  },
  discoveryPeers: {
    env: 'DISCOVERY_PEERS',
    file: 'discovery_peers',
    default: ['172.30.32.1'],
    description:
      "Addresses that may use the MCP link announced to Home Assistant (/mcp/ha/<key>): Home Assistant's own as the add-on sees it (it runs in the host's network, so it comes from the Supervisor network's gateway). Requests from any other address get 404 there, with the key or without",
    schema: names(v.pipe(v.string(), v.regex(/^[0-9a-fA-F:.]{2,45}$/, 'each must be an IP address'))),
    fromEnv: toList,
  },
  shutdownTimeout: {
    env: 'SHUTDOWN_TIMEOUT',
    file: 'shutdown_timeout',
    default: 10,
    unit: 'seconds',
    description: 'How long a shutdown waits for in-flight requests',
    schema: int(0, 300),
    fromEnv: toInt,
  },
} satisfies Record<string, Setting>;

export type SettingKey = keyof typeof SETTINGS;

type Output<K extends SettingKey> = v.InferOutput<(typeof SETTINGS)[K]['schema']>;
/** The checked value of every setting: those with a default always have one. */
export type SettingValues = { [K in SettingKey]: (typeof SETTINGS)[K] extends { default: unknown } ? Output<K> : Output<K> | undefined };

export const userSchema = v.object({
  username: v.pipe(text, v.nonEmpty('username must not be empty'), v.maxLength(128, 'username must be at most 128 characters')),
  password: v.pipe(
    v.string('password must be a string'),
    v.minLength(8, 'password must be at least 8 characters'),
    v.maxLength(1024, 'password must be at most 1024 characters'),
  ),
});
export const usersSchema = v.array(userSchema, 'must be a list of {username, password}');
