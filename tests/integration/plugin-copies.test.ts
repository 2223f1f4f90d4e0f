// Every built-in plugin is an example a user can copy. Each one is copied out of the tree twice, as
// a user would: built (dist/plugins/<name>, JavaScript) and as source (plugins/<name>, TypeScript
// that Node strips), into a PLUGINS_DIR under a new name, beside the example in examples/. The built
// bridge starts with that folder against the simulator; every copy loads next to its original, its
// tools offered as `<copy>__<tool>` since the original holds their names (nothing hides anything),
// and one tool of each copy answers.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startBridge, type BridgeProcess } from '../helpers/bridge-process.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BUILTINS = readdirSync(join(ROOT, 'plugins'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const EXAMPLES = readdirSync(join(ROOT, 'examples'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** One harmless call per built-in (a read, or a dry run): a built-in added without one here fails the test. */
const CALLS: Record<string, { tool: string; arguments: Record<string, unknown> } | { prompt: string; arguments: Record<string, string> }> = {
  // Offered only while ADMIN_TOOLS is on (the bridge below runs with it).
  admin: { tool: 'admin_registry', arguments: { operation: 'list', kind: 'area' } },
  alarm: { tool: 'control_alarm', arguments: { entity_id: 'alarm_control_panel.security', command: 'arm_home', dry_run: true } },
  app: { tool: 'app_home_state', arguments: { area: 'kitchen' } },
  automation: { tool: 'run_automation', arguments: { entity_id: 'script.welcome_home', dry_run: true } },
  bridge_scenes: { tool: 'bridge_scenes', arguments: { command: 'list_scenes' } },
  calendar: { tool: 'calendar', arguments: { operation: 'list' } },
  cameras: { tool: 'cameras', arguments: { operation: 'snapshot', entity_id: 'camera.front_door' } },
  climate: { tool: 'control_climate', arguments: { entity_id: 'climate.bedroom', temperature: 20, dry_run: true } },
  commands: { tool: 'command', arguments: { command: 'turn on the hallway light', dry_run: true } },
  config: { tool: 'config_read', arguments: { kind: 'automation' } },
  covers: { tool: 'control_covers', arguments: { entity_id: 'cover.bedroom_curtains', command: 'open', dry_run: true } },
  discovery: { tool: 'search_entities', arguments: { domain: 'light' } },
  entities: { tool: 'control_entity', arguments: { entity_id: 'select.mower_mode', service: 'select_next', dry_run: true } },
  energy: { tool: 'energy', arguments: { operation: 'prefs' } },
  fans: { tool: 'control_fans', arguments: { entity_id: 'fan.bedroom_fan', command: 'on', dry_run: true } },
  history: { tool: 'get_history', arguments: { entity_ids: ['light.kitchen_ceiling'] } },
  lights: { tool: 'control_lights', arguments: { entity_id: 'light.office_desk', command: 'on', dry_run: true } },
  locks: { tool: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'lock', dry_run: true } },
  media: { tool: 'control_media', arguments: { entity_id: 'media_player.kitchen_speaker', command: 'pause', dry_run: true } },
  notify: { tool: 'send_notification', arguments: { entity_id: 'notify.kitchen_display', message: 'copied', dry_run: true } },
  todo: { tool: 'todo', arguments: { operation: 'lists' } },
  weather: { tool: 'weather', arguments: { operation: 'current' } },
  people: { tool: 'people', arguments: { operation: 'where', person: 'Anna' } },
  // It offers prompts and no tool: one prompt of it is filled instead.
  routines: { prompt: 'morning_routine', arguments: { wake_time: '07:00' } },
  services: { tool: 'call_service', arguments: { operation: 'fire_event', event_type: 'copied_plugin', dry_run: true } },
  templates: { tool: 'render_template', arguments: { template: "{{ states('light.hallway') }}" } },
  vacuums: { tool: 'control_vacuums', arguments: { entity_id: 'vacuum.robot_vacuum', command: 'locate', dry_run: true } },
};

/** Gives a copied plugin a new name where its definition says it, as a user copying one edits it. */
function rename(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  const re = new RegExp(`(definePlugin\\(\\{\\s*name:\\s*)(['"])${from}\\2`);
  if (!re.test(text)) throw new Error(`no definePlugin({ name: '${from}' in ${file}`);
  writeFileSync(file, text.replace(re, `$1$2${to}$2`));
}

