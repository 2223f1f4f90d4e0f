// Plugins are built with the service, loaded at start, checked, and isolated: a broken one is
// skipped with its reason while the rest load; a user's plain JavaScript plugin imports the API by
// the package's name from a folder outside the package.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AppError } from '../../src/errors.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');

test('npm run build compiles the plugins beside the service, as JavaScript', () => {
  expect(existsSync(join(ROOT, 'dist', 'plugins', 'discovery', 'index.js'))).toBe(true);
  expect(readdirSync(join(ROOT, 'dist', 'plugins', 'discovery')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  expect(existsSync(join(ROOT, 'dist', 'src', 'plugin-sdk', 'index.js'))).toBe(true);
  // Words travel with their plugin, as data beside its code.
  expect(existsSync(join(ROOT, 'dist', 'plugins', 'lights', 'words', 'en.json'))).toBe(true);
});

describe('the built service with a folder of user plugins', () => {
  let child: ReturnType<typeof spawn>;
  let url = '';
  let log = '';
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hmb-user-plugins-'));
    cpSync(join(ROOT, 'tests', 'fixtures', 'plugins'), dir, { recursive: true });
    const env = {
      PATH: process.env.PATH!,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'hmb-plugins-data-')),
      AUTH_USERNAME: 'u',
      AUTH_PASSWORD: 'password1',
      PLUGINS_DIR: dir,
      PLUGINS_DISABLED: 'disabled_one',
    };
    child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        log = out;
        const port = /listening on 127\.0\.0\.1:(\d+)/.exec(out)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
  });
  afterAll(() => child?.kill('SIGTERM'));

  const session = async () => {
    const token = (await (
      await fetch(`${url}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'u', password: 'password1' }),
      })
    ).json()) as { access_token: string };
    const call = async (name: string, args: unknown = {}) => {
      const res = await fetch(`${url}/api/tools/call`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, arguments: args }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    return { token: token.access_token, call };
  };

  test('a plugin cannot reach secrets, tokens or the store: asking for them skips it, and the SDK context has no way to them', async () => {
    const { call } = await session();
    const health = (await (await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${(await session()).token}` } })).json()) as Record<
      string,
      any
    >;
    const failed = Object.fromEntries(health.plugins.failed.map((f: any) => [f.path.split('/').pop(), f.reason]));
    expect(failed['reaches-for-secrets.mjs']).toMatch(/^it asks for config, tokens, store, which plugins cannot have/);
    expect(failed['wants-settings.mjs']).toMatch(/^it asks for settings, which plugins cannot have \(only home, scenes, groups, commands, config/);
    expect((await call('leak')).status).toBe(404);
    const status = JSON.parse((await call('porch_status')).body.content[0].text);
    expect(status).toEqual({ lights_on: expect.any(Number), context: ['caller', 'client', 'home', 'log'], services: 'undefined', started: 1 });
    // A part it did not declare is not there: the tool fails saying so, and nothing else happens.
    const scenes = await call('porch_scenes');
    expect(scenes.body).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/did not declare "scenes" in needs/) }] });
  });

  test('a plugin made for another bridge version is skipped, saying which', async () => {
    const health = (await (await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${(await session()).token}` } })).json()) as Record<
      string,
      any
    >;
    const failed = Object.fromEntries(health.plugins.failed.map((f: any) => [f.path.split('/').pop(), f.reason]));
    expect(failed['from-the-future.mjs']).toMatch(/^it works with bridge \^9\.0\.0, and this bridge is \d+\.\d+\.\d+$/);
    expect(failed['bad-words.mjs']).toBe('its words could not be read: words de: domains.light.nouns: must be a list of phrases');
  });

  test('a plugin acts only through the home, so the bridge’s rules hold for it', async () => {
    const { call } = await session();
    const r = await call('porch_light', { entity_id: 'light.office_desk', on: true });
    expect(r.status).toBe(200);
    // The arguments it declares are the only ones it takes.
    expect((await call('porch_light', { entity_id: 'light.office_desk', on: true, force: true })).body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { unknown_fields: ['force'] },
    });
  });

  test('a plugin written before the SDK still loads, with a warning that names what to change', async () => {
    const health = (await (await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${(await session()).token}` } })).json()) as Record<
      string,
      any
    >;
    const greeter = health.plugins.loaded.find((p: any) => p.name === 'greeter');
    expect(greeter.deprecated).toMatch(/declare the bridge versions it works with \(bridge: "\^0\.2\.0"\)/);
    expect((await (await session()).call('count_entities', {})).body.content[0].text).toMatch(/^The hub has \d+ entities/);
    expect(log).toMatch(/plugin greeter uses the plugin API before 0\.2/);
  });

  test('/api/health reports loaded, skipped (with reasons) and disabled plugins, and the tool count', async () => {
    const token = (await (
      await fetch(`${url}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'u', password: 'password1' }),
      })
    ).json()) as { access_token: string };
    const health = (await (await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${token.access_token}` } })).json()) as Record<string, any>;
    expect(health.plugins.loaded.map((p: any) => [p.name, p.source, p.tools])).toEqual([
      ['admin', 'builtin', ['admin_registry', 'admin_health', 'admin_blueprint', 'admin_system']],
      ['alarm', 'builtin', ['control_alarm']],
      ['app', 'builtin', ['app_home_state']],
      ['automation', 'builtin', ['run_automation']],
      ['bridge_scenes', 'builtin', ['bridge_scenes']],
      ['calendar', 'builtin', ['calendar']],
      ['cameras', 'builtin', ['cameras']],
      ['climate', 'builtin', ['control_climate']],
      ['commands', 'builtin', ['command']],
      ['config', 'builtin', ['config_read', 'config_trace', 'config_change', 'config_history', 'config_restore']],
      ['covers', 'builtin', ['control_covers']],
      ['discovery', 'builtin', ['search_entities', 'list_areas', 'list_devices', 'describe_entity']],
      ['energy', 'builtin', ['energy']],
      ['entities', 'builtin', ['control_entity']],
      ['fans', 'builtin', ['control_fans']],
      ['history', 'builtin', ['get_history', 'get_logbook', 'get_statistics']],
      ['lights', 'builtin', ['control_lights']],
      ['locks', 'builtin', ['control_locks']],
      ['media', 'builtin', ['control_media']],
      ['notify', 'builtin', ['send_notification']],
      ['people', 'builtin', ['people']],
      ['routines', 'builtin', []],
      ['services', 'builtin', ['call_service']],
      ['templates', 'builtin', ['render_template']],
      ['todo', 'builtin', ['todo']],
      ['vacuums', 'builtin', ['control_vacuums']],
      ['weather', 'builtin', ['weather']],
      ['greeter', 'user', ['count_entities']],
      ['porch', 'user', ['porch_status', 'porch_light', 'porch_scenes']],
    ]);
    const failed = Object.fromEntries(health.plugins.failed.map((f: any) => [f.path.split('/').pop(), f.reason]));
    expect(failed['throws-on-load.mjs']).toBe('it failed to load: this plugin is broken on purpose');
    expect(failed['bad-definition.mjs']).toMatch(/^its definition is not valid: name: must be lower snake case.*version: is required/);
    expect(failed['reads-as-text.mjs']).toMatch(/^its definition is not valid: tools\.0\.readOperations: must be a list of operation names/);
    expect(failed['duplicate-name.mjs']).toBe('another plugin is named discovery');
    expect(failed['long-named-copy.mjs']).toBe(
      'the tool name count_entities is taken by the plugin greeter, and a_copy_of_the_greeter_with_a_name_long_enough_to_overflow__count_entities is longer than 64 characters',
    );
    expect(health.plugins.disabled).toEqual(['disabled_one']);
    expect(health.tools).toBe(42);
  });
});

