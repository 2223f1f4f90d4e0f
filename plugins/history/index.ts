// History: what Home Assistant's recorder kept. An entity's states over a period
// (history/history_during_period), the logbook (logbook/get_events) and long-term statistics
// (recorder/statistics_during_period), asked over the hub's WebSocket API and answered compactly,
// in pages, with times in the hub's own zone.
import { definePlugin, localTime, PluginError, tool, v, type Home, type HubQuestion, type ToolResult } from 'home-mcp-bridge/plugin';

const HOUR_MS = 3_600_000;

const when = v.pipe(
  v.string(),
  v.maxLength(40),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'must be a date and time such as 2024-03-01T08:00:00Z'),
);
const entityId = v.pipe(v.string(), v.regex(/^[a-z0-9_]+\.[a-z0-9_]+$/, 'must be an entity id such as light.kitchen'));
const period = {
  start: v.optional(when),
  end: v.optional(when),
  hours: v.optional(v.pipe(v.number(), v.minValue(0.1), v.maxValue(24 * 366))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500)), 50),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(120))),
};

/**
 * The page and the period it is of. A cursor holds both, so a next page reads the same period
 * even when it was "the last 24 hours" and time has moved on.
 */
function window(args: { start?: string; end?: string; hours?: number; cursor?: string }): { offset: number; start: number; end: number } {
  if (args.cursor !== undefined) {
    let c: unknown;
    try {
      c = JSON.parse(Buffer.from(args.cursor, 'base64url').toString());
    } catch {
      c = undefined;
    }
    const ok = (x: unknown): x is { o: number; s: number; e: number } =>
      typeof x === 'object' && x !== null && ['o', 's', 'e'].every((k) => Number.isSafeInteger((x as Record<string, unknown>)[k]));
    if (!ok(c)) throw new PluginError('cursor: is not one this tool gave; leave it out to start again', { field: 'cursor' });
    return { offset: c.o, start: c.s, end: c.e };
  }
  const end = args.end ? Date.parse(args.end) : Date.now();
  const start = args.start ? Date.parse(args.start) : end - (args.hours ?? 24) * HOUR_MS;
  if (start >= end) throw new PluginError('start: must be before end', { field: 'start' });
  return { offset: 0, start, end };
}
const cursorOf = (offset: number, w: { start: number; end: number }) => Buffer.from(JSON.stringify({ o: offset, s: w.start, e: w.end })).toString('base64url');

/** A question to the hub, with a hub that lacks the integration told apart from other refusals. */
async function ask<T>(home: Home, question: HubQuestion, integration: string): Promise<T> {
  try {
    return await home.read<T>(question);
  } catch (err) {
    if ((err as { details?: { hub_code?: unknown } }).details?.hub_code === 'unknown_command') {
      throw new PluginError(
        `Home Assistant does not answer ${question.type}: its ${integration} integration is not loaded (add "${integration}:" or "default_config:" to its configuration.yaml)`,
        { integration },
        'HUB_ERROR',
        501,
      );
    }
    throw err;
  }
}

/** The entities asked for, each one the caller may see and the hub knows. */
function known(ids: readonly string[], home: Home): string[] {
  for (const id of ids) if (!home.has(id)) throw home.unknownEntity(id);
  return [...new Set(ids)];
}

/** A page of rows as structured content and as lines of text. */
function page<T extends Record<string, unknown>>(
  key: string,
  rows: T[],
  w: { offset: number; start: number; end: number },
  limit: number,
  tz: string | undefined,
  line: (r: T) => string,
  empty: string,
): ToolResult {
  const slice = rows.slice(w.offset, w.offset + limit);
  const next = w.offset + limit < rows.length ? cursorOf(w.offset + limit, w) : null;
  const more = next ? `\n${rows.length - w.offset - slice.length} more: call again with cursor ${next}.` : '';
  const period = `${localTime(w.start, tz)} to ${localTime(w.end, tz)}`;
  return {
    content: [{ type: 'text', text: slice.length ? `${period}:\n${slice.map(line).join('\n')}${more}` : `${empty} (${period}).` }],
    structuredContent: { [key]: slice, total: rows.length, start: localTime(w.start, tz), end: localTime(w.end, tz), next_cursor: next },
  };
}

