// The WebSocket commands of the history, logbook and recorder integrations, with their schemas
// and checks as in Home Assistant 2024.3 (history/websocket_api.py, logbook/websocket_api.py,
// recorder/websocket_api.py and statistics.py); the answers come from the hub's Recorder.
import { MSG } from './names.js';
import type { Command, CommandConnection } from './commands.js';
import { HomeAssistantError } from './errors.js';
import type { Period, StatisticMeta, StatisticRow, StatType } from './recorder.js';
import { type KeySpec, type Validator, Invalid, all, any, dict, isType, listOf, literal, oneOf } from './schema.js';
import { validEntityId } from './states.js';
import { nowMicros } from './time.js';
import { parseHubDatetime } from './zone.js';

type Msg = Record<string, unknown> & { id: number; type: string };
type Add = (type: string, fields: Record<string, KeySpec>, handle: Command['handle'], admin?: boolean) => void;

/** voluptuous `[str]`: a list, of strings. */
const strings: Validator = all(isType('list'), listOf(isType('str')));
const atLeastOne: Validator = (v, path) => {
  if ((v as unknown[]).length < 1) throw new Invalid('length of value must be at least 1', path);
  return v;
};
const number: Validator = (v, path) => {
  if (typeof v !== 'number') throw new Invalid('expected float', path);
  return v;
};
const nullable = (inner: Validator): Validator => any(literal(null), inner);
/** cv.datetime: a datetime string, kept as given (the handler reads its offset). */
const datetimeText: Validator = (v, path) => {
  if (typeof v !== 'string' || parseHubDatetime(v, 'UTC') === undefined) throw new Invalid(`Invalid datetime specified: ${String(v)}`, path);
  return v;
};
const HAS_OFFSET = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

const STAT_TYPES = ['change', 'last_reset', 'max', 'mean', 'min', 'state', 'sum'] as const;
const PERIODS = ['5minute', 'hour', 'day', 'week', 'month'] as const;
const VALID_STATISTIC_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_):(?!_)[\da-z_]+(?<!_)$/;

/** start_time and end_time as the hub reads them, or an error sent and undefined. */
function period(conn: CommandConnection, msg: Msg): { start: number; end: number | undefined } | undefined {
  const tz = conn.hub.home.time_zone ?? 'UTC';
  const start = parseHubDatetime(msg.start_time as string, tz);
  if (start === undefined) {
    conn.sendError(msg.id, 'invalid_start_time', 'Invalid start_time');
    return undefined;
  }
  if (msg.end_time === undefined || msg.end_time === '') return { start, end: undefined };
  const end = parseHubDatetime(msg.end_time as string, tz);
  if (end === undefined) {
    conn.sendError(msg.id, 'invalid_end_time', 'Invalid end_time');
    return undefined;
  }
  return { start, end };
}

