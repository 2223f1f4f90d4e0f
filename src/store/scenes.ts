// Scenes in SQLite: one row each, the normalised actions as a JSON list (always read whole).
import { conflict } from '../errors.js';
import type { Db } from './db.js';

/** One stored action: the executor's DeviceCommand with its parameters always present. */
export interface SceneAction {
  entity_id: string;
  action: string;
  parameters: Record<string, unknown>;
}

export interface Scene {
  /** The key that addresses it: the lower snake form of the name. */
  id: string;
  name: string;
  description: string | null;
  actions: SceneAction[];
  created_at: string;
  updated_at: string;
}

export interface SceneInput {
  id: string;
  name: string;
  description: string | null;
  actions: SceneAction[];
}

interface Row {
  key: string;
  name: string;
  description: string | null;
  actions: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'key, name, description, actions, created_at, updated_at';

const toScene = (r: Row): Scene => ({
  id: r.key,
  name: r.name,
  description: r.description,
  actions: JSON.parse(r.actions) as SceneAction[],
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export class SceneStore {
  private readonly all;
  private readonly one;
  private readonly insert;
  private readonly upsert;
  private readonly update;
  private readonly remove;
  private readonly putTx;

  constructor(db: Db) {
    this.all = db.prepare<[], Row>(`SELECT ${COLUMNS} FROM scenes ORDER BY key`);
    this.one = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM scenes WHERE key = ?`);
    this.insert = db.prepare<[Params], Row>(
      `INSERT INTO scenes (key, name, description, actions, created_at, updated_at) VALUES (@key, @name, @description, @actions, @now, @now)
       ON CONFLICT (key) DO NOTHING RETURNING ${COLUMNS}`,
    );
    // created_at survives a replace.
    this.upsert = db.prepare<[Params], Row>(
      `INSERT INTO scenes (key, name, description, actions, created_at, updated_at) VALUES (@key, @name, @description, @actions, @now, @now)
       ON CONFLICT (key) DO UPDATE SET name = excluded.name, description = excluded.description,
         actions = excluded.actions, updated_at = excluded.updated_at
       RETURNING ${COLUMNS}`,
    );
    this.update = db.prepare<[Params], Row>(
      `UPDATE scenes SET name = @name, description = @description, actions = @actions, updated_at = @now WHERE key = @key RETURNING ${COLUMNS}`,
    );
    this.remove = db.prepare<[string]>('DELETE FROM scenes WHERE key = ?');
    this.putTx = db.transaction((s: SceneInput) => {
      const created = this.one.get(s.id) === undefined;
      const row = this.upsert.get(params(s))!;
      return { scene: toScene(row), created };
    });
  }

  list(): Scene[] {
    return this.all.all().map(toScene);
  }

  get(id: string): Scene | undefined {
    const row = this.one.get(id);
    return row && toScene(row);
  }

  /** Stores a new scene; 409 CONFLICT when its key is taken. */
  create(s: SceneInput): Scene {
    const row = this.insert.get(params(s));
    if (!row)
      throw conflict(`A scene with the key ${s.id} exists (${JSON.stringify(this.get(s.id)?.name)}); use ?replace=true or PUT to replace it`, { id: s.id });
    return toScene(row);
  }

  /** Stores a scene, replacing any with the same key. */
  put(s: SceneInput): { scene: Scene; created: boolean } {
    return this.putTx(s);
  }

  /** Replaces an existing scene; undefined when there is none. */
  replace(s: SceneInput): Scene | undefined {
    const row = this.update.get(params(s));
    return row && toScene(row);
  }

  delete(id: string): boolean {
    return this.remove.run(id).changes > 0;
  }
}

interface Params {
  key: string;
  name: string;
  description: string | null;
  actions: string;
  now: string;
}

const params = (s: SceneInput): Params => ({
  key: s.id,
  name: s.name,
  description: s.description,
  actions: JSON.stringify(s.actions),
  now: new Date().toISOString(),
});
