// Groups (interface part 4, and beyond it: list, read, replace, delete; nested groups).
import * as v from 'valibot';
import { batchStatus, runBatch } from '../../actions/batch.js';
import type { ActionExecutor } from '../../actions/executor.js';
import type { AppContext } from '../../context.js';
import { AppError, invalidParameters, notFound } from '../../errors.js';
import { expandGroup, findCycle, nestedKey, normaliseMembers } from '../../groups/members.js';
import type { HubClient } from '../../hub/client.js';
import { objectMessage, parseAt, requireHubKnown } from '../../scenes/normalise.js';
import type { Group, GroupInput, SaveMode } from '../../store/groups.js';
import type { Store } from '../../store/index.js';
import { keyFromPath, keyOf, MAX_ITEMS, nameSchema } from '../../store/names.js';
import { flag } from '../query.js';
import { reply, type ApiRequest } from '../routes.js';

export interface GroupDeps {
  hub: HubClient;
  actions: ActionExecutor;
  store: Store;
}

const members = v.pipe(
  v.array(v.string('must be an entity id or "group:<name>"'), 'must be a list of entity ids'),
  v.minLength(1, 'must hold at least one member'),
  v.maxLength(MAX_ITEMS, `must hold at most ${MAX_ITEMS} members`),
);
const groupBody = v.object({ name: nameSchema, entities: members }, objectMessage);
const putBody = v.object({ name: v.optional(nameSchema), entities: members }, objectMessage);
const controlBody = v.object(
  {
    action: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
    parameters: v.optional(v.record(v.string(), v.unknown(), 'must be an object')),
  },
  objectMessage,
);

export function registerGroupRoutes(ctx: AppContext, deps: GroupDeps): void {
  const { hub, actions, store } = deps;
  const lookup = (id: string) => store.groups.get(id);

  const find = (segment: string | undefined): Group => {
    const key = keyFromPath(segment, 'group_name');
    const group = lookup(key);
    if (!group) throw notFound(`No group ${key}`, { group: key });
    return group;
  };

  const view = (g: Group) => ({ ...g, expanded_entities: expandGroup(g, lookup) });

  /** Checks members against the hub and the stored groups, then writes in one transaction. */
  const save = (req: ApiRequest, input: { name: string; entities: string[] }, mode: SaveMode) => {
    requireHubKnown(hub.services);
    const allowUnknown = flag(req.query, 'allow_unknown');
    const g: GroupInput = { id: keyOf(input.name), name: input.name, entities: normaliseMembers(input.entities) };
    g.entities.forEach((m, i) => {
      const nested = nestedKey(m);
      if (nested !== undefined) {
        if (nested !== g.id && !lookup(nested)) throw invalidParameters(`entities.${i}: there is no group ${nested}`, { field: `entities.${i}`, group: nested });
      } else if (!allowUnknown && !hub.cache.has(m)) {
        const e = actions.unknownEntity(m);
        throw new AppError(e.code, e.status, `entities.${i}: ${e.message}`, { ...e.details, at: `entities.${i}` });
      }
    });
    return store.groups.save(g, mode, () => {
      const cycle = findCycle(g.id, store.groups.nesting());
      if (cycle) throw invalidParameters(`entities: nesting would make a cycle: ${cycle.join(' -> ')}`, { field: 'entities', cycle });
      const reach = expandGroup(g, lookup).length;
      if (reach > MAX_ITEMS) throw invalidParameters(`entities: the group would reach ${reach} entities, more than ${MAX_ITEMS}`, { field: 'entities', entities: reach });
    });
  };

  ctx.routes.add({
    method: 'GET',
    path: '/api/groups',
    summary: 'All stored groups',
    handler: () => ({ groups: store.groups.list() }),
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/group',
    summary: 'Store a group {name, entities} (entity ids and "group:<name>"); 409 when its key exists unless ?replace=true',
    handler: (req) => {
      const saved = save(req, parseAt(groupBody, req.body ?? {}, ''), flag(req.query, 'replace') ? 'put' : 'create')!;
      return reply(saved.created ? 201 : 200, saved.group, { Location: `/api/group/${saved.group.id}` });
    },
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/group/:group_name',
    summary: 'One stored group, with the entities it reaches through nested groups',
    handler: (req) => view(find(req.params.group_name)),
  });

  ctx.routes.add({
    method: 'PUT',
    path: '/api/group/:group_name',
    summary: 'Replace the members of a stored group {name?, entities}',
    handler: (req) => {
      const current = find(req.params.group_name);
      const b = parseAt(putBody, req.body ?? {}, '');
      const name = b.name ?? current.name;
      if (keyOf(name) !== current.id) {
        throw invalidParameters(`name: its key ${keyOf(name)} differs from ${current.id}; to rename, create the new group and delete this one`, { field: 'name' });
      }
      const saved = save(req, { name, entities: b.entities }, 'replace');
      if (!saved) throw notFound(`No group ${current.id}`, { group: current.id });
      return saved.group;
    },
  });

  ctx.routes.add({
    method: 'DELETE',
    path: '/api/group/:group_name',
    summary: 'Delete a stored group; 409 while another group holds it',
    handler: (req) => {
      const key = keyFromPath(req.params.group_name, 'group_name');
      if (!store.groups.delete(key)) throw notFound(`No group ${key}`, { group: key });
      return { success: true, deleted: key };
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/group/:group_name/control',
    summary: 'Apply {action, parameters?} to every entity the group reaches; 200 all done, 207 some failed',
    handler: async (req) => {
      const group = find(req.params.group_name);
      const b = parseAt(controlBody, req.body ?? {}, '');
      const entities = expandGroup(group, lookup);
      if (entities.length > MAX_ITEMS) throw invalidParameters(`group ${group.id} reaches ${entities.length} entities, more than ${MAX_ITEMS}`, { entities: entities.length });
      const batch = await runBatch(
        actions,
        hub.isConnected,
        entities.map((entity_id) => ({ entity_id, action: b.action, parameters: b.parameters ?? {} })),
      );
      const status = batchStatus(batch, `group ${group.id}`);
      return reply(status, { success: status === 200, group: group.id, action: b.action, results: batch.results });
    },
  });
}
