// The effect model as data: each row is an action as a caller or a config gives it, and what the
// checkpoint must make of it (its effects, a refusal, a question). A home with a script and a
// scene that unlock, a light group holding a denied light, a closed garage door, registry ids.
import { describe, expect, test } from 'vitest';
import { createBus } from '../../src/bus.js';
import type { AppError } from '../../src/errors.js';
import { HubConfigs, type ItemConfig } from '../../src/hub/configs.js';
import { canonicalEntityIds } from '../../src/hub/canonical.js';
import { Registries } from '../../src/hub/registries.js';
import { StateCache } from '../../src/hub/state-cache.js';
import { referencesOf } from '../../src/ha-config/references.js';
import { EffectResolver, toggleDirection } from '../../src/policy/effects.js';
import { Policy, type Caller, type GuardedAction, type PolicySettings } from '../../src/policy/policy.js';
import { callsForState } from '../../src/policy/scene-states.js';

const T = '2026-11-27T00:00:00+00:00';
const state = (entity_id: string, s: string, attributes: Record<string, unknown> = {}) => ({
  entity_id,
  state: s,
  attributes,
  last_changed: T,
  last_updated: T,
});
const LOCK_REG_ID = '0123456789abcdef0123456789abcdef';

function home() {
  const cache = new StateCache();
  cache.replaceAll([
    state('lock.front_door', 'locked'),
    state('lock.back_door', 'locked'),
    state('alarm_control_panel.security', 'armed_away'),
    state('cover.garage_door', 'closed', { device_class: 'garage' }),
    state('cover.blinds', 'closed', { device_class: 'blind' }),
    state('light.hallway', 'off'),
    state('light.nursery', 'off'),
    state('light.downstairs', 'off', { entity_id: ['light.hallway', 'light.nursery'] }),
    state('group.everything', 'off', { entity_id: ['light.hallway', 'lock.front_door'] }),
    state('group.loop', 'off', { entity_id: ['group.loop', 'light.hallway'] }),
    state('script.unlocker', 'off'),
    state('script.outer', 'off'),
    state('script.self', 'off'),
    state('script.templated', 'off'),
    state('scene.open_house', 'unknown', { entity_id: ['lock.back_door'], id: '1700000000001' }),
    state('scene.yaml_scene', 'unknown', { entity_id: ['light.hallway'] }),
    state('automation.unlock_on_arrival', 'on', { id: 'a1' }),
    state('automation.porch_when_unlocked', 'on', { id: 'a2' }),
    state('automation.doorbell_light', 'on', { id: 'a3' }),
  ]);
  const registries = new Registries();
  registries.replace({
    areas: [{ area_id: 'hall', name: 'Hall' }],
    floors: [],
    devices: [{ id: 'dev_lock', name: 'Front lock', area_id: 'hall' }],
    entities: [
      { entity_id: 'lock.front_door', id: LOCK_REG_ID, device_id: 'dev_lock' },
      { entity_id: 'light.hallway', area_id: 'hall' },
    ],
    labels: [],
    floorsSupported: true,
  });
  const configs: Record<string, ItemConfig | null> = {
    'script.unlocker': { sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }] },
    'script.outer': { sequence: [{ action: 'homeassistant.turn_on', target: { entity_id: 'script.unlocker' } }] },
    'script.self': { sequence: [{ action: 'script.self' }, { action: 'light.turn_on', target: { entity_id: 'light.hallway' } }] },
    'script.templated': { sequence: [{ action: 'lock.unlock', target: { entity_id: '{{ states("input_text.which") }}' } }] },
    'scene.open_house': { id: '1700000000001', name: 'Open house', entities: { 'lock.back_door': { state: 'unlocked' } } },
    'scene.yaml_scene': null,
    'automation.unlock_on_arrival': {
      triggers: [{ trigger: 'state', entity_id: 'person.me', to: 'home' }],
      actions: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }],
    },
    'automation.doorbell_light': {
      triggers: [{ trigger: 'event', event_type: 'doorbell_pressed' }],
      actions: [{ action: 'light.turn_on', target: { entity_id: 'light.hallway' } }],
    },
    'automation.porch_when_unlocked': {
      triggers: [{ trigger: 'state', entity_id: 'LOCK.FRONT_DOOR', to: 'unlocked' }],
      actions: [{ action: 'light.turn_on', target: { entity_id: 'light.hallway' } }],
    },
  };
  let reads = 0;
  const hubConfigs = new HubConfigs({
    read: async (_d, id) => {
      reads++;
      return configs[id] ?? null;
    },
  });
  const resolver = new EffectResolver({ cache, registries }, hubConfigs);
  return { cache, registries, resolver, hubConfigs, reads: () => reads };
}

