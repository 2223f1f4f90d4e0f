import { expect, test } from 'vitest';
import type { HubState } from '../../src/hub/types.js';
import { confirmationReason } from '../../src/policy/confirmation.js';

const cover = (device_class?: string, domain = 'cover'): HubState => ({
  entity_id: `${domain}.x`,
  state: 'closed',
  attributes: device_class ? { device_class } : {},
  last_changed: '',
  last_updated: '',
});

test.each([
  ['lock.front_door', 'unlock', {}, undefined, 'unlocking lock.front_door'],
  ['lock.front_door', 'open', {}, undefined, 'opening lock.front_door'],
  ['lock.front_door', 'lock', {}, undefined, undefined],
  ['alarm_control_panel.home', 'alarm_disarm', {}, undefined, 'disarming alarm_control_panel.home'],
  ['alarm_control_panel.home', 'alarm_arm_away', {}, undefined, undefined],
  ['cover.x', 'open_cover', {}, cover('garage'), 'opening the garage cover.x'],
  ['cover.x', 'set_cover_position', { position: 40 }, cover('gate'), 'opening the gate cover.x'],
  ['cover.x', 'set_cover_position', { position: 0 }, cover('gate'), undefined],
  ['cover.x', 'close_cover', {}, cover('garage'), undefined],
  ['cover.x', 'open_cover', {}, cover('blind'), undefined],
  ['valve.x', 'open_valve', {}, cover('water', 'valve'), 'opening the water valve valve.x'],
  ['valve.x', 'open_valve', {}, cover('gas', 'valve'), 'opening the gas valve valve.x'],
  ['valve.x', 'set_valve_position', { position: 10 }, cover('water', 'valve'), 'opening the water valve valve.x'],
  ['valve.x', 'set_valve_position', { position: 0 }, cover('water', 'valve'), undefined],
  ['valve.x', 'close_valve', {}, cover('gas', 'valve'), undefined],
  ['valve.x', 'open_valve', {}, cover(undefined, 'valve'), undefined],
  ['light.x', 'turn_on', {}, undefined, undefined],
] as const)('%s %s %o needs confirmation: %s', (id, service, data, state, reason) => {
  expect(confirmationReason(id, service, data, state)).toBe(reason);
});
