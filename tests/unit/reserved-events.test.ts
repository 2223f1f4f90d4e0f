// Home Assistant's own event types, which callers may not fire (src/policy/reserved-events.ts).
import { describe, expect, test } from 'vitest';
import { reservedEvent } from '../../src/policy/reserved-events.js';

describe('reserved events', () => {
  test.each([
    'state_changed',
    'call_service',
    'homeassistant_start',
    'homeassistant_stop',
    'automation_triggered',
    'automation_reloaded',
    'scene_reloaded',
    'area_registry_updated',
    'core_config_updated',
    'recorder_hourly_statistics_generated',
    'timer.finished',
    'mobile_app_notification_action',
  ])('%s is refused with a reason', (type) => {
    expect(reservedEvent(type)).toMatch(/\w/);
  });
  test.each(['doorbell_pressed', 'my_event', 'garden.sprinkler_done', 'statechanged', 'reloaded_manually'])('%s may be fired', (type) => {
    expect(reservedEvent(type)).toBeUndefined();
  });
});
