// Robot vacuums (the hub's StateVacuumEntity): cleaning, paused, idle, returning then docked.
import { type DomainModule, finish, numeric } from '../domain.js';
import { any, isType, listOf, string } from '../schema.js';
import type { EntityCtx, ServiceDef } from '../services.js';
import { SINCE } from '../version.js';
import { num, sel } from './common.js';

export const VACUUM_PAUSE = 4;
export const VACUUM_STOP = 8;
export const VACUUM_RETURN_HOME = 16;
export const VACUUM_FAN_SPEED = 32;
export const VACUUM_BATTERY = 64;
export const VACUUM_SEND_COMMAND = 256;
export const VACUUM_LOCATE = 512;
export const VACUUM_CLEAN_SPOT = 1024;
export const VACUUM_STATE = 4096;
export const VACUUM_START = 8192;
export const VACUUM_CLEAN_AREA = 16384;

/** icon_for_battery_level */
function batteryIcon(level: number, charging: boolean): string {
  const rounded = Math.round(level / 10) * 10;
  if (charging && level > 10) return `mdi:battery-charging-${rounded}`;
  if (charging) return 'mdi:battery-outline';
  if (level <= 5) return 'mdi:battery-alert';
  if (level >= 95) return 'mdi:battery';
  return `mdi:battery-${rounded}`;
}

function write(e: EntityCtx, state: string, attrs: Record<string, unknown> = e.attrs): void {
  if (typeof attrs.battery_level === 'number') attrs.battery_icon = batteryIcon(attrs.battery_level, state === 'docked');
  e.write(state, attrs);
}

function goHome(e: EntityCtx): void {
  const hub = e.hub;
  write(e, 'returning');
  (e.memory.cancel as (() => void) | undefined)?.();
  e.memory.cancel = hub.after(hub.timing.vacuumReturnMs, () => {
    const latest = hub.states.get(e.id);
    if (latest?.state !== 'returning') return;
    const attrs = { ...latest.attributes };
    if (typeof attrs.battery_level === 'number') attrs.battery_icon = batteryIcon(attrs.battery_level, true);
    hub.states.set(e.id, 'docked', attrs, { context: e.call.context });
  });
}

/** 2024.3 and 2026.11 describe some vacuum services without their feature filter. */
const ANY_VACUUM = { entity: [{ domain: ['vacuum'] }] };

const cancelTravel = (e: EntityCtx) => (e.memory.cancel as (() => void) | undefined)?.();

export const vacuum: DomainModule = {
  domain: 'vacuum',
  init(seed) {
    const a = seed.attributes;
    numeric(a, ['battery_level']);
    let features = VACUUM_START | VACUUM_PAUSE | VACUUM_STOP | VACUUM_RETURN_HOME | VACUUM_STATE | VACUUM_LOCATE | VACUUM_CLEAN_SPOT | VACUUM_SEND_COMMAND;
    if (Array.isArray(a.fan_speed_list)) features |= VACUUM_FAN_SPEED;
    if (typeof a.battery_level === 'number') features |= VACUUM_BATTERY;
    features = num(a.supported_features, features);
    const state = seed.state ?? 'docked';
    const out: Record<string, unknown> = { ...a };
    if (features & VACUUM_FAN_SPEED) {
      out.fan_speed_list = a.fan_speed_list ?? [];
      out.fan_speed = a.fan_speed ?? null;
    }
    if (features & VACUUM_BATTERY) {
      out.battery_level = num(a.battery_level, 100);
      out.battery_icon = batteryIcon(out.battery_level as number, state === 'docked');
    }
    return { state, attributes: finish(out, seed.name, features) };
  },
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('vacuum', service, def);
    r('start', {
      name: 'Start',
      description: 'Starts or resumes the cleaning task.',
      requiredFeatures: [VACUUM_START],
      handle: (e) => {
        cancelTravel(e);
        write(e, 'cleaning');
      },
    });
    r('pause', {
      name: 'Pause',
      description: 'Pauses the cleaning task.',
      requiredFeatures: [VACUUM_PAUSE],
      handle: (e) => {
        if (e.state.state === 'cleaning') write(e, 'paused');
      },
    });
    r('stop', {
      name: 'Stop',
      description: 'Stops the current cleaning task.',
      requiredFeatures: [VACUUM_STOP],
      handle: (e) => {
        cancelTravel(e);
        write(e, 'idle');
      },
    });
    r('return_to_base', {
      name: 'Return to dock',
      description: 'Tells the vacuum cleaner to return to its dock.',
      requiredFeatures: [VACUUM_RETURN_HOME],
      handle: goHome,
    });
    r('clean_spot', {
      legacyTarget: ANY_VACUUM,
      currentTarget: ANY_VACUUM,
      name: 'Clean spot',
      description: 'Tells the vacuum cleaner to do a spot clean-up.',
      requiredFeatures: [VACUUM_CLEAN_SPOT],
      handle: (e) => {
        cancelTravel(e);
        write(e, 'cleaning');
      },
    });
    r('locate', {
      name: 'Locate',
      description: 'Locates the vacuum cleaner robot.',
      requiredFeatures: [VACUUM_LOCATE],
      handle: (e) => {
        e.hub.log.info(`${e.id}: beep`);
      },
    });
    r('set_fan_speed', {
      legacyTarget: ANY_VACUUM,
      currentTarget: ANY_VACUUM,
      name: 'Set fan speed',
      description: 'Sets the fan speed of the vacuum cleaner.',
      requiredFeatures: [VACUUM_FAN_SPEED],
      fields: {
        fan_speed: { v: string, required: true, name: 'Fan speed', description: 'Fan speed.', example: 'low', selector: sel.text() },
      },
      handle: (e) => {
        // As the hub's demo: a speed outside fan_speed_list is ignored.
        const list = Array.isArray(e.attrs.fan_speed_list) ? e.attrs.fan_speed_list : [];
        if (!list.includes(e.params.fan_speed)) return;
        e.attrs.fan_speed = e.params.fan_speed;
        write(e, e.state.state);
      },
    });
    r('send_command', {
      legacyTarget: ANY_VACUUM,
      currentTarget: ANY_VACUUM,
      name: 'Send command',
      description: 'Sends a command to the vacuum cleaner.',
      requiredFeatures: [VACUUM_SEND_COMMAND],
      fields: {
        command: { v: string, required: true, name: 'Command', description: 'Command to execute.', example: 'set_dnd_timer', selector: sel.text() },
        params: {
          v: any(
            isType('dict'),
            listOf((x) => x),
          ),
          name: 'Parameters',
          description: 'Parameters for the command.',
          selector: sel.object(),
        },
      },
      handle: (e) => {
        e.hub.log.info(`${e.id}: command ${String(e.params.command)}`);
      },
    });
    // Cleaning given areas (2026.11; for vacuums that map their segments to the hub's areas).
    if (hub.since(SINCE.current)) {
      r('clean_area', {
        name: 'Clean area',
        description: 'Tells the vacuum cleaner to clean the given areas.',
        requiredFeatures: [VACUUM_CLEAN_AREA],
        fields: {
          cleaning_area_id: {
            v: listOf(string),
            required: true,
            name: 'Areas',
            description: 'The areas to clean.',
            selector: { area: { multiple: true, reorder: true } },
          },
        },
        handle: (e) => {
          cancelTravel(e);
          write(e, 'cleaning');
        },
      });
    }
  },
};
