// A question about the past ("was the front door unlocked today?", "wie lange lief gestern der
// Fernseher?") answered from Home Assistant's recorder, read through the history plugin's own tool
// (get_history) for the caller, so the same tool rule and checkpoint apply. The changes over the
// window are cut into spans of one state each; the answer says whether, how long, how often or
// when last the thing was in the state asked of, in one sentence per thing.
import { AppError, type ErrorCode } from '../errors.js';
import { startOf } from '../plugin-sdk/time.js';
import type { HubState } from '../hub/types.js';
import type { HomeEntity } from './home.js';
import type { HistoryWindow, LanguageData } from './language.js';
import type { PastQuestion } from './plan.js';
import { listOf, say } from './reply.js';
import type { ToolAnswer } from './saying-run.js';
import { stateIs } from './states.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Pages of the tool read at most for one question (500 changes each). */
const PAGES = 10;
/** Spans named at most in a yes. */
const SPANS = 3;

export interface PastDeps {
  /** Calls a tool for the caller; without it (no plugins) the recorder cannot be read. */
  call?: (tool: string, args: Record<string, unknown>) => Promise<ToolAnswer>;
  entity(id: string): HomeEntity | undefined;
  name(id: string): string;
  /** The home's time zone (IANA), as Home Assistant reports it. */
  zone: string;
  lang: LanguageData;
  now: number;
}

interface Span {
  from: number;
  to: number;
  state: string;
}

/** The window's start and end (the end never later than now). */
export function windowOf(w: HistoryWindow, now: number, zone: string): { start: number; end: number } {
  const day = startOf('day', now, zone);
  switch (w) {
    case 'today':
      return { start: day, end: now };
    case 'yesterday':
      return { start: startOf('day', now, zone, -1), end: day };
    case 'last_night':
      // From six in the evening before to eight in the morning.
      return { start: day - 6 * HOUR, end: Math.min(now, day + 8 * HOUR) };
    case 'this_week':
      return { start: startOf('week', now, zone), end: now };
    case 'last_week':
      return { start: startOf('week', now, zone, -1), end: startOf('week', now, zone) };
    case 'this_month':
      return { start: startOf('month', now, zone), end: now };
    case 'last_month':
      return { start: startOf('month', now, zone, -1), end: startOf('month', now, zone) };
    case 'latest':
      return { start: now - 7 * DAY, end: now };
  }
}

/** The tool's refusal as the command's error (a thing the caller may not see is not answered). */
function refusal(a: ToolAnswer): AppError {
  const e = ((a.structuredContent as { error?: unknown } | undefined)?.error ?? {}) as {
    code?: ErrorCode;
    message?: string;
    details?: Record<string, unknown>;
  };
  const status = e.code === 'NOT_FOUND' ? 404 : e.code === 'FORBIDDEN' ? 403 : 400;
  return new AppError(e.code ?? 'INVALID_PARAMETERS', status, e.message ?? a.content?.[0]?.text ?? 'The history tool refused', e.details ?? {});
}

/** Every recorded change of the things over the window, oldest first (the state at its start included). */
async function changes(
  deps: PastDeps,
  ids: string[],
  w: { start: number; end: number },
): Promise<{ entity_id: string; when: string; state: string }[] | string> {
  if (!deps.call) return say(deps.lang, 'past.no_recorder', { reason: say(deps.lang, 'past.no_tool') });
  const rows: { entity_id: string; when: string; state: string }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < PAGES; page++) {
    const args: Record<string, unknown> = cursor
      ? { entity_ids: ids, cursor, limit: 500 }
      : { entity_ids: ids, start: new Date(w.start).toISOString(), end: new Date(w.end).toISOString(), limit: 500 };
    const a = await deps.call('get_history', args);
    if (a.isError) {
      const code = (a.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
      if (code === 'FORBIDDEN' || code === 'NOT_FOUND') throw refusal(a);
      // No recorder, or the hub refused: said, never guessed at.
      return say(deps.lang, 'past.no_recorder', { reason: refusal(a).message });
    }
    const s = (a.structuredContent ?? {}) as { changes?: { entity_id: string; when: string; state: string }[]; next_cursor?: string | null };
    rows.push(...(s.changes ?? []));
    if (!s.next_cursor) break;
    cursor = s.next_cursor;
  }
  return rows;
}