describe('every built-in plugin, copied out of the tree under a new name', () => {
  let bridge: BridgeProcess;
  let loaded: { name: string; source: string; tools: string[]; renamed?: Record<string, string>; withheld?: string[] }[];
  let failed: unknown[];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hmb-copied-plugins-'));
    for (const name of BUILTINS) {
      cpSync(join(ROOT, 'dist', 'plugins', name), join(dir, `built_${name}`), { recursive: true, filter: (p) => !/\.(d\.ts|map)$/.test(p) });
      rename(join(dir, `built_${name}`, 'index.js'), name, `built_${name}`);
      cpSync(join(ROOT, 'plugins', name), join(dir, `source_${name}`), { recursive: true });
      rename(join(dir, `source_${name}`, 'index.ts'), name, `source_${name}`);
    }
    for (const name of EXAMPLES) cpSync(join(ROOT, 'examples', name), join(dir, name), { recursive: true });
    bridge = await startBridge({ DATA_DIR: mkdtempSync(join(tmpdir(), 'hmb-copied-data-')), PLUGINS_DIR: dir, ADMIN_TOOLS: 'true' });
    const health = (await bridge.call('/api/health')).body;
    loaded = health.plugins.loaded;
    failed = health.plugins.failed;
  });
  afterAll(() => bridge?.stop());

  test('each copy loads beside its original, nothing skipped', () => {
    expect(failed).toEqual([]);
    for (const name of BUILTINS) {
      expect(loaded.find((p) => p.name === name)?.source).toBe('builtin');
      expect(loaded.find((p) => p.name === `built_${name}`)?.source).toBe('user');
      expect(loaded.find((p) => p.name === `source_${name}`)?.source).toBe('user');
    }
  });

  test('a copy’s tools keep their own names under its name, so no tool hides another; a resource stays with its first owner', () => {
    const offered = loaded.flatMap((p) => p.tools);
    expect(new Set(offered).size).toBe(offered.length);
    const lights = (copy: string) => loaded.find((p) => p.name === copy)!;
    expect(lights('lights').tools).toEqual(['control_lights']);
    expect(lights('built_lights').tools).toEqual(['built_lights__control_lights']);
    expect(lights('built_lights').renamed).toEqual({ control_lights: 'built_lights__control_lights' });
    expect(lights('source_lights').tools).toEqual(['source_lights__control_lights']);
    // The home app's page is served once, by the built-in; a copy's tools link to the same page.
    expect(loaded.find((p) => p.name === 'built_app')!.withheld).toEqual(['ui://home/app']);
    expect(loaded.find((p) => p.name === 'app')!.withheld).toBeUndefined();
  });

  test('every built-in has a call here', () => {
    expect(Object.keys(CALLS).sort()).toEqual(BUILTINS);
  });

  test.each(
    BUILTINS.flatMap((name) => [
      [`built_${name}`, name],
      [`source_${name}`, name],
    ]),
  )('%s answers', async (copy, name) => {
    const call = CALLS[name]!;
    if ('prompt' in call) {
      const r = await bridge.call('/api/prompts/get', 'POST', { name: `${copy}__${call.prompt}`, arguments: call.arguments });
      expect(r.status).toBe(200);
      expect(r.body.messages[0].content.text).toMatch(/morning for 07:00/);
      return;
    }
    const r = await bridge.call('/api/tools/call', 'POST', { name: `${copy}__${call.tool}`, arguments: call.arguments });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.isError, JSON.stringify(r.body)).toBeFalsy();
  });

  test('the example in examples/ loads from its folder as it is and answers', async () => {
    expect(loaded.find((p) => p.name === 'good_night')).toMatchObject({ source: 'user', tools: ['good_night'] });
    const r = await bridge.call('/api/tools/call', 'POST', { name: 'good_night', arguments: { dry_run: true, keep_on: ['light.kitchen_ceiling'] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const s = r.body.structuredContent;
    expect(s.dry_run).toBe(true);
    // The demo home's lights that are on but the one kept, and its one unlocked lock.
    const ids = (list: { entity_id: string }[]) => list.map((e) => e.entity_id);
    expect(ids(s.lights_off)).not.toContain('light.kitchen_ceiling');
    expect(s.lights_off.length).toBeGreaterThan(0);
    expect(ids(s.locked)).toEqual(['lock.back_door']);
    // Done for real, it leaves nothing for a second time to do but the light kept.
    const done = await bridge.call('/api/tools/call', 'POST', { name: 'good_night', arguments: { keep_on: ['light.kitchen_ceiling'] } });
    expect(done.body.structuredContent.dry_run).toBe(false);
    expect(ids(done.body.structuredContent.locked)).toEqual(['lock.back_door']);
    const again = (await bridge.call('/api/tools/call', 'POST', { name: 'good_night', arguments: { dry_run: true, keep_on: ['light.kitchen_ceiling'] } })).body
      .structuredContent;
    expect([again.lights_off, again.locked]).toEqual([[], []]);
    const unknown = await bridge.call('/api/tools/call', 'POST', { name: 'good_night', arguments: { keep_on: ['light.no_such_lamp'] } });
    expect(unknown.body.isError).toBe(true);
  });
});
