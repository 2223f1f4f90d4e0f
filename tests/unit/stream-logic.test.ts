import { describe, expect, test } from 'vitest';
import { ClientBudgets } from '../../src/stream/client-budget.js';
import { matches, normalFilter } from '../../src/events/filter.js';
import { filtersWhere } from '../../src/store/events.js';
import { bucketOf, merge, newHistogram, quantile, record, recordArrivals } from '../../src/stream/histogram.js';
import { isoDuration } from '../../src/stream/metrics.js';
import { SubscriptionIndex, type IndexEntry } from '../../src/stream/subscription-index.js';

const keys = (event_type: string, entity_id: string | null) => ({ event_type, entity_id, domain: entity_id ? entity_id.split('.')[0]! : null });

describe('subscription index', () => {
  test('finds exactly the entries whose filters match, each filed once under its most selective key', () => {
    const index = new SubscriptionIndex<string>();
    const e = (target: string, filter: object): IndexEntry<string> => ({ target, filter });
    const entries = [
      e('all', {}),
      e('type', { event_type: 'state_changed' }),
      e('domain', { domain: 'light' }),
      e('entity', { entity_id: 'light.a' }),
      e('entity+type', { entity_id: 'light.a', event_type: 'call_service' }),
      e('domain+type', { domain: 'light', event_type: 'state_changed' }),
      e('other', { entity_id: 'switch.b' }),
    ];
    for (const x of entries) index.add(x);
    expect(index.size).toBe(entries.length);
    const found = (k: ReturnType<typeof keys>) => {
      const out: string[] = [];
      index.forEachMatch(k, (x) => out.push(x.target));
      return out.sort();
    };
    expect(found(keys('state_changed', 'light.a'))).toEqual(['all', 'domain', 'domain+type', 'entity', 'type']);
    expect(found(keys('call_service', 'light.a'))).toEqual(['all', 'domain', 'entity', 'entity+type']);
    expect(found(keys('homeassistant_start', null))).toEqual(['all']);
    // Brute force agrees on every combination.
    for (const t of ['state_changed', 'call_service', 'x']) {
      for (const id of ['light.a', 'light.z', 'switch.b', null]) {
        const k = keys(t, id);
        expect(found(k)).toEqual(
          entries
            .filter((x) => matches(x.filter, k))
            .map((x) => x.target)
            .sort(),
        );
      }
    }
    for (const x of entries) index.remove(x);
    expect(index.size).toBe(0);
    expect(found(keys('state_changed', 'light.a'))).toEqual([]);
  });
});

test('filters as SQL: any of the filters; an empty filter means everything', () => {
  expect(filtersWhere([])).toEqual({ sql: '1', params: [] });
  expect(filtersWhere([{ domain: 'light' }, {}])).toEqual({ sql: '1', params: [] });
  expect(filtersWhere([{ domain: 'light', event_type: 'state_changed' }, { entity_id: 'lock.a' }])).toEqual({
    sql: '((event_type = ? AND domain = ?) OR (entity_id = ?))',
    params: ['state_changed', 'light', 'lock.a'],
  });
  expect(normalFilter({ domain: undefined, entity_id: 'a.b' })).toEqual({ entity_id: 'a.b' });
});

test('latency histogram: quantiles within a bucket’s width, merging adds', () => {
  const h = newHistogram();
  for (let i = 1; i <= 100; i++) record(h, i / 10);
  expect(quantile(h, 0.5)).toBeGreaterThanOrEqual(5);
  expect(quantile(h, 0.5)).toBeLessThan(5 * 2 ** 0.25 + 0.01);
  expect(quantile(h, 0.99)).toBeGreaterThanOrEqual(9.9);
  expect(quantile(newHistogram(), 0.5)).toBe(0);
  const g = newHistogram();
  merge(g, h);
  merge(g, h);
  expect(g.reduce((a, b) => a + b)).toBe(200);
  expect(bucketOf(0)).toBe(0);
  expect(bucketOf(1e9)).toBe(h.length - 1);
});

test('latency histogram: a run of arrivals counts as frame by frame', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 200; round++) {
    const now = 1000 + random() * 5000;
    const arrivals: number[] = [];
    // Oldest first, spread from seconds to microseconds old, with repeats (events of one tick).
    let t = now - random() * 3000;
    const count = Math.floor(random() * 400);
    for (let i = 0; i < count; i++) {
      arrivals.push(t);
      if (random() < 0.7) t += random() * random() * (now - t);
    }
    const from = Math.floor(random() * (count + 1));
    const n = 1 + Math.floor(random() * 5);
    const expected = newHistogram();
    for (let i = from; i < count; i++) expected[bucketOf(now - arrivals[i]!)]! += n;
    const got = newHistogram();
    recordArrivals(got, now, arrivals, from, count, n);
    expect(got).toEqual(expected);
  }
});

test('ISO 8601 durations', () => {
  expect(isoDuration(0)).toBe('PT0S');
  expect(isoDuration(61_000)).toBe('PT1M1S');
  expect(isoDuration(3_600_000)).toBe('PT1H');
  expect(isoDuration(90_061_000)).toBe('P1DT1H1M1S');
});

test('client budgets: the limit per window, one announcement, a new window starts afresh', () => {
  const b = new ClientBudgets(2, 1000);
  expect([b.take('a', 0), b.take('a', 1), b.take('a', 2), b.take('a', 3), b.take('b', 3)]).toEqual([
    'deliver',
    'deliver',
    'drop_and_announce',
    'drop',
    'deliver',
  ]);
  expect(b.notice('a')).toEqual({ limit: 2, window_seconds: 1, reset: 1 });
  expect(b.take('a', 1000)).toBe('deliver');
  expect(new ClientBudgets(0, 1000).take('a', 0)).toBe('deliver');
});
