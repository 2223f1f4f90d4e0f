// Home Assistant's backups copy /data while the add-on runs ("hot"). A SQLite file copied in the
// middle of a write, apart from its write-ahead log, is not a database one can trust. So the live
// files (bridge.db and its -wal and -shm) are left out of backups (config.yaml's backup_exclude),
// and before each backup the Supervisor runs `backup prepare` (backup_pre), which writes a
// consistent copy through SQLite's online backup API, a second connection that never stops the
// running bridge; `backup finish` (backup_post) removes it again. A restore replaces /data with the
// backup's, where only that copy is: at start, the bridge takes it as its database.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DB_FILE } from './db.js';

/** Where the consistent copy lives while a backup runs (not matched by backup_exclude's bridge.db patterns). */
export const SNAPSHOT = join('backup', 'bridge-snapshot.db');

/** Writes the consistent copy of the database for a backup; answers what it did. */
export async function prepareBackup(dataDir: string): Promise<string> {
  const live = join(dataDir, DB_FILE);
  const target = join(dataDir, SNAPSHOT);
  if (!existsSync(live)) return `no database in ${dataDir} yet: nothing to copy`;
  mkdirSync(join(dataDir, 'backup'), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const db = new Database(live, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    await db.backup(partial);
  } finally {
    db.close();
  }
  const copy = new Database(partial, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy of the database failed its integrity check: ${String(check)}`);
  } finally {
    copy.close();
  }
  // Renamed into place only whole, so a backup never holds half a copy.
  renameSync(partial, target);
  return `wrote a consistent copy of the database to ${target}`;
}

/** Removes the copy once the backup is taken. */
export function finishBackup(dataDir: string): string {
  rmSync(join(dataDir, 'backup'), { recursive: true, force: true });
  return 'removed the backup copy of the database';
}

/**
 * At start: a copy without a live database is what a restore left (the Supervisor replaced /data
 * with the backup's), so it becomes the database; beside a live database it is a leftover of a
 * backup whose finish did not run, and goes. Answers what was done, if anything.
 */
export function takeBackupCopy(dataDir: string): string | undefined {
  const copy = join(dataDir, SNAPSHOT);
  if (!existsSync(copy)) return undefined;
  const live = join(dataDir, DB_FILE);
  if (existsSync(live)) {
    rmSync(join(dataDir, 'backup'), { recursive: true, force: true });
    return 'removed a database copy left by an unfinished backup';
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${live}${suffix}`, { force: true });
  renameSync(copy, live);
  rmSync(join(dataDir, 'backup'), { recursive: true, force: true });
  return `restored the database from the backup's copy (${SNAPSHOT})`;
}
