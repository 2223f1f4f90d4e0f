// Versions of Home Assistant's config survive the bridge: a clean restart, and a SIGKILL right after
// a change was answered. The built bridge runs as a child with its embedded simulator (which starts
// afresh each time, as a Home Assistant would not: so a kept version is then restored into it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { startBridge } from '../helpers/bridge-process.js';
import { configHomeFile } from '../helpers/config-home.js';

const dataDir = mkdtempSync(join(tmpdir(), 'hmb-config-durable-'));
const home = configHomeFile();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const start = () => startBridge({ DATA_DIR: dataDir, CONFIG_EDITING: 'true', SIM_HOME: home });

const config = (n: number) => ({
  alias: 'Kept',
  triggers: [{ trigger: 'event', event_type: 'keep' }],
  actions: [{ action: 'light.turn_on', target: { entity_id: 'light.desk' }, data: { brightness_pct: n } }],
});

test('versions survive a restart and a SIGKILL, and a kept one can be put back', async () => {
  let b = await start();
  expect(
    (await b.call('/api/ha-config-changes', 'POST', { kind: 'automation', op: 'create', id: 'kept', config: config(10), confirm: true, reason: 'first' })).body
      .applied,
  ).toBe(true);
  expect(
    (await b.call('/api/ha-config-changes', 'POST', { kind: 'automation', op: 'update', id: 'kept', config: config(20), confirm: true, reason: 'second' })).body
      .applied,
  ).toBe(true);
  await b.stop('SIGTERM');

  b = await start();
  const afterRestart = (await b.call('/api/ha-config-versions?kind=automation&id=kept')).body.versions;
  expect(afterRestart.map((v: any) => [v.change, v.reason])).toEqual([
    ['updated', 'second'],
    ['created', 'first'],
  ]);
  // The fresh simulator has no such automation: putting the first version back creates it.
  const restored = await b.call(`/api/ha-config-versions/${afterRestart[1].id}/restore`, 'POST', { confirm: true, reason: 'back' });
  expect(restored.body).toMatchObject({ applied: true, change: 'restored' });
  expect((await b.call('/api/ha-config/automation/kept')).body.config.actions[0].data).toEqual({ brightness_pct: 10 });
  const answered = await b.call('/api/ha-config-changes', 'POST', {
    kind: 'automation',
    op: 'update',
    id: 'kept',
    config: config(30),
    confirm: true,
    reason: 'right before the crash',
  });
  expect(answered.body.applied).toBe(true);
  // Killed at once after the answer: no shutdown, no checkpoint.
  await b.stop('SIGKILL');

  const store = openStore(join(dataDir, 'bridge.db'));
  try {
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(store.configVersions.get(answered.body.version)).toMatchObject({
      kind: 'automation',
      item: 'kept',
      change: 'updated',
      reason: 'right before the crash',
      actor_kind: 'user',
      actor: 'keeper',
    });
  } finally {
    store.close();
  }
  b = await start();
  const afterKill = (await b.call('/api/ha-config-versions?kind=automation&id=kept')).body.versions;
  expect(afterKill[0]).toMatchObject({ id: answered.body.version, change: 'updated', reason: 'right before the crash' });
  expect(afterKill.map((v: any) => v.change)).toEqual(['updated', 'restored', 'found', 'updated', 'created']);
  await b.stop('SIGTERM');
});
