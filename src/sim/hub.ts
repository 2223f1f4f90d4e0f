// The simulated hub itself, apart from any network: event bus, state machine, registries,
// services and the domain behaviour behind them. A server (server.ts) exposes it; stopping the
// server leaves the hub and its states in place, so a restart finds the same home.
import { Bus } from './bus.js';
import { Context } from './context.js';
import type { DomainModule, EntitySeed } from './domain.js';
import { finish, nameFromObjectId } from './domain.js';
import { DOMAIN_MODULES } from './domains/index.js';
import type { Home, HomeEntity } from './home.js';
import { Recorder } from './recorder.js';
import { Registries } from './registries.js';
import { ServiceRegistry } from './services.js';
import type { ErrorStyle } from './schema.js';
import { StateMachine, splitEntityId } from './states.js';
import { hexId, isoFromMicros, nowMicros } from './time.js';
import { SINCE, atLeast } from './version.js';

/** Simulated durations. 0 makes a transition settle within the service call. */
export interface Timing {
  /** Cover travel: opening/closing, then open/closed. */
  coverTravelMs: number;
  /** Lock motor: locking/unlocking, then locked/unlocked (0: no transitional state). */
  lockMs: number;
  /** Vacuum returning to the dock. */
  vacuumReturnMs: number;
  /** Alarm panel arming delay (0: armed at once). */
  alarmArmingMs: number;
  /** Alarm panel entry delay before triggered (0: triggered at once). */
  alarmPendingMs: number;
  /** How long the panel stays triggered before returning to its armed state (0: until disarmed). */
  alarmTriggerMs: number;
  /** homeassistant.restart: how long the hub is away (no listener) before it starts again. */
  restartMs: number;
  /** backup/generate: how long the backup integration takes to make a backup. */
  backupMs: number;
}

export const DEFAULT_TIMING: Timing = {
  coverTravelMs: 300,
  lockMs: 0,
  vacuumReturnMs: 300,
  alarmArmingMs: 0,
  alarmPendingMs: 0,
  alarmTriggerMs: 0,
  restartMs: 300,
  backupMs: 200,
};

/** What the simulator needs of a logger; a pino logger fits. */
export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

const SILENT: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export interface HubOptions {
  home: Home;
  version: string;
  legacy: boolean;
  timing?: Partial<Timing>;
  logger?: Logger;
}

export interface PersistentNotification {
  notification_id: string;
  title: string | null;
  message: string;
  created_at: string;
}

export type NotificationUpdate = 'added' | 'removed' | 'updated';

export interface NotifyMessage {
  service: string;
  message: string;
  title: string | null;
  target: unknown;
  data: unknown;
  time: string;
}

const UNIT_SYSTEMS = {
  metric: {
    length: 'km',
    accumulated_precipitation: 'mm',
    area: 'm²',
    mass: 'g',
    pressure: 'Pa',
    temperature: '°C',
    volume: 'L',
    wind_speed: 'm/s',
  },
  us_customary: {
    length: 'mi',
    accumulated_precipitation: 'in',
    area: 'ft²',
    mass: 'lb',
    pressure: 'psi',
    temperature: '°F',
    volume: 'gal',
    wind_speed: 'mph',
  },
} as const;

const DEFAULT_EXPOSED_DOMAINS_2024 = new Set([
  'climate',
  'cover',
  'fan',
  'humidifier',
  'light',
  'lock',
  'scene',
  'script',
  'switch',
  'todo',
  'vacuum',
  'water_heater',
]);
const DEFAULT_EXPOSED_DOMAINS_2026 = new Set([
  'climate',
  'cover',
  'fan',
  'humidifier',
  'light',
  'media_player',
  'scene',
  'switch',
  'todo',
  'vacuum',
  'water_heater',
]);

/** The assistants Home Assistant lets entities be exposed to. */
export const ASSISTANTS = ['cloud.alexa', 'cloud.google_assistant', 'conversation'] as const;

