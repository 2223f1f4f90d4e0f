// The energy integration's preferences over WebSocket (energy/websocket_api.py): energy/get_prefs
// answers what was saved, or not_found "No prefs" before anything was; energy/save_prefs (admins)
// replaces the lists it is given and answers the whole preferences. The simulator keeps a saved
// grid source in the shape it was given; Home Assistant 2026.11 turns the legacy flow_from/flow_to
// shape into its unified one (a hub's own migration, not the bridge's business).
import type { Command } from './commands.js';
import type { Hub } from './hub.js';
import { HA_ERROR } from './names.js';
import { Invalid, type KeySpec, type Validator, all, dict, isType, listOf, oneOf } from './schema.js';

type Add = (type: string, fields: Record<string, KeySpec>, handle: Command['handle'], admin?: boolean) => void;

const prefsOf = new WeakMap<Hub, Record<string, unknown> | null>();

function prefs(hub: Hub): Record<string, unknown> | null {
  if (!prefsOf.has(hub)) prefsOf.set(hub, hub.home.energy ? structuredClone(hub.home.energy) : null);
  return prefsOf.get(hub)!;
}

/** Each source's type; its other keys are kept as given. */
const sourceType = oneOf(['grid', 'solar', 'battery', 'gas', 'water', 'home']);
const source: Validator = (v, path) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Invalid('expected a dictionary', path);
  sourceType((v as Record<string, unknown>).type, [...path, 'type']);
  return v;
};
const deviceConsumption: Validator = all(isType('list'), listOf(dict({ stat_consumption: { v: isType('str'), required: true } }, 'allow')));

export function addEnergyCommands(add: Add): void {
  add('energy/get_prefs', {}, (conn, msg) => {
    if (conn.hub.home.energy === false) return conn.sendError(msg.id, HA_ERROR.unknownCommand, 'Unknown command.');
    const saved = prefs(conn.hub);
    if (!saved) return conn.sendError(msg.id, HA_ERROR.notFound, 'No prefs');
    conn.sendResult(msg.id, saved);
  });
  add(
    'energy/save_prefs',
    {
      energy_sources: { v: all(isType('list'), listOf(source)) },
      device_consumption: { v: deviceConsumption },
      device_consumption_water: { v: deviceConsumption },
    },
    (conn, msg) => {
      if (conn.hub.home.energy === false) return conn.sendError(msg.id, HA_ERROR.unknownCommand, 'Unknown command.');
      const saved = prefs(conn.hub) ?? { energy_sources: [], device_consumption: [], device_consumption_water: [] };
      for (const key of ['energy_sources', 'device_consumption', 'device_consumption_water'])
        if (msg[key] !== undefined) saved[key] = structuredClone(msg[key]);
      prefsOf.set(conn.hub, saved);
      conn.sendResult(msg.id, saved);
    },
    true,
  );
}
