// Groups (interface part 4, and beyond it: list, read, replace, delete; nested groups): thin
// adapters over the group service.
import * as v from 'valibot';
import { controlSchema, groupSchema, groupUpdateSchema } from '../../groups/service.js';
import type { Services } from '../../services.js';
import { flag } from '../query.js';
import { jsonRoute, reply, type RouteTable } from '../routes.js';

const saveQuery = v.object({ replace: flag, allow_unknown: flag });

export function registerGroupRoutes(routes: RouteTable, { groups }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/groups',
    summary: 'All stored groups',
    handler: () => ({ groups: groups.list() }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/group',
      summary: 'Store a group {name, entities} (entity ids and "group:<name>"); 409 when its key exists unless ?replace=true',
      query: saveQuery,
      body: groupSchema,
      handler: (req) => {
        const saved = groups.create(req.body, { replace: req.query.replace, allowUnknown: req.query.allow_unknown });
        return reply(saved.created ? 201 : 200, saved.group, { Location: `/api/group/${saved.group.id}` });
      },
    }),
  );

  routes.add({
    method: 'GET',
    path: '/api/group/:group_name',
    summary: 'One stored group, with the entities it reaches through nested groups',
    handler: (req) => groups.view(req.params.group_name),
  });

  routes.add(
    jsonRoute({
      method: 'PUT',
      path: '/api/group/:group_name',
      summary: 'Replace the members of a stored group {name?, entities}',
      query: saveQuery,
      body: groupUpdateSchema,
      handler: (req) => groups.replace(req.params.group_name, req.body, { allowUnknown: req.query.allow_unknown }),
    }),
  );

  routes.add({
    method: 'DELETE',
    path: '/api/group/:group_name',
    summary: 'Delete a stored group; 409 while another group holds it',
    handler: (req) => ({ success: true, deleted: groups.delete(req.params.group_name) }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/group/:group_name/control',
      summary: 'Apply {action, parameters?} to every entity the group reaches; 200 all done, 207 some failed',
      body: controlSchema,
      handler: async (req) => {
        const result = await groups.control(req.params.group_name, req.body);
        return reply(result.success ? 200 : 207, result);
      },
    }),
  );
}
