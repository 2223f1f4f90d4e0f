import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';

const dir = mkdtempSync(join(tmpdir(), 'hmb-config-'));
const noAddon = join(dir, 'absent-options.json');
const load = (env: Record<string, string>, addonOptionsFile = noAddon) => loadConfig({ env, addonOptionsFile });
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('settings', () => {
  test('defaults', () => {
    const c = load({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.bodyLimit).toBe(1048576);
    expect(c.rateLimitMax).toBe(100);
    expect(c.rateLimitWindowMs).toBe(60_000);
    expect(c.jwtTtl).toBe(86400);
    expect(c.simHome).toBe('demo');
    expect(c.users).toEqual([]);
    expect(c.hassUrl).toBeUndefined();
  });

  test('a YAML file overrides defaults and the environment overrides the file', () => {
    const path = file('settings.yaml', 'port: 4000\nhost: 127.0.0.1\nlog_level: debug\nsecurity:\n  rateLimit: 7\n  rateLimitWindow: 30000\n');
    const c = load({ CONFIG_FILE: path, PORT: '5000' });
    expect(c.port).toBe(5000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.logLevel).toBe('debug');
    expect(c.rateLimitMax).toBe(7);
    expect(c.rateLimitWindowMs).toBe(30_000);
    expect(c.configFiles).toEqual([path]);
  });

  test('RATE_LIMIT_WINDOW is in minutes', () => {
    expect(load({ RATE_LIMIT_WINDOW: '15', RATE_LIMIT_MAX: '50' })).toMatchObject({ rateLimitWindowMs: 900_000, rateLimitMax: 50 });
  });

  test('the add-on options file is read, and a CONFIG_FILE on top of it', () => {
    const options = file('options.json', JSON.stringify({ log_level: 'warn', rate_limit_max: 9, auth_username: 'ha', auth_password: 'long enough' }));
    const extra = file('extra.json', JSON.stringify({ rate_limit_max: 11 }));
    const c = load({ CONFIG_FILE: extra }, options);
    expect(c.logLevel).toBe('warn');
    expect(c.rateLimitMax).toBe(11);
    expect(c.users).toEqual([{ username: 'ha', password: 'long enough' }]);
    expect(c.configFiles).toEqual([options, extra]);
  });

  test('users come from the file list and from AUTH_USERNAME/AUTH_PASSWORD', () => {
    const path = file('users.yaml', 'users:\n  - username: alice\n    password: alicealice\n');
    const c = load({ CONFIG_FILE: path, AUTH_USERNAME: 'bob', AUTH_PASSWORD: 'bobbobbob' });
    expect(c.users.map((u) => u.username)).toEqual(['bob', 'alice']);
  });

  test.each([
    [{ PORT: 'abc' }, /^PORT \(environment\): must be a number \(got "abc"\)$/],
    [{ PORT: '70000' }, /^PORT \(environment\): must be at most 65535/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL \(environment\): must be one of/],
    [{ BODY_LIMIT: '10' }, /^BODY_LIMIT \(environment\): must be at least 1024/],
    [{ JWT_SECRET: 'short' }, /^JWT_SECRET \(environment\): must be at least 32 characters$/],
    [{ HASS_URL: 'homeassistant.local' }, /^HASS_URL \(environment\): must be an http/],
    [{ HASS_URL: 'http://ha.local:8123' }, /^HASS_TOKEN: must be set when HASS_URL is set/],
    [{ AUTH_USERNAME: 'solo' }, /^AUTH_PASSWORD: must be set/],
    [{ AUTH_USERNAME: 'u', AUTH_PASSWORD: 'short' }, /^AUTH_PASSWORD \(environment\): must be at least 8 characters$/],
    [{ RATE_LIMIT_WINDOW: '0' }, /^RATE_LIMIT_WINDOW \(environment\): must be at least 1/],
    [{ CONFIG_FILE: '/nonexistent/settings.yaml' }, /^CONFIG_FILE: \/nonexistent\/settings.yaml does not exist$/],
  ])('%o is refused with one line naming the setting', (env, message) => {
    const m = failure(() => load(env as Record<string, string>));
    expect(m).toMatch(message);
    expect(m).not.toContain('\n');
  });

  test('secrets are never echoed in errors', () => {
    const m = failure(() => load({ JWT_SECRET: 'not-long-but-secret' }));
    expect(m).not.toContain('not-long-but-secret');
  });

  test('file problems name the file and the key', () => {
    expect(failure(() => load({ CONFIG_FILE: file('bad.yaml', 'port: [1\n') }))).toMatch(/bad\.yaml: not valid YAML/);
    expect(failure(() => load({ CONFIG_FILE: file('bad.json', '{"port":') }))).toMatch(/bad\.json: not valid JSON/);
    expect(failure(() => load({ CONFIG_FILE: file('port.yaml', 'port: "x"\n') }))).toMatch(/^port in .*port\.yaml: must be a number/);
    expect(failure(() => load({ CONFIG_FILE: file('win.yaml', 'security:\n  rateLimitWindow: 5\n') }))).toMatch(
      /^security\.rateLimitWindow in .*: must be a whole number of milliseconds/,
    );
    expect(failure(() => load({ CONFIG_FILE: file('users.json', '{"users":[{"username":"x"}]}') }))).toMatch(/^users in .*users\.json: /);
    expect(
      failure(() => load({ CONFIG_FILE: file('dupe.json', '{"users":[{"username":"x","password":"12345678"},{"username":"x","password":"12345678"}]}') })),
    ).toMatch(/given twice/);
  });

  test('an unknown key is a warning naming it and the nearest known key; the start goes on', () => {
    const typo = file('typo.yaml', 'prot: 1\nrate_limt_max: 5\nsomething_else_entirely: true\n');
    const c = load({ CONFIG_FILE: typo });
    expect(c.port).toBe(3000);
    expect(c.warnings).toEqual([
      `unknown setting "prot" in ${typo} (ignored); did you mean "port"?`,
      `unknown setting "rate_limt_max" in ${typo} (ignored); did you mean "rate_limit_max"?`,
      `unknown setting "something_else_entirely" in ${typo} (ignored)`,
    ]);
    const options = file('options-unknown.json', JSON.stringify({ log_level: 'warn', future_option: 1 }));
    const fromAddon = load({}, options);
    expect(fromAddon.logLevel).toBe('warn');
    expect(fromAddon.warnings).toEqual([`unknown setting "future_option" in ${options} (ignored)`]);
  });

  test('lists: plugins disabled and allowed origins, from a file list, a comma string or the environment', () => {
    expect(load({})).toMatchObject({ pluginsDisabled: [], allowedOrigins: [] });
    expect(load({ PLUGINS_DISABLED: 'media, vacuums', ALLOWED_ORIGINS: 'https://a.example,http://localhost:6274' })).toMatchObject({
      pluginsDisabled: ['media', 'vacuums'],
      allowedOrigins: ['https://a.example', 'http://localhost:6274'],
    });
    expect(load({ CONFIG_FILE: file('lists.yaml', 'plugins_disabled: [notify]\nallowed_origins: "*"\n') })).toMatchObject({
      pluginsDisabled: ['notify'],
      allowedOrigins: ['*'],
    });
    expect(failure(() => load({ ALLOWED_ORIGINS: 'https://a.example/path' }))).toMatch(/^ALLOWED_ORIGINS \(environment\): 0: each must be an origin/);
    expect(failure(() => load({ PLUGINS_DISABLED: 'Bad Name' }))).toMatch(/^PLUGINS_DISABLED \(environment\): 0: each must be a plugin name/);
  });

  test('SUPERVISOR_TOKEN stands in for HASS_TOKEN', () => {
    const c = load({ HASS_URL: 'http://supervisor/core', SUPERVISOR_TOKEN: 'abc' });
    expect(c.supervisorToken).toBe('abc');
    expect(c.hassUrl).toBe('http://supervisor/core');
  });
});
