// Words out of a sentence: lower case, spellings folded (ß = ss), contractions opened, possessives
// dropped, number words turned into digits ("twenty five", "fünfundzwanzig" -> 25, "two point five"
// -> 2.5), % and ° and units after digits (6pm) as words of their own, commas kept (they part lists).
// Names of the home pass through the same function, so a sentence and a name always compare alike.
import type { LanguageData } from './language.js';

const WORD = /(?:(?<![\p{L}\p{N}])-(?=\d))?[\p{L}\p{N}]+(?:[.'’][\p{L}\p{N}]+|,\d+)*|%|°|,/gu;

/** Folds the language's equivalent spellings (ß and ss) in lower-cased text. */
export function fold(text: string, lang: LanguageData): string {
  let t = text.toLowerCase().normalize('NFC');
  for (const [from, to] of Object.entries(lang.spelling)) t = t.split(from).join(to);
  return t;
}

/** Splits text into words, without the number pass (for names: "Sensor 2" and "sensor two" meet in numbers()). */
export function words(text: string, lang: LanguageData): string[] {
  const out: string[] = [];
  for (const m of fold(text, lang).matchAll(WORD)) {
    let w = m[0].replace(/’/g, "'");
    // A decimal comma (19,5) is a point.
    if (/^-?\d+,\d+$/.test(w)) w = w.replace(',', '.');
    const opened = lang.contractions[w];
    if (opened) {
      out.push(...opened.split(' '));
      continue;
    }
    if (w.endsWith("'s")) w = w.slice(0, -2);
    w = w.replace(/'/g, '');
    // "6pm", "10min": the number and the unit apart, when the language writes that unit glued on.
    const glued = /^(-?\d+(?:\.\d+)?)(\p{L}+)$/u.exec(w);
    if (glued && lang.digit_suffixes.includes(glued[2]!)) {
      out.push(glued[1]!, glued[2]!);
      continue;
    }
    if (w) out.push(w);
  }
  return out;
}

/** Splits a word written as one into number words (zweihundertfünfzig: zwei hundert fünfzig), or undefined. */
function numberParts(word: string, lang: LanguageData): string[] | undefined {
  if (!lang.number_compounds || lang.numbers[word] !== undefined) return undefined;
  const known = (s: string) =>
    lang.numbers[s] !== undefined || lang.number_parts[s] !== undefined || lang.number_scales[s] !== undefined || lang.number_joiners.includes(s);
  // Longest pieces first, so "siebzehn" stays one and "achtzig" is not "acht zig".
  const split = (rest: string): string[] | undefined => {
    if (!rest) return [];
    for (let n = rest.length; n > 0; n--) {
      const head = rest.slice(0, n);
      if (!known(head)) continue;
      const tail = split(rest.slice(n));
      if (tail) return [head, ...tail];
    }
    return undefined;
  };
  // A form used only inside a compound ("ein" of einundzwanzig) stands for its own word ("eins").
  const parts = split(word)?.map((p) => lang.number_parts[p] ?? p);
  return parts && parts.length > 1 && parts.some((p) => lang.numbers[p] !== undefined) ? parts : undefined;
}

/** Turns runs of number words into one digit word. */
export function numbers(input: readonly string[], lang: LanguageData): string[] {
  const tokens: string[] = [];
  for (const t of input) {
    const parts = numberParts(t, lang);
    if (parts) tokens.push(...parts);
    else tokens.push(t);
  }
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const start = i;
    let total = 0;
    let current = 0;
    let seen = false;
    while (i < tokens.length) {
      const t = tokens[i]!;
      const n = lang.numbers[t];
      if (n !== undefined) {
        // "fifty five" adds; "five fifty" is two numbers.
        if (seen && current % 10 !== 0 && n < 100) break;
        if (seen && current !== 0 && n >= 10 && current < n) break;
        current += n;
        seen = true;
        i++;
      } else if (seen && lang.number_scales[t] !== undefined) {
        current = (current || 1) * lang.number_scales[t]!;
        if (lang.number_scales[t]! >= 1000) {
          total += current;
          current = 0;
        }
        i++;
      } else if (seen && lang.number_joiners.includes(t) && lang.numbers[tokens[i + 1] ?? ''] !== undefined) {
        const next = lang.numbers[tokens[i + 1]!]!;
        // "one hundred and five"; with the unit first, "fünf und zwanzig" is 25.
        if (current >= 100 && current % 100 === 0) i++;
        else if (lang.number_order === 'units_first' && current % 100 > 0 && current % 100 < 10 && next >= 20 && next < 100 && next % 10 === 0) {
          current += next;
          i += 2;
        } else break;
      } else break;
    }
    if (!seen) {
      out.push(tokens[i]!);
      i++;
      continue;
    }
    let value = String(total + current);
    // "two point five"
    if (lang.point.includes(tokens[i] ?? '') && /^\d+$/.test(String(lang.numbers[tokens[i + 1] ?? ''] ?? ''))) {
      value += `.${lang.numbers[tokens[i + 1]!]}`;
      i += 2;
    }
    out.push(value);
    if (i === start) i++;
  }
  // "minus five"
  for (let k = out.length - 2; k >= 0; k--) {
    if (lang.minus.includes(out[k]!) && /^\d+(\.\d+)?$/.test(out[k + 1]!)) out.splice(k, 2, `-${out[k + 1]}`);
  }
  return out;
}

/** The words of a sentence or a name, numbers as digits. */
export const tokenize = (text: string, lang: LanguageData): string[] => numbers(words(text, lang), lang);

/** Plural forms of a phrase (its last word), by the language's suffix rules. */
export function pluralOf(phrase: string, lang: LanguageData): string {
  const parts = phrase.split(' ');
  const last = parts[parts.length - 1]!;
  if (lang.invariant_plural.includes(last) || /\d$/.test(last)) return phrase;
  for (const [from, to] of lang.plural) {
    if (last.endsWith(from) && (from !== 'y' || !/[aeiou]y$/.test(last))) {
      parts[parts.length - 1] = last.slice(0, last.length - from.length) + to;
      return parts.join(' ');
    }
  }
  return phrase;
}

/** How a word sounds, roughly: the language's sound-alike letters folded, doubled letters single, vowels after the first letter gone. */
export function soundKey(word: string, lang: LanguageData): string {
  let w = word;
  for (const [from, to] of lang.sound_alike) w = w.split(from).join(to);
  w = w.replace(/(.)\1+/gu, '$1');
  return w[0] + w.slice(1).replace(/[aeiouyäöü]/gu, '');
}

/** The singular of a plural word by the language's rules, or undefined when the rules did not make it. */
export function singularOf(word: string, lang: LanguageData): string | undefined {
  if (/\d/.test(word)) return undefined;
  for (const [from, to] of lang.plural) {
    if (to && word.endsWith(to) && word.length - to.length >= 3) return word.slice(0, word.length - to.length) + from;
  }
  return undefined;
}
