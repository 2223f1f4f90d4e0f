// The hub's recorder, in memory: every state change and the events the logbook shows, kept from
// the hub's start, and long-term statistics (imported, or compiled every 5 minutes from sensors
// with a state_class). Answers history/history_during_period, logbook/get_events and
// recorder/statistics_during_period the way Home Assistant 2024.3 answers them (recorder/history/
// modern.py, logbook/processor.py, recorder/statistics.py). Unlike the hub it keeps a bounded
// number of rows per entity rather than 10 days, and leaves out no attributes.
import type { HubEvent } from './bus.js';
import type { Context } from './context.js';
import type { Hub } from './hub.js';
import type { StateChangedData } from './states.js';
import { splitEntityId } from './states.js';
import { secondsFromMicros } from './time.js';
import { localDayStart, localMonthStart, localWeekStart, nextLocal } from './zone.js';

const SIGNIFICANT_DOMAINS = new Set(['climate', 'device_tracker', 'humidifier', 'thermostat', 'water_heater']);
const NEED_ATTRIBUTE_DOMAINS = new Set(['climate', 'humidifier', 'input_datetime', 'thermostat', 'water_heater']);
const ALWAYS_CONTINUOUS_DOMAINS = new Set(['counter', 'proximity']);
/** Events the logbook describes, and call_service, which only explains what others caused. */
const LOGBOOK_EVENTS = new Set(['call_service', 'logbook_entry', 'automation_triggered', 'script_started']);
const EXTERNAL_DOMAINS: Record<string, string> = { automation_triggered: 'automation', script_started: 'script' };
const MAX_ROWS_PER_ENTITY = 5000;
const MAX_EVENTS = 20_000;
const FIVE_MINUTES = 300_000_000;
const HOUR = 3_600_000_000;

interface StateRow {
  entityId: string;
  state: string;
  attributes: Readonly<Record<string, unknown>>;
  lu: number;
  lc: number;
  /** The state before this one; null for an entity's first state. */
  old: string | null;
  context: Context;
}

interface EventRow {
  type: string;
  data: Record<string, unknown>;
  time: number;
  context: Context;
}

export interface StatisticMeta {
  statistic_id: string;
  source: string;
  name: string | null;
  unit_of_measurement: string | null;
  has_mean: boolean;
  has_sum: boolean;
}

/** One period's statistics; times in microseconds. */
export interface StatisticRow {
  start: number;
  mean?: number | null;
  min?: number | null;
  max?: number | null;
  state?: number | null;
  sum?: number | null;
  last_reset?: number | null;
}

interface Series {
  meta: StatisticMeta;
  hourly: Map<number, StatisticRow>;
  short: Map<number, StatisticRow>;
  /** Compiling a sum: the last value seen and the sum so far. */
  last?: number;
  sum?: number;
}

export type StatType = 'change' | 'last_reset' | 'max' | 'mean' | 'min' | 'state' | 'sum';
export type Period = '5minute' | 'hour' | 'day' | 'week' | 'month';

export interface HistoryQuery {
  start: number;
  end?: number;
  entityIds: string[];
  includeStartTimeState: boolean;
  significantChangesOnly: boolean;
  minimalResponse: boolean;
  noAttributes: boolean;
}

export interface LogbookQuery {
  start: number;
  end: number;
  entityIds?: string[];
  deviceIds?: string[];
  contextId?: string;
}

const trim = <T>(list: T[], max: number) => {
  // Amortised: cut a quarter at a time rather than one row per write.
  if (list.length > max + (max >> 2)) list.splice(0, list.length - max);
};

const numeric = (state: string): number | undefined => {
  const n = Number(state);
  return state.trim() !== '' && Number.isFinite(n) ? n : undefined;
};

export class Recorder {
  /** When this recorder run started (the hub's start). */
  readonly runStart: number;
  private readonly rows = new Map<string, StateRow[]>();
  private readonly events: EventRow[] = [];
  private readonly series = new Map<string, Series>();
  private compiledUntil: number;

  constructor(
    private readonly hub: Hub,
    now: number,
  ) {
    this.runStart = now;
    this.compiledUntil = Math.floor(now / FIVE_MINUTES) * FIVE_MINUTES;
    hub.bus.listen('state_changed', (e: HubEvent<StateChangedData>) => this.recordState(e));
    for (const type of LOGBOOK_EVENTS) hub.bus.listen(type, (e: HubEvent) => this.recordEvent(e));
  }