const pageOutput = (key: string) =>
  v.object({ [key]: v.array(v.record(v.string(), v.unknown())), total: v.number(), start: v.string(), end: v.string(), next_cursor: v.nullable(v.string()) });
const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

const history = tool({
  name: 'get_history',
  core: true,
  title: 'State history',
  description:
    'What states entities had over a period (default the last 24 hours; start/end, or hours back): the state at the start, then each change, oldest first. attributes: true adds attributes. Pages of limit with next_cursor.',
  input: v.object({
    entity_ids: v.pipe(v.array(entityId), v.minLength(1), v.maxLength(20)),
    ...period,
    attributes: v.optional(v.boolean()),
  }),
  output: pageOutput('changes'),
  annotations: readOnly,
  run: async (args, { home }) => {
    const ids = known(args.entity_ids, home);
    const w = window(args);
    const tz = home.config?.time_zone;
    const answer = await ask<Record<string, { s: string; a?: Record<string, unknown>; lu: number }[]>>(
      home,
      {
        type: 'history/history_during_period',
        start_time: new Date(w.start).toISOString(),
        end_time: new Date(w.end).toISOString(),
        entity_ids: ids,
        minimal_response: !args.attributes,
        no_attributes: !args.attributes,
        significant_changes_only: !args.attributes,
      },
      'history',
    );
    const rows = ids.flatMap((id) =>
      (answer[id] ?? []).map((r) => ({
        entity_id: id,
        when: localTime(r.lu * 1000, tz),
        state: r.s,
        ...(args.attributes ? { attributes: r.a ?? {} } : {}),
        at: r.lu,
      })),
    );
    rows.sort((a, b) => a.at - b.at);
    const out = rows.map(({ at: _at, ...r }) => r);
    return page(
      'changes',
      out,
      w,
      args.limit,
      tz,
      (r) => `${r.when} ${r.entity_id} ${r.state}${r.attributes ? ` ${JSON.stringify(r.attributes)}` : ''}`,
      'No recorded states in that period',
    );
  },
});

type LogbookEntry = {
  when: number;
  entity_id?: string | null;
  name?: string | null;
  state?: string;
  message?: string | null;
  domain?: string | null;
  source?: string | null;
  context_user_id?: string;
  context_entity_id?: string;
  context_domain?: string;
  context_service?: string;
  context_event_type?: string;
  context_name?: string;
};

/** Why something happened, in a few words: the service, automation or entity behind it. */
function causeOf(e: LogbookEntry): string | null {
  if (e.context_event_type === 'call_service' && e.context_domain)
    return `${e.context_domain}.${e.context_service ?? ''}${e.context_user_id ? ' by a user' : ''}`;
  if (e.context_entity_id) return e.context_name ? `${e.context_name} (${e.context_entity_id})` : e.context_entity_id;
  return e.context_user_id ? 'a user' : null;
}

const logbook = tool({
  name: 'get_logbook',
  title: 'Logbook',
  description:
    'What happened over a period (default the last 24 hours), oldest first: state changes, automations triggered, scripts started, with what caused each. Optionally of some entities only. Pages of limit with next_cursor.',
  input: v.object({
    entity_ids: v.optional(v.pipe(v.array(entityId), v.minLength(1), v.maxLength(20))),
    ...period,
  }),
  output: pageOutput('entries'),
  annotations: readOnly,
  run: async (args, { home }) => {
    const ids = args.entity_ids ? known(args.entity_ids, home) : undefined;
    const w = window(args);
    const tz = home.config?.time_zone;
    // The answer holds only entities this caller may see (home.read keeps to them).
    const answer = await ask<LogbookEntry[]>(
      home,
      { type: 'logbook/get_events', start_time: new Date(w.start).toISOString(), end_time: new Date(w.end).toISOString(), ...(ids ? { entity_ids: ids } : {}) },
      'logbook',
    );
    const entries = answer.map((e) => ({
      when: localTime(e.when * 1000, tz),
      entity_id: e.entity_id ?? null,
      ...(e.name ? { name: e.name } : {}),
      ...(e.state !== undefined ? { state: e.state } : { message: e.message ?? null }),
      caused_by: causeOf(e),
    }));
    return page(
      'entries',
      entries,
      w,
      args.limit,
      tz,
      (e) => `${e.when} ${e.entity_id ?? e.name ?? ''} ${'state' in e ? e.state : e.message}${e.caused_by ? ` (${e.caused_by})` : ''}`,
      'Nothing in the logbook for that period',
    );
  },
});

