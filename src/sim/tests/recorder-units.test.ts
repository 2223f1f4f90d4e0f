// The simulator recorder's statistics compiled from sensor states, and its clock in the hub's
// zone: states at chosen times go through the hub's bus as state_changed, and compiling is asked
// for at a chosen "now".
import { describe, expect, test } from 'vitest';
import { Context } from '../context.js';
import { parseHome } from '../home.js';
import { Hub } from '../hub.js';
import { State } from '../states.js';
import { localDayStart, localWeekStart, parseHubDatetime } from '../zone.js';

const MIN = 60_000_000;
const HOUR = 60 * MIN;

function hubWithReadings(entityId: string, attributes: Record<string, unknown>, readings: [minutes: number, value: string][]) {
  const hub = new Hub({ home: parseHome({ name: 'Test', time_zone: 'Europe/Amsterdam', entities: [] }), version: '2025.1.0', legacy: false });
  // The first whole hour after the recorder started: every period from there on is compiled.
  const base = Math.ceil(hub.recorder.runStart / HOUR) * HOUR;
  let old: State | null = null;
  for (const [minutes, value] of readings) {
    const at = base + minutes * MIN;
    const next: State = new State(entityId, value, attributes, at, at, at, new Context(), true);
    hub.bus.fire('state_changed', { entity_id: entityId, old_state: old, new_state: next });
    old = next;
  }
  const read = (period: '5minute' | 'hour', nowMinutes: number) =>
    hub.recorder.statisticsDuringPeriod({
      start: base,
      statisticIds: [entityId],
      period,
      types: new Set(['mean', 'min', 'max', 'state', 'sum', 'change']),
      now: base + nowMinutes * MIN,
      timeZone: 'Europe/Amsterdam',
    })[entityId];
  return { base, read };
}

describe('statistics compiled from states', () => {
  test('a measurement: time-weighted mean, min and max per 5 minutes, and per hour from those', () => {
    const { base, read } = hubWithReadings('sensor.temp', { state_class: 'measurement', unit_of_measurement: '°C' }, [
      [0, '10'],
      [2.5, '20'],
      [7, 'unavailable'],
    ]);
    // Nothing before a period has ended.
    expect(read('5minute', 4)).toBeUndefined();
    const short = read('5minute', 10)!;
    expect(short).toEqual([
      { start: base / 1000, end: (base + 5 * MIN) / 1000, mean: 15, min: 10, max: 20 },
      { start: (base + 5 * MIN) / 1000, end: (base + 10 * MIN) / 1000, mean: 20, min: 20, max: 20 },
    ]);
    expect(read('hour', 30)).toBeUndefined();
    // Unavailable from minute 7: the second period counts 20 to its end, the later ones have no rows.
    expect(read('5minute', 60)).toHaveLength(2);
    expect(read('hour', 61)).toEqual([{ start: base / 1000, end: (base + HOUR) / 1000, mean: 17.5, min: 10, max: 20 }]);
  });

  test('a total_increasing meter: the last state, a sum that carries on over a reset, the change per period', () => {
    const { read } = hubWithReadings('sensor.energy', { state_class: 'total_increasing', unit_of_measurement: 'kWh' }, [
      [0, '5'],
      [1, '7'],
      [6, '2'],
      [8, '4'],
    ]);
    expect(read('5minute', 10)!.map((r) => [r.state, r.sum, r.change])).toEqual([
      [7, 2, 2],
      [4, 6, 4],
    ]);
  });
});

describe('the hub’s zone', () => {
  test('naive times are local; days and weeks start at local midnight, across a DST change', () => {
    const tz = 'Europe/Amsterdam';
    expect(parseHubDatetime('2024-03-01T08:00:00', tz)).toBe(Date.parse('2024-03-01T07:00:00Z') * 1000);
    expect(parseHubDatetime('2024-07-01 08:00', tz)).toBe(Date.parse('2024-07-01T06:00:00Z') * 1000);
    expect(parseHubDatetime('2024-03-01T08:00:00.5+05:30', tz)).toBe(Date.parse('2024-03-01T02:30:00.500Z') * 1000);
    expect(parseHubDatetime('2024-02-30T08:00:00Z', tz)).toBeUndefined();
    expect(parseHubDatetime('yesterday', tz)).toBeUndefined();
    expect(localDayStart(tz, Date.parse('2024-03-31T12:00:00Z') * 1000)).toBe(Date.parse('2024-03-30T23:00:00Z') * 1000);
    expect(localDayStart(tz, Date.parse('2024-04-01T12:00:00Z') * 1000)).toBe(Date.parse('2024-03-31T22:00:00Z') * 1000);
    // 2024-03-31 was a Sunday: its week began on Monday the 25th, still in winter time.
    expect(localWeekStart(tz, Date.parse('2024-03-31T12:00:00Z') * 1000)).toBe(Date.parse('2024-03-24T23:00:00Z') * 1000);
  });
});
