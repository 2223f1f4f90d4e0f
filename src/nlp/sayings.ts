// Sentences that ask a plugin's tool rather than act on devices: "add milk to the shopping list",
// "what's on my calendar tomorrow", "will it rain tomorrow", "how much energy did we use this month".
// The words are data (each plugin's `sayings`, per language: patterns with {slots}); the meaning is
// these rules: which slot holds what (free text, a to-do list or calendar by name, a date, a clock
// time, one of the saying's own choices), read in the home's time zone. A date or time that could
// mean two things is asked (AMBIGUOUS), never guessed. A sentence no pattern fits whole is left to
// the device parser.
import { AppError } from '../errors.js';

/** One saying of a plugin: the tool it asks, the arguments it always gives, and how a person says it. */
export interface Saying {
  tool: string;
  args: Record<string, unknown>;
  say: string[];
  /** Slots whose value is one of a closed set: {slot: {value: [phrases]}}. */
  choices?: Record<string, Record<string, string[]>>;
}

/** The language's words for dates and clock times (words.json `dates`). */
export interface DateWords {
  today: string[];
  tomorrow: string[];
  day_after_tomorrow: string[];
  /** Monday first, each day's names. */
  weekdays: string[][];
  am: string[];
  pm: string[];
  /** Words after an hour that say nothing of morning or afternoon ("o'clock", "Uhr"). */
  oclock: string[];
  /** Words before an item that are not part of it ("the", "some"): dropped from free text. */
  articles: string[];
  /** Polite words at either end of a sentence ("please", "bitte"), which change nothing. */
  polite: string[];
}

/** An entity a slot may name, as the home shows it. */
export interface Named {
  entity_id: string;
  name: string;
}

/** What the matcher needs of the home: the visible lists and calendars, today's date and the time zone. */
export interface SayingHome {
  entities(domain: 'todo' | 'calendar' | 'weather'): Named[];
  /** Today in the home's zone, YYYY-MM-DD, and its weekday (0 = Monday). */
  today: { date: string; weekday: number };
}

/** A sentence read as a saying: its tool, the arguments so far, and the slots as understood. */
export interface SayingMatch {
  saying: Saying;
  args: Record<string, unknown>;
  slots: { item?: string; summary?: string; list?: Named; calendar?: Named; weather?: Named; date?: string; time?: string; [k: string]: unknown };
}

/** One word of a pattern: fixed (any of its forms), optional, or a slot. */
type Part = { slot: string } | { words: string[]; optional: boolean };

interface Compiled {
  saying: Saying;
  parts: Part[];
  weight: number;
}

const cache = new WeakMap<readonly Saying[], Compiled[]>();
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern's words: fixed words, [optional words], a|b for either, {slots} holding one or more words. */
function compile(saying: Saying, pattern: string): Compiled {
  let weight = 0;
  const parts = pattern
    .trim()
    .split(/\s+/)
    .map((w): Part => {
      const slot = /^\{(\w+)\}$/.exec(w);
      if (slot) return { slot: slot[1]! };
      const optional = /^\[(.+)\]$/.exec(w);
      const word = optional?.[1] ?? w;
      // Fixed words weigh; optional ones only a little, so "setz {item} auf ..." comes before "[bitte] {item} auf ...".
      weight += optional ? word.length / 100 : word.length;
      return { words: word.toLowerCase().split('|'), optional: optional !== null };
    });
  return { saying, parts, weight };
}

function compiled(sayings: readonly Saying[]): Compiled[] {
  let list = cache.get(sayings);
  if (!list) {
    // The most specific pattern (most fixed words) first, so "on the shopping list" is tried before "on {list}".
    list = sayings.flatMap((s) => s.say.map((p) => compile(s, p))).sort((a, b) => b.weight - a.weight);
    cache.set(sayings, list);
  }
  return list;
}

