// Fans: on means a speed above 0 or a preset; speed steps follow speed_count as the hub's
// increase_speed/decrease_speed compute them.
import { type DomainModule, finish, numeric } from '../domain.js';
import { ServiceValidationError } from '../errors.js';
import { pyRepr, string } from '../schema.js';
import type { EntityCtx, ServiceDef } from '../services.js';
import { SINCE } from '../version.js';
import { booleanField, num, percentage, sel } from './common.js';

export const FAN_SET_SPEED = 1;
export const FAN_OSCILLATE = 2;
export const FAN_DIRECTION = 4;
export const FAN_PRESET_MODE = 8;
export const FAN_TURN_OFF = 16;
export const FAN_TURN_ON = 32;

const presetModes = (e: EntityCtx): string[] => (Array.isArray(e.attrs.preset_modes) ? e.attrs.preset_modes.map(String) : []);

function validPreset(e: EntityCtx, mode: string): void {
  const modes = presetModes(e);
  if (modes.includes(mode)) return;
  // Before 2024.4 the message shows the list as Python prints it.
  const message = e.hub.legacy
    ? `The preset_mode ${mode} is not a valid preset_mode: ${pyRepr(modes)}`
    : `Preset mode ${mode} is not valid, valid preset modes are: ${modes.join(', ')}.`;
  throw new ServiceValidationError(message, {
    domain: 'fan',
    key: 'not_valid_preset_mode',
    placeholders: { preset_mode: mode, preset_modes: modes.join(', ') },
  });
}

function write(e: EntityCtx, pct: number | null, preset: string | null): void {
  const a = e.attrs;
  if (e.features & FAN_SET_SPEED) a.percentage = pct;
  if (e.features & (FAN_SET_SPEED | FAN_PRESET_MODE)) a.preset_mode = preset;
  if (pct) e.memory.lastPercentage = pct;
  const on = (pct !== null && pct > 0) || preset !== null;
  e.write(on ? 'on' : 'off', a);
}

function currentPct(e: EntityCtx): number {
  return num(e.attrs.percentage, e.state.state === 'on' ? 100 : 0);
}

function setPercentage(e: EntityCtx, pct: number): void {
  write(e, pct, null);
}

function turnOn(e: EntityCtx): void {
  if (typeof e.params.preset_mode === 'string') {
    validPreset(e, e.params.preset_mode);
    write(e, typeof e.params.percentage === 'number' ? e.params.percentage : null, e.params.preset_mode);
    return;
  }
  const pct = typeof e.params.percentage === 'number' ? e.params.percentage : num(e.memory.lastPercentage, 100);
  if (!(e.features & FAN_SET_SPEED)) {
    e.write('on', e.attrs);
    return;
  }
  setPercentage(e, pct);
}

function turnOff(e: EntityCtx): void {
  if (!(e.features & (FAN_SET_SPEED | FAN_PRESET_MODE))) {
    e.write('off', e.attrs);
    return;
  }
  write(e, 0, null);
}

/** FanEntity._async_adjust_speed */
function adjust(e: EntityCtx, direction: 1 | -1): void {
  const step = typeof e.params.percentage_step === 'number' ? e.params.percentage_step : undefined;
  const current = currentPct(e);
  let next: number;
  if (step !== undefined) next = current + step * direction;
  else {
    const count = Math.max(1, Math.round(100 / num(e.attrs.percentage_step, 1)));
    const index = Math.ceil((count * current) / 100);
    next = Math.floor(((index + direction) * 100) / count);
  }
  setPercentage(e, Math.max(0, Math.min(100, next)));
}