describe('a built-in plugin against the simulator', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  const tool = (name: string) => ({ call: (args: unknown) => s.app.services.tools.call(name, args) });

  test('search_entities finds entities by domain, area and name, with the hub’s names and areas', async () => {
    const r = await tool('search_entities').call({ domain: 'light', area: 'living room' });
    const entities = (r.structuredContent as Record<string, unknown>).entities as { entity_id: string; area: string }[];
    expect(entities.length).toBeGreaterThan(0);
    for (const e of entities) {
      expect(e.entity_id).toMatch(/^light\./);
      expect(e.area).toBe('Living Room');
    }
    const byName = await tool('search_entities').call({ query: 'front door' });
    expect(((byName.structuredContent as Record<string, unknown>).entities as { entity_id: string }[]).map((e) => e.entity_id)).toContain('lock.front_door');
  });

  test('arguments go through the one validator; no match is an isError result that says what to try', async () => {
    await expect(tool('search_entities').call({ limit: 1000 })).rejects.toThrow(AppError);
    await expect(tool('search_entities').call({ limit: 1000 })).rejects.toThrow('limit: must be at most 100');
    const none = await tool('search_entities').call({ query: 'no such thing anywhere' });
    expect(none.isError).toBe(true);
    expect(none.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/No entity matches/) });
  });

  test('a disabled plugin is gone', async () => {
    const off = await startTestServer({ PLUGINS_DISABLED: 'discovery' });
    try {
      expect(off.app.services.plugins.list.map((p) => p.name)).not.toContain('discovery');
      expect(off.app.services.plugins.report.disabled).toEqual(['discovery']);
      expect(off.app.services.tools.list().map((t) => t.name)).not.toContain('search_entities');
      expect((await off.call('/api/tools/call', 'POST', { name: 'search_entities', arguments: {} })).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
