// admin_system inside the add-on, against the simulated Supervisor (the real one cannot run here)
// and the simulated hub: updates and their release notes, backups (what they hold), an update
// installed only after a fresh backup, a restart of the core with its time away measured, a reload,
// apps started, stopped and restarted (never uninstalled); every change previewed and confirmed,
// refused in read-only mode, by deny rules and to a credential without the admin scope. A backup and
// a restart as MCP tasks (2026-07-28 with the extension) and as progress-then-result (2025-11-25).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import type { Principal } from '../../src/auth/tokens.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
// @ts-expect-error: a plain .mjs helper shared with the process runners
import { freePort } from '../lib/bridge-process.mjs';

type Body = Record<string, any>;
const TASKS = 'io.modelcontextprotocol/tasks';
const grant = (scope: string[]): Principal => ({ sub: 'client', iat: 0, via: 'oauth', scope });

let sim: Simulator;
let s: TestServer;
const bridge = (env: Record<string, string> = {}) =>
  startTestServer({ SUPERVISOR_TOKEN: 'supervisor-token', SUPERVISOR_URL: sim.url, ADMIN_TOOLS: 'true', ...env });

beforeAll(async () => {
  sim = await startSimulator({ supervisor: { backupMs: 150 }, timing: { restartMs: 400 } });
  const port = (await freePort()) as number;
  sim.supervisor!.installAddon({
    slug: 'home_mcp_bridge',
    name: 'Home MCP Bridge',
    url: `http://127.0.0.1:${port}`,
    version: '0.2.0',
    hassioApi: true,
    hassioRole: 'manager',
  });
  sim.supervisor!.installAddon({ slug: 'core_mosquitto', name: 'Mosquitto broker', url: 'http://127.0.0.1:1', version: '6.5.1' });
  // An update that makes its own backup and has release notes (as the demo's firmware updates do).
  sim.setState('update.bulb_firmware', 'on', {
    title: 'Bulb Firmware',
    installed_version: '1.93.3',
    latest_version: '1.94.2',
    in_progress: false,
    release_summary: 'Added support for effects',
    release_url: 'https://www.example.com/release/1.94.2',
    supported_features: 1 | 8 | 16,
    skipped_version: null,
  });
  sim.setReleaseNotes('update.bulb_firmware', '## 1.94.2\n\n- Effects');
  s = await bridge({ PORT: String(port) });
  await s.app.hub.ready(10_000);
});
afterAll(async () => {
  await s?.close();
  await sim?.stop();
});

