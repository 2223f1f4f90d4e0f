// The store the service keeps in DATA_DIR: one SQLite file and the tables' accessors over it.
import { join } from 'node:path';
import { DB_FILE, openDatabase, type Db, type OpenOptions } from './db.js';
import { GroupStore } from './groups.js';
import { SceneStore } from './scenes.js';

export interface Store {
  readonly file: string;
  readonly db: Db;
  readonly scenes: SceneStore;
  readonly groups: GroupStore;
  close(): void;
}

export const storeFile = (dataDir: string) => join(dataDir, DB_FILE);

/** Opens the database file (creating and migrating it as needed). */
export function openStore(file: string, opts: OpenOptions = {}): Store {
  const db = openDatabase(file, opts);
  return {
    file,
    db,
    scenes: new SceneStore(db),
    groups: new GroupStore(db),
    close: () => {
      if (db.open) db.close();
    },
  };
}