  private recordState(e: HubEvent<StateChangedData>): void {
    const next = e.data.new_state;
    if (!next) return;
    let list = this.rows.get(next.entityId);
    if (!list) this.rows.set(next.entityId, (list = []));
    list.push({
      entityId: next.entityId,
      state: next.state,
      attributes: next.attributes,
      lu: next.lastUpdated,
      lc: next.lastChanged,
      old: e.data.old_state?.state ?? null,
      context: next.context,
    });
    trim(list, MAX_ROWS_PER_ENTITY);
  }

  private recordEvent(e: HubEvent): void {
    this.events.push({ type: e.eventType, data: e.data, time: e.timeFiredMicros, context: e.context });
    trim(this.events, MAX_EVENTS);
  }

  // --- history/history_during_period (compressed state format) --------------------------------

  historyDuringPeriod(q: HistoryQuery): Record<string, Record<string, unknown>[]> {
    if (q.end !== undefined && q.end < this.runStart) return {};
    if (!q.includeStartTimeState && q.entityIds.length) {
      const changedSince = q.entityIds.some((id) => {
        const s = this.hub.states.get(id);
        return !s || (q.noAttributes ? s.lastChanged : s.lastUpdated) > q.start;
      });
      if (!changedSince) return {};
    }
    const withStart = q.includeStartTimeState && this.runStart < q.start;
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const id of q.entityIds) {
      const rows = this.rows.get(id);
      if (!rows || id in out) continue;
      const [domain] = splitEntityId(id);
      const picked: { row: StateRow; atStart: boolean }[] = [];
      if (withStart) {
        const before = findLast(rows, (r) => r.lu < q.start);
        if (before) picked.push({ row: before, atStart: true });
      }
      for (const r of rows) {
        if (r.lu <= q.start || (q.end !== undefined && r.lu >= q.end)) continue;
        if (q.significantChangesOnly && !SIGNIFICANT_DOMAINS.has(domain) && r.lc !== r.lu) continue;
        picked.push({ row: r, atStart: false });
      }
      const full = (p: { row: StateRow; atStart: boolean }, noAttributes: boolean) => {
        const c: Record<string, unknown> = { s: p.row.state };
        if (!noAttributes) c.a = q.noAttributes ? {} : p.row.attributes;
        c.lu = secondsFromMicros(p.atStart ? q.start : p.row.lu);
        if (!q.significantChangesOnly && !p.atStart && p.row.lc !== p.row.lu) c.lc = secondsFromMicros(p.row.lc);
        return c;
      };
      let list: Record<string, unknown>[];
      if (!q.minimalResponse || NEED_ATTRIBUTE_DOMAINS.has(domain)) list = picked.map((p) => full(p, false));
      else {
        // The first state in full, then only the state and when, each time the state differs.
        list = [];
        let prev: string | undefined;
        for (const p of picked) {
          if (!list.length) list.push(full(p, q.noAttributes));
          else if (p.row.state !== prev) list.push({ s: p.row.state, lu: secondsFromMicros(p.row.lu) });
          prev = p.row.state;
        }
      }
      out[id] = list;
    }
    for (const id of Object.keys(out)) if (!out[id]!.length) delete out[id];
    return out;
  }

  // --- logbook/get_events -----------------------------------------------------------------------

  /** Whether the logbook leaves an entity out (counters, and sensors with a unit or state class). */
  isContinuous(entityId: string): boolean {
    const [domain] = splitEntityId(entityId);
    if (ALWAYS_CONTINUOUS_DOMAINS.has(domain)) return true;
    if (domain !== 'sensor') return false;
    const attrs = this.hub.states.get(entityId)?.attributes ?? findLast(this.rows.get(entityId) ?? [], () => true)?.attributes;
    return attrs !== undefined && ('unit_of_measurement' in attrs || 'state_class' in attrs);
  }

  logbookEvents(q: LogbookQuery): Record<string, unknown>[] {
    const inWindow = (t: number) => t > q.start && t < q.end;
    const entities = new Set(q.entityIds ?? []);
    const devices = new Set(q.deviceIds ?? []);
    if (devices.size) for (const e of this.hub.registries.entities.values()) if (e.device_id && devices.has(e.device_id)) entities.add(e.entity_id);
    const filtered = Boolean(q.entityIds?.length || q.deviceIds?.length);
    type Row = { kind: 'state'; at: number; r: StateRow } | { kind: 'event'; at: number; r: EventRow };
    const rows: Row[] = [];
    for (const [id, list] of this.rows) {
      if (this.isContinuous(id)) continue;
      for (const r of list) if (inWindow(r.lu) && r.old !== null && r.state !== r.old && r.lc === r.lu) rows.push({ kind: 'state', at: r.lu, r });
    }
    for (const r of this.events) if (inWindow(r.time)) rows.push({ kind: 'event', at: r.time, r });
    rows.sort((a, b) => a.at - b.at);
    const first = new Map<string, Row>();
    for (const row of rows) if (!first.has(row.r.context.id)) first.set(row.r.context.id, row);

    const entityOf = (row: Row) => (row.kind === 'state' ? row.r.entityId : typeof row.r.data.entity_id === 'string' ? row.r.data.entity_id : undefined);
    const augment = (data: Record<string, unknown>, row: Row) => {
      const ctx = row.r.context;
      if (ctx.userId) data.context_user_id = ctx.userId;
      let cause = first.get(ctx.id);
      if (!cause) return;
      if (cause === row) {
        cause = ctx.parentId ? first.get(ctx.parentId) : undefined;
        if (!cause || cause === row) return;
      }
      if (cause.kind === 'state') {
        data.context_state = cause.r.state;
        data.context_entity_id = cause.r.entityId;
        return;
      }
      if (cause.r.type === 'call_service') {
        data.context_domain = cause.r.data.domain;
        data.context_service = cause.r.data.service;
        data.context_event_type = 'call_service';
        return;
      }
      const domain = EXTERNAL_DOMAINS[cause.r.type];
      if (!domain) return;
      data.context_event_type = cause.r.type;
      data.context_domain = domain;
      const described = describe(cause.r);
      if (described.name) data.context_name = described.name;
      if (described.message) data.context_message = described.message;
      if (described.source) data.context_source = described.source;
      if (described.entity_id) data.context_entity_id = described.entity_id;
    };

    const out: Record<string, unknown>[] = [];
    for (const row of rows) {
      if (q.contextId !== undefined && row.r.context.id !== q.contextId) continue;
      const entityId = entityOf(row);
      if (filtered && !(entityId && entities.has(entityId))) continue;
      const when = secondsFromMicros(row.at);
      let data: Record<string, unknown>;
      if (row.kind === 'state') {
        data = { when, state: row.r.state, entity_id: row.r.entityId };
        if (row.r.attributes.icon) data.icon = row.r.attributes.icon;
      } else if (row.r.type === 'logbook_entry') {
        const d = row.r.data;
        if (!Object.keys(d).length) continue;
        const domain = d.domain ?? (typeof d.entity_id === 'string' && d.entity_id.includes('.') ? splitEntityId(d.entity_id)[0] : null);
        data = { when, name: d.name ?? null, message: d.message ?? null, domain, entity_id: d.entity_id ?? null };
      } else if (EXTERNAL_DOMAINS[row.r.type]) {
        data = { ...describe(row.r), when, domain: EXTERNAL_DOMAINS[row.r.type] };
      } else continue;
      augment(data, row);
      out.push(data);
    }
    return out;
  }

  // --- long-term statistics ---------------------------------------------------------------------

  /** recorder/import_statistics: hourly rows, replacing those with the same start. */
  importStatistics(meta: StatisticMeta, rows: StatisticRow[]): void {
    const s = this.seriesOf(meta);
    s.meta = { ...meta };
    for (const r of rows) s.hourly.set(r.start, r);
  }

  private seriesOf(meta: StatisticMeta): Series {
    let s = this.series.get(meta.statistic_id);
    if (!s) this.series.set(meta.statistic_id, (s = { meta, hourly: new Map(), short: new Map() }));
    return s;
  }

  /**
   * Compiles every 5-minute period that has ended (and each hour once its twelfth has) for the
   * sensors with a state_class, as the recorder does on its 5-minute tick.
   */
  compile(now: number): void {
    while (this.compiledUntil + FIVE_MINUTES <= now) {
      const start = this.compiledUntil;
      const end = start + FIVE_MINUTES;
      for (const [id, rows] of this.rows) {
        if (!id.startsWith('sensor.')) continue;
        const latest = rows[rows.length - 1]!.attributes;
        const stateClass = latest.state_class;
        if (stateClass !== 'measurement' && stateClass !== 'total' && stateClass !== 'total_increasing') continue;
        const row = this.compilePeriod(id, rows, start, end, stateClass, latest);
        if (row)
          this.seriesOf({
            statistic_id: id,
            source: 'recorder',
            name: null,
            unit_of_measurement: typeof latest.unit_of_measurement === 'string' ? latest.unit_of_measurement : null,
            has_mean: stateClass === 'measurement',
            has_sum: stateClass !== 'measurement',
          }).short.set(start, row);
      }
      if (end % HOUR === 0) {
        for (const s of this.series.values()) {
          const parts = [...s.short.values()].filter((r) => r.start >= end - HOUR && r.start < end).sort((a, b) => a.start - b.start);
          if (!parts.length) continue;
          const last = parts[parts.length - 1]!;
          const means = parts.map((p) => p.mean).filter((m): m is number => typeof m === 'number');
          s.hourly.set(
            end - HOUR,
            s.meta.has_mean
              ? {
                  start: end - HOUR,
                  mean: means.reduce((a, b) => a + b, 0) / means.length,
                  min: Math.min(...parts.map((p) => p.min ?? Infinity)),
                  max: Math.max(...parts.map((p) => p.max ?? -Infinity)),
                }
              : { start: end - HOUR, state: last.state ?? null, sum: last.sum ?? null, last_reset: last.last_reset ?? null },
          );
        }
      }
      this.compiledUntil = end;
    }
  }

  private compilePeriod(
    id: string,
    rows: StateRow[],
    start: number,
    end: number,
    stateClass: string,
    latest: Readonly<Record<string, unknown>>,
  ): StatisticRow | undefined {
    // The value in force at the start, then each change within the period.
    const points: { at: number; value: number }[] = [];
    const before = findLast(rows, (r) => r.lu <= start);
    const atStart = before && numeric(before.state);
    if (atStart !== undefined) points.push({ at: start, value: atStart });
    for (const r of rows) {
      if (r.lu <= start || r.lu >= end) continue;
      const value = numeric(r.state);
      if (value !== undefined) points.push({ at: r.lu, value });
    }
    if (!points.length) return undefined;
    if (stateClass === 'measurement') {
      let weighted = 0;
      for (let i = 0; i < points.length; i++) weighted += points[i]!.value * ((points[i + 1]?.at ?? end) - points[i]!.at);
      const values = points.map((p) => p.value);
      return { start, mean: weighted / (end - points[0]!.at), min: Math.min(...values), max: Math.max(...values) };
    }
    const s = this.seriesOf({ statistic_id: id, source: 'recorder', name: null, unit_of_measurement: null, has_mean: false, has_sum: true });
    for (const p of points) {
      if (s.last === undefined) s.sum = 0;
      // A total_increasing sensor that goes down has been reset: it counts from zero again.
      else if (stateClass === 'total_increasing' && p.value < s.last) s.sum! += p.value;
      else s.sum! += p.value - s.last;
      s.last = p.value;
    }
    const lastReset = typeof latest.last_reset === 'string' ? Date.parse(latest.last_reset) * 1000 : null;
    return { start, state: s.last!, sum: s.sum!, last_reset: Number.isFinite(lastReset) ? lastReset : null };
  }

  /**
   * recorder/statistics_during_period: rows from start (aligned to the period, in the hub's
   * zone) to end, per statistic id, with start/end/last_reset in milliseconds as sent.
   */
  statisticsDuringPeriod(q: {
    start: number;
    end?: number;
    statisticIds: string[];
    period: Period;
    types: Set<StatType>;
    now: number;
    timeZone: string;
  }): Record<string, Record<string, unknown>[]> {
    this.compile(q.now);
    const found = [...new Set(q.statisticIds)].map((id) => this.series.get(id)).filter((s): s is Series => s !== undefined);
    if (!found.length) return {};
    const types = new Set<Exclude<StatType, 'change'>>();
    for (const t of q.types) types.add(t === 'change' ? 'sum' : t);
    if (!found.some((s) => s.meta.has_mean)) for (const t of ['mean', 'min', 'max'] as const) types.delete(t);
    if (!found.some((s) => s.meta.has_sum)) for (const t of ['sum', 'state'] as const) types.delete(t);

    let { start, end } = q;
    const tz = q.timeZone;
    if (q.period === 'day' || q.period === 'week' || q.period === 'month') {
      const align = q.period === 'day' ? localDayStart : q.period === 'week' ? localWeekStart : localMonthStart;
      start = align(tz, start);
      if (end !== undefined) end = nextLocal(tz, align(tz, end), q.period);
    }
    const duration = q.period === '5minute' ? FIVE_MINUTES : HOUR;
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const s of found) {
      const table = q.period === '5minute' ? s.short : s.hourly;
      const rows = [...table.values()].filter((r) => r.start >= start && (end === undefined || r.start < end)).sort((a, b) => a.start - b.start);
      if (!rows.length) continue;
      let list = rows.map((r) => {
        const row: Record<string, number | null> = { start: r.start, end: r.start + duration };
        if (types.has('last_reset')) row.last_reset = r.last_reset ?? null;
        for (const t of ['mean', 'min', 'max', 'state', 'sum'] as const) if (types.has(t)) row[t] = r[t] ?? null;
        return row;
      });
      if (q.period === 'day' || q.period === 'week' || q.period === 'month') list = reduce(list, types, tz, q.period);
      if (q.types.has('change')) {
        const before = [...table.values()].filter((r) => r.start < start).sort((a, b) => b.start - a.start)[0];
        let prev = before?.sum ?? 0;
        for (const row of list) {
          if (!('sum' in row)) continue;
          const sum = row.sum ?? null;
          if (!q.types.has('sum')) delete row.sum;
          row.change = sum === null ? null : sum - prev;
          if (sum !== null) prev = sum;
        }
      }
      out[s.meta.statistic_id] = list.map((row) => {
        const wire: Record<string, unknown> = { ...row, start: Math.floor(row.start! / 1000), end: Math.floor(row.end! / 1000) };
        if (typeof row.last_reset === 'number') wire.last_reset = Math.floor(row.last_reset / 1000);
        return wire;
      });
    }
    return out;
  }
}

