// The sentences of a reply, in the request's language, from its messages.json: what was done (or
// would be, in a dry run), what failed, the answer to a question, and why nothing was done. Only the
// words come from the language; which sentence to say is decided here, once for every language.
import type { HubState } from '../hub/types.js';
import type { HomeEntity } from './home.js';
import type { TargetMeaning } from './parse.js';
import type { LanguageData, QuestionKind } from './language.js';

/** A message with its {placeholders} filled; `key.*` stands in for a key the language does not have. */
export function say(lang: LanguageData, key: string, vars: Record<string, string | number> = {}): string {
  const m = lang.messages;
  const template = m[key] ?? m[`${key.slice(0, key.indexOf('.'))}.*`] ?? key;
  return template.replace(/\{(\w+)\}/g, (all, name: string) => (vars[name] !== undefined ? String(vars[name]) : all));
}

/** "A, B and C" (or "or"), by the language's list sentence. */
export function listOf(items: readonly string[], lang: LanguageData, joiner: 'list_and' | 'list_or' = 'list_and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return say(lang, joiner, { rest: items.slice(0, -1).join(', '), last: items[items.length - 1]! });
}

export const quote = (text: string, lang: LanguageData) => say(lang, 'quote', { text });
export const quoted = (words: readonly string[], lang: LanguageData) =>
  listOf(
    words.map((w) => quote(w, lang)),
    lang,
  );

/** A number as the language writes it (20,5 in German). */
export function number(n: number, lang: LanguageData): string {
  try {
    return new Intl.NumberFormat(lang.language, { maximumFractionDigits: 2 }).format(n);
  } catch {
    return String(n);
  }
}

/** Which sentence says a service call, and the value it names: brightness 40, white 2700, a colour. */
export function phraseOf(service: string, data: Record<string, unknown>, lang: LanguageData, unit = ''): { id: string; value?: string } {
  const n = (x: unknown) => number(Number(x), lang);
  if (data.brightness_pct !== undefined) return { id: 'brightness', value: n(data.brightness_pct) };
  if (typeof data.brightness_step_pct === 'number')
    return data.brightness_step_pct >= 0 ? { id: 'brighter', value: n(data.brightness_step_pct) } : { id: 'dimmer', value: n(-data.brightness_step_pct) };
  if (typeof data.color_name === 'string') {
    const said = Object.entries(lang.colors).find(([, css]) => css === data.color_name)?.[0];
    return { id: 'color', value: said ?? data.color_name };
  }
  if (data.color_temp_kelvin !== undefined) return { id: 'white', value: n(data.color_temp_kelvin) };
  if (service === 'set_temperature') return { id: 'temperature', value: `${n(data.temperature)}${unit ? ` ${unit}` : ''}` };
  if (service === 'set_cover_position' || service === 'set_valve_position') return { id: 'position', value: n(data.position) };
  if (service === 'volume_set') return { id: 'volume', value: n(Math.round(Number(data.volume_level) * 100)) };
  if (service === 'volume_mute') return { id: data.is_volume_muted === false ? 'unmute' : 'mute' };
  if (service === 'set_percentage') return { id: 'speed', value: n(data.percentage) };
  return { id: service };
}

/** "turn on A and B" (do), or "Turned on A and B." (done). */
export function stepSentence(
  form: 'do' | 'done',
  service: string,
  data: Record<string, unknown>,
  names: readonly string[],
  lang: LanguageData,
  unit?: string,
): string {
  const p = phraseOf(service, data, lang, unit);
  return say(lang, `${form}.${p.id}`, { names: listOf(names, lang), value: p.value ?? '', service });
}

export interface Answerable {
  question: QuestionKind;
  all: boolean;
  entities: HomeEntity[];
  matching: HomeEntity[];
  hasTest: boolean;
}

/** What an entity reads now, in words: a thermostat's temperature, the weather, a sensor with its unit, a state. */
function readingOf(e: HomeEntity, st: HubState | undefined, lang: LanguageData): string {
  if (!st) return say(lang, 'unknown_value');
  const a = st.attributes;
  const num = (x: unknown) =>
    typeof x === 'number' || (typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x))) ? number(Number(x), lang) : String(x);
  const stateWord = (s: string) => lang.messages[`state.${s}`] ?? s;
  if (e.domain === 'climate' && a.current_temperature !== undefined)
    return `${num(a.current_temperature)}${typeof a.temperature_unit === 'string' ? ` ${a.temperature_unit}` : ''}`;
  if (e.domain === 'weather' && a.temperature !== undefined)
    return `${stateWord(st.state)}, ${num(a.temperature)}${typeof a.temperature_unit === 'string' ? ` ${a.temperature_unit}` : ''}`;
  // A person or tracker in a zone other than home has the zone's name as its state ("Work").
  if ((e.domain === 'person' || e.domain === 'device_tracker') && !['home', 'not_home', 'unknown', 'unavailable'].includes(st.state))
    return say(lang, 'in_zone', { zone: st.state });
  const unit = typeof a.unit_of_measurement === 'string' ? ` ${a.unit_of_measurement}` : '';
  return unit ? `${num(st.state)}${unit}` : stateWord(st.state);
}

/** The answer to a question, as sentences. */
export function answer(q: Answerable, state: (id: string) => HubState | undefined, lang: LanguageData): string {
  const names = (list: HomeEntity[]) =>
    listOf(
      list.map((e) => e.name),
      lang,
    );
  const values = (list: HomeEntity[]) => list.map((e) => say(lang, 'value', { name: e.name, value: readingOf(e, state(e.id), lang) })).join(' ');
  const count = () => say(lang, 'count', { count: q.matching.length, total: q.entities.length });
  switch (q.question) {
    case 'count':
      return `${q.hasTest ? count() : q.matching.length}${q.matching.length ? `: ${names(q.matching)}` : ''}.`;
    case 'list':
    case 'who':
      return q.matching.length ? `${names(q.matching)}.` : say(lang, 'none');
    case 'yesno': {
      if (!q.hasTest) return values(q.entities);
      const yes = q.all ? q.matching.length === q.entities.length : q.matching.length > 0;
      const word = say(lang, yes ? 'yes' : 'no');
      if (q.entities.length === 1) return `${word}. ${values(q.entities)}`;
      return `${word}, ${count()}${q.matching.length && q.matching.length < q.entities.length ? `: ${names(q.matching)}` : ''}.`;
    }
    default:
      return q.entities.length ? values(q.entities) : say(lang, 'nothing_to_answer');
  }
}

/** "There is no temperature sensor in Living Room.": a question about a kind of thing a place lacks. */
export function absent(said: TargetMeaning, places: readonly string[], lang: LanguageData): string {
  const classWord = (cls: string) => lang.sensor_classes[cls]?.[0] ?? lang.binary_sensor_classes[cls]?.nouns[0]?.split('|')[0] ?? cls.replace(/_/g, ' ');
  const what =
    said.k === 'domain' ? said.word : said.k === 'bnoun' || said.k === 'snoun' ? say(lang, 'sensor', { kind: classWord(said.cls) }) : say(lang, 'thing');
  return places.length ? say(lang, 'no_such', { what, where: listOf(places, lang, 'list_or') }) : say(lang, 'no_such_anywhere', { what });
}
