// What a scene can do: store (create, put, replace), read, list, capture, delete and activate.
// Plain inputs and a principal in, plain results or the project's errors out; no HTTP here, so
// the REST routes, MCP tools, WebSocket messages and the command planner all share these rules.
import * as v from 'valibot';
import { batchStatus, runBatch, type ActionResult } from '../actions/batch.js';
import { checkEntityId, type ActionExecutor } from '../actions/executor.js';
import { actingUserId } from '../auth/tokens.js';
import { serviceEvent, type Bus } from '../bus.js';
import { AppError, hubUnavailable, invalidParameters, notFound } from '../errors.js';
import type { HubReader } from '../hub/reader.js';
import { domainOf } from '../hub/entity-id.js';
import type { Store } from '../store/index.js';
import { descriptionSchema, keyFromPath, keyOf, MAX_ITEMS, nameSchema, refuseKeyClash } from '../store/names.js';
import type { Scene, SceneAction, SceneInput } from '../store/scenes.js';
import type { Caller, Policy } from '../policy/policy.js';

export type { Scene };
import { captureEntity } from './capture.js';
import { checkAction, normaliseAction } from './normalise.js';
import { requireHubReached } from '../hub/reached.js';

/** A scene as a client defines it; actions in either accepted shape, checked one by one. */
export const sceneSchema = v.object({
  name: nameSchema,
  description: descriptionSchema,
  actions: v.pipe(
    v.array(v.unknown(), 'must be a list of actions'),
    v.minLength(1, 'must hold at least one action'),
    v.maxLength(MAX_ITEMS, `must hold at most ${MAX_ITEMS} actions`),
  ),
});
export type SceneDefinition = v.InferOutput<typeof sceneSchema>;

/** PUT may leave the name out: the stored one stays. */
export const sceneUpdateSchema = v.object({ ...sceneSchema.entries, name: v.optional(nameSchema) });
export type SceneUpdate = v.InferOutput<typeof sceneUpdateSchema>;

export const captureSchema = v.object({
  name: nameSchema,
  description: descriptionSchema,
  entities: v.pipe(
    v.array(v.string('must be an entity id'), 'must be a list of entity ids'),
    v.minLength(1, 'must hold at least one entity'),
    v.maxLength(MAX_ITEMS, `must hold at most ${MAX_ITEMS} entities`),
  ),
});
export type CaptureDefinition = v.InferOutput<typeof captureSchema>;

export const activateSchema = v.object({
  name: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty')),
  confirm: v.optional(v.boolean('must be true or false')),
});

export interface SaveOptions {
  /** Replace a scene with the same key instead of refusing it (409). */
  replace?: boolean;
  /** Admit entities the hub does not know (yet). */
  allowUnknown?: boolean;
}

export interface Saved {
  scene: Scene;
  created: boolean;
}

export interface Activation {
  /** True when every action completed; false when some failed (when none completes, activate throws). */
  success: boolean;
  scene: string;
  name: string;
  results: ActionResult[];
}

export interface SceneDeps {
  hub: HubReader;
  actions: ActionExecutor;
  policy: Policy;
  store: Store;
  bus: Bus;
}

/** The first refusal's code and status, with every refused entity in the message and details. */
function captureRefused(refused: { at: string; error: AppError }[]): AppError {
  const first = refused[0]!.error;
  const list = refused.map(({ at, error }) => ({
    at,
    entity_id: (error.details.entity_id as string | undefined) ?? null,
    code: error.code,
    message: error.message,
  }));
  const named = refused.slice(1, 10).map((r) => r.error.message);
  const rest = refused.length > 10 ? `; and ${refused.length - 10} more (see details.refused)` : '';
  const more = refused.length > 1 ? `; ${refused.length - 1} more refused: ${named.join('; ')}${rest}` : '';
  return new AppError(first.code, first.status, `${first.message}${more}`, { ...first.details, refused: list });
}

export class SceneService {
  constructor(private readonly deps: SceneDeps) {}

  list(): Scene[] {
    return this.deps.store.scenes.list();
  }