async function judge(actions: GuardedAction[], settings: Partial<PolicySettings> = {}, caller: Caller = {}) {
  const h = home();
  const p = new Policy({ readOnly: false, allow: [], deny: [], requireConfirmation: true, ...settings }, undefined, h.resolver);
  await p.prepare(actions);
  try {
    p.authorize(caller, actions);
    return { ok: true as const, effects: p.effectsOf(actions) };
  } catch (err) {
    return { ok: false as const, error: err as AppError, effects: p.effectsOf(actions) };
  }
}

const act = (entity_id: string, service: string, extra: Partial<GuardedAction> = {}): GuardedAction => ({ entity_id, service, data: {}, ...extra });
const pairs = (fx: GuardedAction[]) => fx.filter((e) => !e.unresolved).map((e) => `${e.entity_id}:${e.service}`);

describe('canonical ids', () => {
  test.each([
    ['LOCK.FRONT_DOOR', ['lock.front_door'], false, []],
    [' lock.front_door ', ['lock.front_door'], false, []],
    ['light.hallway, LOCK.FRONT_DOOR', ['light.hallway', 'lock.front_door'], false, []],
    [['Light.Hallway', 'light.hallway'], ['light.hallway'], false, []],
    ['ALL', [], true, []],
    ['None', [], false, []],
    [LOCK_REG_ID, ['lock.front_door'], false, []],
    ['ffffffffffffffffffffffffffffffff', [], false, ['ffffffffffffffffffffffffffffffff']],
    ['not an id', [], false, ['not an id']],
  ] as const)('%j reads as %j', (given, ids, all, unknown) => {
    const { registries } = home();
    expect(canonicalEntityIds(given, registries)).toEqual({ ids, all, unknown });
  });
});

