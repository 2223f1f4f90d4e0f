// A phrase table over words: every phrase the parser knows (the language's words, the plugins' domain
// words, and the home's names) with what it can mean. Matching takes the longest phrase at each
// place and keeps all its meanings; choosing among them is the planner's business.
import type { Amount, HistoryMeasure, HistoryWindow, LanguageData, QuestionKind } from './language.js';
import { pluralOf, tokenize } from './text.js';

export type Meaning =
  | { k: 'action'; action: string }
  | { k: 'particle'; p: 'on' | 'off' | 'up' | 'down' }
  | { k: 'rel'; dir: 'up' | 'down' }
  | { k: 'comparative'; what: string }
  | { k: 'amount'; amount: Amount }
  | { k: 'by' }
  | { k: 'to' }
  | { k: 'prop'; prop: string }
  | { k: 'unit'; unit: 'percent' | 'degrees' | 'kelvin' | 'celsius' | 'fahrenheit' }
  | { k: 'fraction'; value: number }
  | { k: 'fan_speed'; value: number }
  | { k: 'alarm_mode'; service: string }
  | { k: 'color'; name: string }
  | { k: 'white'; kelvin: number }
  | { k: 'here' }
  | { k: 'everywhere' }
  | { k: 'outdoors' }
  | { k: 'all' }
  | { k: 'any' }
  | { k: 'everything' }
  | { k: 'generic'; plural: boolean }
  | { k: 'question'; q: QuestionKind }
  | { k: 'state'; state: string }
  | { k: 'bstate'; cls: string; on: boolean }
  | { k: 'bnoun'; cls: string; plural: boolean }
  | { k: 'snoun'; cls: string }
  /** `classes`: one word that names several device classes (Tor: a gate or a garage door), joined when resolving. */
  /** everyday: the domain's own everyday word, first in its list (light, Licht); the others name a kind of it more precisely (lamp, Lampe). */
  | { k: 'domain'; domain: string; cls?: string; classes?: string[]; word: string; plural: boolean; everyday?: boolean; kin?: string[] }
  | { k: 'entity'; ids: string[]; name: string }
  | { k: 'area'; id: string; name: string }
  | { k: 'floor'; id: string; name: string }
  | { k: 'scene'; key: string; name: string }
  | { k: 'group'; key: string; name: string }
  | { k: 'number'; value: number }
  | { k: 'negation' }
  | { k: 'time' }
  | { k: 'condition' }
  | { k: 'except' }
  | { k: 'relation' }
  | { k: 'vague' }
  | { k: 'of' }
  | { k: 'list' }
  | { k: 'filler' }
  | { k: 'connector' }
  | { k: 'request' }
  | { k: 'tag_question' }
  | { k: 'tag_request' }
  | { k: 'asks' }
  | { k: 'statement' }
  | { k: 'history'; measure?: HistoryMeasure }
  | { k: 'advice' }
  | { k: 'period'; names: string[]; window?: HistoryWindow }
  | { k: 'position'; forms: string[] }
  | { k: 'pronoun'; p: 'same' | 'kind' | 'kinds' | 'other' };

interface Node {
  next: Map<string, Node>;
  meanings?: Meaning[];
}

export interface Lexeme {
  /** Index of the first word and one past the last. */
  start: number;
  end: number;
  text: string;
  meanings: Meaning[];
}

const newNode = (): Node => ({ next: new Map() });

/** Meanings that name a thing a person may mistype (typo matching looks only at these words, and a guessed word keeps only these). */
export const THING = new Set<Meaning['k']>(['entity', 'area', 'floor', 'scene', 'group', 'domain', 'bnoun', 'snoun', 'generic']);

export class Lexicon {
  private readonly root = newNode();
  private maxLen = 1;
  /** Separable verbs said apart: a form of the verb, then its particle, gives the act (schließ … auf: unlock). */
  readonly separable = new Map<string, Map<string, string>>();
  /** Every word of every phrase, with whether it names things and (once asked) its sound key, for typo matching. */
  readonly words = new Map<string, { thing: boolean; key?: string }>();

  constructor(readonly lang: LanguageData) {}

  /** Adds a phrase (already split into words) with one meaning. */
  addWords(ws: readonly string[], meaning: Meaning): void {
    if (!ws.length) return;
    let node = this.root;
    for (const w of ws) {
      let n = node.next.get(w);
      if (!n) node.next.set(w, (n = newNode()));
      node = n;
      const known = this.words.get(w);
      if (!known) this.words.set(w, { thing: THING.has(meaning.k) });
      else if (THING.has(meaning.k)) known.thing = true;
    }
    const list = (node.meanings ??= []);
    // Same meaning twice (an entity under two equal names) is kept once; entity ids merge.
    if (meaning.k === 'entity') {
      meaning = { ...meaning, ids: [...meaning.ids] };
      const same = list.find((m): m is Extract<Meaning, { k: 'entity' }> => m.k === 'entity');
      if (same) {
        for (const id of meaning.ids) if (!same.ids.includes(id)) same.ids.push(id);
        return;
      }
    }
    if (!list.some((m) => sameMeaning(m, meaning))) list.push(meaning);
    this.maxLen = Math.max(this.maxLen, ws.length);
  }