  /** A scene by name or key; 404 when there is none. `field` names where the name came from. */
  get(nameOrKey: string | undefined, field = 'scene_name'): Scene {
    const key = keyFromPath(nameOrKey, field);
    const scene = this.deps.store.scenes.get(key);
    if (!scene) throw notFound(`No scene ${key}`, { scene: key });
    return scene;
  }

  create(def: SceneDefinition, caller: Caller, opts: SaveOptions = {}): Saved {
    this.deps.policy.authorizeWrite(caller, 'storing a scene');
    return this.save(this.toInput(def, opts), opts);
  }

  /** Replaces an existing scene; the name may change only within the same key. */
  replace(nameOrKey: string | undefined, def: SceneUpdate, caller: Caller, opts: SaveOptions = {}): Scene {
    this.deps.policy.authorizeWrite(caller, 'changing a scene');
    const current = this.get(nameOrKey);
    const input = this.toInput({ ...def, name: def.name ?? current.name }, opts);
    if (input.id !== current.id) {
      throw invalidParameters(`name: its key ${input.id} differs from ${current.id}; to rename, create the new scene and delete this one`, { field: 'name' });
    }
    const scene = this.deps.store.scenes.replace(input);
    if (!scene) throw notFound(`No scene ${current.id}`, { scene: current.id });
    return scene;
  }

  /** Stores the current states of entities as a scene. */
  capture(def: CaptureDefinition, caller: Caller, opts: SaveOptions = {}): Saved {
    this.deps.policy.authorizeWrite(caller, 'storing a scene');
    const { hub, actions } = this.deps;
    requireHubReached(hub);
    // Stale states would make a scene of how things were, not how they are.
    if (!hub.isConnected) throw hubUnavailable('The hub is not connected, so current states are unknown');
    const out: SceneAction[] = [];
    // Every entity is looked at, so one answer names all that cannot be captured, not only the first.
    const refused: { at: string; error: AppError }[] = [];
    [...new Set(def.entities)].forEach((raw, i) => {
      const at = `entities.${i}`;
      try {
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
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        refused.push({ at, error: err });
      }
    });
    if (refused.length) throw captureRefused(refused);
    if (out.length > MAX_ITEMS)
      throw invalidParameters(`entities: the capture needs ${out.length} actions, more than the ${MAX_ITEMS} a scene may hold`, { field: 'entities' });
    return this.save({ id: keyOf(def.name), name: def.name, description: def.description ?? null, actions: out }, opts);
  }

  /** Deletes a scene by name or key and answers its key. */
  delete(nameOrKey: string | undefined, caller: Caller): string {
    this.deps.policy.authorizeWrite(caller, 'deleting a scene');
    const key = keyFromPath(nameOrKey, 'scene_name');
    if (!this.deps.store.scenes.delete(key)) throw notFound(`No scene ${key}`, { scene: key });
    return key;
  }

  /**
   * Runs a scene: entities in parallel, one entity's actions in order. Emits scene_activated.
   * Throws the first failure (with every result in details) when no action completed.
   */
  async activate(nameOrKey: string | undefined, caller: Caller, field = 'scene_name'): Promise<Activation> {
    const { hub, actions, bus } = this.deps;
    const scene = this.get(nameOrKey, field);
    const batch = await runBatch(actions, hub.isConnected, scene.actions, caller);
    batchStatus(batch, `scene ${scene.id}`);
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
        caller.principal ? actingUserId(caller.principal) : null,
      ),
    );
    return { success: failed === 0, scene: scene.id, name: scene.name, results: batch.results };
  }

  private toInput(def: SceneDefinition, opts: SaveOptions): SceneInput {
    const { hub, actions } = this.deps;
    requireHubReached(hub);
    const list = def.actions.map((item, i) => {
      const at = `actions.${i}`;
      const a = normaliseAction(item, at);
      checkAction(actions, a, at, opts.allowUnknown ?? false);
      return a;
    });
    return { id: keyOf(def.name), name: def.name, description: def.description ?? null, actions: list };
  }

  private save(input: SceneInput, opts: SaveOptions): Saved {
    if (opts.replace) return this.deps.store.scenes.put(input);
    refuseKeyClash('scene', input.id, input.name, this.deps.store.scenes.get(input.id));
    return { scene: this.deps.store.scenes.create(input), created: true };
  }
}
