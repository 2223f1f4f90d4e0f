// A language of the command parser is a folder of data, src/nlp/lang/<code>/:
//   grammar.json  how words are written: plurals, contractions, number words, compounds, endings;
//   words.json    what words mean: verbs, states, units, places, questions, words that forbid acting;
//   messages.json the sentences replies are made of.
// Each plugin adds the words for its domains (plugins/<name>/words/<code>.json). Adding a language
// is adding a folder and a words file per plugin; no code here names one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import type { DateWords, Saying } from './sayings.js';

export interface DomainWords {
  /** Nouns of the domain; `singular|plural` where the plural is not made by the grammar's rules. */
  nouns?: string[];
  /** Device classes of the domain, each with the nouns that name it (curtain: curtain, drape). */
  classes?: Record<string, string[]>;
}

export interface BinaryClassWords {
  nouns: string[];
  on: string[];
  off: string[];
}

export type QuestionKind = 'count' | 'list' | 'where' | 'who' | 'value' | 'yesno';
export type Amount = 'small' | 'large';
/** What a question about the past asks of the recorder: whether, how long, how often, or when last. */
export type HistoryMeasure = 'whether' | 'how_long' | 'how_often' | 'when';
/** The recorder's windows a question may ask about; latest is the last week, read for the last change. */
export const HISTORY_WINDOWS = ['today', 'yesterday', 'last_night', 'this_week', 'last_week', 'this_month', 'last_month', 'latest'] as const;
export type HistoryWindow = (typeof HISTORY_WINDOWS)[number];