const TYPES = ['mean', 'min', 'max', 'state', 'sum', 'change'] as const;
const round = (x: unknown) => (typeof x === 'number' ? Math.round(x * 1000) / 1000 : x);

const statistics = tool({
  name: 'get_statistics',
  title: 'Long-term statistics',
  description:
    'Long-term statistics of sensors with a state class (energy, temperature, ...) or of an integration ("domain:name" ids): mean/min/max or state/sum/change per 5minute, hour (default), day, week or month over a period (default the last 24 hours). Pages of limit with next_cursor.',
  input: v.object({
    statistic_ids: v.pipe(
      v.array(v.pipe(v.string(), v.regex(/^[a-z0-9_]+[.:][a-z0-9_]+$/, 'must be an entity id (sensor.energy) or an external statistic id (domain:name)'))),
      v.minLength(1),
      v.maxLength(20),
    ),
    period: v.optional(v.picklist(['5minute', 'hour', 'day', 'week', 'month']), 'hour'),
    types: v.optional(v.pipe(v.array(v.picklist(TYPES)), v.minLength(1))),
    ...period,
  }),
  output: pageOutput('statistics'),
  annotations: readOnly,
  run: async (args, { home }) => {
    const ids = [...new Set(args.statistic_ids)];
    const w = window(args);
    const tz = home.config?.time_zone;
    const answer = await ask<Record<string, Record<string, number | null>[]>>(
      home,
      {
        type: 'recorder/statistics_during_period',
        start_time: new Date(w.start).toISOString(),
        end_time: new Date(w.end).toISOString(),
        statistic_ids: ids,
        period: args.period,
        ...(args.types ? { types: args.types } : {}),
      },
      'recorder',
    );
    const rows = ids.flatMap((id) =>
      (answer[id] ?? []).map(({ start, end, last_reset: _reset, ...values }) => ({
        statistic_id: id,
        start: localTime(start!, tz),
        end: localTime(end!, tz),
        ...Object.fromEntries(
          Object.entries(values)
            .filter(([, x]) => x !== null)
            .map(([k, x]) => [k, round(x)]),
        ),
      })),
    );
    const candidates = home
      .states('sensor')
      .filter((st) => st.attributes.state_class)
      .map((st) => st.entity_id)
      .sort();
    const empty = `No statistics for ${ids.join(', ')} in that period; Home Assistant keeps them for sensors with a state_class (here: ${candidates.slice(0, 20).join(', ') || 'none'}${candidates.length > 20 ? ', ...' : ''}), per 5 minutes once 5 have passed and per hour once a full hour has`;
    return page(
      'statistics',
      rows,
      w,
      args.limit,
      tz,
      (r) =>
        `${r.start} ${r.statistic_id} ${Object.entries(r)
          .filter(([k]) => !['statistic_id', 'start', 'end'].includes(k))
          .map(([k, x]) => `${k} ${x}`)
          .join(', ')}`,
      empty,
    );
  },
});

export default definePlugin({
  name: 'history',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'State history, the logbook and long-term statistics from Home Assistant’s recorder.',
  needs: ['home'],
  tools: [history, logbook, statistics],
});
