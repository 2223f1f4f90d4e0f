import { describe, expect, test } from 'vitest';
import { backoffDelay } from '../../src/hub/backoff.js';
import { domainOf, isEntityId } from '../../src/hub/entity-id.js';
import { hubError } from '../../src/hub/client.js';
import { ERR_CONNECTION_LOST, FLOOR_LABEL_TARGETS_SINCE, HA_ERROR, versionAtLeast } from '../../src/hub/protocol.js';
import { Registries } from '../../src/hub/registries.js';
import { closestEntities, closestIds, similarity } from '../../src/hub/similar.js';
import { StateCache } from '../../src/hub/state-cache.js';
import { checkServiceData, flattenFields, serviceAccepts } from '../../src/hub/service-fields.js';
import { websocketUrl } from '../../src/hub/socket.js';
import { emptyTarget, reachedEntities, type TargetLists } from '../../src/hub/targets.js';
import type { HubState, ServiceDescription } from '../../src/hub/types.js';

describe('backoff', () => {
  test('grows exponentially, is capped, and jitters within [cap/2, cap]', () => {
    const opts = { baseMs: 500, maxMs: 30_000 };
    expect(backoffDelay(0, opts, () => 0)).toBe(250);
    expect(backoffDelay(0, opts, () => 1)).toBe(500);
    expect(backoffDelay(3, opts, () => 1)).toBe(4000);
    expect(backoffDelay(20, opts, () => 1)).toBe(30_000);
    expect(backoffDelay(20, opts, () => 0)).toBe(15_000);
    expect(backoffDelay(1000, opts, () => 0.5)).toBe(22_500);
  });
});

describe('entity ids', () => {
  test.each(['light.kitchen', 'sensor.a1_b2', 'alarm_control_panel.security', 'vacuum.0_ground_floor'])('%s is valid', (id) =>
    expect(isEntityId(id)).toBe(true),
  );
  test.each([
    'light',
    'Light.kitchen',
    'light.',
    '.kitchen',
    'light.kitchen lamp',
    'light._x',
    'light.x_',
    'light.a__b',
    'light.kitchen;drop',
    'a.b.c',
    5,
    null,
  ])('%s is not', (id) => expect(isEntityId(id)).toBe(false));
  test('domain', () => {
    expect(domainOf('media_player.tv')).toBe('media_player');
  });
  test('websocket urls', () => {
    expect(websocketUrl('http://ha.local:8123')).toBe('ws://ha.local:8123/api/websocket');
    expect(websocketUrl('https://ha.example/')).toBe('wss://ha.example/api/websocket');
    expect(websocketUrl('ws://supervisor/core/websocket')).toBe('ws://supervisor/core/websocket');
  });
});

describe('closest entities', () => {
  test('similar names of the same domain come first', () => {
    const ids = ['light.kitchen_ceiling', 'light.bedroom_lamp', 'switch.kitchen', 'sensor.kitchen_temperature', 'light.kitchen_counter'];
    const got = closestEntities('light.kitchen_celing', ids, 3);
    expect(got[0]).toBe('light.kitchen_ceiling');
    expect(got).toHaveLength(3);
    expect(got.slice(0, 2).sort()).toEqual(['light.kitchen_ceiling', 'light.kitchen_counter']);
    expect(got).not.toContain('light.bedroom_lamp');
    expect(similarity('abc', 'abc')).toBe(1);
    expect(similarity('ab', 'cd')).toBe(0);
  });
});

const st = (entity_id: string, state: string, last_updated: string): HubState => ({
  entity_id,
  state,
  attributes: {},
  last_changed: last_updated,
  last_updated,
});

describe('state cache', () => {
  test('applies changes and removals', () => {
    const c = new StateCache();
    c.apply({ entity_id: 'light.a', old_state: null, new_state: st('light.a', 'on', 't1') });
    expect(c.get('light.a')?.state).toBe('on');
    c.apply({ entity_id: 'light.a', old_state: null, new_state: null });
    expect(c.has('light.a')).toBe(false);
  });

  test('a snapshot reports what changed, appeared and disappeared', () => {
    const c = new StateCache();
    c.replaceAll([st('light.a', 'on', 't1'), st('light.b', 'off', 't1'), st('light.gone', 'on', 't1')]);
    const changes = c.replaceAll([st('light.a', 'on', 't1'), st('light.b', 'on', 't2'), st('light.new', 'off', 't2')]);
    expect(changes.map((x) => [x.entity_id, x.old_state?.state ?? null, x.new_state?.state ?? null])).toEqual([
      ['light.b', 'off', 'on'],
      ['light.new', null, 'off'],
      ['light.gone', 'on', null],
    ]);
    expect([...c.ids()].sort()).toEqual(['light.a', 'light.b', 'light.new']);
  });
});

