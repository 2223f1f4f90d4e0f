// Scenes made in Home Assistant's scene editor (scenes.yaml, a list by id), as 2026.11 keeps them:
// the config view (GET /api/config/scene/config/<id>) answers the stored item {id, name,
// entities}; writing one reloads the scenes (scene.reload), which makes or updates each scene's
// entity (scene.<name as a slug>, attributes `id` and `entity_id` listing its members) and fires
// scene_reloaded. The demo home's scenes count as made in the editor (each carries an id).
import type { Hub } from '../hub.js';
import { isPlainObject } from '../schema.js';
import { slugify } from './validate.js';

type Config = Record<string, unknown>;
const copy = <T>(x: T): T => structuredClone(x);

export class UiScenes {
  private readonly items: Config[] = [];

  constructor(private readonly hub: Hub) {}

  /** The home's own scenes become stored items. */
  seed(): void {
    for (const s of this.hub.states.all('scene')) {
      const id = s.attributes.id;
      if (typeof id !== 'string') continue;
      const config = this.hub.entityConfig(s.entityId);
      this.items.push({ id, name: String(s.attributes.friendly_name ?? id), entities: copy(isPlainObject(config.entities) ? config.entities : {}) });
    }
  }

  get(id: string): Config | undefined {
    return this.items.find((i) => i.id === id);
  }

  write(id: string, value: Config): void {
    const item = { ...copy(value), id };
    const i = this.items.findIndex((x) => x.id === id);
    if (i >= 0) this.items[i] = item;
    else this.items.push(item);
  }

  delete(id: string): boolean {
    const i = this.items.findIndex((x) => x.id === id);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }

  private entityOf(id: string): string | undefined {
    return this.hub.states.all('scene').find((s) => s.attributes.id === id)?.entityId;
  }

  /** scene.reload: every stored scene's entity made again; scenes no longer stored go away. */
  reload(): void {
    const hub = this.hub;
    for (const s of hub.states.all('scene')) {
      const id = s.attributes.id;
      if (typeof id === 'string' && !this.get(id)) {
        hub.removeEntity(s.entityId);
        hub.bus.fire('entity_registry_updated', { action: 'remove', entity_id: s.entityId });
      }
    }
    for (const item of this.items) {
      const id = String(item.id);
      const name = typeof item.name === 'string' && item.name ? item.name : id;
      const entities = isPlainObject(item.entities) ? copy(item.entities) : {};
      const existing = this.entityOf(id);
      const entityId = existing ?? `scene.${slugify(name)}`;
      if (existing) {
        const stored = hub.entityConfig(entityId);
        stored.entities = entities;
        const s = hub.states.get(entityId)!;
        hub.states.set(entityId, s.state, { ...s.attributes, entity_id: Object.keys(entities), friendly_name: name });
      } else {
        hub.addEntity({ entity_id: entityId, name, config: { entities }, attributes: { id }, platform: 'homeassistant', unique_id: id });
        hub.bus.fire('entity_registry_updated', { action: 'create', entity_id: entityId });
      }
    }
    hub.bus.fire('scene_reloaded', {});
  }
}