/** Hourly rows folded into local days, weeks or months (statistics.py _reduce_statistics). */
function reduce(rows: Record<string, number | null>[], types: Set<string>, tz: string, period: 'day' | 'week' | 'month'): Record<string, number | null>[] {
  const align = period === 'day' ? localDayStart : period === 'week' ? localWeekStart : localMonthStart;
  const groups = new Map<number, Record<string, number | null>[]>();
  for (const r of rows) {
    const key = align(tz, r.start!);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const values = (list: Record<string, number | null>[], k: string) => list.map((r) => r[k]).filter((x): x is number => typeof x === 'number');
  return [...groups.entries()].map(([start, list]) => {
    const last = list[list.length - 1]!;
    const row: Record<string, number | null> = { start, end: nextLocal(tz, start, period) };
    if (types.has('mean')) row.mean = values(list, 'mean').length ? values(list, 'mean').reduce((a, b) => a + b, 0) / values(list, 'mean').length : null;
    if (types.has('min')) row.min = values(list, 'min').length ? Math.min(...values(list, 'min')) : null;
    if (types.has('max')) row.max = values(list, 'max').length ? Math.max(...values(list, 'max')) : null;
    if (types.has('last_reset')) row.last_reset = last.last_reset ?? null;
    if (types.has('state')) row.state = last.state ?? null;
    if (types.has('sum')) row.sum = last.sum ?? null;
    return row;
  });
}

/** What the automation and script integrations tell the logbook about their events. */
function describe(e: EventRow): Record<string, unknown> {
  const d = e.data;
  if (e.type === 'automation_triggered') {
    return {
      name: d.name ?? null,
      message: 'source' in d ? `triggered by ${String(d.source)}` : 'triggered',
      source: d.source ?? null,
      entity_id: d.entity_id ?? null,
      context_id: e.context.id,
    };
  }
  return { name: d.name ?? null, message: 'started', entity_id: d.entity_id ?? null, context_id: e.context.id };
}

function findLast<T>(list: readonly T[], pred: (x: T) => boolean): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (pred(list[i]!)) return list[i];
  return undefined;
}