async function tool(args: Record<string, unknown>, server = s): Promise<Body> {
  const r = await server.call('/api/tools/call', 'POST', { name: 'admin_system', arguments: args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Body;
}
async function ok(args: Record<string, unknown>): Promise<Body> {
  const b = await tool(args);
  expect(b.isError, `${JSON.stringify(args)}: ${b.content?.[0]?.text}`).toBeFalsy();
  return b;
}
/** A dry run, then the change confirmed with its preview and a reason (as a person with a bridge account does it). */
async function change(args: Record<string, unknown>): Promise<{ preview: Body; done: Body }> {
  const preview = (await ok({ ...args, dry_run: true })).structuredContent;
  expect(preview).toMatchObject({ dry_run: true, applied: false });
  const done = (await ok({ ...args, confirm: true, preview_id: preview.preview_id, reason: 'integration test' })).structuredContent;
  expect(done).toMatchObject({ applied: true });
  return { preview, done };
}

describe('updates', () => {
  test('listed with their versions and release notes link, available first; release notes read from Home Assistant', async () => {
    const { updates } = (await ok({ operation: 'updates' })).structuredContent;
    expect(updates.find((u: Body) => u.entity_id === 'update.bulb_firmware')).toMatchObject({
      available: true,
      installed_version: '1.93.3',
      latest_version: '1.94.2',
      release_url: 'https://www.example.com/release/1.94.2',
      backs_up: true,
      has_release_notes: true,
    });
    expect(updates.find((u: Body) => u.entity_id === 'update.bridge_firmware')).toMatchObject({ backs_up: false, can_install: true });
    const notes = await ok({ operation: 'release_notes', entity_id: 'update.bulb_firmware' });
    expect(notes.content[0].text).toBe('## 1.94.2\n\n- Effects');
    // Without full notes in Home Assistant: the summary and the link.
    sim.setState('update.bridge_firmware', 'on', { release_url: 'https://example.com/bridge/1.1.0', release_summary: 'Faster' });
    expect((await ok({ operation: 'release_notes', entity_id: 'update.bridge_firmware' })).content[0].text).toBe(
      'Faster\nRelease notes: https://example.com/bridge/1.1.0',
    );
  });

  test('an update that makes its own backup is installed with backup: true', async () => {
    const { preview, done } = await change({ operation: 'install', entity_id: 'update.bulb_firmware' });
    expect(preview.summary).toContain('after a fresh backup');
    expect(preview.diff).toContain('made first by Home Assistant');
    expect(done.result).toMatchObject({ installed_version: '1.94.2', backup: 'made by Home Assistant' });
    expect(sim.getState('update.bulb_firmware')).toMatchObject({ state: 'off', attributes: { installed_version: '1.94.2' } });
    // Up to date now: nothing to install.
    const again = await tool({ operation: 'install', entity_id: 'update.bulb_firmware', dry_run: true });
    expect(again.isError).toBe(true);
    expect(again.content[0].text).toContain('is up to date');
  });

  test('an update that makes none is installed only after the bridge made a backup through the Supervisor', async () => {
    const before = sim.supervisor!.backups().length;
    const { done } = await change({ operation: 'install', entity_id: 'update.bridge_firmware' });
    const made = sim.supervisor!.backups();
    expect(made).toHaveLength(before + 1);
    expect(made.at(-1)).toMatchObject({ name: 'Before Bridge 1.1.0', type: 'full' });
    expect(done.result).toMatchObject({ installed_version: '1.1.0', backup: { name: 'Before Bridge 1.1.0', holds: { homeassistant: true } } });
    expect(sim.getState('update.bridge_firmware')?.attributes.installed_version).toBe('1.1.0');
  });
});

describe('backups', () => {
  test('named, holding what was asked; the preview says what it will hold', async () => {
    const { preview, done } = await change({ operation: 'backup', name: 'Before the move', apps: ['core_mosquitto'], folders: ['share'] });
    expect(preview.diff).toContain('core_mosquitto');
    expect(done.result.backup).toMatchObject({
      name: 'Before the move',
      type: 'partial',
      holds: { homeassistant: true, apps: ['core_mosquitto'], folders: ['share'] },
    });
    const kept = sim.supervisor!.backup(done.result.backup.slug)!;
    expect(kept).toMatchObject({ name: 'Before the move', homeassistant: sim.version, folders: ['share'] });
    expect(kept.addons.map((a) => a.slug)).toEqual(['core_mosquitto']);
  });

  test('an unknown app or folder is refused before anything is made', async () => {
    const n = sim.supervisor!.backups().length;
    const app = await tool({ operation: 'backup', apps: ['nope'], dry_run: true });
    expect(app.isError).toBe(true);
    expect(app.content[0].text).toContain('nope is not installed');
    const folder = await tool({ operation: 'backup', folders: ['etc'], dry_run: true });
    expect(folder.content[0].text).toContain('etc is no folder a backup holds');
    expect(sim.supervisor!.backups()).toHaveLength(n);
  });
});

describe('the core', () => {
  test('a restart says what goes away and for how long as measured; the bridge measures it', async () => {
    const first = (await ok({ operation: 'restart_core', dry_run: true })).structuredContent;
    expect(first.summary).toContain('not yet measured');
    const { done } = await change({ operation: 'restart_core' });
    // The simulated hub is away at least restartMs.
    expect(done.result.downtime_ms).toBeGreaterThanOrEqual(400);
    expect(done.summary).toMatch(/^Home Assistant restarted: it was away \d+\.\d s\.$/);
    const next = (await ok({ operation: 'restart_core', dry_run: true })).structuredContent;
    expect(next.summary).toMatch(/for about \d+ s \(the last restart the bridge saw/);
    expect(s.app.hub.isConnected).toBe(true);
  });

  test('a reload runs every integration reload, says it restarts nothing, and keeps its time for the next preview', async () => {
    const { preview } = await change({ operation: 'reload_core' });
    expect(preview.summary).toContain('nothing restarts');
    expect(preview.summary).toContain('a time not yet measured');
    expect((await ok({ operation: 'reload_core', dry_run: true })).structuredContent.summary).toMatch(/about \d+\.\d s, as the last reload took/);
  });
});

describe('apps', () => {
  test('listed with state and version; stopped, started and restarted; the bridge itself is not stopped', async () => {
    const { apps } = (await ok({ operation: 'apps' })).structuredContent;
    expect(apps).toEqual(
      expect.arrayContaining([expect.objectContaining({ slug: 'core_mosquitto', name: 'Mosquitto broker', state: 'started', version: '6.5.1' })]),
    );
    const { preview } = await change({ operation: 'stop_app', app: 'core_mosquitto' });
    expect(preview.summary).toContain('unavailable until it is started again');
    expect(sim.supervisor!.addon('core_mosquitto')!.state).toBe('stopped');
    await change({ operation: 'start_app', app: 'core_mosquitto' });
    expect(sim.supervisor!.addon('core_mosquitto')!.state).toBe('started');
    await change({ operation: 'restart_app', app: 'core_mosquitto' });
    const self = await tool({ operation: 'stop_app', app: 'home_mcp_bridge', dry_run: true });
    expect(self.isError).toBe(true);
    expect(self.content[0].text).toContain('is this bridge');
  });

  test('never uninstalled: not an operation the tool takes', async () => {
    const r = await s.call('/api/tools/call', 'POST', { name: 'admin_system', arguments: { operation: 'uninstall_app', app: 'core_mosquitto' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'operation' } });
    const schema = s.app.services.tools.listFor(undefined).find((t) => t.name === 'admin_system')!;
    expect(JSON.stringify(schema)).not.toContain('uninstall');
    expect(sim.supervisor!.addon('core_mosquitto')).toBeDefined();
  });
});

describe('refusals', () => {
  test('a change without confirmation is held with its preview; without a reason it is refused', async () => {
    const held = await s.call('/api/tools/call', 'POST', { name: 'admin_system', arguments: { operation: 'stop_app', app: 'core_mosquitto', reason: 'x' } });
    expect(JSON.stringify(held.body)).toContain('CONFIRMATION_REQUIRED');
    expect(sim.supervisor!.addon('core_mosquitto')!.state).toBe('started');
  });

  test('the admin scope is needed: control and config do not give it', async () => {
    const tools = s.app.services.tools;
    for (const scope of [['read'], ['read', 'control'], ['read', 'config'], ['read', 'control', 'config']]) {
      expect(tools.listFor(grant(scope)).map((t) => t.name)).not.toContain('admin_system');
      for (const args of [
        { operation: 'updates' },
        { operation: 'release_notes', entity_id: 'update.bulb_firmware' },
        { operation: 'backup', dry_run: true },
        { operation: 'install', entity_id: 'update.bridge_firmware', dry_run: true },
        { operation: 'restart_core', dry_run: true },
        { operation: 'reload_core', dry_run: true },
        { operation: 'apps' },
        { operation: 'start_app', app: 'core_mosquitto', dry_run: true },
        { operation: 'stop_app', app: 'core_mosquitto', dry_run: true },
        { operation: 'restart_app', app: 'core_mosquitto', dry_run: true },
      ])
        await expect(tools.call('admin_system', args, grant(scope)), `${args.operation} with ${scope.join(' ')}`).rejects.toMatchObject({ status: 404 });
    }
    const listed = await tools.call('admin_system', { operation: 'apps' }, grant(['admin']));
    expect(JSON.stringify(listed)).toContain('core_mosquitto');
  });

  test('read-only mode and deny rules (app.<slug>, core.restart, an update entity) refuse the change, previews included', async () => {
    const ro = await bridge({ TOOLS_READ_ONLY: 'true' });
    const denied = await bridge({ TOOLS_DENY: 'app.core_mosquitto,core.restart,update.bridge_firmware,backup.*' });
    try {
      await ro.app.hub.ready(10_000);
      await denied.app.hub.ready(10_000);
      for (const args of [{ operation: 'stop_app', app: 'core_mosquitto' }, { operation: 'restart_core' }, { operation: 'backup', name: 'x' }]) {
        const r = await tool({ ...args, dry_run: true }, ro);
        expect(r.isError, JSON.stringify(args)).toBe(true);
        expect(r.content[0].text).toContain('read-only');
      }
      for (const args of [{ operation: 'stop_app', app: 'core_mosquitto' }, { operation: 'restart_core' }, { operation: 'backup', name: 'x' }]) {
        const r = await tool({ ...args, dry_run: true }, denied);
        expect(r.isError, JSON.stringify(args)).toBe(true);
        expect(r.content[0].text).toContain('TOOLS_DENY');
      }
      // A denied update is not found.
      expect((await tool({ operation: 'install', entity_id: 'update.bridge_firmware', dry_run: true }, denied)).isError).toBe(true);
      // What is not denied still works there.
      expect((await tool({ operation: 'reload_core', dry_run: true }, denied)).isError).toBeFalsy();
    } finally {
      await ro.close();
      await denied.close();
    }
  });
});

describe('long operations over MCP', () => {
  test('2026-07-28 with the tasks extension: a backup is a task followed to its result', async () => {
    const rpc = async (method: string, params: Record<string, unknown>) => {
      const res = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${s.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          'mcp-name': String(params.name ?? params.taskId),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'admin-system-test', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
            },
          },
        }),
      });
      const body = (await res.json()) as { result?: Body; error?: Body };
      if (body.error) throw new Error(JSON.stringify(body.error));
      return body.result!;
    };
    const args = { operation: 'backup', name: 'As a task' };
    const preview = await rpc('tools/call', { name: 'admin_system', arguments: { ...args, dry_run: true } });
    const previewId = preview.structuredContent.preview_id;
    const created = await rpc('tools/call', { name: 'admin_system', arguments: { ...args, confirm: true, preview_id: previewId, reason: 'task test' } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    let t: Body;
    for (;;) {
      t = await rpc('tasks/get', { taskId: created.taskId });
      if (t.status !== 'working') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(t.status).toBe('completed');
    expect(t.result.structuredContent.result.backup).toMatchObject({ name: 'As a task', type: 'full' });
  });

  test('2025-11-25: the restart answers with progress, then its result', async () => {
    const client = new Client({ name: 'admin-system-legacy', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      const call = (extra: Record<string, unknown>) =>
        client.callTool({ name: 'admin_system', arguments: { operation: 'restart_core', ...extra } }, { onprogress: (p) => progress.push(p.message ?? '') });
      const progress: string[] = [];
      const preview = (await call({ dry_run: true })).structuredContent as Body;
      const done = await call({ confirm: true, preview_id: preview.preview_id, reason: 'legacy test' });
      expect(done.isError).toBeFalsy();
      expect((done.structuredContent as Body).result.downtime_ms).toBeGreaterThanOrEqual(400);
      expect(progress).toContain('Home Assistant is away; waiting for it to run again');
    } finally {
      await client.close();
    }
  });
});

describe("outside the add-on: Home Assistant's backup integration, no apps", () => {
  let hub: Simulator;
  let plain: TestServer;
  beforeAll(async () => {
    hub = await startSimulator({ timing: { backupMs: 150 } });
    plain = await startTestServer({ HASS_URL: hub.url, HASS_TOKEN: hub.token, ADMIN_TOOLS: 'true' });
    await plain.app.hub.ready(10_000);
  });
  afterAll(async () => {
    await plain?.close();
    await hub?.stop();
  });
  const call = async (args: Record<string, unknown>) => (await plain.call('/api/tools/call', 'POST', { name: 'admin_system', arguments: args })).body as Body;
  const confirmedCall = async (args: Record<string, unknown>) => {
    const preview = await call({ ...args, dry_run: true });
    expect(preview.isError, preview.content?.[0]?.text).toBeFalsy();
    return call({ ...args, confirm: true, preview_id: preview.structuredContent.preview_id, reason: 'integration test' });
  };

  test('a backup is made with backup/generate on the local agent and followed to its end', async () => {
    const done = await confirmedCall({ operation: 'backup', name: 'Core only' });
    expect(done.isError, done.content?.[0]?.text).toBeFalsy();
    expect(done.structuredContent.result.backup).toMatchObject({ name: 'Core only', type: 'core', holds: { homeassistant: true, database: true } });
    expect(hub.coreBackups().map((b) => b.name)).toEqual(['Core only']);
    // Apps and folders are the Supervisor's.
    const apps = await call({ operation: 'backup', apps: ['core_mosquitto'], dry_run: true });
    expect(apps.content[0].text).toContain('without the Supervisor');
  });

  test('an update that makes no backup is installed after Home Assistant made one', async () => {
    const done = await confirmedCall({ operation: 'install', entity_id: 'update.bridge_firmware' });
    expect(done.isError, done.content?.[0]?.text).toBeFalsy();
    expect(done.structuredContent.result).toMatchObject({ installed_version: '1.1.0', backup: { name: 'Before Bridge 1.1.0', type: 'core' } });
    expect(hub.coreBackups().map((b) => b.name)).toContain('Before Bridge 1.1.0');
  });

  test('apps need the Supervisor: refused in words', async () => {
    const r = await call({ operation: 'apps' });
    expect(r.isError ?? r.error).toBeTruthy();
    expect(JSON.stringify(r)).toContain('only the bridge running as a Home Assistant add-on');
  });
});