export class Hub {
  readonly bus = new Bus();
  /** Entities' exposure to assistants as set explicitly (homeassistant/expose_entity). */
  readonly exposure = new Map<string, Record<string, boolean>>();
  /** Whether new entities are exposed by default, per assistant (Home Assistant: only conversation). */
  readonly exposeNew: Record<string, boolean> = { conversation: true };
  /** What get_config's state says: RUNNING unless a test makes this a hub still starting. */
  coreState: 'STARTING' | 'RUNNING' = 'RUNNING';
  /** Set by the server: homeassistant.restart asks it to go away and come back (Simulator.restartLikeHa). */
  restartRequested: (() => void) | undefined;
  readonly states: StateMachine;
  readonly recorder: Recorder;
  readonly registries: Registries;
  readonly services: ServiceRegistry;
  readonly version: string;
  readonly legacy: boolean;
  /** Floor and label registries (2024.3 on). */
  readonly hasFloors: boolean;
  readonly timing: Timing;
  readonly log: Logger;
  readonly home: Home;
  /** The one user behind the accepted token (an administrator, like a long-lived token's owner). */
  readonly user = { id: hexId(), name: 'Simulator', isAdmin: true };
  readonly notifyLog: NotifyMessage[] = [];
  readonly unitSystem: 'metric' | 'us_customary';
  private readonly modules = new Map<string, DomainModule>();
  private readonly memories = new Map<string, Record<string, unknown>>();
  private readonly configs = new Map<string, Record<string, unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly notifications = new Map<string, PersistentNotification>();
  private readonly notificationListeners = new Set<(type: NotificationUpdate, items: PersistentNotification[]) => void>();

  constructor(opts: HubOptions) {
    this.home = opts.home;
    this.version = opts.version;
    this.legacy = opts.legacy;
    this.hasFloors = atLeast(opts.version, SINCE.floorsAndLabels);
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    this.log = opts.logger ?? SILENT;
    this.unitSystem = opts.home.unit_system ?? 'metric';
    this.states = new StateMachine(this.bus, !opts.legacy);
    // Before the first states, so history holds them as the hub's recorder does.
    this.recorder = new Recorder(this, nowMicros());
    this.registries = new Registries(opts.home, opts.legacy, this.hasFloors, this.since(SINCE.current));
    this.services = new ServiceRegistry(this);
    for (const m of DOMAIN_MODULES) this.modules.set(m.domain, m);
    for (const m of DOMAIN_MODULES) m.setup?.(this);
    for (const e of opts.home.entities) this.seedEntity(e);
  }

  /**
   * Whether an entity is exposed to an assistant: its explicit setting, else the default rule
   * (exposed_entities.py) for an assistant that exposes new entities. The default domains changed
   * by 2026.11: media players in, locks out.
   */
  isExposed(assistant: string, entityId: string): boolean {
    const choice = this.exposure.get(entityId)?.[assistant];
    if (choice !== undefined) return choice;
    if (!this.exposeNew[assistant]) return false;
    const entry = this.registries.entities.get(entityId);
    if (entry && (entry.entity_category || entry.hidden_by)) return false;
    const [domain] = splitEntityId(entityId);
    const domains = this.since(SINCE.current) ? DEFAULT_EXPOSED_DOMAINS_2026 : DEFAULT_EXPOSED_DOMAINS_2024;
    if (domains.has(domain)) return true;
    const deviceClass = String(this.states.get(entityId)?.attributes.device_class ?? '');
    if (domain === 'binary_sensor') return ['door', 'garage_door', 'lock', 'motion', 'opening', 'presence', 'window'].includes(deviceClass);
    if (domain === 'sensor')
      return ['aqi', 'carbon_monoxide', 'carbon_dioxide', 'humidity', 'pm10', 'pm25', 'temperature', 'volatile_organic_compounds'].includes(deviceClass);
    return false;
  }

  /** Whether the hub's version is `version` or newer. */
  since(version: string): boolean {
    return atLeast(this.version, version);
  }

  /** How this hub words validation errors. */
  get errorStyle(): ErrorStyle {
    return this.since(SINCE.probatio) ? 'probatio' : 'voluptuous';
  }

  get temperatureUnit(): '°C' | '°F' {
    return this.unitSystem === 'us_customary' ? '°F' : '°C';
  }

  /** Writes the first state of a declared entity, with its domain's attributes. */
  private seedEntity(e: HomeEntity): void {
    const [domain, objectId] = splitEntityId(e.entity_id);
    this.configs.set(e.entity_id, { ...(e.config ?? {}) });
    const seed: EntitySeed = {
      entityId: e.entity_id,
      objectId,
      name: e.name ?? nameFromObjectId(objectId),
      state: e.state === undefined || e.state === '' ? undefined : e.state,
      attributes: { ...(e.attributes ?? {}) },
      config: this.entityConfig(e.entity_id),
    };
    const module = this.modules.get(domain);
    const init = module?.init
      ? module.init(seed, this)
      : { state: seed.state ?? (e.state === '' ? '' : 'unknown'), attributes: finish(seed.attributes, seed.name) };
    this.states.set(e.entity_id, init.state, init.attributes);
  }