export interface LanguageData {
  language: string;
  // grammar.json
  plural: [string, string][];
  invariant_plural: string[];
  contractions: Record<string, string>;
  /** Same word, other spelling (ß and ss): folded on both sides before anything is compared. */
  spelling: Record<string, string>;
  numbers: Record<string, number>;
  number_scales: Record<string, number>;
  /** Forms of number words used only inside a compound, with the word they stand for (ein: eins). */
  number_parts: Record<string, string>;
  number_joiners: string[];
  /** "units_first": the unit before the tens with a joiner between (fünfundzwanzig, five-and-twenty). */
  number_order: 'tens_first' | 'units_first';
  /** Number words are written as one word (zweihundertfünfzig). */
  number_compounds: boolean;
  point: string[];
  minus: string[];
  /** Words written together (Wohnzimmerlampe): split into known words, with these linking letters between parts. */
  compounds: { linkers: string[]; min_part: number } | null;
  /** Endings a word may carry for case or number (des Wohnzimmers): tried off an unknown word. */
  endings: string[];
  /** Letters that sound alike, for the sound key of typo matching (ight = ite). */
  sound_alike: [string, string][];
  /** Letters after digits that stand apart (6pm, 10min). */
  digit_suffixes: string[];
  /** The rows of the usual keyboard, for telling a slip onto the next key in typo matching. */
  keyboard: string[];
  /**
   * Verbs whose particle goes to the end ("schließ die Tür auf" is aufschließen): the particles, the
   * infinitive's endings and the endings of the forms said; the verbs are the one-word act phrases.
   */
  separable: { particles: string[]; infinitive: string[]; forms: string[] } | null;
  // words.json
  fractions: Record<string, number>;
  units: Record<'percent' | 'degrees' | 'kelvin' | 'celsius' | 'fahrenheit', string[]>;
  actions: Record<string, string[]>;
  particles: Record<'on' | 'off' | 'up' | 'down', string[]>;
  relative: Record<'up' | 'down', string[]>;
  comparatives: Record<string, string>;
  amounts: Record<Amount, string[]>;
  by: string[];
  to: string[];
  properties: Record<string, string[]>;
  fan_speeds: Record<string, number>;
  alarm_modes: Record<string, string[]>;
  colors: Record<string, string>;
  whites: Record<string, number>;
  here: string[];
  everywhere: string[];
  outdoors: string[];
  all: string[];
  any: string[];
  /** Everything (the things a person switches: lights, switches, fans, players). */
  everything: string[];
  generic_nouns: string[];
  questions: Record<QuestionKind, string[]>;
  /** Question openings that name what they ask of (how warm: temperature). */
  asks_about: Record<string, string[]>;
  states: Record<string, string[]>;
  binary_sensor_classes: Record<string, BinaryClassWords>;
  sensor_classes: Record<string, string[]>;
  domains: Record<string, DomainWords>;
  /** Words that say not to (don't, never): a command with one is refused. */
  negation: string[];
  /** Words of time (tomorrow, at 6 pm, in 10 minutes): the bridge acts now or not at all. */
  time: string[];
  /** Words a speech recogniser writes for a digit after a tens word ("seventy too": 72?): the number is asked, never guessed. */
  number_homophones: Record<string, number>;
  /** Time units; with a number they make a delay or a duration. */
  time_units: string[];
  /** Words that make a bare number after them a delay or a duration ("in ten", "for 20"). */
  delays: string[];
  /** Words that make a bare number after them a time of day ("at 8", "um 8"). */
  clock: string[];
  /** The verb "to be" as it joins a thing to its state ("the tv is on"): such a clause says, it never asks to act. */
  copulas: string[];
  /** Words that make a command depend on something (if, when, unless). */
  condition: string[];
  /** Words that take something out of what a command acts on (except, but not). */
  except: string[];
  /** Words that, with a negation, leave things out of a command before them ("…, only not the hall one", "…, nur den rechten nicht"). */
  except_with_not: string[];
  /** Where a thing is said by another (next to the tv): the parser does not find things that way. */
  relations: string[];
  /** Requests that do not say what to do ("do the thing with the lights", "mach was mit dem Licht"): asked, never read as a question. */
  vague: string[];
  /** A count of things (two of the lights): the parser does not choose some of them. */
  of: string[];
  /** Sounds and words a person puts before what they say (um, well, ok): filler, also before a question. */
  hesitations: string[];
  filler: string[];
  determiners: string[];
  connectors: string[];
  /** Words between parts of a list (and, commas). */
  list_joiners: string[];
  /** Openings that make a question a request ("can you ...", "kannst du ..."): it may act. */
  requests: string[];
  /** Words at the end that make a statement a question ("..., right?", "..., oder?"). */
  tag_questions: string[];
  /** Words that make a clause a question wherever they are ("been", "did I", "gelassen"). */
  asks: string[];
  /** Questions about the past that the states cannot answer ("how often", "how long", "wie oft"): refused, pointing to the history. */
  history: string[];
  /** Openings that tell what the speaker did ("I left ..."): a statement, whose things a later part's "it" stands for. */
  statements: string[];
  /** Words at the end that keep a request a request ("..., will you?", "..., bitte?"). */
  tag_requests: string[];
  /** Asking what to do or what would happen ("should I", "soll ich"): a question about an act, which never acts. */
  advice: string[];
  /** Periods a question may ask about (today, this month), each with the words a sensor's name carries for it. */
  periods: Record<string, string[]>;
  /** What a question about the past measures, by its words: how long, how often, when (last). Others ask whether. */
  history_measures: Partial<Record<HistoryMeasure, string[]>>;
  /** The window of the recorder a period word asks about (today, yesterday, last night): the periods' phrases by window. */
  history_windows: Partial<Record<HistoryWindow, string[]>>;
  /** Positions said of a thing (left, linke), each with every form a name may carry for it. */
  positions: Record<string, string[]>;
  /** Words that stand for things said before: the same things (it, them), or the same kind (the one, the ones). */
  /** Everyday words for a floor ("downstairs") with the floor names they stand for ("ground floor"). */
  floor_words: Record<string, string[]>;
  /** other: the one of the kind said before that was not named ("the other one", "die andere"). */
  pronouns: { same?: string[]; kind?: string[]; kinds?: string[]; other?: string[] };
  /** Words before a place ("in the", "im"): an unknown word after one is a place the home does not have. */
  place_prepositions: string[];
  /** Dates and clock times as said, and the kind words a list's or calendar's name may end in (sayings.ts). */
  dates: Partial<DateWords>;
  named_kinds: string[];
  /** The plugins' sayings (sentences that ask a plugin's tool) and the names lists and calendars go by, by object id. */
  sayings: Saying[];
  aliases: Record<string, string[]>;
  // messages.json
  messages: Record<string, string>;
}