  add(phrase: string, meaning: Meaning): void {
    this.addWords(tokenize(phrase, this.lang), meaning);
  }

  /** Adds a noun in the singular and the plural (`singular|plural|...` where the rules do not make it). */
  addNoun(phrase: string, meaning: (plural: boolean) => Meaning): void {
    const [singular, ...plurals] = phrase.split('|').map((p) => p.trim());
    const made = pluralOf(singular!, this.lang);
    const invariant = made === singular && this.lang.invariant_plural.includes(singular!.split(' ').pop()!);
    this.add(singular!, meaning(invariant));
    for (const p of plurals.length ? plurals : made !== singular ? [made] : []) this.add(p, meaning(true));
  }

  private thingList?: { size: number; list: [string, { thing: boolean; key?: string }][] };

  /** The words that name things (what typo matching compares with), kept until a word is added. */
  things(): [string, { thing: boolean; key?: string }][] {
    if (this.thingList?.size !== this.words.size) this.thingList = { size: this.words.size, list: [...this.words].filter(([, info]) => info.thing) };
    return this.thingList.list;
  }

  /** The single-word phrase's meanings, if the word is a phrase of its own. */
  meaningsOf(word: string): Meaning[] | undefined {
    return this.root.next.get(word)?.meanings;
  }

  /** The longest phrase at each place, left to right; a word nothing knows comes alone with no meanings. */
  match(tokens: readonly string[], extra?: Lexicon): Lexeme[] {
    const out: Lexeme[] = [];
    let i = 0;
    while (i < tokens.length) {
      const a = this.longest(tokens, i);
      const b = extra?.longest(tokens, i);
      let best = a;
      if (b && (!best || b.end > best.end)) best = b;
      else if (b && best && b.end === best.end) best = { ...best, meanings: [...b.meanings, ...best.meanings] };
      if (!best) {
        const t = tokens[i]!;
        const n = /^-?\d+(\.\d+)?$/.test(t) ? [{ k: 'number', value: Number(t) } as Meaning] : [];
        out.push({ start: i, end: i + 1, text: t, meanings: n });
        i++;
        continue;
      }
      out.push(best);
      i = best.end;
    }
    return out;
  }

  private longest(tokens: readonly string[], start: number): Lexeme | undefined {
    let node = this.root;
    let found: Lexeme | undefined;
    for (let j = start; j < tokens.length && j - start < this.maxLen; j++) {
      const n = node.next.get(tokens[j]!);
      if (!n) break;
      node = n;
      if (node.meanings) found = { start, end: j + 1, text: tokens.slice(start, j + 1).join(' '), meanings: node.meanings };
    }
    return found;
  }
}

