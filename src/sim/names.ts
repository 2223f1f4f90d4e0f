// Home Assistant's WebSocket API by name, as the simulator answers it: the message types it sends
// and handles, and the `code` of a failed result. The simulator plays Home Assistant, so it keeps
// its own copy rather than borrowing its client's (src/hub/protocol.ts); a unit test checks the two
// spell every shared name alike.

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

/** The `code` of a failed result (homeassistant/components/websocket_api/const.py). */
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
