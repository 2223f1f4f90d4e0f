// What Home Assistant's config integration adds to the simulated hub: automations and scripts
// edited through the config API and reloaded, their traces, helper collections and Lovelace
// dashboards. One per hub, made when the simulator starts (startConfig) and found by configOf.
import { HA_ERROR } from '../names.js';
import type { Command, CommandConnection } from '../commands.js';
import type { Hub } from '../hub.js';
import { all, coerceInt, dict, isPlainObject, isType, literal, oneOf, range, string, type KeySpec } from '../schema.js';
import { ScriptedConfig } from './automations.js';
import { UiScenes } from './scenes.js';
import { HELPER_TYPES, HelperInvalid, HelperNotFound, Helpers, type HelperType } from './helpers.js';
import { type DashboardSeed, Lovelace, LovelaceError } from './lovelace.js';
import { HomeAssistantError } from '../errors.js';

export interface SimConfig {
  scripted: ScriptedConfig;
  scenes: UiScenes;
  helpers: Helpers;
  lovelace: Lovelace;
}

const configs = new WeakMap<Hub, SimConfig>();

/** The hub's config part; made (empty) on first use when startConfig was not called. */
export function configOf(hub: Hub): SimConfig {
  let c = configs.get(hub);
  if (!c) {
    c = { scripted: new ScriptedConfig(hub), scenes: new UiScenes(hub), helpers: new Helpers(hub), lovelace: new Lovelace(hub) };
    configs.set(hub, c);
  }
  return c;
}

/** Takes in what the home declared (automations, scripts, helpers, dashboards) and arms the automations. */
export function startConfig(hub: Hub, dashboards: readonly DashboardSeed[] = []): SimConfig {
  const c = configOf(hub);
  c.scripted.seed();
  c.scenes.seed();
  c.helpers.seed();
  c.lovelace.seed(dashboards);
  return c;
}

const positiveInt = all(coerceInt, range({ min: 0 }));

/** A command's message schema: id and type, these fields, and (`extra`) anything else for the handler to check. */
function messageSchema(type: string, fields: Record<string, KeySpec>, extra: 'allow' | 'prevent' = 'prevent') {
  return dict({ id: { v: positiveInt, required: true }, type: { v: literal(type), required: true }, ...fields }, extra);
}

type Msg = Record<string, unknown> & { id: number; type: string };

function command(schema: Command['schema'], handle: (conn: CommandConnection, msg: Msg) => void | Promise<void>, admin = false): Command {
  return { schema, handle, admin };
}

const fieldsOf = (msg: Msg): Record<string, unknown> => Object.fromEntries(Object.entries(msg).filter(([k]) => k !== 'id' && k !== 'type'));

function helperCommands(type: HelperType, out: Map<string, Command>): void {
  const idKey = `${type}_id`;
  const helpers = (conn: CommandConnection) => configOf(conn.hub).helpers;
  const answer = (conn: CommandConnection, msg: Msg, run: () => unknown) => {
    try {
      conn.sendResult(msg.id, run() ?? null);
    } catch (err) {
      if (err instanceof HelperInvalid) conn.sendError(msg.id, HA_ERROR.invalidFormat, err.message);
      else if (err instanceof HelperNotFound) conn.sendError(msg.id, HA_ERROR.notFound, err.message);
      else if (err instanceof HomeAssistantError) conn.sendError(msg.id, HA_ERROR.homeAssistantError, err.message);
      else throw err;
    }
  };
  out.set(
    `${type}/list`,
    command(messageSchema(`${type}/list`, {}), (conn, msg) => answer(conn, msg, () => helpers(conn).list(type))),
  );
  out.set(
    `${type}/create`,
    command(messageSchema(`${type}/create`, {}, 'allow'), (conn, msg) => answer(conn, msg, () => helpers(conn).create(type, fieldsOf(msg))), true),
  );
  out.set(
    `${type}/update`,
    command(
      messageSchema(`${type}/update`, { [idKey]: { v: string, required: true } }, 'allow'),
      (conn, msg) => {
        const { [idKey]: id, ...fields } = fieldsOf(msg);
        answer(conn, msg, () => helpers(conn).update(type, String(id), fields));
      },
      true,
    ),
  );
  out.set(
    `${type}/delete`,
    command(
      messageSchema(`${type}/delete`, { [idKey]: { v: string, required: true } }),
      (conn, msg) => answer(conn, msg, () => helpers(conn).delete(type, String(msg[idKey]))),
      true,
    ),
  );
}

