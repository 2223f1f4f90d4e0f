// The hub as every module but two sees it: states, registries, service descriptions, status, and
// the WebSocket commands that read without changing anything. Only the action executor and the
// config service hold the handle that acts (src/hub/acting.ts); the layers test keeps it so.
import { AppError } from '../errors.js';
import { MSG } from './protocol.js';
import type { Registries } from './registries.js';
import type { StateCache } from './state-cache.js';
import type { HubStatus } from './status.js';
import type { HubConfig, HubServices } from './types.js';

const HELPER_LISTS = [
  'input_boolean/list',
  'input_number/list',
  'input_select/list',
  'input_text/list',
  'input_datetime/list',
  'input_button/list',
  'counter/list',
  'timer/list',
] as const;

/**
 * The one list of Home Assistant WebSocket commands that read and change nothing: the only ones the
 * read-only view sends. Each answers once (no subscriptions). A command joins this list only when
 * Home Assistant's own handler writes nothing; anything else goes through the action executor.
 */
export const READ_ONLY_COMMANDS = [
  MSG.getStates,
  MSG.getConfig,
  MSG.getServices,
  MSG.currentUser,
  MSG.areaRegistryList,
  MSG.floorRegistryList,
  MSG.deviceRegistryList,
  MSG.entityRegistryList,
  MSG.labelRegistryList,
  'config/category_registry/list',
  'config/auth/list',
  MSG.exposedEntitiesList,
  MSG.exposeNewEntitiesGet,
  MSG.persistentNotificationGet,
  'automation/config',
  'script/config',
  'trace/list',
  'trace/get',
  'trace/contexts',
  'lovelace/config',
  'lovelace/dashboards/list',
  ...HELPER_LISTS,
  MSG.historyDuringPeriod,
  MSG.logbookGetEvents,
  MSG.statisticsDuringPeriod,
  'recorder/list_statistic_ids',
  'recorder/get_statistics_metadata',
  'search/related',
  'todo/item/list',
  'energy/get_prefs',
  'energy/info',
] as const;

/**
 * Commands Home Assistant answers as a subscription that read and change nothing, taken by the
 * read-only view's collect() and firstEvent() (then unsubscribed): system health's report, and a
 * calendar's events over a range (with the uids get_events leaves out).
 */
export const READ_ONLY_SUBSCRIPTIONS = ['system_health/info', 'calendar/event/subscribe'] as const;

const READ_ONLY_SUBSCRIBED = new Set<string>(READ_ONLY_SUBSCRIPTIONS);

/** Refuses a subscription the read-only view does not take. */
export function checkReadOnlySubscription(type: unknown): string {
  if (typeof type === 'string' && READ_ONLY_SUBSCRIBED.has(type)) return type;
  throw new AppError('FORBIDDEN', 403, `${String(type).slice(0, 64)} is not one of the hub's read-only subscriptions`, {
    command: typeof type === 'string' ? type.slice(0, 64) : null,
  });
}

export type ReadOnlyCommand = (typeof READ_ONLY_COMMANDS)[number];

const READ_ONLY = new Set<string>(READ_ONLY_COMMANDS);

export const isReadOnlyCommand = (type: unknown): type is ReadOnlyCommand => typeof type === 'string' && READ_ONLY.has(type);

/** Refuses a command the read-only view does not send. */
export function checkReadOnly(type: unknown): ReadOnlyCommand {
  if (isReadOnlyCommand(type)) return type;
  throw new AppError(
    'FORBIDDEN',
    403,
    `${String(type).slice(0, 64)} is not one of the hub's read-only commands; changes to the hub go through the action executor`,
    { command: typeof type === 'string' ? type.slice(0, 64) : null },
  );
}

export interface HubReader {
  readonly cache: StateCache;
  readonly registries: Registries;
  readonly services: HubServices;
  readonly config?: HubConfig;
  readonly isConnected: boolean;
  /** Connected to a hub that has not yet said it finished starting (its services may still be missing). */
  readonly isStarting: boolean;
  status(): HubStatus;
  /** Resolves once connected and synced with a hub that has finished starting. */
  ready(timeoutMs?: number): Promise<void>;
  /** A read-only WebSocket command (READ_ONLY_COMMANDS), answered with its result; any other type is refused (FORBIDDEN). */
  query<T>(type: string, payload?: Record<string, unknown>): Promise<T>;
  /** A read-only subscription (READ_ONLY_SUBSCRIPTIONS): its events until `isLast` or the time runs out, then unsubscribed. */
  collect<T>(message: { type: string; [k: string]: unknown }, isLast: (event: T) => boolean): Promise<T[]>;
  /** A read-only subscription's first event (READ_ONLY_SUBSCRIPTIONS), then unsubscribed. */
  firstEvent<T>(message: { type: string; [k: string]: unknown }): Promise<T>;
  /** Renders a template once (render_template: Home Assistant's templates read and cannot act). */
  renderTemplate(template: string, opts: { timeoutS: number; waitMs: number }): Promise<RenderedTemplate>;
}

/** An answer of Home Assistant's REST API. */
export interface RestAnswer {
  status: number;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  text: string;
}

/** Home Assistant's REST API, reads only (a UI scene's config view). */
export interface HubRestReader {
  get(path: string): Promise<RestAnswer>;
  /** A GET whose body is bytes (a camera's picture), read up to `limit`. */
  getBytes(path: string, limit: number): Promise<BytesAnswer>;
}

/** One rendering of a template: its result and what it read (`listeners`), or the hub's error. */
export interface RenderedTemplate {
  result?: unknown;
  /** What the template read: every state (`all`), whole domains, single entities, the time. */
  listeners?: { all?: boolean; entities?: string[]; domains?: string[]; time?: boolean };
  error?: string;
  warnings: string[];
}

export interface BytesAnswer {
  status: number;
  contentType: string;
  /** Bytes read (more than the limit when it stopped there). */
  size: number;
  /** The body; undefined when it was larger than the limit. */
  bytes: Buffer | undefined;
}