/** What a plugin gives for one language (plugins/<name>/words/<code>.json). */
export interface PluginWords {
  domains?: Record<string, DomainWords>;
  /** Phrases for acts that belong to the plugin's things (return to the dock). */
  actions?: Record<string, string[]>;
  /** Sentences that ask one of the plugin's tools (src/nlp/sayings.ts). */
  sayings?: Saying[];
  /** Names a list or calendar goes by in this language, by object id. */
  aliases?: Record<string, string[]>;
}

const list = v.array(v.string('each must be a phrase'), 'must be a list of phrases');
const lists = v.record(v.string(), list, 'must map names to lists of phrases');
const numbersOf = v.record(v.string(), v.number('must be a number'), 'must map phrases to numbers');
const domainWords = v.record(v.string(), v.object({ nouns: v.optional(list), classes: v.optional(lists) }), 'must map domains to {nouns, classes}');

const GRAMMAR = v.object({
  plural: v.optional(v.array(v.tuple([v.string(), v.string()]), 'must be a list of [ending, plural ending]'), []),
  invariant_plural: v.optional(list, []),
  contractions: v.optional(v.record(v.string(), v.string()), {}),
  spelling: v.optional(v.record(v.string(), v.string()), {}),
  numbers: v.optional(numbersOf, {}),
  number_scales: v.optional(numbersOf, {}),
  number_parts: v.optional(v.record(v.string(), v.string()), {}),
  number_joiners: v.optional(list, []),
  number_order: v.optional(v.picklist(['tens_first', 'units_first']), 'tens_first'),
  number_compounds: v.optional(v.boolean(), false),
  point: v.optional(list, []),
  minus: v.optional(list, []),
  compounds: v.optional(v.nullable(v.object({ linkers: list, min_part: v.number() })), null),
  endings: v.optional(list, []),
  sound_alike: v.optional(v.array(v.tuple([v.string(), v.string()])), []),
  digit_suffixes: v.optional(list, []),
  keyboard: v.optional(list, []),
  separable: v.optional(v.nullable(v.object({ particles: list, infinitive: list, forms: list })), null),
});

