// Opens the service's one SQLite file with the pragmas it relies on, then brings its schema up to
// date. WAL lets reads run beside a write; synchronous=NORMAL is set explicitly because in WAL
// mode it keeps every committed transaction across a process crash and costs no fsync per commit
// (only a power loss can take back the last commits).
import Database from 'better-sqlite3';
import { migrate, type Migration, MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** How long a statement waits for a lock held by another connection. */
  busyTimeoutMs?: number;
  /** The migration list to apply (tests pass older prefixes of it). */
  migrations?: readonly Migration[];
}

export const DB_FILE = 'bridge.db';

export function openDatabase(file: string, opts: OpenOptions = {}): Db {
  const db = new Database(file, { timeout: opts.busyTimeoutMs ?? 5000 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, opts.migrations ?? MIGRATIONS);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
