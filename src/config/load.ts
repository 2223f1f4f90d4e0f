// Settings are merged as defaults < config files < environment, then validated; the first bad
// value stops the start with one line that names the setting and where it came from.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as v from 'valibot';
import { parse as parseYaml } from 'yaml';
import { issuesOf } from '../validation.js';
import { SETTINGS, type SettingKey, type SettingValues, usersSchema } from './settings.js';

export interface User {
  username: string;
  password: string;
}

/** The running configuration: every setting of the table, checked, plus what is derived from them. */
export type Config = SettingValues & {
  users: User[];
  rateLimitWindowMs: number;
  shutdownTimeoutMs: number;
  /** Set inside the add-on; the hub is then ws://supervisor/core/websocket. */
  supervisorToken?: string;
  /** The files that were read, in order. */
  configFiles: string[];
  /** What was read but not used (unknown keys), each a line for the log. */
  warnings: string[];
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const ADDON_OPTIONS_FILE = '/data/options.json';

interface Raw {
  value: unknown;
  source: string;
}

function readFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`config file ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError(`config file ${path}: not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'} (${(err as Error).message.split('\n')[0]})`);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new ConfigError(`config file ${path}: must hold a mapping of settings`);
  return data as Record<string, unknown>;
}

function describe(value: unknown, secret: boolean): string {
  if (secret) return '';
  const s = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return ` (got ${s.length > 60 ? `${s.slice(0, 57)}...` : s})`;
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** Defaults to /data/options.json; tests point it elsewhere. */
  addonOptionsFile?: string;
  /** DATA_DIR when no source sets it, instead of the table's default (stdio: the per-user data folder). */
  dataDirDefault?: string;
}

export function loadConfig(opts: LoadOptions = {}): Config {
  const env = opts.env ?? process.env;
  const raw = new Map<SettingKey, Raw>();
  const files: string[] = [];
  const warnings: string[] = [];
  let users: Raw | undefined;

  const fromFile = (path: string) => {
    const data = readFile(path);
    files.push(path);
    const known = new Set<string>(['users', 'security']);
    for (const [key, setting] of Object.entries(SETTINGS) as [SettingKey, (typeof SETTINGS)[SettingKey]][]) {
      known.add(setting.file);
      const value = data[setting.file];
      if (value !== undefined && value !== null && value !== '') raw.set(key, { value, source: `${setting.file} in ${path}` });
    }
    const security = data.security;
    if (security !== undefined) {
      if (typeof security !== 'object' || security === null) throw new ConfigError(`security in ${path}: must be a mapping`);
      const sec = security as Record<string, unknown>;
      if (sec.rateLimit !== undefined) raw.set('rateLimitMax', { value: sec.rateLimit, source: `security.rateLimit in ${path}` });
      if (sec.rateLimitWindow !== undefined) {
        const ms = sec.rateLimitWindow;
        if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1000) {
          throw new ConfigError(`security.rateLimitWindow in ${path}: must be a whole number of milliseconds, at least 1000${describe(ms, false)}`);
        }
        raw.set('rateLimitWindow', { value: ms / 60000, source: `security.rateLimitWindow in ${path}` });
      }
    }
    if (data.users !== undefined) users = { value: data.users, source: `users in ${path}` };
    // An unknown key (a typo, or an option of a newer version) is not worth refusing to start over.
    for (const key of Object.keys(data).filter((k) => !known.has(k))) {
      const near = nearest(key, [...known]);
      warnings.push(`unknown setting ${JSON.stringify(key.slice(0, 60))} in ${path} (ignored)${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`);
    }
  };

  const addonFile = opts.addonOptionsFile ?? ADDON_OPTIONS_FILE;
  if (existsSync(addonFile)) fromFile(addonFile);
  if (env.CONFIG_FILE) {
    const path = isAbsolute(env.CONFIG_FILE) ? env.CONFIG_FILE : resolve(env.CONFIG_FILE);
    if (!existsSync(path)) throw new ConfigError(`CONFIG_FILE: ${path} does not exist`);
    fromFile(path);
  }

  for (const [key, setting] of Object.entries(SETTINGS) as [SettingKey, (typeof SETTINGS)[SettingKey]][]) {
    const value = env[setting.env];
    if (value !== undefined && value !== '') {
      const s = setting as { fromEnv?: (raw: string) => unknown };
      raw.set(key, { value: s.fromEnv ? s.fromEnv(value) : value, source: `${setting.env} (environment)` });
    }
  }

  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [SettingKey, (typeof SETTINGS)[SettingKey]][]) {
    const given = raw.get(key);
    const value = given
      ? given.value
      : key === 'dataDir' && opts.dataDirDefault !== undefined
        ? opts.dataDirDefault
        : (setting as { default?: unknown }).default;
    if (value === undefined) continue;
    // The window may arrive as a fraction of a minute from security.rateLimitWindow; it is checked there.
    const schema = key === 'rateLimitWindow' && given?.source.startsWith('security.') ? v.number() : setting.schema;
    const result = v.safeParse(schema as v.GenericSchema, value);
    if (!result.success) {
      const where = given ? given.source : `${setting.env} (default)`;
      const first = issuesOf(result.issues)[0];
      const field = first?.field ? `${first.field}: ` : '';
      throw new ConfigError(`${where}: ${field}${first?.message ?? 'invalid value'}${describe(value, Boolean((setting as { secret?: boolean }).secret))}`);
    }
    out[key] = result.output;
  }
  // Every key above was checked by its own schema; missing ones have no default.
  const values = out as SettingValues;

  const userList: User[] = [];
  if (users) {
    const result = v.safeParse(usersSchema, users.value);
    if (!result.success) throw new ConfigError(`${users.source}: ${result.issues[0]?.message ?? 'invalid'}`);
    userList.push(...result.output);
  }
  if (values.authUsername !== undefined || values.authPassword !== undefined) {
    if (values.authUsername === undefined) throw new ConfigError('AUTH_USERNAME: must be set when AUTH_PASSWORD is set');
    if (values.authPassword === undefined) throw new ConfigError('AUTH_PASSWORD: must be set when AUTH_USERNAME is set');
    userList.unshift({ username: values.authUsername, password: values.authPassword });
  }
  const names = new Set<string>();
  for (const u of userList) {
    if (names.has(u.username)) throw new ConfigError(`users: the user ${JSON.stringify(u.username)} is given twice`);
    names.add(u.username);
  }

  const supervisorToken = env.SUPERVISOR_TOKEN || undefined;
  if (values.hassUrl !== undefined && values.hassToken === undefined && !supervisorToken) {
    throw new ConfigError('HASS_TOKEN: must be set when HASS_URL is set (a Home Assistant long-lived access token)');
  }

  return {
    ...values,
    dataDir: resolve(values.dataDir),
    hassUrl: values.hassUrl?.replace(/\/+$/, ''),
    supervisorToken,
    users: userList,
    rateLimitWindowMs: Math.round(values.rateLimitWindow * 60000),
    shutdownTimeoutMs: values.shutdownTimeout * 1000,
    configFiles: files,
    warnings,
  };
}

/** The known key closest to an unknown one, when it is close enough to be a typo. */
function nearest(key: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(key.toLowerCase(), k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