const opt = <T extends v.GenericSchema>(s: T, d: v.InferOutput<T>) => v.optional(s, d as never);
const WORDS = v.object({
  fractions: opt(numbersOf, {}),
  units: opt(lists, {}),
  number_homophones: opt(v.record(v.string(), v.number()), {}),
  actions: opt(lists, {}),
  particles: opt(lists, {}),
  relative: opt(lists, {}),
  comparatives: opt(v.record(v.string(), v.string()), {}),
  amounts: opt(lists, {}),
  by: opt(list, []),
  to: opt(list, []),
  properties: opt(lists, {}),
  fan_speeds: opt(numbersOf, {}),
  alarm_modes: opt(lists, {}),
  colors: opt(v.record(v.string(), v.string()), {}),
  whites: opt(numbersOf, {}),
  here: opt(list, []),
  everywhere: opt(list, []),
  outdoors: opt(list, []),
  all: opt(list, []),
  any: opt(list, []),
  everything: opt(list, []),
  generic_nouns: opt(list, []),
  questions: opt(lists, {}),
  asks_about: opt(lists, {}),
  states: opt(lists, {}),
  binary_sensor_classes: opt(v.record(v.string(), v.object({ nouns: list, on: list, off: list })), {}),
  sensor_classes: opt(lists, {}),
  domains: opt(domainWords, {}),
  negation: opt(list, []),
  time: opt(list, []),
  time_units: opt(list, []),
  delays: opt(list, []),
  clock: opt(list, []),
  copulas: opt(list, []),
  condition: opt(list, []),
  except: opt(list, []),
  except_with_not: opt(list, []),
  relations: opt(list, []),
  vague: opt(list, []),
  of: opt(list, []),
  hesitations: opt(list, []),
  filler: opt(list, []),
  determiners: opt(list, []),
  connectors: opt(list, []),
  list_joiners: opt(list, []),
  requests: opt(list, []),
  tag_questions: opt(list, []),
  tag_requests: opt(list, []),
  asks: opt(list, []),
  statements: opt(list, []),
  history: opt(list, []),
  advice: opt(list, []),
  periods: opt(lists, {}),
  history_measures: opt(v.object({ how_long: v.optional(list), how_often: v.optional(list), when: v.optional(list) }), {}),
  history_windows: opt(v.record(v.picklist(HISTORY_WINDOWS), list, `must map windows (${HISTORY_WINDOWS.join(', ')}) to phrases`), {}),
  positions: opt(lists, {}),
  pronouns: opt(v.object({ same: v.optional(list), kind: v.optional(list), kinds: v.optional(list), other: v.optional(list) }), {}),
  place_prepositions: opt(list, []),
  floor_words: opt(lists, {}),
  dates: opt(v.record(v.string(), v.union([list, v.array(list)])), {}),
  named_kinds: opt(list, []),
});

/** Every sentence a reply may need; a language gives them all. */
export const MESSAGE_KEYS = [
  'list_and',
  'list_or',
  'planned',
  'failed',
  'ambiguous',
  'not_understood',
  'closest',
  'did_you_mean',
  'no_action',
  'no_target',
  'no_target_in',
  'cannot',
  'scene_action',
  'group_action',
  'negation',
  'time',
  'condition',
  'quantity',
  'range',
  'count_of_things',
  'no_antecedent',
  'exception',
  'part',
  'confirm',
  'forbidden',
  'yes',
  'no',
  'none',
  'count',
  'value',
  'unknown_value',
  'nothing_to_answer',
  'no_such',
  'no_such_anywhere',
  'sensor',
  'thing',
  'unverified',
  'pending',
  'hub_away',
  'hub_unknown',
  'no_area',
  'keep',
  'quote',
  'asked',
  'no_place',
  'period',
  'history',
] as const;

const MESSAGE_EXTRA = v.record(v.string(), v.string('must be a sentence'), 'must map names to sentences');

const SAYING = v.object({
  tool: v.pipe(v.string(), v.nonEmpty()),
  args: v.optional(v.record(v.string(), v.unknown()), {}),
  say: v.pipe(list, v.minLength(1, 'must give at least one pattern')),
  choices: v.optional(v.record(v.string(), lists)),
});
const PLUGIN_WORDS = v.object({
  domains: v.optional(domainWords),
  actions: v.optional(lists),
  sayings: v.optional(v.array(SAYING, 'must be a list of {tool, args, say, choices}')),
  aliases: v.optional(lists),
});

/** The built-in languages' folder. */
export const BUILT_IN_LANGUAGES = fileURLToPath(new URL('./lang/', import.meta.url));
export const DEFAULT_LANGUAGE = 'en';

const readJson = (file: string): unknown => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {});

function check<S extends v.GenericSchema>(schema: S, value: unknown, where: string): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (!r.success) {
    const issue = r.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    throw new Error(`${where}${path ? ` ${path}` : ''}: ${issue.message}`);
  }
  return r.output;
}

