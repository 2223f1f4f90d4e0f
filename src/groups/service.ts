// What a group can do: store, read (with the entities it reaches), list, delete and control.
// No HTTP here: routes, tools, WebSocket messages and the command planner share these rules.
import * as v from 'valibot';
import { batchStatus, runBatch, type ActionResult } from '../actions/batch.js';
import type { ActionExecutor } from '../actions/executor.js';
import { AppError, invalidParameters, notFound } from '../errors.js';
import type { HubReader } from '../hub/reader.js';
import { requireHubReached } from '../hub/reached.js';
import type { Caller, Policy } from '../policy/policy.js';
import type { Group, GroupInput, SaveMode } from '../store/groups.js';
import type { Store } from '../store/index.js';
import { keyFromPath, keyOf, MAX_ITEMS, nameSchema, refuseKeyClash } from '../store/names.js';
import { anyObject } from '../validation.js';
import { expandGroup, findCycle, nestedKey, normaliseMembers } from './members.js';

const members = v.pipe(
  v.array(v.string('must be an entity id or "group:<name>"'), 'must be a list of entity ids'),
  v.minLength(1, 'must hold at least one member'),
  v.maxLength(MAX_ITEMS, `must hold at most ${MAX_ITEMS} members`),
);

export const groupSchema = v.object({ name: nameSchema, entities: members });
export type GroupDefinition = v.InferOutput<typeof groupSchema>;

/** PUT may leave the name out: the stored one stays. */
export const groupUpdateSchema = v.object({ name: v.optional(nameSchema), entities: members });
export type GroupUpdate = v.InferOutput<typeof groupUpdateSchema>;

export const controlSchema = v.object({
  action: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  parameters: v.optional(anyObject),
  /** The person confirmed an action that opens the home. */
  confirm: v.optional(v.boolean('must be true or false')),
});
export type GroupControl = v.InferOutput<typeof controlSchema>;

export interface GroupSaveOptions {
  replace?: boolean;
  allowUnknown?: boolean;
}

export interface GroupView extends Group {
  /** Every entity the group reaches through nested groups. */
  expanded_entities: string[];
}

export interface ControlResult {
  /** True when every action completed; false when some failed (when none completes, control throws). */
  success: boolean;
  group: string;
  action: string;
  results: ActionResult[];
}

export interface GroupDeps {
  hub: HubReader;
  actions: ActionExecutor;
  policy: Policy;
  store: Store;
}

export class GroupService {
  private readonly lookup = (id: string) => this.deps.store.groups.get(id);

  constructor(private readonly deps: GroupDeps) {}

  list(): Group[] {
    return this.deps.store.groups.list();
  }

  get(nameOrKey: string | undefined): Group {
    const key = keyFromPath(nameOrKey, 'group_name');
    const group = this.lookup(key);
    if (!group) throw notFound(`No group ${key}`, { group: key });
    return group;
  }

  /** A group with the entities it reaches. */
  view(nameOrKey: string | undefined): GroupView {
    const g = this.get(nameOrKey);
    return { ...g, expanded_entities: expandGroup(g, this.lookup) };
  }

  create(def: GroupDefinition, caller: Caller, opts: GroupSaveOptions = {}): { group: Group; created: boolean } {
    this.deps.policy.authorizeWrite(caller, 'storing a group');
    return this.save(def, opts.replace ? 'put' : 'create', opts)!;
  }

  /** Replaces an existing group's members; the name may change only within the same key. */
  replace(nameOrKey: string | undefined, def: GroupUpdate, caller: Caller, opts: GroupSaveOptions = {}): Group {
    this.deps.policy.authorizeWrite(caller, 'changing a group');
    const current = this.get(nameOrKey);
    const name = def.name ?? current.name;
    if (keyOf(name) !== current.id) {
      throw invalidParameters(`name: its key ${keyOf(name)} differs from ${current.id}; to rename, create the new group and delete this one`, {
        field: 'name',
      });
    }
    const saved = this.save({ name, entities: def.entities }, 'replace', opts);
    if (!saved) throw notFound(`No group ${current.id}`, { group: current.id });
    return saved.group;
  }

  /** Deletes a group by name or key and answers its key; 409 while another group holds it. */
  delete(nameOrKey: string | undefined, caller: Caller): string {
    this.deps.policy.authorizeWrite(caller, 'deleting a group');
    const key = keyFromPath(nameOrKey, 'group_name');
    if (!this.deps.store.groups.delete(key)) throw notFound(`No group ${key}`, { group: key });
    return key;
  }

  /** Applies one action to every entity the group reaches; throws when none completes. */
  async control(nameOrKey: string | undefined, cmd: GroupControl, caller: Caller): Promise<ControlResult> {
    const { hub, actions } = this.deps;
    const group = this.get(nameOrKey);
    const entities = expandGroup(group, this.lookup);
    if (entities.length > MAX_ITEMS)
      throw invalidParameters(`group ${group.id} reaches ${entities.length} entities, more than ${MAX_ITEMS}`, { entities: entities.length });
    const batch = await runBatch(
      actions,
      hub.isConnected,
      entities.map((entity_id) => ({ entity_id, action: cmd.action, parameters: cmd.parameters ?? {} })),
      caller,
    );
    const status = batchStatus(batch, `group ${group.id}`);
    return { success: status === 200, group: group.id, action: cmd.action, results: batch.results };
  }

  /** Checks members against the hub and the stored groups, then writes in one transaction. */
  private save(def: { name: string; entities: string[] }, mode: SaveMode, opts: GroupSaveOptions) {
    const { hub, actions, store } = this.deps;
    requireHubReached(hub);
    const g: GroupInput = { id: keyOf(def.name), name: def.name, entities: normaliseMembers(def.entities) };
    if (mode === 'create') refuseKeyClash('group', g.id, g.name, this.lookup(g.id));
    g.entities.forEach((m, i) => {
      const nested = nestedKey(m);
      if (nested !== undefined) {
        if (nested !== g.id && !this.lookup(nested))
          throw invalidParameters(`entities.${i}: there is no group ${nested}`, { field: `entities.${i}`, group: nested });
      } else if (!opts.allowUnknown && !hub.cache.has(m)) {
        const e = actions.unknownEntity(m);
        throw new AppError(e.code, e.status, `entities.${i}: ${e.message}`, { ...e.details, at: `entities.${i}` });
      }
    });
    return store.groups.save(g, mode, () => {
      const cycle = findCycle(g.id, store.groups.nesting());
      if (cycle) throw invalidParameters(`entities: nesting would make a cycle: ${cycle.join(' -> ')}`, { field: 'entities', cycle });
      const reach = expandGroup(g, this.lookup).length;
      if (reach > MAX_ITEMS)
        throw invalidParameters(`entities: the group would reach ${reach} entities, more than ${MAX_ITEMS}`, { field: 'entities', entities: reach });
    });
  }
}
