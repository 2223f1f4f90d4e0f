// The simulator's pure parts: voluptuous-style errors, the hub's colour maths (checked against
// values from the hub's own tests), the compressed state diff, times, and home loading.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Bus } from '../bus.js';
import { hsToXy, kelvinToMired, miredToKelvin, pyRound, rgbToHs, rgbToXy, xyToHs } from '../color.js';
import { Context } from '../context.js';
import { getCloseMatches, ratio } from '../difflib.js';
import { HomeError, loadHome, parseHome } from '../home.js';
import { Hub } from '../hub.js';
import { stateDiff } from '../protocol.js';
import { Invalid, all, boolean, coerceEnum, coerceFloat, coerceInt, dict, humanizeError, isType, literal, pyRepr, range, string } from '../schema.js';
import { StateMachine } from '../states.js';
import { isoFromMicros } from '../time.js';

const NL_HOME = fileURLToPath(new URL('../../../tests/fixtures/nl/home.yaml', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/home.yaml', import.meta.url));

function error(fn: () => unknown): Invalid {
  try {
    fn();
  } catch (err) {
    if (err instanceof Invalid) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('schema', () => {
  const schema = dict({
    brightness_pct: { v: all(coerceFloat, range({ min: 0, max: 100 })), exclusive: 'brightness' },
    brightness: { v: coerceInt, exclusive: 'brightness' },
    name: { v: string },
    flag: { v: boolean },
    mode: { v: coerceEnum('HVACMode', ['off', 'heat']) },
    low: { v: coerceFloat, inclusive: 'temperature' },
    high: { v: coerceFloat, inclusive: 'temperature' },
    kind: { v: literal('auth'), required: true },
  });
  const text = (data: Record<string, unknown>) => error(() => schema({ kind: 'auth', ...data }, [])).text;

  test('messages read as voluptuous writes them', () => {
    expect(text({ brightness_pct: 101 })).toBe("value must be at most 100 for dictionary value @ data['brightness_pct']");
    expect(text({ brightness_pct: -1 })).toBe("value must be at least 0 for dictionary value @ data['brightness_pct']");
    expect(text({ brightness: '12a' })).toBe("expected int for dictionary value @ data['brightness']");
    expect(text({ flag: 'maybe' })).toBe("invalid boolean value maybe for dictionary value @ data['flag']");
    expect(text({ mode: 'cold' })).toBe("expected HVACMode or one of 'off', 'heat' for dictionary value @ data['mode']");
    expect(text({ name: { a: 1 } })).toBe("value should be a string for dictionary value @ data['name']");
    expect(text({ brightness: 1, brightness_pct: 1 })).toBe("two or more values in the same group of exclusion 'brightness' @ data[<brightness>]");
    expect(text({ low: 1 })).toBe("some but not all values in the same group of inclusion 'temperature' @ data[<temperature>]");
    expect(text({ other: 1 })).toBe("extra keys not allowed @ data['other']");
    expect(error(() => schema({}, [])).text).toBe("required key not provided @ data['kind']");
  });

  test('coercions follow Python', () => {
    const out = schema({ kind: 'auth', brightness: '42', name: 7, flag: 'on', low: '1.5', high: 2 }, []) as Record<string, unknown>;
    expect(out).toEqual({ kind: 'auth', brightness: 42, name: '7', flag: true, low: 1.5, high: 2 });
    expect(coerceInt(3.9, [])).toBe(3);
    expect(coerceInt(true, [])).toBe(1);
    expect(() => coerceInt('3.5', [])).toThrow(Invalid);
  });

  test('humanize_error adds what was got; the first error by input order wins', () => {
    const data = { kind: 'auth', name: [1], flag: 'x' };
    const err = error(() => schema(data, []));
    expect(err.text).toBe("value should be a string for dictionary value @ data['name']");
    expect(humanizeError(data, err)).toBe(
      "invalid boolean value x for dictionary value @ data['flag']. Got 'x'\nvalue should be a string for dictionary value @ data['name']. Got [1]",
    );
    expect(pyRepr({ a: [true, null, "it's"] })).toBe(`{'a': [True, None, "it's"]}`);
    expect(
      humanizeError(
        { id: 1 },
        error(() => dict({ id: { v: isType('str') } })({ id: 1 }, [])),
      ),
    ).toBe("expected str for dictionary value @ data['id']. Got 1");
  });
});

describe('difflib (probatio\'s "did you mean" on 2026.11)', () => {
  test('ratio and get_close_matches as Python computes them', () => {
    // Values from CPython's difflib.
    expect(ratio('color_temp_kelvin', 'color_temp')).toBeCloseTo(0.7407407, 6);
    expect(ratio('bcde', 'abcd')).toBe(0.75);
    expect(ratio('id', 'idd')).toBe(0.8);
    expect(getCloseMatches('appel', ['ape', 'apple', 'peach', 'puppy'])).toEqual(['apple', 'ape']);
    const light = [
      'transition',
      'rgb_color',
      'rgbw_color',
      'rgbww_color',
      'color_name',
      'hs_color',
      'xy_color',
      'color_temp_kelvin',
      'brightness',
      'entity_id',
    ];
    expect(getCloseMatches('colour', light, 3, 0.7)).toEqual(['xy_color', 'hs_color']);
    expect(getCloseMatches('foo', light, 3, 0.7)).toEqual([]);
  });
});

describe('colour', () => {
  test('matches the values in the hub colour tests', () => {
    expect(rgbToXy(255, 0, 0)).toEqual([0.701, 0.299]);
    expect(rgbToXy(255, 255, 255)).toEqual([0.323, 0.329]);
    expect(rgbToXy(0, 0, 255)).toEqual([0.136, 0.04]);
    expect(rgbToXy(0, 0, 0)).toEqual([0, 0]);
    expect(xyToHs(1, 1)).toEqual([47.294, 100]);
    expect(xyToHs(0.35, 0.35)).toEqual([38.182, 12.941]);
    expect(xyToHs(0, 0)).toEqual([225.176, 100]);
    expect(hsToXy(180, 100)).toEqual([0.151, 0.343]);
    expect(hsToXy(350, 12.5)).toEqual([0.356, 0.321]);
    expect(rgbToHs(0, 255, 0)).toEqual([120, 100]);
  });

  test('mireds and Python rounding', () => {
    expect(kelvinToMired(6535)).toBe(153);
    expect(miredToKelvin(500)).toBe(2000);
    expect(pyRound(2.5)).toBe(2);
    expect(pyRound(3.5)).toBe(4);
    expect(pyRound(127.5)).toBe(128);
  });
});

describe('state machine and compressed diffs', () => {
  function setup() {
    const bus = new Bus();
    const states = new StateMachine(bus, true);
    const events: any[] = [];
    bus.listen('state_changed', (e) => events.push(e));
    return { states, events };
  }

  test('same state and attributes fire nothing; last_changed moves only with the state', () => {
    const { states, events } = setup();
    const a = states.set('sensor.x', '1', { u: 'W' });
    states.set('sensor.x', '1', { u: 'W' });
    expect(events).toHaveLength(1);
    const b = states.set('sensor.x', '1', { u: 'kW' });
    expect(b.lastChanged).toBe(a.lastChanged);
    expect(b.lastUpdated).toBeGreaterThan(a.lastUpdated);
    const c = states.set('sensor.x', '2', { u: 'kW' });
    expect(c.lastChanged).toBe(c.lastUpdated);
    expect(events).toHaveLength(3);
  });

  test('diff: add, change with lu or lc, context forms, attributes gone, removal', () => {
    const { states, events } = setup();
    states.set('light.a', 'on', { brightness: 1, gone: true }, { context: new Context(null, null, 'C1') });
    expect(stateDiff(events[0])).toEqual({ a: { 'light.a': { s: 'on', a: { brightness: 1, gone: true }, c: 'C1', lc: expect.any(Number) } } });
    states.set('light.a', 'on', { brightness: 2, extra: null }, { context: new Context('U1', null, 'C2') });
    const d = stateDiff(events[1]) as any;
    // lu (not lc): only attributes changed; a key that appears as None is not sent (dict.get).
    expect(d).toEqual({
      c: { 'light.a': { '+': { lu: expect.any(Number), c: { user_id: 'U1', id: 'C2' }, a: { brightness: 2 } }, '-': { a: ['gone'] } } },
    });
    states.set('light.a', 'off', { brightness: 2, extra: null }, { context: new Context('U1', 'P', 'C3') });
    expect((stateDiff(events[2]) as any).c['light.a']['+']).toEqual({ s: 'off', lc: expect.any(Number), c: { parent_id: 'P', id: 'C3' } });
    states.remove('light.a');
    expect(stateDiff(events[3])).toEqual({ r: ['light.a'] });
  });

  test('times look like Python isoformat', () => {
    expect(isoFromMicros(1_700_000_000_123_456)).toBe('2023-11-14T22:13:20.123456+00:00');
    expect(isoFromMicros(1_700_000_000_000_000)).toBe('2023-11-14T22:13:20+00:00');
  });
});

describe('homes', () => {
  test('the intents fixture home loads whole, normalised as the hub shows it', () => {
    const home = loadHome(NL_HOME);
    expect(home.floors).toHaveLength(5);
    expect(home.areas?.find((a) => a.id === 'kitchen_id')).toMatchObject({ name: 'Kitchen', floor: 'first_floor_id' });
    const hub = new Hub({ home, version: '2025.1.0', legacy: false });
    expect(hub.states.size).toBe(home.entities.length);
    expect(hub.states.get('cover.bedroom')?.attributes).toMatchObject({ current_position: 0, device_class: 'curtain', friendly_name: 'Bedroom Curtain' });
    expect(hub.states.get('media_player.tv')?.attributes.volume_level).toBe(0.5);
    expect(hub.states.get('media_player.tv')?.state).toBe('idle');
    expect(hub.states.get('scene.party_mode')?.state).toBe('unknown');
    expect(hub.states.get('script.stealth_mode')?.state).toBe('off');
    expect(hub.states.get('todo.chores')?.state).toBe('0');
    expect(hub.states.get('light.kitchen_ceiling')?.attributes).toMatchObject({ brightness: 255, supported_color_modes: ['color_temp', 'hs'] });
    expect(hub.states.get('valve.main_valve')?.attributes.current_position).toBe(100);
    expect(hub.registries.effectiveArea('light.kitchen_ceiling')).toBe('kitchen_id');
    expect(hub.services.has('script', 'stealth_mode')).toBe(true);
  });

  test('a fixture with the optional extras', () => {
    const home = loadHome(FIXTURE);
    const hub = new Hub({ home, version: '2025.1.0', legacy: false });
    expect(hub.configDict()).toMatchObject({ location_name: 'Fixture Cottage', unit_system: { temperature: '°F' } });
    expect(hub.states.get('climate.cottage')?.attributes).toMatchObject({ min_temp: 45, max_temp: 95, temperature: null });
    expect(hub.registries.effectiveArea('lock.shed')).toBe('shed');
    expect(hub.services.has('notify', 'pager')).toBe(true);
  });

  test('mistakes are reported with where they are', () => {
    expect(() => parseHome({ entities: [{ entity_id: 'Light.Bad' }] })).toThrow(/entities\.0\.entity_id: is not a valid entity id/);
    expect(() => parseHome({ entities: [{ entity_id: 'light.a', area: 'nowhere' }] })).toThrow('entity light.a refers to unknown area nowhere');
    expect(() => parseHome({ areas: [{ id: 'a', name: 'A', floor: 'f' }], entities: [] })).toThrow('area a refers to unknown floor f');
    expect(() => parseHome({ entities: [{ entity_id: 'light.a' }, { entity_id: 'light.a' }] })).toThrow('entity light.a is declared twice');
    expect(() => loadHome('/nonexistent/home.yaml')).toThrow(HomeError);
  });
});
