// The schema's history, oldest first. PRAGMA user_version holds the number of the last migration
// applied; each one runs in its own transaction together with the bump of user_version, so a
// failure leaves the file at the previous version. Never edit a released migration: add one.
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  up: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'scenes and groups',
    up: (db) =>
      db.exec(`
        CREATE TABLE scenes (
          key        TEXT PRIMARY KEY,
          name       TEXT NOT NULL,
          actions    TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE groups (
          key        TEXT PRIMARY KEY,
          name       TEXT NOT NULL,
          entities   TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
      `),
  },
  {
    // Scenes get an optional description. Group members move from a JSON list into rows,
    // so a nested group is a foreign key: it cannot be deleted while another group holds it, and
    // "which groups hold this one" is an index lookup instead of a scan of every list.
    version: 2,
    name: 'scene descriptions; group members as rows',
    up: (db) =>
      db.exec(`
        ALTER TABLE scenes ADD COLUMN description TEXT;
        CREATE TABLE group_members (
          group_key    TEXT NOT NULL REFERENCES groups(key) ON DELETE CASCADE,
          position     INTEGER NOT NULL,
          entity_id    TEXT,
          member_group TEXT REFERENCES groups(key) ON DELETE RESTRICT,
          PRIMARY KEY (group_key, position),
          CHECK ((entity_id IS NULL) <> (member_group IS NULL))
        );
        CREATE INDEX group_members_by_member ON group_members(member_group) WHERE member_group IS NOT NULL;
        -- v1 wrote nested groups as "group:<key>". One that names no group cannot become a foreign
        -- key; v1 refused such members on write, so none should exist, and any that do are dropped.
        INSERT INTO group_members (group_key, position, entity_id, member_group)
          SELECT g.key, m.key,
                 CASE WHEN m.value LIKE 'group:%' THEN NULL ELSE m.value END,
                 CASE WHEN m.value LIKE 'group:%' THEN substr(m.value, 7) ELSE NULL END
          FROM groups g, json_each(g.entities) m
          WHERE m.value NOT LIKE 'group:%' OR substr(m.value, 7) IN (SELECT key FROM groups);
        ALTER TABLE groups DROP COLUMN entities;
      `),
  },
  {
    // Live events: the event history (seq is the SSE event id, so it must never go back, even
    // when every row is pruned: AUTOINCREMENT keeps the highest ever used), the
    // clients' stored subscriptions, and what the streams report once they are gone: past
    // connections and periodic samples, so metrics over a period survive a restart.
    version: 3,
    name: 'event history, subscriptions, stream statistics',
    up: (db) =>
      db.exec(`
        CREATE TABLE events (
          seq        INTEGER PRIMARY KEY AUTOINCREMENT,
          event_type TEXT NOT NULL,
          entity_id  TEXT,
          domain     TEXT,
          fired_at   INTEGER NOT NULL,
          stored_at  INTEGER NOT NULL,
          message    TEXT NOT NULL
        );
        CREATE INDEX events_by_type ON events(event_type, seq);
        CREATE INDEX events_by_entity ON events(entity_id, seq) WHERE entity_id IS NOT NULL;
        CREATE INDEX events_by_domain ON events(domain, seq) WHERE domain IS NOT NULL;
        CREATE INDEX events_by_time ON events(fired_at);
        CREATE INDEX events_by_age ON events(stored_at);
        CREATE TABLE subscriptions (
          id         TEXT PRIMARY KEY,
          client     TEXT NOT NULL,
          event_type TEXT,
          entity_id  TEXT,
          domain     TEXT,
          created_at TEXT NOT NULL,
          last_event TEXT
        );
        CREATE UNIQUE INDEX subscriptions_unique ON subscriptions(client, ifnull(event_type, ''), ifnull(entity_id, ''), ifnull(domain, ''));
        CREATE TABLE stream_connections (
          id              TEXT PRIMARY KEY,
          transport       TEXT NOT NULL,
          client_id       TEXT NOT NULL,
          ip_address      TEXT,
          user_agent      TEXT,
          connected_at    TEXT NOT NULL,
          disconnected_at TEXT NOT NULL,
          events_sent     INTEGER NOT NULL,
          events_dropped  INTEGER NOT NULL,
          close_reason    TEXT NOT NULL
        );
        CREATE INDEX stream_connections_by_end ON stream_connections(disconnected_at, id);
        CREATE TABLE stream_samples (
          at          INTEGER PRIMARY KEY,
          connections INTEGER NOT NULL,
          events      INTEGER NOT NULL,
          seconds     REAL NOT NULL,
          cpu         REAL NOT NULL,
          memory      INTEGER NOT NULL,
          latency     TEXT NOT NULL
        );
      `),
  },
  {
    // Named bridge tokens for assistants: the JWT carries the id, the row says it is still valid.
    // Deleting the row revokes the token at once and for good.
    version: 4,
    name: 'bridge tokens',
    up: (db) =>
      db.exec(`
        CREATE TABLE bridge_tokens (
          id           TEXT PRIMARY KEY,
          name         TEXT NOT NULL UNIQUE,
          created_by   TEXT NOT NULL,
          created_at   TEXT NOT NULL,
          expires_at   TEXT NOT NULL,
          last_used_at TEXT
        );
      `),
  },
  {
    // OAuth: registered clients (or cached nothing: metadata-document clients are fetched), the
    // grants a person approved, and the grants' refresh tokens, kept only as hashes. A used refresh
    // token stays (used_at set) so its reuse is recognised and ends the grant.
    version: 5,
    name: 'oauth',
    up: (db) =>
      db.exec(`
        CREATE TABLE oauth_clients (
          client_id     TEXT PRIMARY KEY,
          metadata      TEXT NOT NULL,
          registered_at TEXT NOT NULL
        );
        CREATE TABLE oauth_grants (
          id           TEXT PRIMARY KEY,
          client_id    TEXT NOT NULL,
          client_name  TEXT NOT NULL,
          scope        TEXT NOT NULL,
          resource     TEXT NOT NULL,
          approved_by  TEXT NOT NULL,
          created_at   TEXT NOT NULL,
          expires_at   TEXT NOT NULL,
          last_used_at TEXT
        );
        CREATE TABLE oauth_refresh_tokens (
          hash       TEXT PRIMARY KEY,
          grant_id   TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
          created_at TEXT NOT NULL,
          used_at    TEXT
        );
        CREATE INDEX oauth_refresh_by_grant ON oauth_refresh_tokens(grant_id);
      `),
  },
  {
    // Confidential clients an admin makes (Home Assistant's own OAuth flow sends a client secret
    // and no PKCE): the secret's SHA-256 only, and who made the client.
    version: 6,
    name: 'confidential oauth clients',
    up: (db) =>
      db.exec(`
        ALTER TABLE oauth_clients ADD COLUMN secret_hash TEXT;
        ALTER TABLE oauth_clients ADD COLUMN created_by TEXT;
        CREATE INDEX oauth_grants_by_client ON oauth_grants(client_id);
      `),
  },
  {
    // Clients that registered themselves (RFC 7591, open to anyone) are bounded: registered_from
    // (the caller's address group) is set for them only, first_grant_at once a person granted one
    // anything. Those from an address beyond a few, and those never granted anything after a day,
    // are deleted. Clients made any other way (by an admin: created_by, secret_hash) have no
    // registered_from and stay.
    version: 7,
    name: 'oauth client registrations',
    up: (db) =>
      db.exec(`
        ALTER TABLE oauth_clients ADD COLUMN registered_from TEXT;
        ALTER TABLE oauth_clients ADD COLUMN first_grant_at TEXT;
        UPDATE oauth_clients SET registered_from = 'unknown' WHERE created_by IS NULL AND secret_hash IS NULL AND json_extract(metadata, '$.token_endpoint_auth_method') = 'none';
        UPDATE oauth_clients SET first_grant_at = (SELECT MIN(g.created_at) FROM oauth_grants g WHERE g.client_id = oauth_clients.client_id);
      `),
  },
  {
    // Every version of Home Assistant's automations, scripts, helpers and dashboards the bridge
    // changed: the config as it was before each change (`found`) and as each change left it, with
    // who, when and why, and the change in one sentence. config NULL: the item did not exist then.
    version: 8,
    name: 'config versions',
    up: (db) =>
      db.exec(`
        CREATE TABLE config_versions (
          id            INTEGER PRIMARY KEY AUTOINCREMENT,
          kind          TEXT NOT NULL,
          item          TEXT NOT NULL,
          config        TEXT,
          change        TEXT NOT NULL,
          actor_kind    TEXT,
          actor         TEXT,
          reason        TEXT,
          summary       TEXT,
          restored_from INTEGER,
          created_at    TEXT NOT NULL
        );
        CREATE INDEX config_versions_by_item ON config_versions(kind, item, id);
      `),
  },
];

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export const schemaVersion = (db: Database.Database): number => db.pragma('user_version', { simple: true }) as number;

/** Applies every migration above the file's version; returns the versions before and after. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  const from = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (from > latest) {
    throw new MigrationError(`the database is at schema version ${from}, newer than this build knows (${latest}); run a newer version or restore a backup`);
  }
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new MigrationError(`migration ${m.name} is numbered ${m.version}, expected ${i + 1}`);
  });
  for (const m of migrations) {
    if (m.version <= from) continue;
    db.transaction(() => {
      m.up(db);
      // A pragma takes no bound parameters; the version is a checked integer from the list above.
      db.pragma(`user_version = ${Math.trunc(m.version)}`);
    })();
  }
  return { from, to: schemaVersion(db) };
}
