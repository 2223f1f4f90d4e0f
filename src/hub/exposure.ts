// Which entities the hub exposes to its own assistant (Assist, "conversation"), for the setting
// that keeps tools to those (TOOLS_EXPOSED_ONLY). Home Assistant keeps an explicit choice per
// entity and decides the rest by a default rule, which is repeated here as its source has it
// (homeassistant/components/homeassistant/exposed_entities.py, 2024.3): exposed when new entities
// are exposed at all, the entity is neither a config/diagnostic entity nor hidden, and its domain
// is one of DEFAULT_DOMAINS, or it is a binary sensor or sensor of the listed device classes.
import { HUB_CONNECTED, type Bus } from '../bus.js';
import type { HubEvent } from './types.js';
import { domainOf } from './entity-id.js';
import { MSG } from './protocol.js';
import type { HubClient } from './client.js';
import type { Logger } from '../log.js';

const ASSISTANT = 'conversation';
const DEFAULT_DOMAINS = new Set(['climate', 'cover', 'fan', 'humidifier', 'light', 'lock', 'scene', 'script', 'switch', 'todo', 'vacuum', 'water_heater']);
const BINARY_SENSOR_CLASSES = new Set(['door', 'garage_door', 'lock', 'motion', 'opening', 'presence', 'window']);
const SENSOR_CLASSES = new Set(['aqi', 'carbon_monoxide', 'carbon_dioxide', 'humidity', 'pm10', 'pm25', 'temperature', 'volatile_organic_compounds']);
const REFRESH_MS = 30_000;

export class Exposure {
  private explicit = new Map<string, boolean>();
  private exposeNew = true;
  /** False until the hub answered once (or when it refuses: then nothing counts as exposed). */
  private known = false;
  private timer?: NodeJS.Timeout;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly hub: HubClient,
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.bus.on('event', this.onEvent);
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    this.bus.off('event', this.onEvent);
    clearInterval(this.timer);
  }

  private readonly onEvent = (e: HubEvent) => {
    if (e.event_type === HUB_CONNECTED || e.event_type === 'entity_registry_updated') void this.refresh();
  };

  /** Hears when the hub's choices changed what is exposed; returns how to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private signature(): string {
    return `${this.known}|${this.exposeNew}|${[...this.explicit].map(([id, on]) => `${id}=${on}`).sort().join(',')}`;
  }

  /** Reads the hub's choices; a hub that refuses (not an admin's token, too old) exposes nothing. */
  async refresh(): Promise<void> {
    const before = this.signature();
    await this.load();
    if (this.signature() !== before) for (const l of [...this.listeners]) l();
  }

  private async load(): Promise<void> {
    try {
      const [list, fresh] = await Promise.all([
        this.hub.command<{ exposed_entities: Record<string, Record<string, boolean>> }>({ type: MSG.exposedEntitiesList }),
        this.hub.command<{ expose_new: boolean }>({ type: MSG.exposeNewEntitiesGet, assistant: ASSISTANT }),
      ]);
      const explicit = new Map<string, boolean>();
      for (const [id, settings] of Object.entries(list.exposed_entities)) if (typeof settings[ASSISTANT] === 'boolean') explicit.set(id, settings[ASSISTANT]);
      this.explicit = explicit;
      this.exposeNew = fresh.expose_new;
      this.known = true;
    } catch (err) {
      if (this.known) this.log.warn({ err: (err as Error).message }, 'reading which entities Home Assistant exposes failed; none count as exposed until it works');
      this.known = false;
    }
  }

  /** Whether the hub exposes this entity to its own assistant. */
  isExposed(entityId: string): boolean {
    if (!this.known) return false;
    const choice = this.explicit.get(entityId);
    if (choice !== undefined) return choice;
    if (!this.exposeNew) return false;
    const entry = this.hub.registries.entities.get(entityId);
    if (entry && (entry.entity_category || entry.hidden_by)) return false;
    const domain = domainOf(entityId);
    if (DEFAULT_DOMAINS.has(domain)) return true;
    const deviceClass = this.hub.cache.get(entityId)?.attributes.device_class;
    if (domain === 'binary_sensor') return BINARY_SENSOR_CLASSES.has(String(deviceClass));
    if (domain === 'sensor') return SENSOR_CLASSES.has(String(deviceClass));
    return false;
  }
}
