// admin_system against the real Home Assistant 2026.11 over REST /api/tools/call, as a person with a
// bridge account does it (a dry run, then confirm): the demo's updates with their release notes,
// one installed with Home Assistant's own backup, a reload of the core's YAML, and a restart of
// the core whose time away the bridge measures. Home Assistant run by hand exits with code 100 to
// restart; this harness starts it again, as the Supervisor (or a container's restart policy)
// would, so the time measured includes its start. Backups and apps need the Supervisor: tested
// against the simulated one (tests/integration/admin-system.test.ts). The 2024.3.3 run skips these.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { HA_VERSION, haLogTail, haState, startHa } from './ha-control.js';
import { HASS_TOKEN, HASS_URL } from './ha-rest.js';

const CURRENT = HA_VERSION === '2026.11.0';
type Body = Record<string, any>;

let s: TestServer;
beforeAll(async () => {
  if (!CURRENT) return;
  s = await startTestServer({ HASS_URL, HASS_TOKEN, ADMIN_TOOLS: 'true' });
  await s.app.hub.ready(60_000);
});
afterAll(async () => {
  await s?.close();
});

async function tool(args: Record<string, unknown>): Promise<Body> {
  const r = await s.call('/api/tools/call', 'POST', { name: 'admin_system', arguments: args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.isError, `${JSON.stringify(args)}: ${r.body.content?.[0]?.text}`).toBeFalsy();
  return r.body as Body;
}
const confirmed = (args: Record<string, unknown>, preview: Body) =>
  tool({ ...args, confirm: true, preview_id: preview.structuredContent.preview_id, reason: 'end-to-end test' });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(CURRENT)('admin_system against Home Assistant 2026.11', () => {
  test("the demo's updates: listed with their links, release notes read, one installed with Home Assistant's own backup", async () => {
    const { updates } = (await tool({ operation: 'updates' })).structuredContent;
    const withNotes = updates.find((u: Body) => u.has_release_notes);
    expect(withNotes).toBeDefined();
    const notes = await tool({ operation: 'release_notes', entity_id: withNotes.entity_id });
    expect(notes.content[0].text).toContain('Long release notes.');
    const addon = updates.find((u: Body) => u.title === 'AdGuard Home' && u.available && u.backs_up);
    expect(addon).toMatchObject({ installed_version: '1.0.0', latest_version: '1.0.1', release_url: 'https://www.example.com/release/1.0.1' });
    const args = { operation: 'install', entity_id: addon.entity_id };
    const preview = await tool({ ...args, dry_run: true });
    expect(preview.structuredContent.diff).toContain('made first by Home Assistant');
    const done = await confirmed(args, preview);
    expect(done.structuredContent.result).toMatchObject({ installed_version: '1.0.1', backup: 'made by Home Assistant' });
    const after = (await tool({ operation: 'updates' })).structuredContent.updates.find((u: Body) => u.entity_id === addon.entity_id);
    expect(after).toMatchObject({ available: false, installed_version: '1.0.1' });
  });

  test('reloading the YAML configuration: confirmed, restarts nothing, its time kept for the next preview', async () => {
    const preview = await tool({ operation: 'reload_core', dry_run: true });
    expect(preview.structuredContent.summary).toContain('nothing restarts');
    await confirmed({ operation: 'reload_core' }, preview);
    expect((await tool({ operation: 'reload_core', dry_run: true })).structuredContent.summary).toMatch(/about \d+\.\d s, as the last reload took/);
    expect(s.app.hub.isConnected).toBe(true);
  });

  test('a restart: the preview says what goes away; the bridge measures the time away and says it next time', async () => {
    const preview = await tool({ operation: 'restart_core', dry_run: true });
    expect(preview.structuredContent.summary).toContain('not yet measured');
    const pid = haState().pid!;
    const call = confirmed({ operation: 'restart_core' }, preview);
    // Home Assistant stops itself (exit code 100); the harness starts it again.
    while (alive(pid)) await new Promise((r) => setTimeout(r, 100));
    await startHa().catch((e: Error) => {
      throw new Error(`${e.message}\n${haLogTail(40)}`);
    });
    const done = await call;
    const ms = done.structuredContent.result.downtime_ms as number;
    expect(ms).toBeGreaterThan(0);
    console.log(`admin_system e2e: Home Assistant ${HA_VERSION} restart measured by the bridge: ${(ms / 1000).toFixed(1)} s away`);
    const next = await tool({ operation: 'restart_core', dry_run: true });
    expect(next.structuredContent.summary).toContain(`for about ${Math.max(1, Math.round(ms / 1000))} s`);
  });
});
