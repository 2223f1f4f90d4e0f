// Words the phrase tables do not know, read as what they most likely are: a known word with a case
// or plural ending (des Wohnzimmers), words written as one (Wohnzimmerlampe, livingroom,
// ausschalten), or a misheard or mistyped name of a thing (lamb: lamp, vacume: vacuum). A guess is
// taken only when it is close and the only one that close; a guess less sure than that becomes a
// question. The words that forbid acting are never guessed. A verb or a position is read only by one
// slip of the finger that leaves no other verb as close (slipOf), where every other word is understood;
// else asked. Otherwise only the home's names and the kinds of things are guessed at.
import type { LanguageData } from './language.js';
import { type Lexicon, THING } from './lexicon.js';
import { singularOf, soundKey } from './text.js';

/** A guess at least this sure is taken; one at least ASK sure is asked about; below, the word stays unknown. */
export const ACCEPT = 0.75;
export const ASK = 0.6;

export interface Recovery {
  tokens: string[];
  /** Words read as others, with where they are in `tokens`; `slip` when read as a verb or a position by a slip of the finger. */
  guesses: { word: string; as: string; at: number; slip?: true }[];
  /** The closest guess for a word when it was not sure enough to take. */
  unsure?: { word: string; guess: string };
}

const isNumber = (t: string) => /^-?\d+(\.\d+)?$/.test(t);

/** Keys side by side on the language's keyboard (its rows as data): a slip onto one costs half a letter. */
const NEAR = new WeakMap<LanguageData, Set<number>>();
/** A pair of letters as one number (no string made in distance's inner loop). */
const pair = (a: number, b: number) => a * 65536 + b;
function nearKeys(lang: LanguageData): Set<number> {
  let near = NEAR.get(lang);
  if (near) return near;
  near = new Set();
  const rows = lang.keyboard;
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < rows[r]!.length; c++) {
      const k = rows[r]![c]!;
      // Same row either side; the row below sits half a key to the right.
      const around = [rows[r]![c - 1], rows[r]![c + 1], rows[r + 1]?.[c - 1], rows[r + 1]?.[c]];
      for (const x of around) if (x) near.add(pair(k.charCodeAt(0), x.charCodeAt(0))).add(pair(x.charCodeAt(0), k.charCodeAt(0)));
    }
  }
  NEAR.set(lang, near);
  return near;
}

