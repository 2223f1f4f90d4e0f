// The WebSocket commands the simulator answers, each with the message schema the hub checks
// (so a malformed command fails as it does there) and a handler. Hubs older than 2024.3 know
// no floor or label registry: those commands are then unknown.
import { HA_ERROR, MSG } from './names.js';
import { type HubEvent, MATCH_ALL } from './bus.js';
import { Context } from './context.js';
import { HomeAssistantError, ServiceNotFoundError, ServiceValidationError, UnauthorizedError, type Translation } from './errors.js';
import { ASSISTANTS, type Hub, type NotificationUpdate, type PersistentNotification } from './hub.js';
import { addRecorderCommands } from './recorder-commands.js';
import { renderTemplate } from './template.js';
import { addCalendarCommands } from './calendar-commands.js';
import { addEnergyCommands } from './energy.js';
import { entitiesInitial, eventMessage, eventMessageJson, pongMessage, stateDiffJson } from './protocol.js';
import { type KeySpec, type Validator, Invalid, all, coerceFloat, coerceInt, dict, isType, listOf, literal, mapOf, oneOf, range, string } from './schema.js';
import { targetFields } from './services.js';
import { type State, type StateChangedData, validEntityId } from './states.js';
import { SINCE } from './version.js';

export interface SimUser {
  id: string;
  name: string;
  isAdmin: boolean;
  /** The login name (null for system users such as "Supervisor"); ingress passes it to add-ons. */
  username?: string | null;
}

/** What a command handler may do with its connection. */
export interface CommandConnection {
  readonly hub: Hub;
  readonly user: SimUser;
  readonly subscriptions: Map<number, () => void>;
  send(msg: object | string): void;
  sendResult(id: number, result?: unknown): void;
  sendError(id: number, code: string, message: string, translation?: Translation): void;
  setSupportedFeatures(features: Record<string, number>): void;
}

type Msg = Record<string, unknown> & { id: number; type: string };

export interface Command {
  schema: Validator;
  admin?: boolean;
  handle(conn: CommandConnection, msg: Msg): void | Promise<void>;
}

/** Event types a non-admin user may subscribe to (the hub's SUBSCRIBE_ALLOWLIST). */
const SUBSCRIBE_ALLOWLIST = new Set([
  'area_registry_updated',
  'category_registry_updated',
  'component_loaded',
  'core_config_updated',
  'device_registry_updated',
  'entity_registry_updated',
  'floor_registry_updated',
  'label_registry_updated',
  'lovelace_updated',
  'panels_updated',
  'persistent_notifications_updated',
  'recorder_5min_statistics_generated',
  'recorder_hourly_statistics_generated',
  'repairs_issue_registry_updated',
  'service_registered',
  'service_removed',
  'shopping_list_updated',
  'state_changed',
  'themes_updated',
]);

const positiveInt = all(coerceInt, range({ min: 0 }));

/** vol.Schema({id, type, ...fields}) */
export function schema(type: string, fields: Record<string, KeySpec> = {}): Validator {
  return dict({ id: { v: positiveInt, required: true }, type: { v: literal(type), required: true }, ...fields }, 'prevent', { extraAtTop: true });
}

const entityIds: Validator = (v, path) => {
  const list = typeof v === 'string' ? v.split(',').map((s) => s.trim()) : Array.isArray(v) ? v : [v];
  return list.map((x) => {
    const id = typeof x === 'string' ? x.toLowerCase() : '';
    if (!validEntityId(id)) throw new Invalid(`Entity ID ${String(x)} is an invalid entity ID`, path);
    return id;
  });
};

const FILTER_KEYS = ['include_domains', 'include_entities', 'include_entity_globs', 'exclude_domains', 'exclude_entities', 'exclude_entity_globs'];

