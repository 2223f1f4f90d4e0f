// A phrase table over words: every phrase the parser knows (the language's words, the plugins' domain
// words, and the home's names) with what it can mean. Matching takes the longest phrase at each
// place and keeps all its meanings; choosing among them is the planner's business.
import type { LanguageData } from './language.js';
import { pluralOf, tokenize } from './text.js';

export type Meaning =
  | { k: 'action'; action: string }
  | { k: 'particle'; p: 'on' | 'off' | 'up' | 'down' }
  | { k: 'rel'; dir: 'up' | 'down' }
  | { k: 'comparative'; what: string }
  | { k: 'by' }
  | { k: 'to' }
  | { k: 'prop'; prop: string }
  | { k: 'unit'; unit: 'percent' | 'degrees' | 'kelvin' }
  | { k: 'fraction'; value: number }
  | { k: 'fan_speed'; value: number }
  | { k: 'alarm_mode'; service: string }
  | { k: 'color'; name: string }
  | { k: 'white'; kelvin: number }
  | { k: 'here' }
  | { k: 'everywhere' }
  | { k: 'all' }
  | { k: 'any' }
  | { k: 'generic'; plural: boolean }
  | { k: 'question'; q: 'count' | 'list' | 'where' | 'who' | 'value' | 'yesno' }
  | { k: 'state'; state: string }
  | { k: 'bstate'; cls: string; on: boolean }
  | { k: 'bnoun'; cls: string; plural: boolean }
  | { k: 'snoun'; cls: string }
  | { k: 'domain'; domain: string; cls?: string; word: string; plural: boolean }
  | { k: 'entity'; ids: string[]; name: string }
  | { k: 'area'; id: string; name: string }
  | { k: 'floor'; id: string; name: string }
  | { k: 'scene'; key: string; name: string }
  | { k: 'group'; key: string; name: string }
  | { k: 'number'; value: number }
  | { k: 'filler' }
  | { k: 'connector' };

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

export class Lexicon {
  private readonly root = newNode();
  private maxLen = 1;

  constructor(readonly lang: LanguageData) {}

  /** Adds a phrase (already split into words) with one meaning. */
  addWords(ws: readonly string[], meaning: Meaning): void {
    if (!ws.length) return;
    let node = this.root;
    for (const w of ws) {
      let n = node.next.get(w);
      if (!n) node.next.set(w, (n = newNode()));
      node = n;
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

  /** Adds a noun in the singular and the plural. */
  addNoun(phrase: string, meaning: (plural: boolean) => Meaning): void {
    const plural = pluralOf(phrase, this.lang);
    this.add(phrase, meaning(plural === phrase && this.lang.invariant_plural.includes(phrase.split(' ').pop()!)));
    if (plural !== phrase) this.add(plural, meaning(true));
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
        const n = /^\d+(\.\d+)?$/.test(t) ? [{ k: 'number', value: Number(t) } as Meaning] : [];
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
  for (const [action, phrases] of Object.entries(lang.actions)) for (const p of phrases) lex.add(p, { k: 'action', action });
  for (const [p, phrases] of Object.entries(lang.particles)) for (const x of phrases) lex.add(x, { k: 'particle', p: p as 'on' });
  for (const [dir, phrases] of Object.entries(lang.relative)) for (const x of phrases) lex.add(x, { k: 'rel', dir: dir as 'up' });
  for (const [w, what] of Object.entries(lang.comparatives)) lex.add(w, { k: 'comparative', what });
  for (const w of lang.by) lex.add(w, { k: 'by' });
  for (const w of lang.to) lex.add(w, { k: 'to' });
  for (const [prop, phrases] of Object.entries(lang.properties)) for (const p of phrases) lex.add(p, { k: 'prop', prop });
  for (const [unit, phrases] of Object.entries(lang.units)) for (const p of phrases) lex.add(p, { k: 'unit', unit: unit as 'percent' });
  for (const [p, value] of Object.entries(lang.fractions)) lex.add(p, { k: 'fraction', value });
  for (const [p, value] of Object.entries(lang.fan_speeds)) lex.add(p, { k: 'fan_speed', value });
  for (const [service, phrases] of Object.entries(lang.alarm_modes)) for (const p of phrases) lex.add(p, { k: 'alarm_mode', service });
  for (const [p, name] of Object.entries(lang.colors)) lex.add(p, { k: 'color', name });
  for (const [p, kelvin] of Object.entries(lang.whites)) lex.add(p, { k: 'white', kelvin });
  for (const p of lang.here) lex.add(p, { k: 'here' });
  for (const p of lang.everywhere) lex.add(p, { k: 'everywhere' });
  for (const p of lang.all) lex.add(p, { k: 'all' });
  for (const p of lang.any) lex.add(p, { k: 'any' });
  for (const p of lang.generic_nouns) lex.addNoun(p, (plural) => ({ k: 'generic', plural }));
  for (const p of lang.invariant_plural) if (['things', 'devices', 'everything', 'anything'].includes(p)) lex.add(p, { k: 'generic', plural: true });
  for (const [q, phrases] of Object.entries(lang.questions)) for (const p of phrases) lex.add(p, { k: 'question', q: q as 'yesno' });
  for (const [state, phrases] of Object.entries(lang.states)) for (const p of phrases) lex.add(p, { k: 'state', state });
  for (const [cls, w] of Object.entries(lang.binary_sensor_classes)) {
    for (const p of w.nouns) lex.addNoun(p, (plural) => ({ k: 'bnoun', cls, plural }));
    for (const p of w.on) lex.add(p, { k: 'bstate', cls, on: true });
    for (const p of w.off) lex.add(p, { k: 'bstate', cls, on: false });
  }
  for (const [cls, phrases] of Object.entries(lang.sensor_classes)) for (const p of phrases) lex.add(p, { k: 'snoun', cls });
  for (const [domain, w] of Object.entries(lang.domains)) {
    for (const p of w.nouns ?? []) lex.addNoun(p, (plural) => ({ k: 'domain', domain, word: p, plural }));
    for (const [cls, nouns] of Object.entries(w.classes ?? {})) for (const p of nouns) lex.addNoun(p, (plural) => ({ k: 'domain', domain, cls, word: p, plural }));
  }
  for (const p of lang.connectors) lex.add(p, { k: 'connector' });
  for (const p of lang.filler) lex.add(p, { k: 'filler' });
  return lex;
}
