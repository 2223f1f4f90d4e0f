// The store the service keeps in DATA_DIR: one SQLite file and the tables' accessors over it.
import { join } from 'node:path';
import { DB_FILE, openDatabase, type Db, type OpenOptions } from './db.js';
import { EventLog } from './events.js';
import { GroupStore } from './groups.js';
import { SceneStore } from './scenes.js';
import { StreamStatsStore } from './stream-stats.js';
import { SubscriptionStore } from './subscriptions.js';
import { TokenStore } from './tokens.js';
import { OAuthStore } from './oauth.js';
import { ConfigVersionStore } from './config-versions.js';

export interface Store {
  readonly file: string;
  readonly db: Db;
  readonly scenes: SceneStore;
  readonly groups: GroupStore;
  readonly events: EventLog;
  readonly subscriptions: SubscriptionStore;
  readonly streamStats: StreamStatsStore;
  readonly tokens: TokenStore;
  readonly oauth: OAuthStore;
  /** Versions of Home Assistant's config items the bridge changed. */
  readonly configVersions: ConfigVersionStore;
  close(): void;
}

export const storeFile = (dataDir: string) => join(dataDir, DB_FILE);

export interface StoreOptions extends OpenOptions {
  /** STREAM_HISTORY_MAX_ROWS: most ended stream connections kept. */
  streamHistoryMaxRows?: number;
}

/** Opens the database file (creating and migrating it as needed). */
export function openStore(file: string, opts: StoreOptions = {}): Store {
  const db = openDatabase(file, opts);
  const events = new EventLog(db);
  return {
    file,
    db,
    scenes: new SceneStore(db),
    groups: new GroupStore(db),
    events,
    subscriptions: new SubscriptionStore(db),
    streamStats: new StreamStatsStore(db, opts.streamHistoryMaxRows),
    tokens: new TokenStore(db),
    oauth: new OAuthStore(db),
    configVersions: new ConfigVersionStore(db),
    close: () => {
      if (!db.open) return;
      // Events still queued for the next tick's batch are written before the file closes.
      events.flush();
      db.close();
    },
  };
}