describe('service fields', () => {
  const turnOn: ServiceDescription = {
    fields: {
      brightness_pct: { selector: { number: { min: 0, max: 100 } } },
      rgb_color: { selector: { color_rgb: {} } },
      color_temp_kelvin: { selector: { color_temp: { unit: 'kelvin', min: 2000, max: 6500 } } },
      effect: { selector: { select: { options: ['colorloop', 'random'] } } },
      flash: {
        selector: {
          select: {
            options: [
              { value: 'short', label: 'Short' },
              { value: 'long', label: 'Long' },
            ],
          },
        },
      },
      advanced_fields: { collapsed: true, fields: { transition: { selector: { number: { min: 0, max: 300 } } } } },
    },
  };
  const check = (data: Record<string, unknown>) => () => checkServiceData(turnOn, data, 'light.turn_on');

  test('sections are flattened', () => expect(Object.keys(flattenFields(turnOn.fields))).toContain('transition'));
  test('good data passes', () => {
    expect(check({ brightness_pct: 50, rgb_color: [255, 0, 10], color_temp_kelvin: 3000, effect: 'random', flash: 'short', transition: 2 })).not.toThrow();
  });
  test('values Home Assistant coerces are taken and passed on in its type', () => {
    expect(checkServiceData(turnOn, { brightness_pct: '50', transition: ' 2.5 ' }, 'light.turn_on')).toEqual({ brightness_pct: 50, transition: 2.5 });
    const arm = { fields: { code: { selector: { text: {} } } } };
    expect(checkServiceData(arm, { code: 1234 }, 'alarm_control_panel.alarm_arm_away')).toEqual({ code: '1234' });
    const flag = { fields: { oscillating: { selector: { boolean: {} } } } };
    expect(checkServiceData(flag, { oscillating: 'on' }, 'fan.oscillate')).toEqual({ oscillating: true });
    expect(() => checkServiceData(flag, { oscillating: 'sometimes' }, 'fan.oscillate')).toThrow(/must be true or false/);
  });
  test.each([
    [{ brightness_pct: 150 }, /^brightness_pct: must be at most 100$/],
    [{ brightness_pct: 'fifty' }, /^brightness_pct: must be a number$/],
    [{ brightness_pct: '150' }, /^brightness_pct: must be at most 100$/],
    [{ rgb_color: [300, 0, 0] }, /^rgb_color: must be \[red, green, blue\]/],
    [{ color_temp_kelvin: 1000 }, /^color_temp_kelvin: must be at least 2000$/],
    [{ effect: 'disco' }, /^effect: must be one of colorloop, random$/],
    [{ flash: 'medium' }, /^flash: must be one of short, long$/],
  ])('%o is refused naming the field', (data, message) => {
    expect(check(data)).toThrow(message);
    try {
      check(data)();
    } catch (err) {
      expect(err).toMatchObject({ code: 'INVALID_PARAMETERS', status: 400, details: { field: Object.keys(data)[0] } });
    }
  });
  test('required fields', () => {
    const svc: ServiceDescription = { fields: { temperature: { required: true, selector: { number: {} } } } };
    expect(() => checkServiceData(svc, {}, 'climate.set_temperature')).toThrow(/^temperature: required by climate\.set_temperature$/);
  });
  test('fields the hub does not describe go on to the hub, which judges them', () => {
    expect(check({ color_temp_kelvin: 3000, undescribed: 'x' })).not.toThrow();
    expect(() => checkServiceData({ fields: {} }, { anything: 1 }, 'script.morning')).not.toThrow();
  });
  test('a target filter with feature sets takes an entity only with all bits of one set', () => {
    const setPosition: ServiceDescription = { fields: {}, target: { entity: [{ domain: ['cover'], supported_features: [4] }] } };
    const cover = (features: number): HubState => ({ ...st('cover.x', 'open', 't'), attributes: { supported_features: features } });
    expect(serviceAccepts(setPosition, 'cover', cover(15))).toBe(true);
    expect(serviceAccepts(setPosition, 'cover', cover(3))).toBe(false);
    expect(serviceAccepts(setPosition, 'light', cover(15))).toBe(false);
    expect(
      serviceAccepts({ fields: {}, target: { entity: [{ domain: ['alarm_control_panel'], supported_features: [2, 8] }] } }, 'alarm_control_panel', cover(8)),
    ).toBe(true);
    expect(serviceAccepts({ fields: {} }, 'cover', undefined)).toBe(true);
  });
});