/** A thing's spans of one state over the window, from its changes. */
function spansOf(rows: { when: string; state: string }[], w: { start: number; end: number }): Span[] {
  const out: Span[] = [];
  const sorted = rows.map((r) => ({ at: Date.parse(r.when), state: r.state })).sort((a, b) => a.at - b.at);
  sorted.forEach((r, i) => {
    const from = Math.max(r.at, w.start);
    const to = Math.min(sorted[i + 1]?.at ?? w.end, w.end);
    // Changes within one second (the recorder's grain) are kept: the thing was in that state, however briefly.
    if (to >= from) out.push({ from, to, state: r.state });
  });
  return out;
}

/** "07:42", or with the date where it is not today's. */
function clock(ms: number, now: number, zone: string): string {
  const f = (o: Intl.DateTimeFormatOptions) => {
    try {
      return new Intl.DateTimeFormat('en-CA', { timeZone: zone, ...o }).format(new Date(ms));
    } catch {
      return new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', ...o }).format(new Date(ms));
    }
  };
  const time = f({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const date = f({ year: 'numeric', month: '2-digit', day: '2-digit' });
  return date === dayOf(now, zone) ? time : `${date} ${time}`;
}

function dayOf(ms: number, zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

function duration(ms: number, lang: LanguageData): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return say(lang, 'past.duration.under_minute');
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? say(lang, 'past.duration.hours', { h, m }) : say(lang, 'past.duration.minutes', { m });
}

/**
 * The answer to a question about the past, and the things for which it is yes (in the state at
 * some time of the window), read from the recorder through the history tool.
 */
export async function answerPast(q: PastQuestion, ids: string[], deps: PastDeps): Promise<{ answer: string; matching: string[] }> {
  const { lang, zone, now } = deps;
  const w = windowOf(q.window, now, zone);
  const read = await changes(deps, ids, w);
  if (typeof read === 'string') return { answer: read, matching: [] };
  const windowWords = say(lang, `past.window.${q.window}`);
  // A binary sensor's on and off are its class's words: a door was open, not on.
  const stateWordsOf = (e: HomeEntity | undefined): string => {
    const words = e?.domain === 'binary_sensor' && e.cls ? lang.binary_sensor_classes[e.cls] : undefined;
    const on = q.bstate ?? (q.state === 'on' ? true : q.state === 'off' ? false : undefined);
    const word = words && on !== undefined ? (on ? words.on : words.off)[0] : undefined;
    return word ? word.split('|')[0]! : say(lang, `state.${q.state}`);
  };
  const at = (ms: number) => clock(ms, now, zone);
  const matching: string[] = [];
  const sentences = ids.map((id) => {
    const e = deps.entity(id);
    const name = deps.name(id);
    const fits = (s: string) =>
      e ? stateIs(q.bstate !== undefined ? '' : q.state, e, { state: s } as HubState, q.bstate !== undefined ? { on: q.bstate } : undefined) : s === q.state;
    const spans = spansOf(
      read.filter((r) => r.entity_id === id),
      w,
    ).filter((s) => fits(s.state));
    const vars = { name, state: stateWordsOf(e), window: windowWords };
    // "How long" or "how often" of a state never taken is "never", not a yes/no.
    if (!spans.length)
      return say(lang, q.measure === 'when' ? 'past.never' : q.measure === 'how_often' || q.measure === 'how_long' ? 'past.how_often_none' : 'past.no', vars);
    matching.push(id);
    const current = (s: Span) => s.to >= w.end && w.end >= now - 1000;
    const spanText = (s: Span) =>
      s.from <= w.start && s.to >= w.end
        ? say(lang, 'past.span.all')
        : s.from <= w.start
          ? say(lang, 'past.span.until', { to: at(s.to) })
          : current(s)
            ? say(lang, 'past.span.since', { from: at(s.from) })
            : say(lang, 'past.span.from_to', { from: at(s.from), to: at(s.to) });
    switch (q.measure) {
      case 'how_long':
        return say(lang, 'past.how_long', {
          ...vars,
          duration: duration(
            spans.reduce((t, s) => t + (s.to - s.from), 0),
            lang,
          ),
        });
      case 'how_often': {
        const entered = spans.filter((s) => s.from > w.start).length;
        const count = entered === 1 ? say(lang, 'past.once') : say(lang, 'past.times', { n: entered });
        return say(lang, entered ? 'past.how_often' : 'past.how_often_all', { ...vars, count });
      }
      case 'when': {
        const last = spans[spans.length - 1]!;
        if (current(last)) return say(lang, 'past.since', { ...vars, time: at(last.from) });
        return say(lang, 'past.last', { ...vars, time: at(last.from), until: at(last.to) });
      }
      default: {
        const shown = spans.slice(-SPANS).map(spanText);
        return say(lang, 'past.yes', { ...vars, spans: listOf(shown, lang) });
      }
    }
  });
  return { answer: sentences.join(' '), matching };
}
