// A Home Assistant backup of the add-on taken while the bridge runs and writes, then restored:
// played as the Supervisor plays it (backup_pre inside the add-on, /data copied file by file with
// config.yaml's backup_exclude matched against each full path as PurePath.match does, backup_post;
// a restore replaces /data with the copy). Every version acknowledged before the backup started is
// in the restored database, which passes SQLite's integrity check; the live files never enter the
// backup.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { openStore } from '../../src/store/index.js';
import { runCli, startBridge } from '../helpers/bridge-process.js';
import { configHomeFile } from '../helpers/config-home.js';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'hmb-backup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const addon = parse(readFileSync(join(root, 'config.yaml'), 'utf8')) as { backup_pre: string; backup_post: string; backup_exclude: string[] };

/** Python's PurePath.match with a relative pattern: glob-matched component by component from the right. */
function pathMatch(path: string, pattern: string): boolean {
  const parts = path.split('/').filter(Boolean);
  const pat = pattern.split('/').filter(Boolean);
  if (pat.length > parts.length) return false;
  const glob = (p: string) =>
    new RegExp(
      `^${p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
  return pat.every((p, i) => glob(p).test(parts[parts.length - pat.length + i]!));
}

/** What the Supervisor puts in the backup: every file of /data whose full path no exclude matches. */
function supervisorCopy(from: string, to: string): string[] {
  const taken: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (!addon.backup_exclude.some((x) => pathMatch(full, x))) {
        const rel = relative(from, full);
        mkdirSync(join(to, rel, '..'), { recursive: true });
        copyFileSync(full, join(to, rel));
        taken.push(rel);
      }
    }
  };
  walk(from);
  return taken.sort();
}

/** The add-on's backup_pre / backup_post, run as the Supervisor does, with the test's data folder for /data. */
const addonCommand = (command: string, dataDir: string) => {
  const args = command.split(' ');
  expect(args.slice(0, 2)).toEqual(['/usr/local/bin/node', '/opt/home-mcp-bridge/dist/src/main.js']);
  return runCli(args.slice(2).map((a) => (a === '/data' ? dataDir : a)));
};

test('a hot backup holds a consistent database with every version written before it; restoring it brings them back', async () => {
  const data = join(work, 'data');
  mkdirSync(data);
  const home = configHomeFile();
  // Every version kept, so none is pruned while the backup runs.
  const env = { DATA_DIR: data, CONFIG_EDITING: 'true', SIM_HOME: home, CONFIG_VERSIONS_MAX: '10000' };
  const b = await startBridge(env);
  const write = (n: number) =>
    b.call('/api/ha-config-changes', 'POST', {
      kind: 'automation',
      op: n === 0 ? 'create' : 'update',
      id: 'busy',
      config: { alias: 'Busy', triggers: [{ trigger: 'event', event_type: 'x' }], actions: [{ delay: n }] },
      confirm: true,
      reason: `write ${n}`,
    });
  const before: number[] = [];
  for (let n = 0; n < 20; n++) before.push((await write(n)).body.version);

  // The bridge keeps writing while the backup is prepared and copied.
  let writing = true;
  let n = 20;
  const during = (async () => {
    while (writing) {
      const r = await write(n++);
      if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    }
  })();
  expect(await addonCommand(addon.backup_pre, data)).toMatch(/^wrote a consistent copy of the database to .*bridge-snapshot\.db/);
  const archive = join(work, 'archive');
  const taken = supervisorCopy(data, archive);
  expect(await addonCommand(addon.backup_post, data)).toMatch(/^removed the backup copy/);
  writing = false;
  await during;
  expect(n).toBeGreaterThan(20);
  await b.stop('SIGTERM');

  // Only the consistent copy is in the backup, never the live files.
  expect(taken).toContain(join('backup', 'bridge-snapshot.db'));
  expect(taken.filter((f) => /^bridge\.db/.test(f))).toEqual([]);
  expect(existsSync(join(data, 'backup'))).toBe(false);

  // Restore: the Supervisor removes /data and puts the backup's in its place.
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data);
  supervisorCopy(archive, data);
  const restored = await startBridge(env);
  const kept = (await restored.call('/api/ha-config-versions?kind=automation&id=busy&limit=200')).body.versions.map((v: any) => v.id);
  for (const id of before) expect(kept).toContain(id);
  await restored.stop('SIGTERM');
  expect(existsSync(join(data, 'backup'))).toBe(false);
  const store = openStore(join(data, 'bridge.db'));
  try {
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(store.configVersions.get(before.at(-1)!)).toMatchObject({ reason: 'write 19' });
  } finally {
    store.close();
  }
});

test('a copy left by a backup whose finish never ran is dropped, never taken over the live database', async () => {
  const data = join(work, 'left');
  mkdirSync(data);
  const home = configHomeFile();
  let b = await startBridge({ DATA_DIR: data, CONFIG_EDITING: 'true', SIM_HOME: home });
  await b.call('/api/ha-config-changes', 'POST', { kind: 'script', op: 'create', id: 'early', config: { sequence: [] }, confirm: true });
  await addonCommand(addon.backup_pre, data);
  const later = await b.call('/api/ha-config-changes', 'POST', { kind: 'script', op: 'create', id: 'later', config: { sequence: [] }, confirm: true });
  await b.stop('SIGTERM');
  b = await startBridge({ DATA_DIR: data, CONFIG_EDITING: 'true', SIM_HOME: home });
  expect((await b.call(`/api/ha-config-versions/${later.body.version}`)).status).toBe(200);
  await b.stop('SIGTERM');
  expect(existsSync(join(data, 'backup'))).toBe(false);
});