  /** Adds an entity at run time (load generator, tests): registry entry plus first state. */
  addEntity(e: HomeEntity): void {
    if (!this.registries.entities.has(e.entity_id) && e.unique_id !== null) this.registries.addEntity(e);
    this.seedEntity(e);
  }

  removeEntity(entityId: string): boolean {
    this.registries.removeEntity(entityId);
    this.memories.delete(entityId);
    this.configs.delete(entityId);
    return this.states.remove(entityId);
  }

  memory(entityId: string): Record<string, unknown> {
    let m = this.memories.get(entityId);
    if (!m) {
      m = {};
      this.memories.set(entityId, m);
    }
    return m;
  }

  entityConfig(entityId: string): Record<string, unknown> {
    let c = this.configs.get(entityId);
    if (!c) {
      c = {};
      this.configs.set(entityId, c);
    }
    return c;
  }

  /** Runs fn after ms (at once when ms <= 0); every pending timer dies with dispose(). */
  after(ms: number, fn: () => void): () => void {
    if (ms <= 0) {
      fn();
      return () => {};
    }
    const t = setTimeout(() => {
      this.timers.delete(t);
      try {
        fn();
      } catch (err) {
        this.log.error(`simulator timer failed: ${(err as Error).message}`);
      }
    }, ms);
    t.unref();
    this.timers.add(t);
    return () => {
      clearTimeout(t);
      this.timers.delete(t);
    };
  }

  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  callService(
    domain: string,
    service: string,
    data?: Record<string, unknown>,
    opts: { context?: Context; target?: Record<string, unknown>; returnResponse?: boolean } = {},
  ): Promise<unknown> {
    return this.services.call(domain, service, data, { ...opts, context: opts.context ?? new Context() });
  }

  // --- persistent notifications (kept as a list, as the hub has since 2023.6) ----------------

  listNotifications(): PersistentNotification[] {
    return [...this.notifications.values()];
  }

  createNotification(message: string, title: string | null, id?: string): PersistentNotification {
    const notificationId = id ?? hexId();
    const existed = this.notifications.has(notificationId);
    const n: PersistentNotification = {
      notification_id: notificationId,
      title,
      message,
      created_at: isoFromMicros(nowMicros()),
    };
    this.notifications.set(notificationId, n);
    this.emitNotifications(existed ? 'updated' : 'added', [n]);
    return n;
  }

  dismissNotification(id: string): boolean {
    const n = this.notifications.get(id);
    if (!n) return false;
    this.notifications.delete(id);
    this.emitNotifications('removed', [n]);
    return true;
  }

  onNotifications(fn: (type: NotificationUpdate, items: PersistentNotification[]) => void): () => void {
    this.notificationListeners.add(fn);
    return () => this.notificationListeners.delete(fn);
  }

  private emitNotifications(type: NotificationUpdate, items: PersistentNotification[]): void {
    for (const fn of [...this.notificationListeners]) fn(type, items);
  }

  // --- configuration --------------------------------------------------------------------------

  /** hass.config.as_dict(): what get_config and GET /api/config return. */
  configDict(): Record<string, unknown> {
    const components = new Set<string>([
      'api',
      'auth',
      'config',
      'default_config',
      'http',
      'homeassistant',
      'onboarding',
      'persistent_notification',
      'websocket_api',
      // default_config loads the energy integration; a home may say it is not loaded.
      ...(this.home.energy === false ? [] : ['energy']),
      ...this.services.domains(),
      ...this.states.all().map((s) => s.domain),
    ]);
    const out: Record<string, unknown> = {
      allowlist_external_dirs: ['/config/www', '/media'],
      allowlist_external_urls: [],
      components: [...components].sort(),
      config_dir: '/config',
      config_source: 'storage',
      country: null,
      currency: 'EUR',
      elevation: 0,
      external_url: null,
      internal_url: null,
      language: this.home.language ?? 'en',
      latitude: 52.3731339,
      location_name: this.home.name ?? 'Home',
      longitude: 4.8903147,
      radius: 100,
      recovery_mode: false,
      safe_mode: false,
      state: this.coreState,
      time_zone: this.home.time_zone ?? 'UTC',
      unit_system: UNIT_SYSTEMS[this.unitSystem],
      version: this.version,
      whitelist_external_dirs: ['/config/www', '/media'],
    };
    if (this.since(SINCE.current)) out.logging = { log_file_disabled_reason: null };
    if (!this.legacy) out.debug = false;
    else {
      // 2024.3 has no home radius and no area unit yet.
      delete out.radius;
      const { area: _area, ...units } = UNIT_SYSTEMS[this.unitSystem];
      out.unit_system = units;
    }
    return out;
  }
}