function sameMeaning(a: Meaning, b: Meaning): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The lexicon of a language's own words and its domains' words (the home's names go in another). */
export function languageLexicon(lang: LanguageData): Lexicon {
  const lex = new Lexicon(lang);
  const each = <T>(o: Record<string, T[]> | undefined, f: (key: string, x: T) => void) => {
    for (const [key, xs] of Object.entries(o ?? {})) for (const x of xs) f(key, x);
  };
  each(lang.actions, (action, p) => lex.add(p, { k: 'action', action }));
  each(lang.particles, (p, x) => lex.add(x, { k: 'particle', p: p as 'on' }));
  each(lang.relative, (dir, x) => lex.add(x, { k: 'rel', dir: dir as 'up' }));
  for (const [w, what] of Object.entries(lang.comparatives)) lex.add(w, { k: 'comparative', what });
  each(lang.amounts, (amount, p) => lex.add(p, { k: 'amount', amount: amount as Amount }));
  for (const w of lang.by) lex.add(w, { k: 'by' });
  for (const w of lang.to) lex.add(w, { k: 'to' });
  each(lang.properties, (prop, p) => lex.add(p, { k: 'prop', prop }));
  each(lang.units, (unit, p) => lex.add(p, { k: 'unit', unit: unit as 'percent' }));
  for (const [p, value] of Object.entries(lang.fractions)) lex.add(p, { k: 'fraction', value });
  for (const [p, value] of Object.entries(lang.fan_speeds)) lex.add(p, { k: 'fan_speed', value });
  each(lang.alarm_modes, (service, p) => lex.add(p, { k: 'alarm_mode', service }));
  for (const [p, name] of Object.entries(lang.colors)) lex.add(p, { k: 'color', name });
  for (const [p, kelvin] of Object.entries(lang.whites)) lex.add(p, { k: 'white', kelvin });
  for (const p of lang.here) lex.add(p, { k: 'here' });
  for (const p of lang.everywhere) lex.add(p, { k: 'everywhere' });
  for (const p of lang.outdoors) lex.add(p, { k: 'outdoors' });
  for (const p of lang.all) lex.add(p, { k: 'all' });
  for (const p of lang.any) lex.add(p, { k: 'any' });
  for (const p of lang.everything) lex.add(p, { k: 'everything' });
  for (const p of lang.generic_nouns) lex.addNoun(p, (plural) => ({ k: 'generic', plural }));
  each(lang.questions, (q, p) => lex.add(p, { k: 'question', q: q as QuestionKind }));
  // "how warm": a question that names what it asks of.
  each(lang.asks_about, (cls, p) => {
    lex.add(p, { k: 'question', q: 'value' });
    lex.add(p, { k: 'snoun', cls });
  });
  each(lang.states, (state, p) => lex.add(p, { k: 'state', state }));
  for (const [cls, w] of Object.entries(lang.binary_sensor_classes)) {
    for (const p of w.nouns) lex.addNoun(p, (plural) => ({ k: 'bnoun', cls, plural }));
    for (const p of w.on) lex.add(p, { k: 'bstate', cls, on: true });
    for (const p of w.off) lex.add(p, { k: 'bstate', cls, on: false });
  }
  each(lang.sensor_classes, (cls, p) => lex.add(p, { k: 'snoun', cls }));
  for (const [domain, w] of Object.entries(lang.domains)) {
    const nouns = w.nouns ?? [];
    for (const p of nouns) {
      const everyday = p === nouns[0] ? { everyday: true } : {};
      lex.addNoun(p, (plural) => ({ k: 'domain', domain, word: p.split('|')[0]!, plural, ...everyday }));
    }
    for (const [cls, nouns] of Object.entries(w.classes ?? {})) {
      // Every word of the class: a thing with no device class whose name carries one of them is of it.
      const kin = nouns.map((n) => n.split('|')[0]!);
      for (const p of nouns) lex.addNoun(p, (plural) => ({ k: 'domain', domain, cls, word: p.split('|')[0]!, plural, kin }));
    }
  }
  for (const p of lang.negation) lex.add(p, { k: 'negation' });
  for (const p of [...lang.time, ...lang.time_units]) lex.add(p, { k: 'time' });
  for (const p of lang.condition) lex.add(p, { k: 'condition' });
  for (const p of lang.except) lex.add(p, { k: 'except' });
  for (const p of lang.relations) lex.add(p, { k: 'relation' });
  for (const p of lang.vague) lex.add(p, { k: 'vague' });
  for (const p of lang.of) lex.add(p, { k: 'of' });
  for (const p of lang.list_joiners) lex.add(p, { k: 'list' });
  for (const p of lang.connectors) lex.add(p, { k: 'connector' });
  for (const p of [...lang.filler, ...lang.hesitations]) lex.add(p, { k: 'filler' });
  for (const p of lang.requests) lex.add(p, { k: 'request' });
  for (const p of lang.tag_questions) lex.add(p, { k: 'tag_question' });
  for (const p of lang.tag_requests) lex.add(p, { k: 'tag_request' });
  for (const p of lang.advice) lex.add(p, { k: 'advice' });
  for (const p of lang.asks) lex.add(p, { k: 'asks' });
  for (const p of lang.statements) lex.add(p, { k: 'statement' });
  const measureOf = (p: string) => (Object.keys(lang.history_measures) as HistoryMeasure[]).find((m) => lang.history_measures[m]?.includes(p));
  const windowOf = (p: string) => (Object.keys(lang.history_windows) as HistoryWindow[]).find((w) => lang.history_windows[w]?.includes(p));
  for (const p of lang.history) lex.add(p, { k: 'history', measure: measureOf(p) });
  for (const [p, names] of Object.entries(lang.periods)) lex.add(p, { k: 'period', names: names.map((n) => tokenize(n, lang).join(' ')), window: windowOf(p) });
  for (const forms of Object.values(lang.positions)) {
    const folded = forms.map((x) => tokenize(x, lang).join(' '));
    for (const x of forms) lex.add(x, { k: 'position', forms: folded });
  }
  for (const [p, xs] of Object.entries(lang.pronouns)) for (const x of xs ?? []) lex.add(x, { k: 'pronoun', p: p as 'same' });
  addSeparable(lex, lang);
  return lex;
}

/** From each one-word act phrase that starts with a separable particle (aufschließen), its forms said apart. */
function addSeparable(lex: Lexicon, lang: LanguageData): void {
  const sep = lang.separable;
  if (!sep) return;
  for (const [action, phrases] of Object.entries(lang.actions)) {
    for (const phrase of phrases) {
      const [word, ...more] = tokenize(phrase, lang);
      if (!word || more.length) continue;
      const particle = sep.particles.find((x) => word.startsWith(x) && word.length - x.length >= 4);
      if (!particle) continue;
      const verb = word.slice(particle.length);
      const ending = sep.infinitive.find((e) => verb.endsWith(e));
      if (ending === undefined) continue;
      const stem = verb.slice(0, verb.length - ending.length);
      for (const form of sep.forms) {
        const said = stem + form;
        let byParticle = lex.separable.get(said);
        if (!byParticle) lex.separable.set(said, (byParticle = new Map()));
        if (!byParticle.has(particle)) byParticle.set(particle, action);
      }
    }
  }
}
