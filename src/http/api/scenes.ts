// Scenes (store and activate, and beyond those: list, read, replace, delete, capture): thin adapters
// over the scene service.
import * as v from 'valibot';
import { activateSchema, captureSchema, sceneSchema, sceneUpdateSchema, type Saved, type Scene } from '../../scenes/service.js';
import type { Services } from '../../services.js';
import { flag, saveQuery } from '../query.js';
import { jsonRoute, reply, type ResponseSpec, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';

/** Where a stored scene leads: read, replace, activate and delete it by its key. */
const sceneLinks: ResponseSpec['links'] = {
  read: { operationId: 'get_api_scene_by_scene_name', parameters: { scene_name: '$response.body#/id' } },
  replace: { operationId: 'put_api_scene_by_scene_name', parameters: { scene_name: '$response.body#/id' } },
  activate: { operationId: 'post_api_scene_by_scene_name_activate', parameters: { scene_name: '$response.body#/id' } },
  delete: { operationId: 'delete_api_scene_by_scene_name', parameters: { scene_name: '$response.body#/id' } },
};
const stored_: Record<number, ResponseSpec> = {
  // 200 for a new scene too: the contract's status table has no 201 (Location names it either way).
  200: { description: 'Stored, or replaced with ?replace=true (Location names it)', schema: shape.scene, links: sceneLinks },
  404: { description: 'INVALID_ENTITY: an action names an entity the hub does not know (?allow_unknown=true admits it)' },
  409: { description: 'CONFLICT: a scene has that key (use ?replace=true or PUT)' },
  503: { description: 'CONNECTION_ERROR: the hub has not been reached yet, so its entities are unknown' },
};
const activation: Record<number, ResponseSpec> = {
  200: { description: 'Every action completed', schema: shape.activation },
  207: { description: 'Some actions failed; each failure with its error', schema: shape.activation },
  403: { description: 'FORBIDDEN: read-only mode, a denied or hidden entity, or a caller without control' },
  404: { description: 'No such scene, or every entity is gone' },
  409: { description: 'CONFIRMATION_REQUIRED: an action would open the home; confirm once the person agreed' },
  503: { description: 'CONNECTION_ERROR: the hub is not connected' },
};

const location = (s: Scene) => ({ Location: `/api/scene/${s.id}` });
const stored = ({ scene }: Saved) => reply(200, scene, location(scene));
const activated = (a: { success: boolean }) => reply(a.success ? 200 : 207, a);

export function registerSceneRoutes(routes: RouteTable, { scenes }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/scenes',
    summary: 'All stored scenes',
    responses: { 200: { description: 'The scenes, by key', schema: shape.sceneList } },
    handler: () => ({ scenes: scenes.list() }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/scene',
      summary:
        'Store a scene {name, description?, actions}; 409 when its key exists unless ?replace=true; ?allow_unknown=true admits entities the hub does not know',
      query: saveQuery,
      body: v.pipe(
        sceneSchema,
        v.examples([
          {
            name: 'Movie night',
            description: 'Dim the lamp, coffee off',
            actions: [
              { entity_id: 'light.living_room_lamp', action: 'turn_on', parameters: { brightness_pct: 30 } },
              { device: 'switch.coffee_maker', action: 'off' },
            ],
          },
        ]),
      ),
      responses: stored_,
      handler: (req) => stored(scenes.create(req.body, { principal: req.principal }, { replace: req.query.replace, allowUnknown: req.query.allow_unknown })),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/scene/capture',
      summary: 'Store the current states of {entities} as a scene {name, description?}; ?replace=true replaces',
      query: saveQuery,
      body: v.pipe(captureSchema, v.examples([{ name: 'Evening snapshot', entities: ['light.living_room_lamp', 'switch.coffee_maker'] }])),
      responses: stored_,
      handler: (req) => stored(scenes.capture(req.body, { principal: req.principal }, { replace: req.query.replace })),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/scene/activate',
      summary: 'Activate the scene {name} (a name or its key); confirm: true where an action opens the home',
      body: v.pipe(activateSchema, v.examples([{ name: 'Movie night' }])),
      responses: activation,
      handler: async (req) => activated(await scenes.activate(req.body.name, { principal: req.principal, confirm: req.body.confirm }, 'name')),
    }),
  );

  routes.add({
    method: 'GET',
    path: '/api/scene/:scene_name',
    summary: 'One stored scene',
    responses: { 200: { description: 'The scene', schema: shape.scene }, 404: { description: 'NOT_FOUND: no such scene' } },
    handler: (req) => scenes.get(req.params.scene_name),
  });

  routes.add(
    jsonRoute({
      method: 'PUT',
      path: '/api/scene/:scene_name',
      summary: 'Replace a stored scene {name?, description?, actions}; the name may change only within the same key',
      query: saveQuery,
      body: sceneUpdateSchema,
      responses: {
        200: { description: 'Replaced', schema: shape.scene },
        404: { description: 'No such scene, or an unknown entity' },
        503: { description: 'The hub has not been reached yet' },
      },
      handler: (req) => scenes.replace(req.params.scene_name, req.body, { principal: req.principal }, { allowUnknown: req.query.allow_unknown }),
    }),
  );

  routes.add({
    method: 'DELETE',
    path: '/api/scene/:scene_name',
    summary: 'Delete a stored scene',
    responses: { 200: { description: 'Deleted', schema: shape.deleted }, 404: { description: 'NOT_FOUND: no such scene' } },
    handler: (req) => ({ success: true, deleted: scenes.delete(req.params.scene_name, { principal: req.principal }) }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/scene/:scene_name/activate',
      summary:
        'Activate a stored scene: entities in parallel, one entity in order; 200 all done, 207 some failed; ?confirm=true where an action opens the home',
      query: v.object({ confirm: flag }),
      responses: activation,
      handler: async (req) => activated(await scenes.activate(req.params.scene_name, { principal: req.principal, confirm: req.query.confirm })),
    }),
  );
}
