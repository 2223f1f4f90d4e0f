// The SQLite store on real files: pragmas, migrations from every earlier schema, and the scene
// and group tables' rules (conflicts, nested-group foreign keys, names kept verbatim).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase } from '../../src/store/db.js';
import { openStore, type Store } from '../../src/store/index.js';
import { migrate, MigrationError, MIGRATIONS, schemaVersion } from '../../src/store/migrations.js';

// The schema as version 1 wrote it, frozen here: upgrades are tested from what v1 really left on
// disk, even if someone edits migration 1 by mistake.
const V1_SCHEMA = `
  CREATE TABLE scenes (key TEXT PRIMARY KEY, name TEXT NOT NULL, actions TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
  CREATE TABLE groups (key TEXT PRIMARY KEY, name TEXT NOT NULL, entities TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
  PRAGMA user_version = 1;
`;
const T = '2026-01-02T03:04:05.000Z';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hmb-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const columns = (db: Database.Database, table: string) => (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);

describe('opening', () => {
  test('an empty file is created with WAL, synchronous=NORMAL, foreign keys on and the latest schema', () => {
    const db = openDatabase(join(dir, 'bridge.db'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
      expect(columns(db, 'scenes')).toEqual(['key', 'name', 'actions', 'created_at', 'updated_at', 'description']);
      expect(columns(db, 'groups')).toEqual(['key', 'name', 'created_at', 'updated_at']);
      expect(columns(db, 'group_members')).toEqual(['group_key', 'position', 'entity_id', 'member_group']);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });

  test('opening again is a no-op for the schema and keeps the data', () => {
    const file = join(dir, 'bridge.db');
    const a = openStore(file);
    a.scenes.create({ id: 'x', name: 'X', description: null, actions: [{ entity_id: 'light.a', action: 'turn_on', parameters: {} }] });
    a.close();
    const b = openStore(file);
    expect(migrate(b.db)).toEqual({ from: MIGRATIONS.length, to: MIGRATIONS.length });
    expect(b.scenes.get('x')?.name).toBe('X');
    b.close();
  });

  test('a file from a newer build is refused and left untouched', () => {
    const file = join(dir, 'bridge.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(MigrationError);
    const again = new Database(file);
    expect(schemaVersion(again)).toBe(MIGRATIONS.length + 1);
    again.close();
  });
});

describe('migrations', () => {
  test('every version step applies in order from empty, each one leaving user_version at its number', () => {
    const file = join(dir, 'steps.db');
    for (let n = 1; n <= MIGRATIONS.length; n++) {
      const db = openDatabase(file, { migrations: MIGRATIONS.slice(0, n) });
      expect(schemaVersion(db)).toBe(n);
      db.close();
    }
  });

  test('v1 data (the frozen v1 schema) survives the upgrade: scenes gain a null description, group lists become member rows', () => {
    const file = join(dir, 'v1.db');
    const raw = new Database(file);
    raw.exec(V1_SCHEMA);
    const scene = raw.prepare('INSERT INTO scenes VALUES (?, ?, ?, ?, ?)');
    scene.run('movie_night', "Movie Night'; DROP TABLE scenes; --", JSON.stringify([{ entity_id: 'light.a', action: 'turn_off', parameters: {} }]), T, T);
    const group = raw.prepare('INSERT INTO groups VALUES (?, ?, ?, ?, ?)');
    group.run('downstairs', 'Downstairs', JSON.stringify(['light.a', 'switch.b']), T, T);
    group.run('house', 'House', JSON.stringify(['group:downstairs', 'light.c', 'group:vanished']), T, T);
    raw.close();

    const store = openStore(file);
    try {
      expect(schemaVersion(store.db)).toBe(MIGRATIONS.length);
      expect(store.scenes.get('movie_night')).toMatchObject({
        name: "Movie Night'; DROP TABLE scenes; --",
        description: null,
        actions: [{ entity_id: 'light.a', action: 'turn_off', parameters: {} }],
        created_at: T,
      });
      expect(store.groups.get('downstairs')?.entities).toEqual(['light.a', 'switch.b']);
      // A nested group that v1 somehow left dangling cannot be a foreign key and is dropped.
      expect(store.groups.get('house')?.entities).toEqual(['group:downstairs', 'light.c']);
      expect(() => store.groups.delete('downstairs')).toThrow(/member of house/);
      expect(store.db.pragma('foreign_key_check')).toEqual([]);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      store.close();
    }
  });

  test('the frozen v1 schema is what migration 1 creates', () => {
    const schema = (db: Database.Database) =>
      (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string; sql: string }[]).map((r) => ({
        name: r.name,
        sql: r.sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')'),
      }));
    const frozen = new Database(':memory:');
    frozen.exec(V1_SCHEMA);
    const built = new Database(':memory:');
    migrate(built, MIGRATIONS.slice(0, 1));
    expect(schema(built).map((t) => t.name)).toEqual(schema(frozen).map((t) => t.name));
    const cols = (db: Database.Database, t: string) => db.pragma(`table_info(${t})`);
    for (const t of ['scenes', 'groups']) expect(cols(built, t)).toEqual(cols(frozen, t));
    frozen.close();
    built.close();
  });

  test('a failing migration rolls back whole and leaves the version where it was', () => {
    const file = join(dir, 'fail.db');
    openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) }).close();
    const broken = [
      ...MIGRATIONS.slice(0, 1),
      { version: 2, name: 'half done', up: (db: Database.Database) => db.exec('CREATE TABLE half (x); INSERT INTO nowhere VALUES (1);') },
    ];
    expect(() => openDatabase(file, { migrations: broken })).toThrow(/nowhere/);
    const db = new Database(file);
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").get()).toEqual({ n: 0 });
    db.close();
  });

  test('a list with a gap in its numbering is refused before anything runs', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [{ ...MIGRATIONS[0]!, version: 2 }])).toThrow(/expected 1/);
    expect(schemaVersion(db)).toBe(0);
    db.close();
  });
});