export const fan: DomainModule = {
  domain: 'fan',
  init(seed) {
    const a = seed.attributes;
    numeric(a, ['percentage', 'percentage_step']);
    let features = FAN_SET_SPEED | FAN_TURN_ON | FAN_TURN_OFF;
    if (Array.isArray(a.preset_modes)) features |= FAN_PRESET_MODE;
    if ('oscillating' in a) features |= FAN_OSCILLATE;
    if ('direction' in a) features |= FAN_DIRECTION;
    features = num(a.supported_features, features);
    const state = seed.state ?? 'off';
    const out: Record<string, unknown> = {};
    if (features & FAN_PRESET_MODE) out.preset_modes = a.preset_modes ?? [];
    if (features & FAN_DIRECTION) out.direction = a.direction ?? 'forward';
    if (features & FAN_OSCILLATE) out.oscillating = a.oscillating ?? false;
    if (features & FAN_SET_SPEED) {
      // A declared null stays: the demo's fans report no percentage until first set.
      out.percentage = a.percentage === null ? null : num(a.percentage, state === 'on' ? 100 : 0);
      out.percentage_step = num(a.percentage_step, 1);
    }
    if (features & (FAN_SET_SPEED | FAN_PRESET_MODE)) out.preset_mode = a.preset_mode ?? null;
    return { state, attributes: finish({ ...a, ...out }, seed.name, features) };
  },
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('fan', service, def);
    const pctField = {
      v: percentage,
      name: 'Percentage',
      description: 'Speed of the fan.',
      selector: sel.number(0, 100, { unit_of_measurement: '%' }),
    };
    const presetField = { v: string, name: 'Preset mode', description: 'Preset fan mode.', example: 'auto', selector: sel.text() };
    // 2026.11 asks for the turn-on and turn-off features (2024.8 fans have them).
    const current = hub.since(SINCE.current);
    r('turn_on', {
      name: 'Turn on',
      description: 'Turns fan on.',
      ...(current ? { requiredFeatures: [FAN_TURN_ON] } : {}),
      fields: {
        percentage: { ...pctField, filter: { supported_features: [FAN_SET_SPEED] } },
        preset_mode: { ...presetField, filter: { supported_features: [FAN_PRESET_MODE] } },
      },
      handle: turnOn,
    });
    r('turn_off', { name: 'Turn off', description: 'Turns fan off.', ...(current ? { requiredFeatures: [FAN_TURN_OFF] } : {}), handle: turnOff });
    r('toggle', { name: 'Toggle', description: 'Toggles the fan on/off.', handle: (e) => (e.state.state === 'on' ? turnOff(e) : turnOn(e)) });
    r('set_percentage', {
      name: 'Set speed',
      description: 'Sets the fan speed.',
      requiredFeatures: [FAN_SET_SPEED],
      fields: { percentage: { ...pctField, required: true } },
      handle: (e) => setPercentage(e, e.params.percentage as number),
    });
    const stepField = {
      v: percentage,
      name: 'Increment',
      description: 'Increases the speed by a percentage step.',
      advanced: true,
      selector: sel.number(0, 100, { unit_of_measurement: '%' }),
    };
    r('increase_speed', {
      name: 'Increase speed',
      description: 'Increases the speed of the fan.',
      requiredFeatures: [FAN_SET_SPEED],
      fields: { percentage_step: stepField },
      handle: (e) => adjust(e, 1),
    });
    r('decrease_speed', {
      name: 'Decrease speed',
      description: 'Decreases the speed of the fan.',
      requiredFeatures: [FAN_SET_SPEED],
      fields: { percentage_step: { ...stepField, name: 'Decrement', description: 'Decreases the speed by a percentage step.' } },
      handle: (e) => adjust(e, -1),
    });
    r('oscillate', {
      name: 'Oscillate',
      description: 'Controls oscillation of the fan.',
      requiredFeatures: [FAN_OSCILLATE],
      fields: { oscillating: booleanField('Oscillating', 'Turn on/off oscillation.') },
      handle: (e) => {
        e.attrs.oscillating = e.params.oscillating;
        e.write(e.state.state, e.attrs);
      },
    });
    r('set_direction', {
      name: 'Set direction',
      description: 'Sets the fan rotation direction.',
      requiredFeatures: [FAN_DIRECTION],
      fields: {
        // The hub takes any direction, and shows it (2024.3.3 and 2026.11 alike).
        direction: {
          v: string,
          required: true,
          name: 'Direction',
          description: 'Direction to rotate.',
          selector: sel.select(['forward', 'reverse'], { translation_key: 'direction' }),
        },
      },
      handle: (e) => {
        e.attrs.direction = e.params.direction;
        e.write(e.state.state, e.attrs);
      },
    });
    r('set_preset_mode', {
      name: 'Set preset mode',
      description: 'Sets preset fan mode.',
      // A fan that can set its speed may take the call too, though only PRESET_MODE is described.
      requiredFeatures: [FAN_SET_SPEED, FAN_PRESET_MODE],
      target: { entity: [{ domain: ['fan'], supported_features: [FAN_PRESET_MODE] }] },
      fields: { preset_mode: { ...presetField, required: true } },
      handle: (e) => {
        const mode = e.params.preset_mode as string;
        validPreset(e, mode);
        write(e, null, mode);
      },
    });
  },
};
