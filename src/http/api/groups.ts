// Groups (store, control and, beyond those: list, read, replace, delete; nested groups): thin
// adapters over the group service.
import * as v from 'valibot';
import { controlSchema, groupSchema, groupUpdateSchema } from '../../groups/service.js';
import type { Services } from '../../services.js';
import { saveQuery } from '../query.js';
import { jsonRoute, reply, type ResponseSpec, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';

const groupLinks: ResponseSpec['links'] = {
  read: { operationId: 'get_api_group_by_group_name', parameters: { group_name: '$response.body#/id' } },
  control: { operationId: 'post_api_group_by_group_name_control', parameters: { group_name: '$response.body#/id' } },
  delete: { operationId: 'delete_api_group_by_group_name', parameters: { group_name: '$response.body#/id' } },
};

export function registerGroupRoutes(routes: RouteTable, { groups }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/groups',
    summary: 'All stored groups',
    responses: { 200: { description: 'The groups, by key', schema: shape.groupList } },
    handler: () => ({ groups: groups.list() }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/group',
      summary: 'Store a group {name, entities} (entity ids and "group:<name>"); 409 when its key exists unless ?replace=true',
      query: saveQuery,
      body: v.pipe(groupSchema, v.examples([{ name: 'Downstairs lights', entities: ['light.living_room_lamp', 'light.kitchen_ceiling'] }])),
      responses: {
        // 200 for a new group too: the contract's status table has no 201.
        200: { description: 'Stored, or replaced with ?replace=true (Location names it)', schema: shape.group, links: groupLinks },
        404: { description: 'INVALID_ENTITY: a member the hub does not know' },
        409: { description: 'CONFLICT: a group has that key' },
        503: { description: 'The hub has not been reached yet' },
      },
      handler: (req) => {
        const saved = groups.create(req.body, { principal: req.principal }, { replace: req.query.replace, allowUnknown: req.query.allow_unknown });
        return reply(200, saved.group, { Location: `/api/group/${saved.group.id}` });
      },
    }),
  );

  routes.add({
    method: 'GET',
    path: '/api/group/:group_name',
    summary: 'One stored group, with the entities it reaches through nested groups',
    responses: { 200: { description: 'The group', schema: shape.groupView }, 404: { description: 'NOT_FOUND: no such group' } },
    handler: (req) => groups.view(req.params.group_name),
  });

  routes.add(
    jsonRoute({
      method: 'PUT',
      path: '/api/group/:group_name',
      summary: 'Replace the members of a stored group {name?, entities}',
      query: saveQuery,
      body: groupUpdateSchema,
      responses: {
        200: { description: 'Replaced', schema: shape.group },
        404: { description: 'No such group, or an unknown member' },
        503: { description: 'The hub has not been reached yet' },
      },
      handler: (req) => groups.replace(req.params.group_name, req.body, { principal: req.principal }, { allowUnknown: req.query.allow_unknown }),
    }),
  );

  routes.add({
    method: 'DELETE',
    path: '/api/group/:group_name',
    summary: 'Delete a stored group; 409 while another group holds it',
    responses: {
      200: { description: 'Deleted', schema: shape.deleted },
      404: { description: 'NOT_FOUND: no such group' },
      409: { description: 'CONFLICT: another group holds it' },
    },
    handler: (req) => ({ success: true, deleted: groups.delete(req.params.group_name, { principal: req.principal }) }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/group/:group_name/control',
      summary:
        'Apply {action, parameters?, confirm?} to every entity the group reaches; 200 all done, 207 some failed; confirm: true where an action opens the home',
      body: v.pipe(controlSchema, v.examples([{ action: 'turn_off' }, { action: 'turn_on', parameters: { brightness_pct: 60 } }])),
      responses: {
        200: { description: 'Every member done', schema: shape.groupControl },
        207: { description: 'Some failed', schema: shape.groupControl },
        403: { description: 'FORBIDDEN: read-only mode, a denied or hidden member, or a caller without control' },
        404: { description: 'No such group, or every entity is gone' },
        409: { description: 'CONFIRMATION_REQUIRED: a member would open the home; send confirm: true once the person agreed' },
        503: { description: 'CONNECTION_ERROR: the hub is not connected' },
      },
      handler: async (req) => {
        const result = await groups.control(req.params.group_name, req.body, { principal: req.principal, confirm: req.body.confirm });
        return reply(result.success ? 200 : 207, result);
      },
    }),
  );
}