describe('scenes and groups tables', () => {
  let store: Store;
  beforeEach(() => {
    store = openStore(join(dir, 'bridge.db'));
  });
  afterEach(() => store.close());

  const scene = (id: string, name = id) => ({
    id,
    name,
    description: null,
    actions: [{ entity_id: 'light.a', action: 'turn_on', parameters: { brightness_pct: 10 } }],
  });

  test('create refuses a taken key with 409; put replaces and keeps created_at; replace needs the row', async () => {
    const first = store.scenes.create(scene('a', 'A'));
    expect(() => store.scenes.create(scene('a', 'a!'))).toThrow(expect.objectContaining({ code: 'CONFLICT', status: 409 }));
    await new Promise((r) => setTimeout(r, 5));
    const put = store.scenes.put({ ...scene('a', 'A!'), description: 'again' });
    expect(put.created).toBe(false);
    expect(put.scene).toMatchObject({ name: 'A!', description: 'again', created_at: first.created_at });
    expect(put.scene.updated_at > first.created_at).toBe(true);
    expect(store.scenes.put(scene('b')).created).toBe(true);
    expect(store.scenes.replace(scene('nope'))).toBeUndefined();
    expect(store.scenes.list().map((s) => s.id)).toEqual(['a', 'b']);
    expect(store.scenes.delete('a')).toBe(true);
    expect(store.scenes.delete('a')).toBe(false);
  });

  test('names full of SQL are data', () => {
    const nasty = `x'); DELETE FROM scenes; --"\\%_`;
    store.scenes.create(scene('x', nasty));
    store.groups.save({ id: 'g', name: nasty, entities: ['light.a'] }, 'create');
    expect(store.scenes.get('x')?.name).toBe(nasty);
    expect(store.groups.get('g')?.name).toBe(nasty);
    expect(store.scenes.list()).toHaveLength(1);
  });

  test('nested groups are foreign keys: a missing one is refused, a held one cannot be deleted', () => {
    expect(() => store.groups.save({ id: 'outer', name: 'Outer', entities: ['group:inner'] }, 'create')).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMETERS' }),
    );
    expect(store.groups.get('outer')).toBeUndefined(); // the transaction rolled back
    store.groups.save({ id: 'inner', name: 'Inner', entities: ['light.a'] }, 'create');
    store.groups.save({ id: 'outer', name: 'Outer', entities: ['group:inner', 'light.b'] }, 'create');
    expect(store.groups.get('outer')?.entities).toEqual(['group:inner', 'light.b']);
    expect(() => store.groups.delete('inner')).toThrow(expect.objectContaining({ code: 'CONFLICT', details: { id: 'inner', used_by: ['outer'] } }));
    expect(store.groups.delete('outer')).toBe(true);
    expect(store.groups.delete('inner')).toBe(true);
    expect(store.db.prepare('SELECT count(*) AS n FROM group_members').get()).toEqual({ n: 0 });
  });

  test('a failing check undoes the whole save', () => {
    store.groups.save({ id: 'g', name: 'G', entities: ['light.a'] }, 'create');
    expect(() =>
      store.groups.save({ id: 'g', name: 'G2', entities: ['light.z'] }, 'put', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(store.groups.get('g')).toMatchObject({ name: 'G', entities: ['light.a'] });
  });
});

describe('event history table', () => {
  test('one flush of many events keeps every event, in order, with its keys', () => {
    const store = openStore(join(dir, 'bridge.db'));
    try {
      const n = 64 * 3 + 17;
      for (let i = 0; i < n; i++) {
        const entity = i % 2 ? `light.l${i}` : null;
        store.events.append({ event_type: `e${i % 3}`, entity_id: entity, domain: entity ? 'light' : null }, 1000 + i, JSON.stringify({ i }), 2000 + i);
      }
      expect(store.events.flush()).toBe(n);
      const rows = store.events.query({ filters: [], order: 'asc', limit: 1000 });
      expect(rows.map((r) => JSON.parse(r.message).i)).toEqual([...Array(n).keys()]);
      expect(rows.map((r) => r.seq)).toEqual([...Array(n).keys()].map((i) => i + 1));
      expect(rows[3]).toMatchObject({ entity_id: 'light.l3' });
      expect(store.events.query({ filters: [{ event_type: 'e1', domain: 'light' }], order: 'asc', limit: 1000 }).map((r) => JSON.parse(r.message).i)).toEqual(
        [...Array(n).keys()].filter((i) => i % 3 === 1 && i % 2 === 1),
      );
    } finally {
      store.close();
    }
  });
});