describe('service targets, by the hub rule', () => {
  const st = (entity_id: string, attributes: Record<string, unknown> = {}): HubState => ({
    entity_id,
    state: 'on',
    attributes,
    last_changed: '',
    last_updated: '',
  });
  const registries = new Registries();
  registries.replace({
    floorsSupported: true,
    floors: [{ floor_id: 'ground', name: 'Ground' }],
    labels: [{ label_id: 'cosy', name: 'Cosy' }],
    areas: [
      { area_id: 'lounge', name: 'Lounge', floor_id: 'ground' },
      { area_id: 'porch', name: 'Porch', floor_id: null, labels: ['cosy'] },
      { area_id: 'attic', name: 'Attic' },
    ],
    devices: [
      { id: 'tv', name: 'TV', area_id: 'lounge' },
      { id: 'hub', name: 'Hub', area_id: 'attic', labels: ['cosy'] },
    ],
    entities: [
      { entity_id: 'light.lounge', area_id: 'lounge' },
      { entity_id: 'media_player.tv', device_id: 'tv' },
      // On the TV but placed in the attic: an area target for the lounge does not reach it.
      { entity_id: 'light.tv_backlight', device_id: 'tv', area_id: 'attic' },
      { entity_id: 'sensor.tv_signal', device_id: 'tv', entity_category: 'diagnostic' },
      { entity_id: 'light.hidden', area_id: 'lounge', hidden_by: 'user' },
      { entity_id: 'light.porch', area_id: 'porch' },
      { entity_id: 'light.candle', labels: ['cosy'] },
      { entity_id: 'switch.hub', device_id: 'hub' },
    ],
  });
  const cache = new StateCache();
  cache.replaceAll([
    st('light.lounge'),
    st('light.porch'),
    st('group.downstairs', { entity_id: ['light.lounge', 'group.porch'] }),
    st('group.porch', { entity_id: ['light.porch', 'group.downstairs'] }),
  ]);
  const reach = (t: Partial<TargetLists>) => reachedEntities({ ...emptyTarget(), ...t }, registries, cache);

  test("an area: its entities, and its devices' entities that have no area of their own; never hidden or diagnostic ones", () => {
    expect(reach({ area_id: ['lounge'] })).toEqual({ all: false, explicit: [], indirect: ['light.lounge', 'media_player.tv'] });
  });
  test('a device named directly brings all its visible entities, wherever they are placed', () => {
    expect(reach({ device_id: ['tv'] }).indirect).toEqual(['light.tv_backlight', 'media_player.tv']);
  });
  test('a floor stands for its areas; a label for its entities, devices and areas; unknown ids reach nothing', () => {
    expect(reach({ floor_id: ['ground'] }).indirect).toEqual(['light.lounge', 'media_player.tv']);
    expect(reach({ label_id: ['cosy'] }).indirect).toEqual(['light.candle', 'light.porch', 'switch.hub']);
    expect(reach({ area_id: ['nowhere'], device_id: ['none_such'], label_id: ['x'] }).indirect).toEqual([]);
  });
  test('entity ids as given, groups replaced by their members (loops cut), all as all', () => {
    expect(reach({ entity_id: ['light.porch', 'group.downstairs'] }).explicit).toEqual(['light.porch', 'light.lounge']);
    expect(reach({ entity_id: 'all' })).toEqual({ all: true, explicit: [], indirect: [] });
  });
});