/** The WebSocket commands of the config part, by type. */
export function configCommands(): Map<string, Command> {
  const out = new Map<string, Command>();
  const domain = { v: oneOf(['automation', 'script']), required: true };
  out.set(
    'trace/list',
    command(
      messageSchema('trace/list', { domain, item_id: { v: string } }),
      (conn, msg) => {
        const runs = configOf(conn.hub).scripted.traces.list(msg.domain as string, msg.item_id as string | undefined);
        conn.sendResult(
          msg.id,
          runs.map((r) => r.summary()),
        );
      },
      true,
    ),
  );
  out.set(
    'trace/get',
    command(
      messageSchema('trace/get', { domain, item_id: { v: string, required: true }, run_id: { v: string, required: true } }),
      (conn, msg) => {
        const run = configOf(conn.hub).scripted.traces.get(msg.domain as string, msg.item_id as string, msg.run_id as string);
        if (!run) conn.sendError(msg.id, HA_ERROR.notFound, 'The trace could not be found');
        else conn.sendResult(msg.id, run.full());
      },
      true,
    ),
  );
  for (const d of ['automation', 'script'] as const) {
    out.set(
      `${d}/config`,
      command(
        messageSchema(`${d}/config`, { entity_id: { v: isType('str'), required: true } }),
        (conn, msg) => {
          const entityId = msg.entity_id as string;
          const state = conn.hub.states.get(entityId);
          if (!state || !entityId.startsWith(`${d}.`)) {
            conn.sendError(msg.id, HA_ERROR.notFound, 'Entity not found');
            return;
          }
          // The config the entity was made from at its last reload (raw_config), not the file as it is now.
          conn.sendResult(msg.id, { config: configOf(conn.hub).scripted.loaded.get(entityId) ?? null });
        },
        true,
      ),
    );
  }
  for (const type of HELPER_TYPES) helperCommands(type, out);

  const urlPath = { v: (v: unknown) => (v === null ? null : string(v, [])) };
  const lovelace = (conn: CommandConnection, msg: Msg, run: (l: Lovelace) => unknown) => {
    try {
      conn.sendResult(msg.id, run(configOf(conn.hub).lovelace) ?? null);
    } catch (err) {
      if (!(err instanceof LovelaceError)) throw err;
      conn.sendError(msg.id, err.code, err.message);
    }
  };
  out.set(
    'lovelace/info',
    command(messageSchema('lovelace/info', {}), (conn, msg) => conn.sendResult(msg.id, { resource_mode: 'storage' })),
  );
  out.set(
    'lovelace/dashboards/list',
    command(messageSchema('lovelace/dashboards/list', {}), (conn, msg) => lovelace(conn, msg, (l) => l.list())),
  );
  out.set(
    'lovelace/config',
    command(messageSchema('lovelace/config', { force: { v: isType('bool'), default: false }, url_path: urlPath }), (conn, msg) =>
      lovelace(conn, msg, (l) => l.config(msg.url_path as string | null | undefined)),
    ),
  );
  out.set(
    'lovelace/config/save',
    command(
      messageSchema('lovelace/config/save', {
        config: { v: (v, p) => (typeof v === 'string' || isPlainObject(v) ? v : isType('dict')(v, p)), required: true },
        url_path: urlPath,
      }),
      (conn, msg) => lovelace(conn, msg, (l) => l.save(msg.url_path as string | null | undefined, msg.config)),
      true,
    ),
  );
  out.set(
    'lovelace/config/delete',
    command(
      messageSchema('lovelace/config/delete', { url_path: urlPath }),
      (conn, msg) => lovelace(conn, msg, (l) => l.delete(msg.url_path as string | null | undefined)),
      true,
    ),
  );
  return out;
}

export type { DashboardSeed } from './lovelace.js';
