// How the simulator expands recurring events (RFC 5545 as Home Assistant's local calendar does):
// daily and weekly rules with INTERVAL, COUNT, UNTIL and BYDAY, across a change of daylight saving
// time, with deleted instances left out.
import { describe, expect, test } from 'vitest';
import { eventsBetween, localIso, parseRule, type StoredEvent } from '../domains/calendar-events.js';
import { fromLocal } from '../zone.js';

const TZ = 'Europe/Amsterdam';
const at = (y: number, m: number, d: number, h = 0, min = 0) => fromLocal(TZ, y, m, d, h, min);
const timed = (summary: string, start: number, minutes: number, rrule?: string, extra: Partial<StoredEvent> = {}): StoredEvent => ({
  uid: summary,
  summary,
  start: { us: start },
  end: { us: start + minutes * 60_000_000 },
  ...(rrule ? { rrule } : {}),
  ...extra,
});
const starts = (events: StoredEvent[], from: number, to: number) =>
  eventsBetween(events, TZ, from, to).map((i) => ('us' in i.start ? localIso(TZ, i.start.us) : i.start.date));

describe('recurring events', () => {
  test('weekly with COUNT keeps the wall-clock time across the end of summer time', () => {
    const e = timed('Bins', at(2026, 10, 19, 19), 15, 'FREQ=WEEKLY;COUNT=3');
    expect(starts([e], at(2026, 10, 1), at(2026, 12, 1))).toEqual(['2026-10-19T19:00:00+02:00', '2026-10-26T19:00:00+01:00', '2026-11-02T19:00:00+01:00']);
  });

  test('daily with INTERVAL and UNTIL; a range in the middle of the series', () => {
    const e = timed('Swim', at(2026, 11, 1, 7), 60, 'FREQ=DAILY;INTERVAL=2;UNTIL=20261107T235959Z');
    expect(starts([e], at(2026, 11, 1), at(2026, 12, 1))).toEqual(['2026-11-01', '2026-11-03', '2026-11-05', '2026-11-07'].map((d) => `${d}T07:00:00+01:00`));
    // An event still running at the start of the range counts; one starting at its end does not.
    expect(starts([e], at(2026, 11, 3, 7, 30), at(2026, 11, 5, 7))).toEqual(['2026-11-03T07:00:00+01:00']);
  });

  test('weekly BYDAY, and an all-day series with a deleted instance', () => {
    const e = timed('Gym', at(2026, 11, 2, 18), 60, 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=4');
    expect(starts([e], at(2026, 11, 1), at(2026, 12, 1)).map((s) => s.slice(0, 10))).toEqual(['2026-11-02', '2026-11-05', '2026-11-09', '2026-11-12']);
    const allDay: StoredEvent = {
      uid: 'a',
      summary: 'Holiday',
      start: { date: '2026-12-24' },
      end: { date: '2026-12-25' },
      rrule: 'FREQ=DAILY;COUNT=3',
      exdates: ['20261225'],
    };
    expect(starts([allDay], at(2026, 12, 1), at(2027, 1, 1))).toEqual(['2026-12-24', '2026-12-26']);
  });

  test('rules it cannot read are refused as the hub refuses them', () => {
    expect(() => parseRule('FREQ=HOURLY', TZ)).toThrow(/Invalid frequency/);
    expect(() => parseRule('COUNT=2', TZ)).toThrow(/did not contain FREQ/);
    expect(() => parseRule('FREQ=DAILY;COUNT=2;UNTIL=20270101', TZ)).toThrow(/UNTIL and COUNT/);
  });
});