describe('what an action will do', () => {
  test.each<[string, GuardedAction[], string[]]>([
    ['a direct action is itself', [act('light.hallway', 'turn_on')], ['light.hallway:turn_on']],
    [
      'homeassistant.turn_on of a script runs its steps',
      [act('script.unlocker', 'turn_on', { domain: 'homeassistant' })],
      ['script.unlocker:turn_on', 'lock.front_door:unlock'],
    ],
    ['script.<id> as a service', [act('script.unlocker', 'unlocker')], ['script.unlocker:unlocker', 'lock.front_door:unlock']],
    ['a script toggled while off runs', [act('script.unlocker', 'toggle')], ['script.unlocker:turn_on', 'lock.front_door:unlock']],
    ['a script running a script', [act('script.outer', 'turn_on')], ['script.outer:turn_on', 'script.unlocker:turn_on', 'lock.front_door:unlock']],
    ['a script that runs itself is followed once', [act('script.self', 'turn_on')], ['script.self:turn_on', 'light.hallway:turn_on']],
    [
      'automation.trigger runs its actions',
      [act('automation.unlock_on_arrival', 'trigger')],
      ['automation.unlock_on_arrival:trigger', 'lock.front_door:unlock'],
    ],
    ['automation.turn_on only enables it', [act('automation.unlock_on_arrival', 'turn_on')], ['automation.unlock_on_arrival:turn_on']],
    ['a UI scene sets its states', [act('scene.open_house', 'turn_on')], ['scene.open_house:turn_on', 'lock.back_door:unlock']],
    [
      'scene.apply sets the states in its data',
      [act('scene.apply', 'apply', { targetless: true, data: { entities: { 'LOCK.BACK_DOOR': 'unlocked', 'cover.garage_door': { state: 'open' } } } })],
      ['scene.apply:apply', 'lock.back_door:unlock', 'cover.garage_door:open_cover'],
    ],
    [
      'scene.create judges what it would set',
      [act('scene.create', 'create', { targetless: true, data: { scene_id: 'x', entities: { 'alarm_control_panel.security': 'disarmed' } } })],
      ['scene.create:create', 'alarm_control_panel.security:alarm_disarm'],
    ],
    ['a closed garage door toggled opens', [act('cover.garage_door', 'toggle')], ['cover.garage_door:open_cover']],
    [
      'a light group passes its service on',
      [act('light.downstairs', 'turn_on')],
      ['light.downstairs:turn_on', 'light.hallway:turn_on', 'light.nursery:turn_on'],
    ],
    [
      'an old-style group through homeassistant',
      [act('group.everything', 'turn_off', { domain: 'homeassistant' })],
      ['group.everything:turn_off', 'light.hallway:turn_off', 'lock.front_door:turn_off'],
    ],
    [
      'entities named in the data are judged as touched',
      [act('tts.google', 'speak', { data: { media_player_entity_id: 'MEDIA_PLAYER.KITCHEN', message: 'hi' } })],
      ['media_player.kitchen:speak', 'tts.google:speak'],
    ],
    ['a group holding itself', [act('group.loop', 'turn_on', { domain: 'homeassistant' })], ['group.loop:turn_on', 'light.hallway:turn_on']],
  ])('%s', async (_what, actions, expected) => {
    const r = await judge(actions, { requireConfirmation: false });
    expect(pairs(r.effects)).toEqual(expected);
  });

  test.each<[string, [string, unknown], string[] | undefined]>([
    ['lock unlocked', ['lock', 'unlocked'], ['unlock']],
    ['lock open', ['lock', { state: 'open' }], ['open']],
    ['alarm disarmed', ['alarm_control_panel', 'disarmed'], ['alarm_disarm']],
    ['cover open', ['cover', 'open'], ['open_cover']],
    ['cover position', ['cover', { state: 'open', current_position: 30 }], ['set_cover_position']],
    ['light on', ['light', { state: 'on', brightness: 20 }], ['turn_on']],
    ['media paused', ['media_player', 'paused'], ['media_pause']],
    ['an unknown state of a lock', ['lock', 'jammed'], undefined],
  ])('scene state: %s', (_what, [domain, wanted], services) => {
    expect(callsForState(domain as string, wanted)?.map((c) => c.service)).toEqual(services);
  });

  test.each([
    ['cover', 'closed', 'open_cover'],
    ['cover', 'open', 'close_cover'],
    ['cover', 'unknown', 'open_cover'],
    ['light', 'on', 'turn_off'],
    ['light', 'off', 'turn_on'],
    ['media_player', 'playing', 'turn_off'],
    ['climate', 'off', 'turn_on'],
  ])('toggle of %s when %s is %s', (domain, s, service) => expect(toggleDirection(domain, s)).toBe(service));

  // ATTACK (tests/integration/attack.test.ts, hole C): the stop feature and a partial position decide a cover's toggle.
  test.each([
    ['opening, with stop', 'opening', { supported_features: 11 }, 'stop_cover'],
    ['closing, with stop', 'closing', { supported_features: 11 }, 'stop_cover'],
    ['opening, without stop', 'opening', { supported_features: 3 }, 'close_cover'],
    ['closing, without stop', 'closing', { supported_features: 3 }, 'open_cover'],
    ['fully open', 'open', { current_position: 100 }, 'close_cover'],
    ['partly open', 'open', { current_position: 40 }, 'open_cover'],
  ])('toggle of a cover %s', (_what, s, attributes, service) => expect(toggleDirection('cover', s, attributes)).toBe(service));
});

