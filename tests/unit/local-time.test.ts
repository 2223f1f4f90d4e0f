// The SDK's local times: instants in the hub's zone with its offset, and the starts of local days,
// weeks, months and years, also across a change of the clocks.
import { describe, expect, test } from 'vitest';
import { localTime, startOf, zonedInstant } from '../../src/plugin-sdk/time.js';

const AMS = 'Europe/Amsterdam';
const iso = (ms: number) => new Date(ms).toISOString();

describe('localTime', () => {
  test('with the zone’s offset, winter and summer; UTC without a zone or with an unknown one', () => {
    expect(localTime(Date.parse('2026-01-15T12:00:00Z'), AMS)).toBe('2026-01-15T13:00:00+01:00');
    expect(localTime(Date.parse('2026-07-15T12:00:00Z'), AMS)).toBe('2026-07-15T14:00:00+02:00');
    expect(localTime(Date.parse('2026-07-15T12:00:00Z'), 'America/St_Johns')).toBe('2026-07-15T09:30:00-02:30');
    expect(localTime(Date.parse('2026-07-15T12:00:00.400Z'), undefined)).toBe('2026-07-15T12:00:00Z');
    expect(localTime(Date.parse('2026-07-15T12:00:00Z'), 'Not/AZone')).toBe('2026-07-15T12:00:00Z');
  });
});

describe('startOf', () => {
  test('local midnight, also on the days the clocks change', () => {
    expect(iso(zonedInstant(AMS, 2026, 3, 29))).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(zonedInstant(AMS, 2026, 3, 30))).toBe('2026-03-29T22:00:00.000Z');
    // 29 March 2026 has 23 hours in Amsterdam, 25 October 25.
    const march = Date.parse('2026-03-29T12:00:00Z');
    expect((startOf('day', march, AMS, 1) - startOf('day', march, AMS)) / 3_600_000).toBe(23);
    const october = Date.parse('2026-10-25T12:00:00Z');
    expect((startOf('day', october, AMS, 1) - startOf('day', october, AMS)) / 3_600_000).toBe(25);
    // Just after local midnight it is already the next day there.
    expect(iso(startOf('day', Date.parse('2026-07-14T22:30:00Z'), AMS))).toBe('2026-07-14T22:00:00.000Z');
  });

  test('weeks from Monday, months and years, and shifted back and forth', () => {
    const thursday = Date.parse('2026-11-26T10:00:00Z');
    expect(iso(startOf('week', thursday, AMS))).toBe('2026-11-22T23:00:00.000Z');
    expect(iso(startOf('week', thursday, AMS, -1))).toBe('2026-11-15T23:00:00.000Z');
    expect(iso(startOf('month', thursday, AMS))).toBe('2026-10-31T23:00:00.000Z');
    expect(iso(startOf('month', thursday, AMS, -1))).toBe('2026-09-30T22:00:00.000Z');
    expect(iso(startOf('month', thursday, AMS, 2))).toBe('2026-12-31T23:00:00.000Z');
    expect(iso(startOf('year', thursday, AMS))).toBe('2025-12-31T23:00:00.000Z');
    expect(iso(startOf('year', thursday, undefined, -1))).toBe('2025-01-01T00:00:00.000Z');
  });
});