export function addRecorderCommands(add: Add): void {
  add(
    MSG.historyDuringPeriod,
    {
      start_time: { v: isType('str'), required: true },
      end_time: { v: isType('str') },
      entity_ids: { v: strings, required: true },
      include_start_time_state: { v: isType('bool'), default: true },
      significant_changes_only: { v: isType('bool'), default: true },
      minimal_response: { v: isType('bool'), default: false },
      no_attributes: { v: isType('bool'), default: false },
    },
    (conn, msg) => {
      const p = period(conn, msg);
      if (!p) return;
      if (p.start > nowMicros()) return conn.sendResult(msg.id, {});
      const ids = msg.entity_ids as string[];
      if (ids.some((id) => !conn.hub.states.get(id) && !validEntityId(id))) return conn.sendError(msg.id, 'invalid_entity_ids', 'Invalid entity_ids');
      conn.sendResult(
        msg.id,
        conn.hub.recorder.historyDuringPeriod({
          start: p.start,
          end: p.end,
          entityIds: ids,
          includeStartTimeState: msg.include_start_time_state as boolean,
          significantChangesOnly: msg.significant_changes_only as boolean,
          minimalResponse: msg.minimal_response as boolean,
          noAttributes: msg.no_attributes as boolean,
        }),
      );
    },
  );

  add(
    MSG.logbookGetEvents,
    {
      start_time: { v: isType('str'), required: true },
      end_time: { v: isType('str') },
      entity_ids: { v: strings },
      device_ids: { v: strings },
      context_id: { v: isType('str') },
    },
    (conn, msg) => {
      const p = period(conn, msg);
      if (!p) return;
      const now = nowMicros();
      if (p.start > now) return conn.sendResult(msg.id, []);
      const deviceIds = msg.device_ids as string[] | undefined;
      let entityIds = msg.entity_ids as string[] | undefined;
      if (entityIds?.length) {
        entityIds = entityIds.filter((id) => !conn.hub.recorder.isContinuous(id));
        if (!entityIds.length && !deviceIds?.length) return conn.sendResult(msg.id, []);
      }
      conn.sendResult(
        msg.id,
        conn.hub.recorder.logbookEvents({ start: p.start, end: p.end ?? now, entityIds, deviceIds, contextId: msg.context_id as string | undefined }),
      );
    },
  );

  add(
    MSG.statisticsDuringPeriod,
    {
      start_time: { v: isType('str'), required: true },
      end_time: { v: isType('str') },
      statistic_ids: { v: all(strings, atLeastOne), required: true },
      period: { v: oneOf(PERIODS), required: true },
      units: { v: isType('dict') },
      types: { v: all(isType('list'), listOf(oneOf(STAT_TYPES))) },
    },
    (conn, msg) => {
      const p = period(conn, msg);
      if (!p) return;
      conn.sendResult(
        msg.id,
        conn.hub.recorder.statisticsDuringPeriod({
          start: p.start,
          end: p.end,
          statisticIds: msg.statistic_ids as string[],
          period: msg.period as Period,
          types: new Set((msg.types as StatType[] | undefined) ?? STAT_TYPES),
          now: nowMicros(),
          timeZone: conn.hub.home.time_zone ?? 'UTC',
        }),
      );
    },
  );

  add(
    MSG.importStatistics,
    {
      metadata: {
        v: dict({
          has_mean: { v: isType('bool'), required: true },
          has_sum: { v: isType('bool'), required: true },
          name: { v: nullable(isType('str')), required: true },
          source: { v: isType('str'), required: true },
          statistic_id: { v: isType('str'), required: true },
          unit_of_measurement: { v: nullable(isType('str')), required: true },
        }),
        required: true,
      },
      stats: {
        v: all(
          isType('list'),
          listOf(
            dict({
              start: { v: datetimeText, required: true },
              mean: { v: number },
              min: { v: number },
              max: { v: number },
              last_reset: { v: nullable(datetimeText) },
              state: { v: number },
              sum: { v: number },
            }),
          ),
        ),
        required: true,
      },
    },
    (conn, msg) => {
      const meta = msg.metadata as StatisticMeta;
      const tz = conn.hub.home.time_zone ?? 'UTC';
      if (validEntityId(meta.statistic_id)) {
        if (meta.source !== 'recorder') throw new HomeAssistantError('Invalid source');
      } else {
        if (!VALID_STATISTIC_ID.test(meta.statistic_id)) throw new HomeAssistantError('Invalid statistic_id');
        if (meta.source !== meta.statistic_id.slice(0, meta.statistic_id.indexOf(':'))) throw new HomeAssistantError('Invalid source');
      }
      const rows: StatisticRow[] = (msg.stats as Record<string, unknown>[]).map((s) => {
        const text = s.start as string;
        if (!HAS_OFFSET.test(text.trim())) throw new HomeAssistantError('Naive timestamp');
        const start = parseHubDatetime(text, tz)!;
        if (start % 3_600_000_000 !== 0) throw new HomeAssistantError('Invalid timestamp');
        const row: StatisticRow = { start };
        for (const k of ['mean', 'min', 'max', 'state', 'sum'] as const) if (typeof s[k] === 'number') row[k] = s[k] as number;
        if (typeof s.last_reset === 'string') {
          if (!HAS_OFFSET.test(s.last_reset.trim())) throw new HomeAssistantError('Naive timestamp');
          row.last_reset = parseHubDatetime(s.last_reset, tz)!;
        }
        return row;
      });
      conn.hub.recorder.importStatistics(meta, rows);
      conn.sendResult(msg.id);
    },
    true,
  );
}
