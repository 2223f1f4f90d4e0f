// The table of settings: one entry per setting, with its environment name, its key in a config
// file, its default, its unit and its schema. README's settings table is written from this list.
import * as v from 'valibot';

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
}

const toInt = (raw: string): unknown => (/^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw);
const int = (min: number, max: number) =>
  v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));
const text = v.pipe(v.string('must be a string'), v.trim());
const url = v.pipe(text, v.regex(/^(https?|wss?):\/\/[^\s/]+/i, 'must be an http(s):// or ws(s):// URL'));

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const SETTINGS = {
  port: { env: 'PORT', file: 'port', default: 3000, description: 'TCP port for HTTP, SSE, WebSocket and MCP', schema: int(0, 65535), fromEnv: toInt },
  host: { env: 'HOST', file: 'host', default: '0.0.0.0', description: 'Address to listen on', schema: v.pipe(text, v.nonEmpty('must not be empty')) },
  logLevel: { env: 'LOG_LEVEL', file: 'log_level', default: 'info', description: `Log level: ${LOG_LEVELS.join(', ')}`, schema: v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`) },
  dataDir: { env: 'DATA_DIR', file: 'data_dir', default: './data', description: 'Folder for everything the service keeps (database, generated secret, admin password hash); /data in the add-on', schema: v.pipe(text, v.nonEmpty('must not be empty')) },
  bodyLimit: { env: 'BODY_LIMIT', file: 'body_limit', default: 1048576, unit: 'bytes', description: 'Largest accepted request body; larger bodies get 413', schema: int(1024, 64 * 1048576), fromEnv: toInt },
  hassUrl: { env: 'HASS_URL', file: 'hass_url', description: 'Home Assistant base URL (e.g. http://homeassistant.local:8123). Unset: the built-in simulator is used, unless SUPERVISOR_TOKEN is set (add-on)', schema: url },
  hassToken: { env: 'HASS_TOKEN', file: 'hass_token', description: 'Home Assistant long-lived access token (required with HASS_URL)', schema: v.pipe(text, v.nonEmpty('must not be empty')), secret: true },
  simHome: { env: 'SIM_HOME', file: 'sim_home', default: 'demo', description: 'Home the embedded simulator loads when no hub is configured: `demo` or a path to a home YAML file', schema: v.pipe(text, v.nonEmpty('must not be empty')) },
  jwtSecret: { env: 'JWT_SECRET', file: 'jwt_secret', description: 'HS256 signing secret, at least 32 characters. Unset: a random secret is generated once and kept in DATA_DIR/jwt-secret', schema: v.pipe(v.string('must be a string'), v.minLength(32, 'must be at least 32 characters')), secret: true },
  jwtTtl: { env: 'JWT_TTL', file: 'jwt_ttl', default: 86400, unit: 'seconds', description: 'Lifetime of issued access tokens', schema: int(60, 366 * 86400), fromEnv: toInt },
  authUsername: { env: 'AUTH_USERNAME', file: 'auth_username', description: 'User allowed to obtain tokens (with AUTH_PASSWORD). Unset and no `users` list: an `admin` user is created on first start', schema: v.pipe(text, v.nonEmpty('must not be empty'), v.maxLength(128, 'must be at most 128 characters')) },
  authPassword: { env: 'AUTH_PASSWORD', file: 'auth_password', description: 'Password of AUTH_USERNAME, at least 8 characters', schema: v.pipe(v.string('must be a string'), v.minLength(8, 'must be at least 8 characters'), v.maxLength(1024, 'must be at most 1024 characters')), secret: true },
  rateLimitWindow: { env: 'RATE_LIMIT_WINDOW', file: 'rate_limit_window', default: 1, unit: 'minutes', description: 'Rate-limit window (in a config file, `security.rateLimitWindow` gives it in milliseconds)', schema: int(1, 24 * 60), fromEnv: toInt },
  rateLimitMax: { env: 'RATE_LIMIT_MAX', file: 'rate_limit_max', default: 100, unit: 'requests per window', description: 'Requests a client may make per window (in a config file also `security.rateLimit`); 0 turns rate limiting off', schema: int(0, 10_000_000), fromEnv: toInt },
  shutdownTimeout: { env: 'SHUTDOWN_TIMEOUT', file: 'shutdown_timeout', default: 10, unit: 'seconds', description: 'How long a shutdown waits for in-flight requests', schema: int(0, 300), fromEnv: toInt },
} satisfies Record<string, Setting>;

export type SettingKey = keyof typeof SETTINGS;

export const userSchema = v.object({
  username: v.pipe(text, v.nonEmpty('username must not be empty'), v.maxLength(128, 'username must be at most 128 characters')),
  password: v.pipe(v.string('password must be a string'), v.minLength(8, 'password must be at least 8 characters'), v.maxLength(1024, 'password must be at most 1024 characters')),
});
export const usersSchema = v.array(userSchema, 'must be a list of {username, password}');
