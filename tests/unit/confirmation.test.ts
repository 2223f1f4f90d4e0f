import { expect, test } from 'vitest';
import type { HubState } from '../../src/hub/types.js';
import { confirmationReason } from '../../src/policy/confirmation.js';

const cover = (device_class?: string): HubState => ({
  entity_id: 'cover.x',
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
  ['light.x', 'turn_on', {}, undefined, undefined],
] as const)('%s %s %o needs confirmation: %s', (id, service, data, state, reason) => {
  expect(confirmationReason(id, service, data, state)).toBe(reason);
});
