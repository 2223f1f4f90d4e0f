// Home Assistant's WebSocket API by name: the message types, Home Assistant's error codes, and the
// error numbers of home-assistant-js-websocket. The hub client and the simulator both use these,
// so a name is spelled once.

/** Message types, as the `type` field carries them. */
export const MSG = {
  authRequired: 'auth_required',
  auth: 'auth',
  authOk: 'auth_ok',
  authInvalid: 'auth_invalid',
  supportedFeatures: 'supported_features',
  result: 'result',
  event: 'event',
  ping: 'ping',
  pong: 'pong',
  getStates: 'get_states',
  getConfig: 'get_config',
  getServices: 'get_services',
  callService: 'call_service',
  subscribeEvents: 'subscribe_events',
  subscribeEntities: 'subscribe_entities',
  unsubscribeEvents: 'unsubscribe_events',
  fireEvent: 'fire_event',
  renderTemplate: 'render_template',
  currentUser: 'auth/current_user',
  areaRegistryList: 'config/area_registry/list',
  floorRegistryList: 'config/floor_registry/list',
  deviceRegistryList: 'config/device_registry/list',
  entityRegistryList: 'config/entity_registry/list',
  exposeEntity: 'homeassistant/expose_entity',
  exposedEntitiesList: 'homeassistant/expose_entity/list',
  exposeNewEntitiesGet: 'homeassistant/expose_new_entities/get',
  labelRegistryList: 'config/label_registry/list',
  persistentNotificationGet: 'persistent_notification/get',
  persistentNotificationSubscribe: 'persistent_notification/subscribe',
  historyDuringPeriod: 'history/history_during_period',
  logbookGetEvents: 'logbook/get_events',
  statisticsDuringPeriod: 'recorder/statistics_during_period',
  importStatistics: 'recorder/import_statistics',
} as const;

export type MessageType = (typeof MSG)[keyof typeof MSG];

/** The `code` of a failed result, as Home Assistant sends it. */
export const HA_ERROR = {
  notFound: 'not_found',
  invalidFormat: 'invalid_format',
  homeAssistantError: 'home_assistant_error',
  serviceValidationError: 'service_validation_error',
  unauthorized: 'unauthorized',
  unknownCommand: 'unknown_command',
  unknownError: 'unknown_error',
  idReuse: 'id_reuse',
} as const;

export type HaErrorCode = (typeof HA_ERROR)[keyof typeof HA_ERROR];

/** What get_config's `state` says once the hub has finished starting. */
export const HUB_RUNNING = 'RUNNING';

/** Event types the bridge reacts to. */
export const EVENT = {
  stateChanged: 'state_changed',
  /** Home Assistant finished starting: every integration is set up, every service registered. */
  homeassistantStarted: 'homeassistant_started',
  serviceRegistered: 'service_registered',
  serviceRemoved: 'service_removed',
  areaRegistryUpdated: 'area_registry_updated',
  floorRegistryUpdated: 'floor_registry_updated',
  deviceRegistryUpdated: 'device_registry_updated',
  entityRegistryUpdated: 'entity_registry_updated',
  labelRegistryUpdated: 'label_registry_updated',
} as const;

/** The library rejects with these numbers (or errors carrying them) rather than HA's codes. */
export { ERR_CANNOT_CONNECT, ERR_CONNECTION_LOST, ERR_INVALID_AUTH } from 'home-assistant-js-websocket';

/** The keys of a service call's target, in the order Home Assistant lists them. */
export const TARGET_KEYS = ['entity_id', 'device_id', 'area_id', 'floor_id', 'label_id'] as const;
export type TargetKey = (typeof TARGET_KEYS)[number];

/** `entity_id: all` and `...: none`, which Home Assistant takes in place of ids. */
export const MATCH_ALL = 'all';
export const MATCH_NONE = 'none';

/** The first release whose service calls take floor_id and label_id targets. */
export const FLOOR_LABEL_TARGETS_SINCE = '2024.4';

/** Whether a hub version ("2024.3.3", "2025.1.0.dev0") is `since` ("2024.4") or newer; unknown versions count as new. */
export function versionAtLeast(version: string | undefined, since: string): boolean {
  const parse = (v: string) =>
    v
      .split('.')
      .slice(0, 3)
      .map((p) => Number.parseInt(p, 10));
  const have = parse(version ?? '');
  if (have.length < 2 || have.some((n) => Number.isNaN(n))) return true;
  const want = parse(since);
  for (let i = 0; i < want.length; i++) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}
