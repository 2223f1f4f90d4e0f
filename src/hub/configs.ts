// What Home Assistant's scripts, automations and scenes do, as it loaded them: read once per item
// and kept until Home Assistant reloads them (its reload events and reload calls, an item added or
// removed) or the bridge edits one, so judging an action's effects does not ask the hub each time.
// Scripts and automations come from the WebSocket commands script/config and automation/config;
// a scene made in the UI carries its config id, and its states come from the REST config view.
import type { Bus } from '../bus.js';
import { AppError } from '../errors.js';
import type { HubReader, HubRestReader } from './reader.js';
import type { HubEvent } from './types.js';

export type ConfigDomain = 'script' | 'automation' | 'scene';
export type ItemConfig = Record<string, unknown>;

export interface ConfigSource {
  /** Resolves null when the hub has no config for the entity (a YAML scene without an id). */
  read(domain: ConfigDomain, entityId: string): Promise<ItemConfig | null>;
}

/** Events after which every kept config is dropped. */
const RELOADS = new Set(['automation_reloaded', 'script_reloaded', 'scene_reloaded', 'core_config_updated']);
const DOMAINS: ReadonlySet<string> = new Set(['script', 'automation', 'scene']);

export const configDomainOf = (entityId: string): ConfigDomain | undefined => {
  const d = entityId.slice(0, entityId.indexOf('.'));
  return DOMAINS.has(d) ? (d as ConfigDomain) : undefined;
};

interface Kept {
  config: ItemConfig | null;
  /** Why it could not be read, when it could not. */
  error?: string;
}

export class HubConfigs {
  private readonly kept = new Map<string, Kept>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Bumped on every drop, so a read that started before it is not kept. */
  private generation = 0;

  constructor(
    private readonly source: ConfigSource,
    bus?: Bus,
  ) {
    bus?.on('event', (e) => this.onEvent(e));
  }

  /** The config as loaded, null when the hub has none, undefined when not read (yet, or it failed: see errorOf). */
  get(entityId: string): ItemConfig | null | undefined {
    const k = this.kept.get(entityId);
    return k && !k.error ? k.config : undefined;
  }

  /** Why the config could not be read, after a failed read. */
  errorOf(entityId: string): string | undefined {
    return this.kept.get(entityId)?.error;
  }

  /** Reads the configs not kept yet (failed reads are tried again). */
  async load(entityIds: Iterable<string>): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const id of new Set(entityIds)) {
      const domain = configDomainOf(id);
      if (!domain) continue;
      const k = this.kept.get(id);
      if (k && !k.error) continue;
      let p = this.loading.get(id);
      if (!p) {
        const generation = this.generation;
        p = this.source
          .read(domain, id)
          .then(
            (config) => ({ config }),
            (err: unknown) => ({ config: null, error: err instanceof Error ? err.message : String(err) }),
          )
          .then((k2: Kept) => {
            if (generation === this.generation) this.kept.set(id, k2);
          })
          .finally(() => this.loading.delete(id));
        this.loading.set(id, p);
      }
      waits.push(p);
    }
    await Promise.all(waits);
  }

  /** Drops one item's config (the bridge changed it), or all of them. */
  invalidate(entityId?: string): void {
    this.generation++;
    if (entityId === undefined) this.kept.clear();
    else this.kept.delete(entityId);
  }

  private onEvent(e: HubEvent): void {
    if (RELOADS.has(e.event_type)) return this.invalidate();
    const d = e.data as Record<string, unknown>;
    if (e.event_type === 'call_service') {
      const service = String(d.service ?? '');
      if ((DOMAINS.has(String(d.domain)) || d.domain === 'homeassistant') && service.startsWith('reload')) this.invalidate();
      // scene.create makes or replaces a scene of its own.
      if (d.domain === 'scene' && service === 'create') this.invalidate();
      return;
    }
    if (e.event_type === 'state_changed') {
      const id = String(d.entity_id ?? '');
      if (!configDomainOf(id)) return;
      const before = d.old_state as { attributes?: Record<string, unknown> } | null;
      const after = d.new_state as { attributes?: Record<string, unknown> } | null;
      // Added, removed, or a scene whose members changed: what it does may have changed.
      if (
        !before ||
        !after ||
        JSON.stringify(before.attributes?.entity_id) !== JSON.stringify(after.attributes?.entity_id) ||
        before.attributes?.id !== after.attributes?.id
      ) {
        this.invalidate(id);
      }
    }
  }
}

/** Reads configs from the hub: script/config and automation/config, and a UI scene's REST config view. */
export function hubConfigSource(hub: HubReader, rest: HubRestReader | undefined): ConfigSource {
  return {
    async read(domain, entityId) {
      if (domain === 'scene') {
        const id = hub.cache.get(entityId)?.attributes.id;
        if (typeof id !== 'string' || !rest) return null;
        const r = await rest.get(`/api/config/scene/config/${encodeURIComponent(id)}`);
        if (r.status === 404) return null;
        if (r.status !== 200 || typeof r.json !== 'object' || r.json === null)
          throw new Error(`Home Assistant answered ${r.status} when asked for scene ${id}`);
        return r.json as ItemConfig;
      }
      try {
        const r = await hub.query<{ config: ItemConfig | null }>(`${domain}/config`, { entity_id: entityId });
        return r.config ?? null;
      } catch (err) {
        if (err instanceof AppError && err.details.hub_code === 'not_found') return null;
        throw err;
      }
    },
  };
}