/** Reads one language folder; a missing or malformed part is an error naming the file and field. */
export function readLanguage(dir: string, code: string): LanguageData {
  const at = (f: string) => join(dir, f);
  const grammar = check(GRAMMAR, readJson(at('grammar.json')), at('grammar.json'));
  const words = check(WORDS, readJson(at('words.json')), at('words.json'));
  const messages = check(MESSAGE_EXTRA, readJson(at('messages.json')), at('messages.json'));
  const missing = MESSAGE_KEYS.filter((k) => messages[k] === undefined);
  if (missing.length) throw new Error(`${at('messages.json')}: these sentences are missing: ${missing.join(', ')}`);
  return folded({ language: code, ...grammar, ...words, sayings: [], aliases: {}, messages } as unknown as LanguageData);
}

/** Keys and single words the tokenizer compares as they are, written in the folded spelling (dreißig: dreissig). */
function folded(lang: LanguageData): LanguageData {
  const f = (w: string) => Object.entries(lang.spelling).reduce((t, [a, b]) => t.split(a).join(b), w.toLowerCase());
  const keys = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).map(([k, x]) => [f(k), x]));
  return {
    ...lang,
    contractions: keys(lang.contractions),
    numbers: keys(lang.numbers),
    number_scales: keys(lang.number_scales),
    number_parts: Object.fromEntries(Object.entries(lang.number_parts).map(([k, x]) => [f(k), f(x)])),
    number_joiners: lang.number_joiners.map(f),
    point: lang.point.map(f),
    minus: lang.minus.map(f),
    digit_suffixes: lang.digit_suffixes.map(f),
    endings: lang.endings.map(f),
  };
}

/** The languages in these folders (each a subfolder named by its BCP 47 code); a later folder's language replaces an earlier one's. */
export function readLanguages(dirs: readonly string[] = [BUILT_IN_LANGUAGES]): Map<string, LanguageData> {
  const out = new Map<string, LanguageData>();
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(e.name)) out.set(e.name, readLanguage(join(dir, e.name), e.name));
    }
  }
  return out;
}

/** The language a BCP 47 tag asks for among those known: the tag itself, else with its last parts dropped (de-CH, then de). */
export function pickLanguage(tag: string, known: Iterable<string>): string | undefined {
  const codes = new Set(known);
  const parts = tag.toLowerCase().replace(/_/g, '-').split('-');
  for (let n = parts.length; n > 0; n--) {
    const code = parts.slice(0, n).join('-');
    if (codes.has(code)) return code;
  }
  return undefined;
}

/** Checks a plugin's words for one language (the loader calls it, naming the plugin in the error). */
export const pluginWordsOf = (value: unknown, where: string): PluginWords => check(PLUGIN_WORDS, value, where);

/** The language's data with the plugins' words added (a plugin's words extend, never replace). */
export function languageWith(base: LanguageData, plugins: readonly PluginWords[]): LanguageData {
  const domains: Record<string, DomainWords> = structuredClone(base.domains);
  const actions: Record<string, string[]> = structuredClone(base.actions);
  const union = (a: string[] | undefined, b: string[]) => [...new Set([...(a ?? []), ...b])];
  const sayings: Saying[] = [...base.sayings];
  const aliases: Record<string, string[]> = structuredClone(base.aliases);
  for (const words of plugins) {
    for (const [domain, w] of Object.entries(words.domains ?? {})) {
      const into = (domains[domain] ??= {});
      if (w.nouns) into.nouns = union(into.nouns, w.nouns);
      if (w.classes) {
        into.classes ??= {};
        for (const [cls, nouns] of Object.entries(w.classes)) into.classes[cls] = union(into.classes[cls], nouns);
      }
    }
    for (const [act, phrases] of Object.entries(words.actions ?? {})) actions[act] = union(actions[act], phrases);
    sayings.push(...(words.sayings ?? []));
    for (const [id, names] of Object.entries(words.aliases ?? {})) aliases[id] = union(aliases[id], names);
  }
  return { ...base, domains, actions, sayings, aliases };
}