describe('hub protocol', () => {
  test('hub versions compare by year, month and patch; unknown ones count as new', () => {
    expect(versionAtLeast('2024.3.3', FLOOR_LABEL_TARGETS_SINCE)).toBe(false);
    expect(versionAtLeast('2024.4.0', FLOOR_LABEL_TARGETS_SINCE)).toBe(true);
    expect(versionAtLeast('2025.1.0.dev20241201', FLOOR_LABEL_TARGETS_SINCE)).toBe(true);
    expect(versionAtLeast('2023.12.4', FLOOR_LABEL_TARGETS_SINCE)).toBe(false);
    expect(versionAtLeast(undefined, FLOOR_LABEL_TARGETS_SINCE)).toBe(true);
    expect(versionAtLeast('unknown', FLOOR_LABEL_TARGETS_SINCE)).toBe(true);
  });
  test('the library error for a lost connection becomes CONNECTION_ERROR; Home Assistant codes map to ours', () => {
    expect(hubError(ERR_CONNECTION_LOST, 'light.turn_on')).toMatchObject({ code: 'CONNECTION_ERROR', status: 503 });
    expect(hubError({ code: HA_ERROR.notFound, message: 'Service light.x not found.' }, 'light.x')).toMatchObject({ code: 'INVALID_ACTION', status: 400 });
    expect(hubError({ code: HA_ERROR.invalidFormat, message: "extra keys not allowed @ data['foo']" }, 'light.turn_on')).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { field: 'foo', hub_code: 'invalid_format' },
    });
    expect(hubError({ code: HA_ERROR.unauthorized, message: 'Unauthorized' }, 'x')).toMatchObject({ code: 'HUB_ERROR', status: 403 });
  });
  test("the field a validation error names, in voluptuous's words (to 2025) and probatio's (2026.11)", () => {
    const field = (message: string) => hubError({ code: HA_ERROR.invalidFormat, message }, 'light.turn_on').details?.field;
    expect(field("extra keys not allowed @ data['color_temp']")).toBe('color_temp');
    expect(field("value must be at most 100 for dictionary value @ data['brightness_pct']")).toBe('brightness_pct');
    expect(field("not valid value for dictionary value @ data['target']['entity_id']. Got 'nope'")).toBe('target');
    expect(field("not a valid option at 'color_temp'")).toBe('color_temp');
    expect(field("not a valid option, did you mean 'color_temp_kelvin' or 'color_name'? at 'color_temp'")).toBe('color_temp');
    expect(field("expected a percentage between 0 and 100 at 'brightness_pct'")).toBe('brightness_pct');
    expect(field("expected 'all' or 'none' at 'target.entity_id'. Got 'nope'")).toBe('target');
    expect(field("at least one of ['entity_id', 'device_id'] is required")).toBeNull();
  });
  test("an untranslated validation message (2026.11's manual alarm: 'Validation error: invalid_code') is said in words", () => {
    const e = hubError(
      { code: HA_ERROR.serviceValidationError, message: 'Validation error: invalid_code', translation_key: 'invalid_code' },
      'alarm_control_panel.alarm_disarm',
    );
    expect(e).toMatchObject({
      code: 'HUB_ERROR',
      status: 400,
      message: 'Home Assistant refused it: invalid code',
      details: { hub_message: 'Validation error: invalid_code', hub_translation_key: 'invalid_code' },
    });
    // A translated message stays as the hub words it.
    expect(
      hubError({ code: HA_ERROR.serviceValidationError, message: 'Validation error: Invalid alarm code provided', translation_key: 'invalid_code' }, 'x')
        .message,
    ).toBe('Validation error: Invalid alarm code provided');
  });
  test('a lock that wants a code (LockEntity.add_default_code) is INVALID_PARAMETERS naming the field code', () => {
    const e = hubError(
      {
        code: HA_ERROR.serviceValidationError,
        message: "Validation error: The code for lock.front_door doesn't match pattern ^\\d{4}$.",
        translation_key: 'add_default_code',
      },
      'lock.lock',
    );
    expect(e).toMatchObject({
      code: 'INVALID_PARAMETERS',
      status: 400,
      details: { field: 'code', entity_id: 'lock.front_door', code_format: '^\\d{4}$', hub_translation_key: 'add_default_code' },
    });
    expect(e.message).toBe('lock.front_door wants a code: give it as `code` (matching ^\\d{4}$)');
    // 2024.3's message has no prefix and no translation key: the same answer.
    expect(
      hubError({ code: HA_ERROR.serviceValidationError, message: "The code for lock.back_door doesn't match pattern ^\\d+$" }, 'lock.lock').details,
    ).toMatchObject({ field: 'code', entity_id: 'lock.back_door', code_format: '^\\d+$' });
  });
  test('closest ids by id or name', () => {
    const areas = [
      { id: 'living_room', names: ['Living Room', 'lounge'] },
      { id: 'kitchen', names: ['Kitchen'] },
      { id: 'study', names: ['Office'] },
    ];
    expect(closestIds('livingroom', areas)[0]).toBe('living_room');
    expect(closestIds('office', areas)[0]).toBe('study');
  });
});
