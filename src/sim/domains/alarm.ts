// Alarm panels behave like the hub's manual panel (the demo's alarm_control_panel.security,
// code 1234): a wrong code is a service_validation_error "Invalid alarm code provided" (a plain
// home_assistant_error before 2024.4; in 2026.11 the manual panel's message is its untranslated
// key, "invalid_code"); optional arming and entry delays pass through arming/pending.
import { type DomainModule, finish } from '../domain.js';
import { HomeAssistantError, ServiceValidationError } from '../errors.js';
import type { Hub } from '../hub.js';
import type { EntityCtx, ServiceDef } from '../services.js';
import { SINCE } from '../version.js';
import { codeField, num } from './common.js';

export const ALARM_ARM_HOME = 1;
export const ALARM_ARM_AWAY = 2;
export const ALARM_ARM_NIGHT = 4;
export const ALARM_TRIGGER = 8;
export const ALARM_ARM_CUSTOM_BYPASS = 16;
export const ALARM_ARM_VACATION = 32;

const panelCode = (e: EntityCtx): string | null => (e.config.code === undefined || e.config.code === null ? null : String(e.config.code));

/** ManualAlarm._async_validate_code (plus the base class's code_arm_required check on newer hubs). */
function validateCode(e: EntityCtx, target: string): void {
  const code = panelCode(e);
  if (code === null) return;
  const armRequired = e.attrs.code_arm_required !== false;
  if (target !== 'disarmed' && !armRequired) return;
  const given = typeof e.params.code === 'string' ? e.params.code : undefined;
  if (target !== 'disarmed' && !given && !e.hub.legacy) {
    throw new ServiceValidationError(`Arming requires a code but none was given for ${e.id}`, {
      domain: 'alarm_control_panel',
      key: 'code_arm_required',
      placeholders: { entity_id: e.id },
    });
  }
  if (given === code) return;
  if (e.hub.legacy) throw new HomeAssistantError('Invalid alarm code provided');
  throw new ServiceValidationError(e.hub.since(SINCE.current) ? 'invalid_code' : 'Invalid alarm code provided', {
    domain: 'manual',
    key: 'invalid_code',
    placeholders: null,
  });
}

function cancelTimer(e: EntityCtx): void {
  (e.memory.cancel as (() => void) | undefined)?.();
  delete e.memory.cancel;
}

/**
 * previous_state and next_state: always there on newer hubs; before 2024.4 only while arming or
 * pending (both) or triggered (previous_state alone).
 */
function transitionAttrs(hub: Hub, attrs: Record<string, unknown>, state: string, previous: string | null, next: string | null) {
  const out = { ...attrs };
  delete out.previous_state;
  delete out.next_state;
  if (!hub.legacy) return { ...out, previous_state: previous, next_state: next };
  if (state === 'arming' || state === 'pending') return { ...out, previous_state: previous, next_state: next };
  if (state === 'triggered') return { ...out, previous_state: previous };
  return out;
}

function set(e: EntityCtx, state: string, previous: string | null, next: string | null): void {
  const hub = e.hub;
  const latest = hub.states.get(e.id);
  const attrs = transitionAttrs(hub, { ...(latest?.attributes ?? e.attrs) }, state, previous, next);
  hub.states.set(e.id, state, finish(attrs, String(attrs.friendly_name ?? ''), attrs.supported_features as number), { context: e.call.context });
}

function arm(e: EntityCtx, target: string): void {
  validateCode(e, target);
  cancelTimer(e);
  const from = e.state.state;
  const delay = e.hub.timing.alarmArmingMs;
  if (delay <= 0) {
    set(e, target, null, null);
    return;
  }
  set(e, 'arming', from, target);
  e.memory.cancel = e.hub.after(delay, () => set(e, target, null, null));
}

function trigger(e: EntityCtx): void {
  const hub = e.hub;
  const from = e.state.state;
  if (from === 'triggered' || from === 'pending') return;
  cancelTimer(e);
  const fire = () => {
    set(e, 'triggered', from, null);
    if (hub.timing.alarmTriggerMs > 0) {
      e.memory.cancel = hub.after(hub.timing.alarmTriggerMs, () => set(e, from, null, null));
    }
  };
  if (hub.timing.alarmPendingMs <= 0) return fire();
  set(e, 'pending', from, 'triggered');
  e.memory.cancel = hub.after(hub.timing.alarmPendingMs, fire);
}

export const alarmControlPanel: DomainModule = {
  domain: 'alarm_control_panel',
  init(seed, hub) {
    const a = seed.attributes;
    const code = seed.config.code === undefined || seed.config.code === null ? null : String(seed.config.code);
    const state = seed.state ?? 'disarmed';
    const out: Record<string, unknown> = {
      code_format: code === null ? null : /^\d+$/.test(code) ? 'number' : 'text',
      changed_by: null,
      code_arm_required: seed.config.code_arm_required ?? true,
      ...a,
    };
    const features = num(
      a.supported_features,
      ALARM_ARM_HOME | ALARM_ARM_AWAY | ALARM_ARM_NIGHT | ALARM_TRIGGER | ALARM_ARM_CUSTOM_BYPASS | ALARM_ARM_VACATION,
    );
    const attrs = transitionAttrs(hub, out, state, (a.previous_state as string | undefined) ?? null, (a.next_state as string | undefined) ?? null);
    return { state, attributes: finish(attrs, seed.name, features) };
  },
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('alarm_control_panel', service, def);
    r('alarm_disarm', {
      name: 'Disarm',
      description: 'Disarms the alarm.',
      fields: { code: codeField },
      handle: (e) => {
        validateCode(e, 'disarmed');
        cancelTimer(e);
        set(e, 'disarmed', null, null);
      },
    });
    const armService = (mode: string, feature: number, label: string) =>
      r(`alarm_arm_${mode}`, {
        name: `Arm ${label}`,
        description: `Sets the alarm to: _armed, ${label}_.`,
        requiredFeatures: [feature],
        fields: { code: codeField },
        handle: (e) => arm(e, `armed_${mode}`),
      });
    armService('home', ALARM_ARM_HOME, 'home');
    armService('away', ALARM_ARM_AWAY, 'away');
    armService('night', ALARM_ARM_NIGHT, 'night');
    armService('vacation', ALARM_ARM_VACATION, 'vacation');
    armService('custom_bypass', ALARM_ARM_CUSTOM_BYPASS, 'with custom bypass');
    r('alarm_trigger', {
      name: 'Trigger',
      description: 'Triggers the alarm manually.',
      requiredFeatures: [ALARM_TRIGGER],
      fields: { code: codeField },
      handle: trigger,
    });
  },
};
