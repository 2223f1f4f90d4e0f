// Versions of Home Assistant config items the bridge changed (migration 8): one row per version,
// the newest `keep` per item kept. Written in one transaction with the pruning, so a version is
// either there whole or not at all, also across a crash.
import type { Db } from './db.js';

/** Home Assistant's config items (config editing) and, looked after by the admin tools, its registry items and settings. */
export type ConfigKind = 'automation' | 'script' | 'helper' | 'dashboard' | AdminKind | SystemKind;
export type AdminKind = 'area' | 'floor' | 'label' | 'device' | 'entity' | 'zone' | 'integration' | 'repair';
/** Changes to Home Assistant as a whole (src/ha-admin/system.ts): confirmed like the others, never versioned. */
export type SystemKind = 'backup' | 'update' | 'core' | 'app';
export const ADMIN_KINDS: readonly AdminKind[] = ['area', 'floor', 'label', 'device', 'entity', 'zone', 'integration', 'repair'];
export type ConfigChange = 'found' | 'created' | 'updated' | 'deleted' | 'restored';

export interface ConfigVersion {
  id: number;
  kind: ConfigKind;
  item: string;
  /** The item as it was; null: it did not exist. */
  config: unknown;
  change: ConfigChange;
  actor_kind: string | null;
  actor: string | null;
  reason: string | null;
  /** The change in one sentence, as it was previewed ("Changing dashboard default (adds tile card ...)"). */
  summary: string | null;
  restored_from: number | null;
  created_at: string;
}

export type NewConfigVersion = Omit<ConfigVersion, 'id' | 'created_at'>;

interface Row extends Omit<ConfigVersion, 'config'> {
  config: string | null;
}

const toVersion = (r: Row): ConfigVersion => ({ ...r, config: r.config === null ? null : (JSON.parse(r.config) as unknown) });

export class ConfigVersionStore {
  private readonly insertTx;
  private readonly one;
  private readonly ofItem;
  private readonly recentAll;
  private readonly latestOf;

  constructor(db: Db) {
    const insert = db.prepare(
      'INSERT INTO config_versions (kind, item, config, change, actor_kind, actor, reason, summary, restored_from, created_at) VALUES (@kind, @item, @config, @change, @actor_kind, @actor, @reason, @summary, @restored_from, @created_at)',
    );
    const prune = db.prepare(
      'DELETE FROM config_versions WHERE kind = @kind AND item = @item AND id NOT IN (SELECT id FROM config_versions WHERE kind = @kind AND item = @item ORDER BY id DESC LIMIT @keep)',
    );
    this.insertTx = db.transaction((rows: (NewConfigVersion & { created_at: string })[], keep: number): number[] => {
      const ids = rows.map((r) =>
        Number(insert.run({ ...r, config: r.config === null || r.config === undefined ? null : JSON.stringify(r.config) }).lastInsertRowid),
      );
      for (const r of rows) prune.run({ kind: r.kind, item: r.item, keep });
      return ids;
    });
    this.one = db.prepare<[number], Row>('SELECT * FROM config_versions WHERE id = ?');
    this.ofItem = db.prepare<[string, string, number], Row>('SELECT * FROM config_versions WHERE kind = ? AND item = ? ORDER BY id DESC LIMIT ?');
    this.recentAll = db.prepare<[number], Row>('SELECT * FROM config_versions ORDER BY id DESC LIMIT ?');
    this.latestOf = db.prepare<[string, string], Row>('SELECT * FROM config_versions WHERE kind = ? AND item = ? ORDER BY id DESC LIMIT 1');
  }

  /** Adds versions in order (all or none), keeping the newest `keep` of each item; returns their ids. */
  add(rows: NewConfigVersion[], keep: number): number[] {
    const now = new Date().toISOString();
    return this.insertTx(
      rows.map((r) => ({ ...r, created_at: now })),
      keep,
    );
  }

  get(id: number): ConfigVersion | undefined {
    const r = this.one.get(id);
    return r ? toVersion(r) : undefined;
  }

  /** An item's versions, newest first. */
  history(kind: ConfigKind, item: string, limit = 100): ConfigVersion[] {
    return this.ofItem.all(kind, item, limit).map(toVersion);
  }

  latest(kind: ConfigKind, item: string): ConfigVersion | undefined {
    const r = this.latestOf.get(kind, item);
    return r ? toVersion(r) : undefined;
  }

  /** The latest versions of every item, newest first. */
  recent(limit = 50): ConfigVersion[] {
    return this.recentAll.all(limit).map(toVersion);
  }
}