/** Damerau-Levenshtein distance (adjacent swaps count one; a neighbouring key, when given, half), or max + 1 as soon as it must be more than max. */
export function distance(a: string, b: string, max = Infinity, near?: Set<number>): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : near?.has(pair(a.charCodeAt(i - 1), b.charCodeAt(j - 1))) ? 0.5 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      row[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** How sure a guess is that `word` meant `known` (0 to 1), given both words' sound keys. */
export function confidence(word: string, known: string, lang: LanguageData, keys?: { word: string; known: string }): number {
  if (word.length < 4 || known.length < 3 || isNumber(known)) return 0;
  // Same sound, other letters (celing, vacume, lites): as sure as one slip of a finger.
  const key = keys?.word ?? soundKey(word, lang);
  const same = key.length >= 2 && key === (keys?.known ?? soundKey(known, lang));
  const max = same ? 3 : 2;
  // A slip onto the next key counts half, among words already that close (the plain distance first: it is cheaper).
  let d = distance(word, known, max);
  if (d > 0 && d <= max) d = distance(word, known, max, nearKeys(lang));
  // More than two slips is another word, unless it sounds the same.
  let c = d > 2 ? 0 : 1 - d / Math.max(word.length, known.length);
  // A slip in a three-letter word changes a third of it: only ever a question (flux: lux?).
  if (Math.min(word.length, known.length) < 4) c *= 0.9;
  if (same && d <= 3) c = Math.max(c, 0.8);
  return c;
}

/** The language's number words with their sound keys, made once. */
const NUMBER_KEYS = new WeakMap<LanguageData, [string, string][]>();
function numberKeys(lang: LanguageData): [string, string][] {
  let keys = NUMBER_KEYS.get(lang);
  if (!keys) NUMBER_KEYS.set(lang, (keys = [...Object.keys(lang.numbers), ...Object.keys(lang.number_scales)].map((w) => [w, soundKey(w, lang)])));
  return keys;
}

/**
 * Whether `word` is `known` with one slip that keeps it recognisable: two letters swapped (unlcok,
 * swtich, lfet), a doubled letter said once or twice (öfne), or one letter that does not change how
 * it sounds (unlok). Both are four letters or more: a slip in a shorter word makes another word.
 */
export function slipOf(word: string, known: string, lang: LanguageData): boolean {
  if (word.length < 4 || known.length < 4 || word === known || distance(word, known, 1) > 1) return false;
  const sorted = (w: string) => [...w].sort().join('');
  if (word.length === known.length && sorted(word) === sorted(known)) return true;
  const single = (w: string) => w.replace(/(.)\1+/gu, '$1');
  if (single(word) === single(known)) return true;
  return soundKey(word, lang) === soundKey(known, lang);
}

/** What may stand before a verb that opens a part ("please", "and then", "can you"). */
const OPENING = new Set(['filler', 'connector', 'list', 'request', 'tag_request']);

/** Single words that are verbs or positions (unlock, öffne, left): what a slip of the finger may be read as. */
const SLIP_TARGETS = new WeakMap<Lexicon, string[]>();
function slipTargets(l: Lexicon): string[] {
  let out = SLIP_TARGETS.get(l);
  if (out) return out;
  // A verb that is also filler ("set", "make") says too little to be guessed at.
  out = [...l.words.keys()].filter((w) => {
    const ms = l.meaningsOf(w) ?? [];
    return ms.some((m) => m.k === 'position' || (m.k === 'action' && !ms.some((x) => x.k === 'filler')));
  });
  SLIP_TARGETS.set(l, out);
  return out;
}

export class Recoverer {
  /** The language's endings, longest first, each with what it leaves in its place. */
  private readonly endings: [string, string][];

  constructor(
    private readonly lang: LanguageData,
    private readonly lexicons: readonly Lexicon[],
  ) {
    this.endings = lang.endings
      .map((e) => e.split(':') as [string, string?])
      .map(([end, put = '']) => [end, put] as [string, string])
      .sort((a, b) => b[0].length - a[0].length);
  }

  private known(w: string): boolean {
    return this.lexicons.some((l) => l.words.has(w));
  }

  /** A known word that is not only filler (a part of a compound must mean something). */
  private part(w: string): boolean {
    if (w.length < (this.lang.compounds?.min_part ?? 3) || !this.known(w)) return false;
    const own = this.lexicons.flatMap((l) => l.meaningsOf(w) ?? []);
    return !own.length || own.some((m) => m.k !== 'filler' && m.k !== 'connector' && m.k !== 'of' && m.k !== 'list');
  }

  /** The word without an ending (or with the ending's own replacement: closing, close), if that is a known word. */
  private stem(w: string): string | undefined {
    for (const [end, put] of this.endings) {
      if (w.length - end.length < 3 || !w.endsWith(end)) continue;
      const stem = w.slice(0, w.length - end.length) + put;
      if (this.known(stem)) return stem;
    }
    return undefined;
  }

  /**
   * A list of words that share one noun ("the front, back and side doors"): each with the noun,
   * when each then is a name the home knows (front door, back door, side door).
   */
  shareNoun(tokens: readonly string[], names: Lexicon): string[] {
    const out = [...tokens];
    const joiner = (t: string | undefined) => t !== undefined && (t === ',' || this.lang.list_joiners.includes(t));
    for (let j = out.length - 1; j >= 3; j--) {
      const noun = out[j]!;
      const items = [j - 1];
      for (let k = j - 2; k >= 1 && joiner(out[k]); k -= 2) items.unshift(k - 1);
      if (items.length < 2 || items.some((i) => joiner(out[i]))) continue;
      for (const form of [noun, singularOf(noun, this.lang)].filter((x): x is string => x !== undefined)) {
        const named = (i: number) => {
          const m = names.match([out[i]!, form]);
          return m.length === 1 && m[0]!.meanings.some((x) => x.k === 'entity');
        };
        if (!items.every(named)) continue;
        const rebuilt: string[] = [];
        for (let i = items[0]!; i < j; i++) rebuilt.push(out[i]!, ...(items.includes(i) ? [form] : []));
        out.splice(items[0]!, j - items[0]! + 1, ...rebuilt);
        return out;
      }
    }
    return out;
  }

  /** The known words a word is written of (Wohnzimmerlampe: wohnzimmer lampe), if it is a compound. */
  parts(w: string): string[] | undefined {
    return this.split(w);
  }

  /** A word written as known words joined (with the language's linking letters), longest first part first. */
  private split(w: string, depth = 0): string[] | undefined {
    const c = this.lang.compounds;
    if (!c || depth > 2 || w.length < 2 * c.min_part) return undefined;
    const min = c.min_part;
    for (let n = w.length - min; n >= min; n--) {
      let head = w.slice(0, n);
      if (!this.part(head)) {
        // Küchenschalter: the first part with its ending (küchen) stands for the word (küche).
        const stem = this.stem(head);
        if (!stem || !this.part(stem)) continue;
        head = stem;
      }
      for (const linker of c.linkers) {
        if (!w.startsWith(linker, n)) continue;
        const rest = w.slice(n + linker.length);
        if (rest.length < min) continue;
        if (this.part(rest)) return [head, rest];
        const stem = this.stem(rest);
        if (stem && this.part(stem)) return [head, stem];
        const more = this.split(rest, depth + 1);
        if (more) return [head, ...more];
      }
    }
    return undefined;
  }

  /** The closest word that names a thing, with how sure the guess is; undefined when two are equally close. */
  private closest(w: string): { word: string; sure: number } | undefined {
    const key = soundKey(w, this.lang);
    let best: { word: string; sure: number } | undefined;
    let tie = false;
    for (const l of this.lexicons) {
      for (const [known, info] of l.things()) {
        if (Math.abs(known.length - w.length) > 3) continue;
        const sure = confidence(w, known, this.lang, { word: key, known: (info.key ??= soundKey(known, this.lang)) });
        if (sure < ASK) continue;
        if (!best || sure > best.sure) {
          best = { word: known, sure };
          tie = false;
        } else if (sure === best.sure && known !== best.word) tie = true;
      }
    }
    return best && !tie ? best : best ? { ...best, sure: Math.min(best.sure, ACCEPT - 0.01) } : undefined;
  }

  /**
   * The verb or position a word is by one slip (see slipOf), when exactly one is; with several, or
   * with one only a letter away by no such slip, the closest is only asked about.
   */
  private slip(w: string, prev: string | undefined, next: string | undefined): { word: string; sure: boolean } | undefined {
    if (w.length < 3) return undefined;
    // A verb stands first in its part ("unlcok the door", "…, then trun off"); a position beside a thing ("the lfet curtain").
    const meanings = (t: string | undefined) => (t === undefined ? [] : this.lexicons.flatMap((l) => l.meaningsOf(t) ?? []));
    const opens = prev === undefined || prev === ',' || (meanings(prev).length > 0 && meanings(prev).every((m) => OPENING.has(m.k)));
    const besideThing = [prev, next].some((t) => meanings(t).some((m) => THING.has(m.k)));
    const near = new Set<string>();
    const strong = new Set<string>();
    for (const l of this.lexicons) {
      for (const known of slipTargets(l)) {
        const kinds = l.meaningsOf(known) ?? [];
        if (!(opens && kinds.some((m) => m.k === 'action')) && !(besideThing && kinds.some((m) => m.k === 'position'))) continue;
        if (known.length < 4 || Math.abs(known.length - w.length) > 1 || distance(w, known, 1) > 1) continue;
        near.add(known);
        if (slipOf(w, known, this.lang)) strong.add(known);
      }
    }
    if (strong.size === 1 && near.size === 1) return { word: [...strong][0]!, sure: true };
    const first = [...strong, ...near][0];
    return first ? { word: first, sure: false } : undefined;
  }

  /** A mistyped number word ("fourty", "fümf"), by the same confidence rule, or undefined. */
  private numberWord(w: string): string | undefined {
    let best: { word: string; sure: number } | undefined;
    let tie = false;
    const key = soundKey(w, this.lang);
    for (const [known, knownKey] of numberKeys(this.lang)) {
      const sure = confidence(w, known, this.lang, { word: key, known: knownKey });
      if (sure < ACCEPT) continue;
      if (!best || sure > best.sure) [best, tie] = [{ word: known, sure }, false];
      else if (sure === best.sure) tie = true;
    }
    return best && !tie ? best.word : undefined;
  }

  /** Words before their numbers are read: a mistyped number word ("fourty five") becomes the one it spells. */
  numberWords(input: readonly string[]): string[] {
    const isNumberWord = (t: string) => this.lang.numbers[t] !== undefined || this.lang.number_scales[t] !== undefined;
    const units = new Set(Object.values(this.lang.units).flat());
    const before = new Set([...this.lang.to, ...this.lang.by]);
    // A value is never guessed out of any word: a mistyped number word is read only where a number
    // stands ("fourty five", "fümf Grad", "to fourty"), never "nice" as nine in "nice and cosy".
    const placed = (i: number) => {
      const [prev, next] = [input[i - 1] ?? '', input[i + 1] ?? ''];
      return isNumber(prev) || isNumberWord(prev) || isNumber(next) || isNumberWord(next) || units.has(next) || before.has(prev);
    };
    return input.map((t, i) =>
      isNumber(t) || t === ',' || isNumberWord(t) || this.known(t) || !/\p{L}/u.test(t) || this.stem(t) || !placed(i) ? t : (this.numberWord(t) ?? t),
    );
  }

  recover(tokens: readonly string[]): Recovery {
    const out: string[] = [];
    const guesses: Recovery['guesses'] = [];
    let unsure: Recovery['unsure'];
    for (const [i, t] of tokens.entries()) {
      if (isNumber(t) || t === ',' || this.known(t) || !/\p{L}/u.test(t)) {
        out.push(t);
        continue;
      }
      const stem = this.stem(t);
      if (stem) {
        out.push(stem);
        continue;
      }
      const parts = this.split(t);
      if (parts) {
        out.push(...parts);
        continue;
      }
      const guess = this.closest(t);
      // "unlcok", "trun", "lfet": a verb or a position by one slip, and nothing else as close.
      const slip = this.slip(t, out[out.length - 1], tokens[i + 1]);
      // A name as close as the verb is another reading: then the verb is only asked about.
      if (slip?.sure && (!guess || guess.word === slip.word || distance(t, guess.word, 1) > 1)) {
        guesses.push({ word: t, as: slip.word, at: out.length, slip: true });
        out.push(slip.word);
        continue;
      }
      if (slip && !guess && !unsure) unsure = { word: t, guess: slip.word };
      if (guess && guess.sure >= ACCEPT) {
        guesses.push({ word: t, as: guess.word, at: out.length });
        out.push(guess.word);
        continue;
      }
      if (guess && !unsure) unsure = { word: t, guess: guess.word };
      out.push(t);
    }
    return { tokens: out, guesses, ...(unsure ? { unsure } : {}) };
  }
}