describe("the issue's holes, each refused or asking", () => {
  const deny = { deny: ['lock', 'alarm_control_panel'] };
  /** A config step as the checkpoint sees it: read by referencesOf, then resolved. */
  const step = (config: unknown): GuardedAction[] => {
    const h = home();
    return referencesOf(config, (id) => h.cache.has(id)).actions.flatMap((a) => h.resolver.ofCall(a));
  };

  test.each<[string, unknown]>([
    ['1 upper-case target', { action: 'lock.unlock', target: { entity_id: 'LOCK.FRONT_DOOR' } }],
    ['1 upper-case action', { action: 'LOCK.UNLOCK', target: { entity_id: 'lock.front_door' } }],
    ['1 ALL', { action: 'lock.unlock', target: { entity_id: 'ALL' } }],
    ['1 a comma list', { action: 'lock.unlock', target: { entity_id: 'light.hallway, LOCK.FRONT_DOOR' } }],
    ['1 an upper-case script', { action: 'script.turn_on', target: { entity_id: 'SCRIPT.UNLOCKER' } }],
    ['2 scene.apply', { action: 'scene.apply', data: { entities: { 'lock.back_door': 'unlocked' } } }],
    ['3 homeassistant.turn_on of a script', { action: 'homeassistant.turn_on', target: { entity_id: 'script.unlocker' } }],
    ['3 homeassistant.toggle of a script', { action: 'homeassistant.toggle', target: { entity_id: 'script.unlocker' } }],
    ['3 scene.turn_on of a scene that unlocks', { action: 'scene.turn_on', target: { entity_id: 'scene.open_house' } }],
    ['3 the scene shorthand', { scene: 'scene.open_house' }],
    ['4 script.<id>', { action: 'script.unlocker' }],
    ['7 a registry id in a target', { action: 'lock.unlock', target: { entity_id: LOCK_REG_ID } }],
    ['7 a device action by registry id', { device_id: 'dev_lock', domain: 'lock', entity_id: LOCK_REG_ID, type: 'unlock' }],
    ['7 a device action on the device', { device_id: 'dev_lock', domain: 'lock', type: 'unlock' }],
    ['7 an area', { action: 'lock.unlock', target: { area_id: 'hall' } }],
  ])('%s: denied', async (_what, config) => {
    const r = await judge(step(config), deny);
    expect(r.ok).toBe(false);
    expect(r.error!.code).toBe('FORBIDDEN');
    expect(r.error!.details.entity_ids).toEqual(expect.arrayContaining([expect.stringMatching(/^(lock|alarm_control_panel)\./)]));
  });

  test.each<[string, unknown]>([
    ['6 a target given whole as a template', { action: 'light.turn_on', target: '{{ {"entity_id": "lock.front_door"} }}' }],
    ['6 data given whole as a template', { action: 'light.turn_on', data: '{{ {"entity_id": "lock.front_door"} }}' }],
    ['6 data_template with a templated entity', { action: 'lock.unlock', data_template: { entity_id: '{{ "lock.front_door" }}' } }],
    ['6 a templated action name', { action: '{{ "lock.unlock" }}', target: { entity_id: 'lock.front_door' } }],
    ['6 service_template', { service_template: '{{ "lock.unlock" }}', entity_id: 'lock.front_door' }],
    ['a registry id the bridge does not know', { action: 'light.turn_on', target: { entity_id: 'ffffffffffffffffffffffffffffffff' } }],
    ['a device the bridge does not know', { action: 'light.turn_on', target: { device_id: 'nope' } }],
  ])('%s: cannot be known, refused', async (_what, config) => {
    const h = home();
    const refs = referencesOf(config, (id) => h.cache.has(id));
    const actions = refs.actions.flatMap((a) => h.resolver.ofCall(a));
    // Either the config reader marks it templated, or the resolver cannot resolve what it names.
    const known = refs.templated.length === 0;
    if (known) {
      const r = await judge(actions, deny);
      expect(r.ok).toBe(false);
      expect(r.error!.details.unresolved).toBeDefined();
    } else expect(refs.templated.length).toBeGreaterThan(0);
  });

  test.each<[string, GuardedAction[], string]>([
    ['4 running a script that unlocks', [act('script.unlocker', 'turn_on')], 'running script.unlocker unlocks lock.front_door'],
    ['4 a scene that unlocks', [act('scene.open_house', 'turn_on')], 'activating scene.open_house unlocks lock.back_door'],
    ['5 toggling a closed garage door', [act('cover.garage_door', 'toggle')], 'toggling cover.garage_door opens the garage cover.garage_door'],
    ['3 homeassistant.turn_on of a script', [act('script.outer', 'turn_on', { domain: 'homeassistant' })], 'running script.outer unlocks lock.front_door'],
  ])('%s asks, naming the effect', async (_what, actions, reason) => {
    const r = await judge(actions);
    expect(r.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(r.error!.details.needs_confirmation).toContain(reason);
    expect((await judge(actions, {}, { confirm: true })).ok).toBe(true);
  });

  test('a light group holding a denied light is refused; so is a templated script, a YAML scene under a rule', async () => {
    expect((await judge([act('light.downstairs', 'turn_on')], { deny: ['light.nursery'] })).error!.details.entity_ids).toEqual(['light.nursery']);
    expect((await judge([act('script.templated', 'turn_on')], deny)).error!.details.unresolved).toEqual([expect.stringContaining('template')]);
    expect((await judge([act('scene.yaml_scene', 'turn_on')], deny)).error!.details.unresolved).toEqual([expect.stringContaining('scene editor')]);
  });

  test('with no rule that could apply, what cannot be known may run; read-only refuses all', async () => {
    const open = { requireConfirmation: false };
    expect((await judge([act('script.templated', 'turn_on')], open)).ok).toBe(true);
    expect((await judge([act('light.hallway', 'turn_on')], { readOnly: true })).error!.code).toBe('FORBIDDEN');
    // A scoped credential is a rule too.
    const scoped: Caller = { principal: { sub: 'x', scope: ['read', 'control'] } as never };
    expect((await judge([act('script.templated', 'turn_on')], open, scoped)).error!.details.unresolved).toBeDefined();
  });

  test('exposure judges the effects', async () => {
    const h = home();
    const p = new Policy(
      { readOnly: false, allow: [], deny: [], requireConfirmation: false, exposedOnly: true },
      { isExposed: (id) => !id.startsWith('lock.') },
      h.resolver,
    );
    const a = [act('script.unlocker', 'turn_on')];
    await p.prepare(a);
    expect(() => p.authorize({}, a)).toThrow(/lock\.front_door \(running script\.unlocker\)/);
  });
});

describe('configs: read once, kept until reloaded', () => {
  test('a second judgement does not ask the hub; a reload event drops what was kept', async () => {
    const h = home();
    const a = [act('script.outer', 'turn_on')];
    await h.resolver.ready(a);
    const first = h.reads();
    expect(first).toBe(2);
    await h.resolver.ready(a);
    expect(h.reads()).toBe(first);
    h.hubConfigs.invalidate();
    await h.resolver.ready(a);
    expect(h.reads()).toBe(first + 2);
  });

  test('automations whose triggers watch an affected entity may also run', async () => {
    const h = home();
    await h.resolver.readAutomations();
    await h.resolver.ready([act('script.unlocker', 'turn_on')]);
    const fx = h.resolver.expand([act('script.unlocker', 'turn_on')]);
    expect(h.resolver.mayAlsoRun(fx)).toEqual([{ automation: 'automation.porch_when_unlocked', because: 'its trigger watches lock.front_door' }]);
  });
});

describe('kept configs follow Home Assistant', () => {
  test('a reload event, a reload call, an item added or a scene whose members changed drops what was kept', async () => {
    const bus = createBus();
    let reads = 0;
    const configs = new HubConfigs(
      {
        read: async () => {
          reads++;
          return { sequence: [] };
        },
      },
      bus,
    );
    const fire = (event_type: string, data: Record<string, unknown>) =>
      bus.emit('event', { event_type, data, origin: 'LOCAL', time_fired: T, context: { id: 'x', parent_id: null, user_id: null } });
    const kept = async () => {
      await configs.load(['script.a', 'scene.b']);
      return configs.get('script.a') !== undefined && configs.get('scene.b') !== undefined;
    };
    expect(await kept()).toBe(true);
    expect(reads).toBe(2);
    for (const [type, data] of [
      ['automation_reloaded', {}],
      ['scene_reloaded', {}],
      ['call_service', { domain: 'script', service: 'reload' }],
      ['call_service', { domain: 'scene', service: 'create', service_data: {} }],
    ] as const) {
      fire(type, data);
      expect(configs.get('script.a'), type).toBeUndefined();
      expect(await kept()).toBe(true);
    }
    fire('call_service', { domain: 'light', service: 'turn_on' });
    expect(configs.get('script.a')).toBeDefined();
    fire('state_changed', {
      entity_id: 'scene.b',
      old_state: state('scene.b', 'x', { entity_id: ['light.a'] }),
      new_state: state('scene.b', 'x', { entity_id: ['light.a', 'lock.b'] }),
    });
    expect(configs.get('scene.b')).toBeUndefined();
    expect(configs.get('script.a')).toBeDefined();
  });

  test('before its config is read, a script is judged as not known: refused under a rule, with the reason', () => {
    const h = home();
    const p = new Policy({ readOnly: false, allow: [], deny: ['lock'], requireConfirmation: false }, undefined, h.resolver);
    expect(() => p.authorize({}, [act('script.unlocker', 'turn_on')])).toThrow(/has not been read yet/);
  });
});

describe('every entity domain, the general call and events (issue 35)', () => {
  // One action of each domain without a tool of its own, as control_entity or call_service sends it.
  const DOMAINS: [string, string, Record<string, unknown>][] = [
    ['switch.kettle', 'turn_on', {}],
    ['input_boolean.guests', 'turn_off', {}],
    ['input_number.minutes', 'set_value', { value: 5 }],
    ['input_select.mode', 'select_option', { option: 'away' }],
    ['input_text.note', 'set_value', { value: 'hi' }],
    ['input_datetime.alarm', 'set_datetime', { time: '07:00' }],
    ['input_button.ring', 'press', {}],
    ['number.volume', 'set_value', { value: 42 }],
    ['select.speed', 'select_option', { option: 'fast' }],
    ['button.restart', 'press', {}],
    ['siren.garage', 'turn_on', { tone: 'fire' }],
    ['valve.garden', 'open_valve', {}],
    ['water_heater.boiler', 'set_temperature', { temperature: 50 }],
    ['humidifier.bedroom', 'set_humidity', { humidity: 40 }],
    ['lawn_mower.mower', 'start_mowing', {}],
    ['remote.tv', 'send_command', { command: 'Play' }],
    ['text.message', 'set_value', { value: 'hello' }],
    ['date.holiday', 'set_value', { date: '2026-12-24' }],
    ['time.wake', 'set_value', { time: '07:00:00' }],
    ['datetime.party', 'set_value', { datetime: '2026-12-31T20:00:00' }],
    ['update.firmware', 'install', {}],
    ['image.doorbell', 'snapshot', { filename: '/tmp/x.jpg' }],
  ];

  test.each(DOMAINS)('%s %s: judged as itself, and refused when its domain is denied', async (id, service, data) => {
    const a = [act(id, service, { data })];
    const open = await judge(a, { requireConfirmation: false });
    expect(pairs(open.effects)).toEqual([`${id}:${service}`]);
    const domain = id.slice(0, id.indexOf('.'));
    const denied = await judge(a, { deny: [domain] });
    expect(denied.error?.code).toBe('FORBIDDEN');
    expect(denied.error!.details.entity_ids).toEqual([id]);
    expect((await judge(a, { readOnly: true })).error!.details.read_only).toBe(true);
  });

  test.each([
    ['siren', 'on', 'turn_off'],
    ['siren', 'off', 'turn_on'],
    ['humidifier', 'on', 'turn_off'],
    ['remote', 'off', 'turn_on'],
    ['valve', 'closed', 'open_valve'],
    ['valve', 'open', 'close_valve'],
  ])('a %s toggled while %s does %s', (domain, now, service) => {
    expect(toggleDirection(domain, now)).toBe(service);
  });

  test('the general call reaches a lock however it is written: homeassistant.turn_on, a script, scene.apply, upper case', async () => {
    const deny = { deny: ['lock'] };
    const h = home();
    const calls = [
      { domain: 'homeassistant', service: 'turn_on', target: { entity_id: 'LOCK.FRONT_DOOR' }, data: {} },
      { domain: 'homeassistant', service: 'toggle', target: { entity_id: 'script.unlocker' }, data: {} },
      { domain: 'script', service: 'unlocker', target: {}, data: {} },
      { domain: 'scene', service: 'apply', target: {}, data: { entities: { 'lock.back_door': 'unlocked' } } },
      { domain: 'LOCK', service: 'UNLOCK', target: { area_id: 'hall' }, data: {} },
    ];
    for (const call of calls) {
      const r = await judge(h.resolver.ofCall(call), deny);
      expect(r.error?.code, JSON.stringify(call)).toBe('FORBIDDEN');
      expect(r.error!.details.entity_ids, JSON.stringify(call)).toEqual([expect.stringMatching(/^lock\./)]);
    }
  });

  test('a service that decides for itself what it touches cannot be known: refused under any rule', async () => {
    for (const [domain, service] of <[string, string][]>[
      ['conversation', 'process'],
      ['shell_command', 'anything'],
      ['python_script', 'open_all'],
      ['rest_command', 'relay'],
      ['mqtt', 'publish'],
    ]) {
      const a = [act(`${domain}.${service}`, service, { targetless: true, data: { text: 'unlock the front door' } })];
      const r = await judge(a, { deny: ['lock'] });
      expect(r.error?.details.unresolved, `${domain}.${service}`).toEqual([expect.stringContaining(`${domain}.${service}`)]);
      expect((await judge(a, { requireConfirmation: false })).ok).toBe(true);
    }
  });

  test('a fired event is an action: read-only and the lists refuse it; entities in its data are judged; automations listening may also run', async () => {
    const fire = (data: Record<string, unknown> = {}) => [act('fire_event.doorbell_pressed', 'fire_event', { targetless: true, data })];
    expect((await judge(fire(), { requireConfirmation: false })).ok).toBe(true);
    expect((await judge(fire(), { readOnly: true })).error!.details.read_only).toBe(true);
    expect((await judge(fire(), { deny: ['fire_event'] })).error!.details.entity_ids).toEqual(['fire_event.doorbell_pressed']);
    expect((await judge(fire({ entity_id: 'lock.front_door' }), { deny: ['lock'] })).error!.details.entity_ids).toEqual(['lock.front_door']);
    const h = home();
    await h.resolver.readAutomations();
    expect(h.resolver.mayAlsoRun(h.resolver.expand(fire()))).toEqual([
      { automation: 'automation.doorbell_light', because: 'its trigger listens for the event doorbell_pressed' },
    ]);
  });
});
