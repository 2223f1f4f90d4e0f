// Words the phrase tables do not know, read as what they most likely are: a known word with a case
// or plural ending (des Wohnzimmers), words written as one (Wohnzimmerlampe, livingroom,
// ausschalten), or a misheard or mistyped name of a thing (lamb: lamp, vacume: vacuum). A guess is
// taken only when it is close and the only one that close; a guess less sure than that becomes a
// question. Verbs and the words that forbid acting are never guessed: a guess may only change
// which thing is meant, and only the home's names and the kinds of things are guessed at.
import type { LanguageData } from './language.js';
import type { Lexicon } from './lexicon.js';

/** A guess at least this sure is taken; one at least ASK sure is asked about; below, the word stays unknown. */
export const ACCEPT = 0.75;
export const ASK = 0.6;

export interface Recovery {
  tokens: string[];
  /** Words read as others, with where they are in `tokens`. */
  guesses: { word: string; as: string; at: number }[];
  /** The closest guess for a word when it was not sure enough to take. */
  unsure?: { word: string; guess: string };
}

const isNumber = (t: string) => /^-?\d+(\.\d+)?$/.test(t);

/** Damerau-Levenshtein distance (adjacent swaps count one). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** How a word sounds, roughly: the language's sound-alike letters folded, doubled letters single, vowels after the first letter gone. */
export function soundKey(word: string, lang: LanguageData): string {
  let w = word;
  for (const [from, to] of lang.sound_alike) w = w.split(from).join(to);
  w = w.replace(/(.)\1+/gu, '$1');
  return w[0] + w.slice(1).replace(/[aeiouyäöü]/gu, '');
}

/** How sure a guess is that `word` meant `known` (0 to 1). */
export function confidence(word: string, known: string, lang: LanguageData): number {
  if (word.length < 4 || known.length < 3 || isNumber(known)) return 0;
  const d = distance(word, known);
  // More than two slips is another word, unless it sounds the same.
  let c = d > 2 ? 0 : 1 - d / Math.max(word.length, known.length);
  // A slip in a three-letter word changes a third of it: only ever a question (flux: lux?).
  if (Math.min(word.length, known.length) < 4) c *= 0.9;
  // Same sound, other letters (celing, vacume, lites): as sure as one slip of a finger.
  const key = soundKey(word, lang);
  if (d <= 3 && key.length >= 2 && key === soundKey(known, lang)) c = Math.max(c, 0.8);
  return c;
}

export class Recoverer {
  constructor(
    private readonly lang: LanguageData,
    private readonly lexicons: readonly Lexicon[],
  ) {}

  private known(w: string): boolean {
    return this.lexicons.some((l) => l.words.has(w));
  }

  /** A known word that is not only filler (a part of a compound must mean something). */
  private part(w: string): boolean {
    if (w.length < (this.lang.compounds?.min_part ?? 3) || !this.known(w)) return false;
    const own = this.lexicons.flatMap((l) => l.meaningsOf(w) ?? []);
    return !own.length || own.some((m) => m.k !== 'filler' && m.k !== 'connector' && m.k !== 'of' && m.k !== 'list');
  }

  /** The word without an ending, if that is a known word. */
  private stem(w: string): string | undefined {
    for (const e of [...this.lang.endings].sort((a, b) => b.length - a.length)) {
      if (w.length - e.length >= 3 && w.endsWith(e) && this.known(w.slice(0, -e.length))) return w.slice(0, -e.length);
    }
    return undefined;
  }

  /** The known words a word is written of (Wohnzimmerlampe: wohnzimmer lampe), if it is a compound. */
  parts(w: string): string[] | undefined {
    return this.split(w);
  }

  /** A word written as known words joined (with the language's linking letters), longest first part first. */
  private split(w: string, depth = 0): string[] | undefined {
    const c = this.lang.compounds;
    if (!c || depth > 2) return undefined;
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
    let best: { word: string; sure: number } | undefined;
    let tie = false;
    for (const l of this.lexicons) {
      for (const [known, info] of l.words) {
        if (!info.thing || Math.abs(known.length - w.length) > 3) continue;
        const sure = confidence(w, known, this.lang);
        if (sure < ASK) continue;
        if (!best || sure > best.sure) {
          best = { word: known, sure };
          tie = false;
        } else if (sure === best.sure && known !== best.word) tie = true;
      }
    }
    return best && !tie ? best : best ? { ...best, sure: Math.min(best.sure, ACCEPT - 0.01) } : undefined;
  }

  recover(tokens: readonly string[]): Recovery {
    const out: string[] = [];
    const guesses: Recovery['guesses'] = [];
    let unsure: Recovery['unsure'];
    for (const t of tokens) {
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
