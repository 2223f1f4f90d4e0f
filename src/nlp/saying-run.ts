// A saying (sayings.ts) answered: the plugin's own tool is called through the tool registry, for the
// caller (so the same tool rule, the same executor and checkpoint: adding a to-do item is an action
// on the list, judged, and refused in read-only mode), and its answer is worded in the request's
// language, naming what was read (the list, the calendar and its time zone, the weather entity,
// the energy period and units). A question calls only reading operations and never acts.
import { AppError, ambiguous, type ErrorCode } from '../errors.js';
import type { LanguageData } from './language.js';
import { listOf, say } from './reply.js';
import { addDays, type Named, type SayingMatch } from './sayings.js';

/** A tool's answer as the registry gives it. */
export interface ToolAnswer {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
}

export interface SayingDeps {
  /** Calls a tool for the caller (ToolRegistry.call with the principal bound). */
  call(tool: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  entities(domain: 'todo' | 'calendar' | 'weather'): Named[];
  /** An entity's name as the home shows it. */
  name(entityId: string): string;
  /** The home's time zone (IANA), as Home Assistant reports it. */
  zone: string;
  lang: LanguageData;
  dry: boolean;
}

export interface SayingResult {
  message: string;
  /** The entities the answer read or acted on. */
  entities: string[];
  /** An action's service and entity (todo.add_item on the list), for the command answer's actions. */
  acted?: { entity_id: string; action: string; parameters: Record<string, unknown> };
  question: boolean;
}

/** A tool's refusal as the command's error, with its code and details. */
function failure(a: ToolAnswer): AppError {
  const e = ((a.structuredContent as { error?: unknown } | undefined)?.error ?? {}) as {
    code?: ErrorCode;
    message?: string;
    details?: Record<string, unknown>;
  };
  const status = e.code === 'NOT_FOUND' ? 404 : e.code === 'FORBIDDEN' ? 403 : e.code === 'AMBIGUOUS' ? 409 : e.code === 'HUB_ERROR' ? 502 : 400;
  return new AppError(e.code ?? 'INVALID_PARAMETERS', status, e.message ?? a.content?.[0]?.text ?? 'The tool refused', e.details ?? {});
}

async function ask(deps: SayingDeps, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const a = await deps.call(tool, args);
  if (a.isError) throw failure(a);
  return (a.structuredContent ?? {}) as Record<string, unknown>;
}

/** The one entity a change is for: the one named, the only one, or asked among them. */
function oneOf(deps: SayingDeps, domain: 'todo' | 'calendar' | 'weather', named: Named | undefined, noun: string): Named {
  if (named) return named;
  const all = deps.entities(domain);
  if (all.length === 1) return all[0]!;
  if (!all.length) throw new AppError('NOT_FOUND', 404, say(deps.lang, `saying.none.${domain}`), { domain });
  throw ambiguous(
    say(deps.lang, 'ambiguous', {
      noun,
      candidates: listOf(
        all.map((e) => e.name),
        deps.lang,
        'list_or',
      ),
    }),
    all.map((e) => ({ entity_id: e.entity_id, name: e.name, area: null })),
    { noun, domain },
  );
}

/** A local date and time (YYYY-MM-DDTHH:MM) moved by minutes, on the home's clock. */
function later(local: string, minutes: number): string {
  const d = new Date(`${local}:00Z`);
  d.setUTCMinutes(d.getUTCMinutes() + minutes);
  return d.toISOString().slice(0, 16);
}

/** The date of an instant in the home's zone (YYYY-MM-DD). */
const localDate = (instant: string, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(instant));

type Item = { summary: string; status: string; due?: string };

export async function runSaying(m: SayingMatch, deps: SayingDeps, today: string): Promise<SayingResult> {
  const { lang, zone, dry } = deps;
  const t = (key: string, vars: Record<string, string | number> = {}) => say(lang, `saying.${key}`, vars);
  // A word the language may not have (a weather condition, a reading): Home Assistant's own then.
  const word = (key: string, raw: string) => lang.messages[`saying.${key}.${raw}`] ?? raw.replace(/_/g, ' ');
  const op = String(m.args.operation);
  const s = m.slots;
  const dayWords = (date: string) => (date === today ? t('today') : date === addDays(today, 1) ? t('tomorrow') : t('on_date', { date }));

  if (m.saying.tool === 'todo') {
    const items = async (list: Named) => ((await ask(deps, 'todo', { operation: 'items', list: list.entity_id })).items ?? []) as Item[];
    if (op === 'items') {
      const lists = s.list ? [s.list] : deps.entities('todo');
      if (!lists.length) throw new AppError('NOT_FOUND', 404, t('none.todo'));
      const parts: string[] = [];
      for (const list of lists) {
        const open = (await items(list)).filter((i) => i.status === 'needs_action');
        parts.push(
          open.length
            ? t('todo.items', {
                list: list.name,
                items: listOf(
                  open.map((i) => `${i.summary}${i.due ? ` (${t('due', { due: i.due })})` : ''}`),
                  lang,
                ),
              })
            : t('todo.empty', { list: list.name }),
        );
      }
      return { message: parts.join(' '), entities: lists.map((l) => l.entity_id), question: true };
    }
    const item = s.item!;
    let list: Named;
    if (op === 'add') list = oneOf(deps, 'todo', s.list, t('noun.todo'));
    else {
      // The list that holds the item: the one named, else the one list (of all) that has it.
      const lists = s.list ? [s.list] : deps.entities('todo');
      const want = item.toLowerCase();
      const holding: Named[] = [];
      for (const l of lists)
        if ((await items(l)).some((i) => i.summary.toLowerCase() === want && (op === 'remove' || i.status === 'needs_action'))) holding.push(l);
      if (!holding.length)
        throw new AppError(
          'NOT_FOUND',
          404,
          t('todo.not_found', {
            item,
            lists: listOf(
              lists.map((l) => l.name),
              lang,
            ),
          }),
          { item, lists: lists.map((l) => l.entity_id) },
        );
      if (holding.length > 1) s.list = undefined;
      list = holding.length === 1 ? holding[0]! : oneOf({ ...deps, entities: () => holding }, 'todo', undefined, item);
    }
    await ask(deps, 'todo', { operation: op, list: list.entity_id, item, ...(dry ? { dry_run: true } : {}) });
    const service = op === 'add' ? 'add_item' : op === 'remove' ? 'remove_item' : 'update_item';
    return {
      message: t(`todo.${op}${dry ? '_dry' : ''}`, { item, list: list.name }),
      entities: [list.entity_id],
      acted: { entity_id: list.entity_id, action: service, parameters: { item, ...(op === 'complete' ? { status: 'completed' } : {}) } },
      question: false,
    };
  }

  if (m.saying.tool === 'calendar') {
    if (op === 'events') {
      const date = s.date ?? today;
      const r = await ask(deps, 'calendar', {
        operation: 'events',
        ...(s.calendar ? { entity_id: s.calendar.entity_id } : {}),
        start: date,
        end: addDays(date, 1),
      });
      const events = (r.events ?? []) as { calendar: string; summary: string; start: string; end: string; all_day: boolean; location?: string }[];
      const calendars = s.calendar ? [s.calendar] : deps.entities('calendar');
      const names = listOf(
        calendars.map((c) => c.name),
        lang,
      );
      const clock = (x: string) => /T(\d{2}:\d{2})/.exec(x)?.[1] ?? x;
      const lines = events.map(
        (e) =>
          `${e.all_day ? t('all_day') : clock(e.start)} ${e.summary}${e.location ? ` (${e.location})` : ''}${calendars.length > 1 ? ` [${calendars.find((c) => c.entity_id === e.calendar)?.name ?? e.calendar}]` : ''}`,
      );
      const when = dayWords(date);
      const message = lines.length
        ? t('calendar.events', { calendars: names, when, events: listOf(lines, lang), zone: String(r.time_zone ?? zone) })
        : t('calendar.none', { calendars: names, when, zone: String(r.time_zone ?? zone) });
      return { message, entities: calendars.map((c) => c.entity_id), question: true };
    }
    const cal = oneOf(deps, 'calendar', s.calendar, t('noun.calendar'));
    const date = s.date!;
    const start = s.time ? `${date}T${s.time}` : date;
    const end = s.time ? later(start, 60) : undefined;
    const r = await ask(deps, 'calendar', {
      operation: 'create',
      entity_id: cal.entity_id,
      summary: s.summary!,
      start,
      ...(end ? { end } : {}),
      ...(dry ? { dry_run: true } : {}),
    });
    const when = s.time
      ? t('from_to', { day: dayWords(date), from: s.time, to: end!.slice(11), end_day: end!.slice(0, 10) === date ? '' : ` ${end!.slice(0, 10)}` })
      : t('all_day_on', { day: dayWords(date) });
    return {
      message: t(`calendar.created${dry ? '_dry' : ''}`, { summary: s.summary!, calendar: cal.name, when, zone: String(r.time_zone ?? zone) }),
      entities: [cal.entity_id],
      acted: { entity_id: cal.entity_id, action: 'create_event', parameters: { summary: s.summary!, start, ...(end ? { end } : {}) } },
      question: false,
    };
  }

  if (m.saying.tool === 'weather') {
    // The one weather entity, or the one chosen: a home with several is asked which.
    const source = oneOf(deps, 'weather', s.weather as Named | undefined, t('noun.weather')).entity_id;
    if (op === 'current') {
      const r = await ask(deps, 'weather', { operation: 'current', entity_id: source });
      const readings = (r.readings ?? {}) as Record<string, { value: unknown; unit: string | null }>;
      const shown = Object.entries(readings).map(
        ([k, x]) => `${word('reading', k)} ${x.value}${x.unit ? (x.unit === '%' || x.unit === '°' ? x.unit : ` ${x.unit}`) : ''}`,
      );
      const id = String(r.entity_id);
      return {
        message: t('weather.current', { name: deps.name(id), condition: word('condition', String(r.condition)), readings: listOf(shown, lang) }),
        entities: [id],
        question: true,
      };
    }
    const date = s.date ?? today;
    const r = await ask(deps, 'weather', { operation: 'forecast', entity_id: source, type: 'daily' });
    const id = String(r.entity_id);
    const units = (r.units ?? {}) as Record<string, string | null>;
    const all = (r.forecast ?? []) as Record<string, unknown>[];
    const day = all.find((f) => typeof f.datetime === 'string' && localDate(f.datetime, zone) === date);
    if (!day)
      throw new AppError('NOT_FOUND', 404, t('weather.no_day', { name: deps.name(id), when: dayWords(date), days: all.length }), {
        entity_id: id,
        date,
      });
    const temp =
      day.templow !== undefined
        ? `${day.templow}–${day.temperature} ${units.temperature ?? ''}`.trim()
        : `${day.temperature} ${units.temperature ?? ''}`.trim();
    const rain = day.precipitation !== undefined ? t('precipitation', { amount: `${day.precipitation} ${units.precipitation ?? ''}`.trim() }) : '';
    const chance = day.precipitation_probability !== undefined ? t('chance', { chance: String(day.precipitation_probability) }) : '';
    return {
      message: t('weather.forecast', {
        name: deps.name(id),
        when: dayWords(date),
        condition: word('condition', String(day.condition)),
        temperature: temp,
        rain: [rain, chance].filter(Boolean).join(' '),
      })
        .replace(/ ,/g, ',')
        .replace(/, \./, '.'),
      entities: [id],
      question: true,
    };
  }

  // energy totals
  const period = String(s.period ?? 'today');
  const r = await ask(deps, 'energy', { operation: 'totals', period });
  const totals = (r.totals ?? {}) as Record<string, { value: number; unit: string }>;
  const order = ['consumption', 'grid_import', 'grid_export', 'solar_production', 'battery_discharge', 'battery_charge', 'gas', 'water', 'home_meter'];
  const shown = order.filter((k) => totals[k]).map((k) => `${word('flow', k)} ${totals[k]!.value} ${totals[k]!.unit}`);
  const stats = ((r.statistics ?? []) as { statistic_id: string }[]).map((x) => x.statistic_id);
  const vars = { period: t(`period.${period}`), start: String(r.start), end: String(r.end), zone };
  return {
    message: shown.length ? t('energy.totals', { ...vars, totals: listOf(shown, lang) }) : t('energy.none', vars),
    entities: stats.filter((x) => !x.includes(':')),
    question: true,
  };
}
