// Group members: entity ids, and other groups written "group:<name>" (stored by key). Nesting
// must stay a tree-like graph without cycles, since controlling a group walks it to its entities.
import { checkEntityId } from '../actions/executor.js';
import { invalidParameters } from '../errors.js';
import { keyOf } from '../store/names.js';
import { GROUP_PREFIX, type Group } from '../store/groups.js';

/** Checks and normalises the member list: nested groups by key, duplicates dropped. */
export function normaliseMembers(entities: readonly string[]): string[] {
  const out = new Set<string>();
  entities.forEach((m, i) => {
    const field = `entities.${i}`;
    if (m.startsWith(GROUP_PREFIX)) {
      const key = keyOf(m.slice(GROUP_PREFIX.length));
      if (!key) throw invalidParameters(`${field}: ${JSON.stringify(m)} names no group`, { field, value: m });
      out.add(`${GROUP_PREFIX}${key}`);
    } else {
      out.add(checkEntityId(m, field));
    }
  });
  return [...out];
}

export const nestedKey = (member: string): string | undefined => (member.startsWith(GROUP_PREFIX) ? member.slice(GROUP_PREFIX.length) : undefined);

/** A path from `start` back to itself through nested groups, if there is one. */
export function findCycle(start: string, edges: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const path: string[] = [start];
  const done = new Set<string>();
  const walk = (node: string): boolean => {
    for (const next of edges.get(node) ?? []) {
      if (next === start) {
        path.push(next);
        return true;
      }
      if (done.has(next)) continue;
      done.add(next);
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  return walk(start) ? path : undefined;
}

/** Every entity a group reaches through its nested groups, each once, in first-seen order. */
export function expandGroup(root: Pick<Group, 'id' | 'entities'>, lookup: (id: string) => Pick<Group, 'id' | 'entities'> | undefined): string[] {
  const out = new Set<string>();
  const seen = new Set<string>([root.id]);
  const visit = (g: Pick<Group, 'entities'>) => {
    for (const m of g.entities) {
      const key = nestedKey(m);
      if (key === undefined) out.add(m);
      else if (!seen.has(key)) {
        seen.add(key);
        const inner = lookup(key);
        if (inner) visit(inner);
      }
    }
  };
  visit(root);
  return [...out];
}
