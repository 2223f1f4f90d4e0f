// Settings are merged as defaults < config files < environment, then validated; the first bad
// value stops the start with one line that names the setting and where it came from.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as v from 'valibot';
import { parse as parseYaml } from 'yaml';
import { SETTINGS, type SettingKey, usersSchema } from './settings.js';

export interface User {
  username: string;
  password: string;
}

export interface Config {
  port: number;
  host: string;
  logLevel: string;
  dataDir: string;
  bodyLimit: number;
  hassUrl?: string;
  hassToken?: string;
  /** Set inside the add-on; the hub is then ws://supervisor/core/websocket. */
  supervisorToken?: string;
  simHome: string;
  jwtSecret?: string;
  jwtTtl: number;
  users: User[];
  rateLimitMax: number;
  rateLimitWindowMs: number;
  shutdownTimeoutMs: number;
  /** The files that were read, in order. */
  configFiles: string[];
}

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
  const s = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return ` (got ${s.length > 60 ? `${s.slice(0, 57)}...` : s})`;
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** Defaults to /data/options.json; tests point it elsewhere. */
  addonOptionsFile?: string;
}

export function loadConfig(opts: LoadOptions = {}): Config {
  const env = opts.env ?? process.env;
  const raw = new Map<SettingKey, Raw>();
  const files: string[] = [];
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
    const unknown = Object.keys(data).filter((k) => !known.has(k));
    if (unknown.length) throw new ConfigError(`config file ${path}: unknown setting ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
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
    const value = given ? given.value : (setting as { default?: unknown }).default;
    if (value === undefined) continue;
    // The window may arrive as a fraction of a minute from security.rateLimitWindow; it is checked there.
    const schema = key === 'rateLimitWindow' && given?.source.startsWith('security.') ? v.number() : setting.schema;
    const result = v.safeParse(schema as v.GenericSchema, value);
    if (!result.success) {
      const where = given ? given.source : `${setting.env} (default)`;
      throw new ConfigError(`${where}: ${result.issues[0]?.message ?? 'invalid value'}${describe(value, Boolean((setting as { secret?: boolean }).secret))}`);
    }
    out[key] = result.output;
  }

  const userList: User[] = [];
  if (users) {
    const result = v.safeParse(usersSchema, users.value);
    if (!result.success) throw new ConfigError(`${users.source}: ${result.issues[0]?.message ?? 'invalid'}`);
    userList.push(...result.output);
  }
  if (out.authUsername !== undefined || out.authPassword !== undefined) {
    if (out.authUsername === undefined) throw new ConfigError('AUTH_USERNAME: must be set when AUTH_PASSWORD is set');
    if (out.authPassword === undefined) throw new ConfigError('AUTH_PASSWORD: must be set when AUTH_USERNAME is set');
    userList.unshift({ username: out.authUsername as string, password: out.authPassword as string });
  }
  const names = new Set<string>();
  for (const u of userList) {
    if (names.has(u.username)) throw new ConfigError(`users: the user ${JSON.stringify(u.username)} is given twice`);
    names.add(u.username);
  }

  const supervisorToken = env.SUPERVISOR_TOKEN || undefined;
  if (out.hassUrl !== undefined && out.hassToken === undefined && !supervisorToken) {
    throw new ConfigError('HASS_TOKEN: must be set when HASS_URL is set (a Home Assistant long-lived access token)');
  }

  return {
    port: out.port as number,
    host: out.host as string,
    logLevel: out.logLevel as string,
    dataDir: resolve(out.dataDir as string),
    bodyLimit: out.bodyLimit as number,
    hassUrl: (out.hassUrl as string | undefined)?.replace(/\/+$/, ''),
    hassToken: out.hassToken as string | undefined,
    supervisorToken,
    simHome: out.simHome as string,
    jwtSecret: out.jwtSecret as string | undefined,
    jwtTtl: out.jwtTtl as number,
    users: userList,
    rateLimitMax: out.rateLimitMax as number,
    rateLimitWindowMs: Math.round((out.rateLimitWindow as number) * 60000),
    shutdownTimeoutMs: (out.shutdownTimeout as number) * 1000,
    configFiles: files,
  };
}
