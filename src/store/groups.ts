// Groups in SQLite: a row per group and a row per member. A member is an entity or another group
// ("group:<key>" on the wire); nested groups are foreign keys, so one that another group holds
// cannot be deleted, and one that does not exist cannot be named.
import Database from 'better-sqlite3';
import { conflict, invalidParameters } from '../errors.js';
import type { Db } from './db.js';

export const GROUP_PREFIX = 'group:';

export interface Group {
  id: string;
  name: string;
  /** Entity ids and nested groups as "group:<key>", in the order given. */
  entities: string[];
  created_at: string;
  updated_at: string;
}

export interface GroupInput {
  id: string;
  name: string;
  entities: string[];
}

export type SaveMode = 'create' | 'put' | 'replace';

interface Params {
  key: string;
  name: string;
  now: string;
}

interface GroupRow {
  key: string;
  name: string;
  created_at: string;
  updated_at: string;
}

interface MemberRow {
  group_key: string;
  entity_id: string | null;
  member_group: string | null;
}

const memberText = (m: MemberRow) => (m.member_group !== null ? `${GROUP_PREFIX}${m.member_group}` : m.entity_id!);
// A refused insert says SQLITE_CONSTRAINT_FOREIGNKEY, a RESTRICT on delete SQLITE_CONSTRAINT_TRIGGER.
const isForeignKey = (err: unknown) => err instanceof Database.SqliteError && err.code.startsWith('SQLITE_CONSTRAINT') && err.message.includes('FOREIGN KEY');

export class GroupStore {
  private readonly q;
  private readonly saveTx;
  private readonly deleteTx;

  constructor(db: Db) {
    this.q = {
      groups: db.prepare<[], GroupRow>('SELECT key, name, created_at, updated_at FROM groups ORDER BY key'),
      group: db.prepare<[string], GroupRow>('SELECT key, name, created_at, updated_at FROM groups WHERE key = ?'),
      members: db.prepare<[], MemberRow>('SELECT group_key, entity_id, member_group FROM group_members ORDER BY group_key, position'),
      membersOf: db.prepare<[string], MemberRow>('SELECT group_key, entity_id, member_group FROM group_members WHERE group_key = ? ORDER BY position'),
      nested: db.prepare<[], { group_key: string; member_group: string }>(
        'SELECT group_key, member_group FROM group_members WHERE member_group IS NOT NULL ORDER BY group_key, position',
      ),
      holders: db.prepare<[string], { group_key: string }>('SELECT DISTINCT group_key FROM group_members WHERE member_group = ? ORDER BY group_key'),
      insert: db.prepare<[Params], GroupRow>(
        `INSERT INTO groups (key, name, created_at, updated_at) VALUES (@key, @name, @now, @now)
         ON CONFLICT (key) DO NOTHING RETURNING key, name, created_at, updated_at`,
      ),
      upsert: db.prepare<[Params], GroupRow>(
        `INSERT INTO groups (key, name, created_at, updated_at) VALUES (@key, @name, @now, @now)
         ON CONFLICT (key) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
         RETURNING key, name, created_at, updated_at`,
      ),
      update: db.prepare<[Params], GroupRow>('UPDATE groups SET name = @name, updated_at = @now WHERE key = @key RETURNING key, name, created_at, updated_at'),
      clearMembers: db.prepare<[string]>('DELETE FROM group_members WHERE group_key = ?'),
      addMember: db.prepare<[string, number, string | null, string | null]>(
        'INSERT INTO group_members (group_key, position, entity_id, member_group) VALUES (?, ?, ?, ?)',
      ),
      remove: db.prepare<[string]>('DELETE FROM groups WHERE key = ?'),
    };
    this.saveTx = db.transaction((g: GroupInput, mode: SaveMode, check?: () => void): { group: Group; created: boolean } | undefined => {
      const existed = this.q.group.get(g.id) !== undefined;
      if (mode === 'replace' && !existed) return undefined;
      if (mode === 'create' && existed) {
        throw conflict(`A group with the key ${g.id} exists (${JSON.stringify(this.q.group.get(g.id)?.name)}); use ?replace=true or PUT to replace it`, {
          id: g.id,
        });
      }
      const params = { key: g.id, name: g.name, now: new Date().toISOString() };
      const row = (mode === 'create' ? this.q.insert : mode === 'put' ? this.q.upsert : this.q.update).get(params)!;
      this.q.clearMembers.run(g.id);
      g.entities.forEach((m, i) => {
        const nested = m.startsWith(GROUP_PREFIX) ? m.slice(GROUP_PREFIX.length) : null;
        this.q.addMember.run(g.id, i, nested === null ? m : null, nested);
      });
      // Checks that need the new members in place (cycles) run here, inside the transaction.
      check?.();
      return { group: { id: row.key, name: row.name, entities: [...g.entities], created_at: row.created_at, updated_at: row.updated_at }, created: !existed };
    });
    this.deleteTx = db.transaction((id: string): boolean => {
      const holders = this.holders(id);
      if (holders.length) throw conflict(`Group ${id} is a member of ${holders.join(', ')}; remove it from there first`, { id, used_by: holders });
      return this.q.remove.run(id).changes > 0;
    });
  }

  list(): Group[] {
    const members = new Map<string, string[]>();
    for (const m of this.q.members.all()) {
      let list = members.get(m.group_key);
      if (!list) members.set(m.group_key, (list = []));
      list.push(memberText(m));
    }
    return this.q.groups
      .all()
      .map((r) => ({ id: r.key, name: r.name, entities: members.get(r.key) ?? [], created_at: r.created_at, updated_at: r.updated_at }));
  }

  get(id: string): Group | undefined {
    const r = this.q.group.get(id);
    if (!r) return undefined;
    return { id: r.key, name: r.name, entities: this.q.membersOf.all(id).map(memberText), created_at: r.created_at, updated_at: r.updated_at };
  }

  /** Every group's nested groups: the edges that cycles are looked for in. */
  nesting(): Map<string, string[]> {
    const edges = new Map<string, string[]>();
    for (const { group_key, member_group } of this.q.nested.all()) {
      let list = edges.get(group_key);
      if (!list) edges.set(group_key, (list = []));
      list.push(member_group);
    }
    return edges;
  }

  /** Groups that hold the given one as a member. */
  holders(id: string): string[] {
    return this.q.holders.all(id).map((r) => r.group_key);
  }

  /**
   * create: 409 when the key is taken; put: create or replace; replace: undefined when there is
   * no such group. `check` runs after the write, inside its transaction, and may throw to undo it.
   */
  save(g: GroupInput, mode: SaveMode, check?: () => void): { group: Group; created: boolean } | undefined {
    try {
      return this.saveTx(g, mode, check);
    } catch (err) {
      if (isForeignKey(err)) {
        throw invalidParameters('entities: a nested group does not exist', { field: 'entities' });
      }
      throw err;
    }
  }

  /** Deletes a group; 409 CONFLICT while other groups hold it. */
  delete(id: string): boolean {
    return this.deleteTx(id);
  }
}