function globRe(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

/** A simplified include/exclude entity filter (domains, entities, globs). */
function entityFilter(msg: Msg): ((id: string) => boolean) | undefined {
  const list = (k: string) => (Array.isArray(msg[k]) ? (msg[k] as string[]) : []);
  const inc = { d: list('include_domains'), e: list('include_entities'), g: list('include_entity_globs').map(globRe) };
  const exc = { d: list('exclude_domains'), e: list('exclude_entities'), g: list('exclude_entity_globs').map(globRe) };
  const hasInclude = inc.d.length + inc.e.length + inc.g.length > 0;
  const hasExclude = exc.d.length + exc.e.length + exc.g.length > 0;
  if (!hasInclude && !hasExclude) return undefined;
  return (id) => {
    const domain = id.slice(0, id.indexOf('.'));
    if (inc.e.includes(id)) return true;
    if (exc.e.includes(id)) return false;
    if (exc.d.includes(domain) || exc.g.some((re) => re.test(id))) return false;
    if (!hasInclude) return true;
    return inc.d.includes(domain) || inc.g.some((re) => re.test(id));
  };
}

function notificationsById(items: PersistentNotification[]): Record<string, PersistentNotification> {
  return Object.fromEntries(items.map((n) => [n.notification_id, n]));
}

/** The raw JSON of a result whose payload is already serialised. */
const rawResult = (id: number, payloadJson: string) => `{"id":${id},"type":"${MSG.result}","success":true,"result":${payloadJson}}`;

function sendServiceError(conn: CommandConnection, msg: Msg, err: unknown): void {
  if (err instanceof ServiceNotFoundError) {
    if (err.domain === String(msg.domain).toLowerCase() && err.service === String(msg.service).toLowerCase()) {
      conn.sendError(msg.id, HA_ERROR.notFound, err.message, err.translation);
    } else {
      conn.sendError(
        msg.id,
        HA_ERROR.homeAssistantError,
        `Service ${err.domain}.${err.service} called service ${String(msg.domain)}.${String(msg.service)} which was not found.`,
        {
          domain: 'websocket_api',
          key: 'child_service_not_found',
          placeholders: { domain: String(msg.domain), service: String(msg.service), child_domain: err.domain, child_service: err.service },
        },
      );
    }
  } else if (err instanceof Invalid) {
    conn.sendError(msg.id, HA_ERROR.invalidFormat, err.render(conn.hub.errorStyle));
  } else if (err instanceof ServiceValidationError) {
    // 2026.11 words translated messages without their closing period.
    const message = conn.hub.since(SINCE.current) ? err.message.replace(/\.$/, '') : err.message;
    conn.sendError(msg.id, HA_ERROR.serviceValidationError, `Validation error: ${message}`, err.translation);
  } else if (err instanceof HomeAssistantError) {
    conn.sendError(msg.id, HA_ERROR.homeAssistantError, err.message, err.translation);
  } else {
    conn.sendError(msg.id, HA_ERROR.unknownError, err instanceof Error ? err.message : String(err));
  }
}

export function buildCommands(legacy: boolean, floors = !legacy): Map<string, Command> {
  const c = new Map<string, Command>();
  const add = (type: string, fields: Record<string, KeySpec>, handle: Command['handle'], admin = false) =>
    c.set(type, { schema: schema(type, fields), handle, admin });

  add(MSG.supportedFeatures, { features: { v: mapOf(isType('int')), required: true } }, (conn, msg) => {
    conn.setSupportedFeatures(msg.features as Record<string, number>);
    conn.sendResult(msg.id);
  });
  add(MSG.ping, {}, (conn, msg) => conn.send(pongMessage(msg.id)));
  add(MSG.currentUser, {}, (conn, msg) =>
    conn.sendResult(msg.id, {
      id: conn.user.id,
      name: conn.user.name,
      is_owner: conn.user.isAdmin,
      is_admin: conn.user.isAdmin,
      credentials: [{ auth_provider_type: 'homeassistant', auth_provider_id: null }],
      mfa_modules: [],
    }),
  );
  add(MSG.getStates, {}, (conn, msg) =>
    conn.send(
      rawResult(
        msg.id,
        `[${conn.hub.states
          .all()
          .map((s) => s.json)
          .join(',')}]`,
      ),
    ),
  );
  add(MSG.getConfig, {}, (conn, msg) => conn.sendResult(msg.id, conn.hub.configDict()));
  add(MSG.getServices, {}, (conn, msg) => conn.sendResult(msg.id, conn.hub.services.describe()));

  add(
    MSG.callService,
    {
      domain: { v: isType('str'), required: true },
      service: { v: isType('str'), required: true },
      target: { v: dict(targetFields(legacy)) },
      service_data: { v: isType('dict') },
      return_response: { v: isType('bool'), default: false },
    },
    async (conn, msg) => {
      const context = new Context(conn.user.id);
      try {
        const response = await conn.hub.services.call(msg.domain as string, msg.service as string, msg.service_data as Record<string, unknown> | undefined, {
          context,
          ...(msg.target ? { target: msg.target as Record<string, unknown> } : {}),
          returnResponse: msg.return_response === true,
        });
        conn.sendResult(msg.id, msg.return_response === true ? { context, response } : { context });
      } catch (err) {
        sendServiceError(conn, msg, err);
      }
    },
  );

  add(MSG.subscribeEvents, { event_type: { v: isType('str'), default: MATCH_ALL } }, (conn, msg) => {
    const eventType = msg.event_type as string;
    if (!conn.user.isAdmin && !SUBSCRIBE_ALLOWLIST.has(eventType)) throw new UnauthorizedError();
    const id = msg.id;
    conn.subscriptions.set(
      id,
      conn.hub.bus.listen(eventType, (event: HubEvent) => conn.send(eventMessageJson(id, event.json))),
    );
    conn.sendResult(id);
  });

  add(
    MSG.subscribeEntities,
    Object.fromEntries([['entity_ids', { v: entityIds }], ...FILTER_KEYS.map((k) => [k, { v: listOf(string), default: [] }])]),
    (conn, msg) => {
      const id = msg.id;
      const wanted = Array.isArray(msg.entity_ids) && msg.entity_ids.length ? new Set(msg.entity_ids as string[]) : undefined;
      const filter = entityFilter(msg);
      const matches = (entityId: string) => (!wanted || wanted.has(entityId)) && (!filter || filter(entityId));
      // No await between the snapshot and the listener, so no change can slip between them.
      const states: State[] = conn.hub.states.all().filter((s) => matches(s.entityId));
      conn.subscriptions.set(
        id,
        conn.hub.bus.listen('state_changed', (event: HubEvent<StateChangedData>) => {
          if (matches(event.data.entity_id)) conn.send(eventMessageJson(id, stateDiffJson(event)));
        }),
      );
      conn.sendResult(id);
      conn.send(eventMessageJson(id, JSON.stringify(entitiesInitial(states))));
    },
  );

  add(MSG.unsubscribeEvents, { subscription: { v: positiveInt, required: true } }, (conn, msg) => {
    const sub = msg.subscription as number;
    const unsub = conn.subscriptions.get(sub);
    if (!unsub) {
      conn.sendError(msg.id, HA_ERROR.notFound, 'Subscription not found.');
      return;
    }
    conn.subscriptions.delete(sub);
    unsub();
    conn.sendResult(msg.id);
  });

  add(
    MSG.fireEvent,
    { event_type: { v: isType('str'), required: true }, event_data: { v: isType('dict') } },
    (conn, msg) => {
      const context = new Context(conn.user.id);
      conn.hub.bus.fire(msg.event_type as string, (msg.event_data as Record<string, unknown> | undefined) ?? {}, { context });
      conn.sendResult(msg.id, { context });
    },
    true,
  );

  // render_template (websocket_api/commands.py): a subscription whose events carry each rendering;
  // the simulator renders once (src/sim/template.ts). report_errors sends an error as an event, before
  // the result as Home Assistant's first render does; without it an error is silence.
  add(
    MSG.renderTemplate,
    {
      template: { v: isType('str'), required: true },
      entity_ids: { v: entityIds },
      variables: { v: isType('dict') },
      timeout: { v: coerceFloat },
      strict: { v: isType('bool'), default: false },
      report_errors: { v: isType('bool'), default: false },
    },
    (conn, msg) => {
      if (msg.variables !== undefined && Object.keys(msg.variables as object).length) {
        conn.sendError(msg.id, 'template_error', 'TemplateError: the simulator does not render templates with variables; Home Assistant would');
        return;
      }
      const hub = conn.hub;
      const out = renderTemplate(msg.template as string, {
        state: (id) => {
          const st = hub.states.get(id);
          return st ? { state: st.state, attributes: st.attributes, entityId: st.entityId } : undefined;
        },
        timeZone: hub.home.time_zone ?? 'UTC',
        now: () => new Date(),
      });
      const report = msg.report_errors === true;
      if ('error' in out && report) conn.send(eventMessage(msg.id, { error: out.error, level: 'ERROR' }));
      conn.subscriptions.set(msg.id, () => undefined);
      conn.sendResult(msg.id);
      if ('error' in out) {
        if (report) conn.send(eventMessage(msg.id, { error: out.error, level: 'ERROR' }));
      } else conn.send(eventMessage(msg.id, { result: out.result, listeners: out.listeners }));
    },
  );

  add(MSG.areaRegistryList, {}, (conn, msg) => conn.sendResult(msg.id, conn.hub.registries.listAreas()));
  add(MSG.deviceRegistryList, {}, (conn, msg) => conn.sendResult(msg.id, conn.hub.registries.listDevices()));
  add(MSG.entityRegistryList, {}, (conn, msg) => conn.sendResult(msg.id, conn.hub.registries.listEntities()));
  if (floors) {
    add(MSG.floorRegistryList, {}, (conn, msg) => conn.sendResult(msg.id, conn.hub.registries.listFloors()));
    add(MSG.labelRegistryList, {}, (conn, msg) => conn.sendResult(msg.id, conn.hub.registries.listLabels()));
    // Categories (2024.4) group automations, scripts and helpers per scope; the simulator keeps none.
    if (!legacy) add('config/category_registry/list', { scope: { v: isType('str'), required: true } }, (conn, msg) => conn.sendResult(msg.id, []));
  }

  // Exposure to assistants (homeassistant/components/homeassistant/exposed_entities.py): admin only.
  add(
    MSG.exposeEntity,
    {
      assistants: { v: listOf(oneOf(ASSISTANTS)), required: true },
      entity_ids: { v: listOf(string), required: true },
      should_expose: { v: isType('bool'), required: true },
    },
    (conn, msg) => {
      for (const id of msg.entity_ids as string[]) {
        const settings = conn.hub.exposure.get(id) ?? {};
        for (const a of msg.assistants as string[]) settings[a] = msg.should_expose as boolean;
        conn.hub.exposure.set(id, settings);
      }
      conn.sendResult(msg.id);
    },
    true,
  );
  add(
    MSG.exposedEntitiesList,
    {},
    (conn, msg) => {
      const out: Record<string, Record<string, boolean>> = {};
      if (conn.hub.since(SINCE.current)) {
        // 2026.11 lists only what is exposed, to each assistant it is exposed to.
        for (const s of conn.hub.states.all()) {
          const to = Object.fromEntries(ASSISTANTS.filter((a) => conn.hub.isExposed(a, s.entityId)).map((a) => [a, true]));
          if (Object.keys(to).length) out[s.entityId] = to;
        }
      } else {
        // Earlier hubs list every choice: the conversation agent decides one for every entity
        // when the hub starts, true or false; other assistants only where one was made.
        for (const s of conn.hub.states.all())
          out[s.entityId] = { ...conn.hub.exposure.get(s.entityId), conversation: conn.hub.isExposed('conversation', s.entityId) };
        for (const [id, settings] of conn.hub.exposure) out[id] = { ...out[id], ...settings };
      }
      conn.sendResult(msg.id, { exposed_entities: out });
    },
    true,
  );
  add(
    MSG.exposeNewEntitiesGet,
    { assistant: { v: oneOf(ASSISTANTS), required: true } },
    (conn, msg) => conn.sendResult(msg.id, { expose_new: conn.hub.exposeNew[msg.assistant as string] ?? false }),
    true,
  );

  addRecorderCommands(add);
  addCalendarCommands(add, legacy);
  addEnergyCommands(add);

  add(MSG.persistentNotificationGet, {}, (conn, msg) => conn.sendResult(msg.id, conn.hub.listNotifications()));
  add(MSG.persistentNotificationSubscribe, {}, (conn, msg) => {
    const id = msg.id;
    conn.subscriptions.set(
      id,
      conn.hub.onNotifications((type: NotificationUpdate, items) => conn.send(eventMessage(id, { type, notifications: notificationsById(items) }))),
    );
    conn.sendResult(id);
    conn.send(eventMessage(id, { type: 'current', notifications: notificationsById(conn.hub.listNotifications()) }));
  });

  return c;
}

/**
 * config/auth/list (homeassistant/components/config/auth.py): admin only; each user with its
 * groups, where administrators are in `system-admin`.
 */
export function userListCommand(users: () => SimUser[]): Command {
  return {
    schema: schema('config/auth/list'),
    admin: true,
    handle: (conn, msg) =>
      conn.sendResult(
        msg.id,
        users().map((u) => ({
          id: u.id,
          username: u.username ?? null,
          name: u.name,
          is_owner: u.isAdmin && u.username === 'simulator',
          is_active: true,
          local_only: false,
          system_generated: u.username === null,
          group_ids: [u.isAdmin ? 'system-admin' : 'system-users'],
          credentials: u.username ? [{ type: 'homeassistant' }] : [],
        })),
      ),
  };
}
