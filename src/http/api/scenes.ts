// Scenes (interface part 4, and beyond it: list, read, replace, delete, capture): thin adapters
// over the scene service.
import * as v from 'valibot';
import { activateSchema, captureSchema, sceneSchema, sceneUpdateSchema, type Saved, type Scene } from '../../scenes/service.js';
import type { Services } from '../../services.js';
import { flag } from '../query.js';
import { jsonRoute, reply, type RouteTable } from '../routes.js';

const saveQuery = v.object({ replace: flag, allow_unknown: flag });
const location = (s: Scene) => ({ Location: `/api/scene/${s.id}` });
const stored = ({ scene, created }: Saved) => reply(created ? 201 : 200, scene, location(scene));
const activated = (a: { success: boolean }) => reply(a.success ? 200 : 207, a);

export function registerSceneRoutes(routes: RouteTable, { scenes }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/scenes',
    summary: 'All stored scenes',
    handler: () => ({ scenes: scenes.list() }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/scene',
      summary: 'Store a scene {name, description?, actions}; 409 when its key exists unless ?replace=true; ?allow_unknown=true admits entities the hub does not know',
      query: saveQuery,
      body: sceneSchema,
      handler: (req) => stored(scenes.create(req.body, { replace: req.query.replace, allowUnknown: req.query.allow_unknown })),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/scene/capture',
      summary: 'Store the current states of {entities} as a scene {name, description?}; ?replace=true replaces',
      query: saveQuery,
      body: captureSchema,
      handler: (req) => stored(scenes.capture(req.body, { replace: req.query.replace })),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/scene/activate',
      summary: 'Activate the scene {name} (a name or its key)',
      body: activateSchema,
      handler: async (req) => activated(await scenes.activate(req.body.name, req.principal, 'name')),
    }),
  );

  routes.add({
    method: 'GET',
    path: '/api/scene/:scene_name',
    summary: 'One stored scene',
    handler: (req) => scenes.get(req.params.scene_name),
  });

  routes.add(
    jsonRoute({
      method: 'PUT',
      path: '/api/scene/:scene_name',
      summary: 'Replace a stored scene {name?, description?, actions}; the name may change only within the same key',
      query: saveQuery,
      body: sceneUpdateSchema,
      handler: (req) => scenes.replace(req.params.scene_name, req.body, { allowUnknown: req.query.allow_unknown }),
    }),
  );

  routes.add({
    method: 'DELETE',
    path: '/api/scene/:scene_name',
    summary: 'Delete a stored scene',
    handler: (req) => ({ success: true, deleted: scenes.delete(req.params.scene_name) }),
  });

  routes.add({
    method: 'POST',
    path: '/api/scene/:scene_name/activate',
    summary: 'Activate a stored scene: entities in parallel, one entity in order; 200 all done, 207 some failed',
    handler: async (req) => activated(await scenes.activate(req.params.scene_name, req.principal)),
  });
}
