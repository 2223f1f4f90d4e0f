// One event of calendar/event/subscribe as Home Assistant 2026.11's CalendarEvent.as_dict() gives
// it, checked the same way against the real hub (tests/e2e) and the simulator (tests/integration):
// times as ISO text (local with offset, or a date), unset keys left out, then all_day.
import { expect } from 'vitest';

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;
const DATE = /^\d{4}-\d\d-\d\d$/;

export interface SubscribedEvent {
  summary: string;
  all_day: boolean;
  description?: string;
  location?: string;
  /** A series' instance: its recurrence id (20261128T190000 or 20261128). */
  recurrence_id?: RegExp;
  rrule?: string;
}

export function expectSubscribedEvent(e: Record<string, unknown>, want: SubscribedEvent): void {
  const keys = ['start', 'end', 'summary', 'description', 'location', 'uid', 'recurrence_id', 'rrule', 'all_day'].filter(
    (k) => k === 'start' || k === 'end' || k === 'uid' || k in want,
  );
  expect(Object.keys(e), JSON.stringify(e)).toEqual(keys);
  const time = want.all_day ? DATE : DATE_TIME;
  expect(e).toEqual({
    ...want,
    start: expect.stringMatching(time),
    end: expect.stringMatching(time),
    uid: expect.any(String),
    ...(want.recurrence_id ? { recurrence_id: expect.stringMatching(want.recurrence_id) } : {}),
  });
}