/** A sentence as the matcher reads it: trimmed, one kind of apostrophe, no closing punctuation. */
const tidy = (text: string) =>
  text
    .normalize('NFC')
    .replace(/[’`´]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/[\s?!.,]+$/u, '')
    .trim();

const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();

/** The one entity of a domain a slot names: by its name, its object id, or its name without the kind word ("shopping" for Shopping List). */
function entityNamed(said: string, list: Named[], kinds: string[], aliases: Record<string, string[]>): Named | undefined {
  let want = squash(said);
  for (const [objectId, words] of Object.entries(aliases)) if (words.some((w) => squash(w) === want)) want = objectId.replace(/_/g, ' ');
  const bare = (s: string) => kinds.reduce((t, k) => t.replace(new RegExp(`(^| )${escaped(k)}$`), '').trim(), s);
  const found = list.filter((e) => {
    const names = [squash(e.name), squash(e.entity_id.slice(e.entity_id.indexOf('.') + 1))];
    return names.includes(want) || names.map(bare).includes(bare(want));
  });
  return found.length === 1 ? found[0] : undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A YYYY-MM-DD date moved by days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A date as a person says it: today, tomorrow, a weekday (the next one; today's own name is asked), 2026-12-24, 24.12.(2026). */
export function dateOf(said: string, words: DateWords, today: SayingHome['today'], sentence: string): string | undefined {
  const s = said.toLowerCase().replace(/\s+/g, ' ').trim();
  if (words.today.includes(s)) return today.date;
  if (words.tomorrow.includes(s)) return addDays(today.date, 1);
  if (words.day_after_tomorrow.includes(s)) return addDays(today.date, 2);
  const day = words.weekdays.findIndex((names) => names.includes(s));
  if (day >= 0) {
    // Today's own weekday could be today or a week on: asked.
    if (day === today.weekday)
      throw new AppError('AMBIGUOUS', 409, `“${said}” in “${sentence}” is today or a week from today: say “today” or give the date`, {
        field: 'date',
        dates: [today.date, addDays(today.date, 7)],
      });
    return addDays(today.date, (day - today.weekday + 7) % 7);
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})?$/.exec(`${s}${/\.\d{4}$/.test(s) || s.endsWith('.') ? '' : '.'}`);
  const [y, m, d] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : dotted
      ? [Number(dotted[3] ?? today.date.slice(0, 4)), Number(dotted[2]), Number(dotted[1])]
      : [0, 0, 0];
  if (!y) return undefined;
  const date = `${y}-${pad(m)}-${pad(d)}`;
  if (new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) return undefined;
  // A day and month without a year that has passed this year is next year's.
  if (dotted && !dotted[3] && date < today.date) return `${y + 1}-${pad(m)}-${pad(d)}`;
  return date;
}

/** A clock time: 15:00, 15 Uhr, 3 pm, 3:30pm; an hour from 1 to 12 with nothing saying morning or afternoon is asked. */
export function timeOf(said: string, words: DateWords, sentence: string): string | undefined {
  let text = ` ${squash(said)} `;
  let half: 'am' | 'pm' | undefined;
  // Phrases of more than one word first ("in the morning", "am Nachmittag").
  for (const [which, phrases] of [
    ['am', words.am],
    ['pm', words.pm],
  ] as const)
    for (const p of phrases.filter((x) => x.includes(' ')))
      if (text.includes(` ${p} `)) {
        text = text.replace(` ${p} `, ' ');
        half = which;
      }
  const parts = text.trim().split(' ');
  const rest: string[] = [];
  for (const p of parts) {
    const glued = /^(\d{1,2}(?::\d{2})?)(am|pm|a\.m\.|p\.m\.)$/.exec(p);
    if (glued) {
      rest.push(glued[1]!);
      half = glued[2]!.startsWith('a') ? 'am' : 'pm';
    } else if (words.am.includes(p)) half = 'am';
    else if (words.pm.includes(p)) half = 'pm';
    else if (!words.oclock.includes(p)) rest.push(p);
  }
  if (rest.length !== 1) return undefined;
  const m = /^(\d{1,2})(?:[:.](\d{2}))?$/.exec(rest[0]!);
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  if (h > 23 || min > 59) return undefined;
  if (half) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (half === 'pm' ? 12 : 0);
  } else if (h >= 1 && h <= 12) {
    const t = `${h}${m[2] ? `:${m[2]}` : ''}`;
    throw new AppError(
      'AMBIGUOUS',
      409,
      `“${said}” in “${sentence}” could be ${t} in the morning or in the afternoon: say ${t} am or ${t} pm, or ${pad(h + (h === 12 ? 0 : 12))}:${pad(min)}`,
      {
        field: 'time',
        times: [`${pad(h === 12 ? 0 : h)}:${pad(min)}`, `${pad(h === 12 ? 12 : h + 12)}:${pad(min)}`],
      },
    );
  }
  return `${pad(h)}:${pad(min)}`;
}

/** Free text a slot holds (an item, an event's title): as said, without a leading article; at most 255 characters. */
function textOf(said: string, words: DateWords): string | undefined {
  const first = said.split(' ')[0]!.toLowerCase();
  const t = (words.articles.includes(first) ? said.slice(first.length) : said).trim();
  return t && t.length <= 255 ? t : undefined;
}

export interface SayingWords {
  sayings: readonly Saying[];
  dates: DateWords;
  /** Names a list or calendar goes by in this language, by object id (einkaufsliste: shopping_list). */
  aliases: Record<string, string[]>;
  /** Kind words a list or calendar name may end in ("list", "calendar", "liste", "kalender"). */
  kinds: string[];
}

/**
 * The saying a whole sentence fits, with its slots read, or undefined when none fits (the device
 * parser's turn). Throws AMBIGUOUS for a date or time that could mean two things.
 */
export function matchSaying(sentence: string, w: SayingWords, home: SayingHome): SayingMatch | undefined {
  let text = tidy(sentence);
  for (const p of w.dates.polite) {
    const re = new RegExp(`^(?:${escaped(p)}[\\s,]+)|(?:[\\s,]+${escaped(p)})$`, 'iu');
    text = text.replace(re, '').trim();
  }
  if (!text) return undefined;
  const said = text.split(' ');
  const lower = said.map((x) => x.toLowerCase());
  let asked: AppError | undefined;
  const present = new Set(lower);
  for (const c of compiled(w.sayings)) {
    // A pattern whose fixed words are not all in the sentence cannot fit: skipped before any split is tried.
    if (!c.parts.every((p) => 'slot' in p || p.optional || p.words.some((x) => present.has(x)))) continue;
    const slots: SayingMatch['slots'] = {};
    const slotValue = (name: string, value: string): unknown => {
      if (name === 'item' || name === 'summary') return textOf(value, w.dates);
      if (name === 'list') return entityNamed(value, home.entities('todo'), w.kinds, w.aliases);
      if (name === 'calendar') return entityNamed(value, home.entities('calendar'), w.kinds, w.aliases);
      if (name === 'date') return dateOf(value, w.dates, home.today, sentence);
      if (name === 'time') return timeOf(value, w.dates, sentence);
      const choices = c.saying.choices?.[name] ?? {};
      return Object.keys(choices).find((k) => choices[k]!.some((p) => squash(p) === squash(value)));
    };
    // Pattern part i against sentence word j, trying each split a slot allows (a slot's value must make sense).
    const matchFrom = (i: number, j: number): boolean => {
      if (i === c.parts.length) return j === said.length;
      const part = c.parts[i]!;
      if ('words' in part) {
        if (j < said.length && part.words.includes(lower[j]!) && matchFrom(i + 1, j + 1)) return true;
        return part.optional && matchFrom(i + 1, j);
      }
      for (let k = j + 1; k <= said.length; k++) {
        let value: unknown;
        try {
          value = slotValue(part.slot, said.slice(j, k).join(' '));
        } catch (err) {
          // A date or time that could mean two things: asked, unless another reading fits whole.
          if (err instanceof AppError) asked ??= err;
          continue;
        }
        if (value === undefined) continue;
        slots[part.slot] = value;
        if (matchFrom(i + 1, k)) return true;
        delete slots[part.slot];
      }
      return false;
    };
    if (matchFrom(0, 0)) return { saying: c.saying, args: { ...c.saying.args }, slots };
  }
  if (asked) throw asked;
  return undefined;
}

/** The date words of a language, read from its words.json `dates` (empty lists where it has none). */
export function dateWordsOf(lang: { dates?: Partial<DateWords> }): DateWords {
  const d = lang.dates ?? {};
  return {
    today: d.today ?? [],
    tomorrow: d.tomorrow ?? [],
    day_after_tomorrow: d.day_after_tomorrow ?? [],
    weekdays: d.weekdays ?? [],
    am: d.am ?? [],
    pm: d.pm ?? [],
    oclock: d.oclock ?? [],
    articles: d.articles ?? [],
    polite: d.polite ?? [],
  };
}
