// Scenes (interface part 4, and beyond it: list, read, replace, delete, capture).
import * as v from 'valibot';
import { batchStatus, runBatch } from '../../actions/batch.js';
import { checkEntityId, type ActionExecutor } from '../../actions/executor.js';
import { serviceEvent, type Bus } from '../../bus.js';
import type { AppContext } from '../../context.js';
import { AppError, hubUnavailable, invalidParameters, notFound } from '../../errors.js';
import type { HubClient } from '../../hub/client.js';
import { domainOf } from '../../hub/entity-id.js';
import { captureEntity } from '../../scenes/capture.js';
import { checkAction, objectMessage, parseAt, requireHubKnown, sceneFromBody } from '../../scenes/normalise.js';
import type { Store } from '../../store/index.js';
import { descriptionSchema, keyFromPath, keyOf, MAX_ITEMS, nameSchema } from '../../store/names.js';
import type { Scene, SceneAction, SceneInput } from '../../store/scenes.js';
import { flag } from '../query.js';
import { reply, type ApiRequest } from '../routes.js';

export interface SceneDeps {
  hub: HubClient;
  actions: ActionExecutor;
  store: Store;
  bus: Bus;
}

const activateBody = v.object({ name: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty')) }, objectMessage);

const captureBody = v.object(
  {
    name: nameSchema,
    description: descriptionSchema,
    entities: v.pipe(
      v.array(v.string('must be an entity id'), 'must be a list of entity ids'),
      v.minLength(1, 'must hold at least one entity'),
      v.maxLength(MAX_ITEMS, `must hold at most ${MAX_ITEMS} entities`),
    ),
  },
  objectMessage,
);

const location = (s: Scene) => ({ Location: `/api/scene/${s.id}` });

export function registerSceneRoutes(ctx: AppContext, deps: SceneDeps): void {
  const { hub, actions, store, bus } = deps;

  const find = (segment: string | undefined, field = 'scene_name'): Scene => {
    const key = keyFromPath(segment, field);
    const scene = store.scenes.get(key);
    if (!scene) throw notFound(`No scene ${key}`, { scene: key });
    return scene;
  };

  /** POST /api/scene and POST /api/scene/capture store the same way. */
  const store201 = (req: ApiRequest, input: SceneInput) => {
    if (flag(req.query, 'replace')) {
      const { scene, created } = store.scenes.put(input);
      return reply(created ? 201 : 200, scene, location(scene));
    }
    const scene = store.scenes.create(input);
    return reply(201, scene, location(scene));
  };

  const activate = async (scene: Scene, req: ApiRequest) => {
    const batch = await runBatch(actions, hub.isConnected, scene.actions);
    const status = batchStatus(batch, `scene ${scene.id}`);
    const failed = batch.results.filter((r) => r.status === 'failed').length;
    bus.emit(
      'event',
      serviceEvent(
        'scene_activated',
        {
          scene_id: scene.id,
          name: scene.name,
          success: failed === 0,
          completed: batch.results.length - failed,
          failed,
          entity_ids: [...new Set(scene.actions.map((a) => a.entity_id))],
        },
        req.principal?.sub ?? null,
      ),
    );
    return reply(status, { success: failed === 0, scene: scene.id, name: scene.name, results: batch.results });
  };

  ctx.routes.add({
    method: 'GET',
    path: '/api/scenes',
    summary: 'All stored scenes',
    handler: () => ({ scenes: store.scenes.list() }),
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/scene',
    summary: 'Store a scene {name, description?, actions}; 409 when its key exists unless ?replace=true; ?allow_unknown=true admits entities the hub does not know',
    handler: (req) => store201(req, sceneFromBody(actions, hub.services, req.body, { allowUnknownEntity: flag(req.query, 'allow_unknown') })),
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/scene/capture',
    summary: "Store the current states of {entities} as a scene {name, description?}; ?replace=true replaces",
    handler: (req) => {
      const b = parseAt(captureBody, req.body ?? {}, '');
      requireHubKnown(hub.services);
      // Stale states would make a scene of how things were, not how they are.
      if (!hub.isConnected) throw hubUnavailable('The hub is not connected, so current states are unknown');
      const out: SceneAction[] = [];
      [...new Set(b.entities)].forEach((raw, i) => {
        const at = `entities.${i}`;
        const id = checkEntityId(raw, at);
        const state = hub.cache.get(id);
        if (!state) {
          const e = actions.unknownEntity(id);
          throw new AppError(e.code, e.status, `${at}: ${e.message}`, { ...e.details, at });
        }
        for (const a of captureEntity(state, hub.services[domainOf(id)], at)) {
          checkAction(actions, a, at, false);
          out.push(a);
        }
      });
      if (out.length > MAX_ITEMS) throw invalidParameters(`entities: the capture needs ${out.length} actions, more than the ${MAX_ITEMS} a scene may hold`, { field: 'entities' });
      return store201(req, { id: keyOf(b.name), name: b.name, description: b.description ?? null, actions: out });
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/scene/activate',
    summary: 'Activate the scene {name} (a name or its key)',
    handler: (req) => activate(find(parseAt(activateBody, req.body ?? {}, '').name, 'name'), req),
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/scene/:scene_name',
    summary: 'One stored scene',
    handler: (req) => find(req.params.scene_name),
  });

  ctx.routes.add({
    method: 'PUT',
    path: '/api/scene/:scene_name',
    summary: 'Replace a stored scene {name?, description?, actions}; the name may change only within the same key',
    handler: (req) => {
      const current = find(req.params.scene_name);
      const input = sceneFromBody(actions, hub.services, req.body, { allowUnknownEntity: flag(req.query, 'allow_unknown'), fallbackName: current.name });
      if (input.id !== current.id) {
        throw invalidParameters(`name: its key ${input.id} differs from ${current.id}; to rename, create the new scene and delete this one`, { field: 'name' });
      }
      const scene = store.scenes.replace(input);
      if (!scene) throw notFound(`No scene ${current.id}`, { scene: current.id });
      return scene;
    },
  });

  ctx.routes.add({
    method: 'DELETE',
    path: '/api/scene/:scene_name',
    summary: 'Delete a stored scene',
    handler: (req) => {
      const key = keyFromPath(req.params.scene_name, 'scene_name');
      if (!store.scenes.delete(key)) throw notFound(`No scene ${key}`, { scene: key });
      return { success: true, deleted: key };
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/scene/:scene_name/activate',
    summary: 'Activate a stored scene: entities in parallel, one entity in order; 200 all done, 207 some failed',
    handler: (req) => activate(find(req.params.scene_name), req),
  });
}
