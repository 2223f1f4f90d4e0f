// Words out of a sentence: lower case, contractions opened, possessives dropped, number words turned
// into digits ("twenty five" -> 25, "two point five" -> 2.5), % and ° as words of their own. Names of
// the home pass through the same function, so a sentence and a name always compare alike.
import type { LanguageData } from './language.js';

const WORD = /[\p{L}\p{N}]+(?:[.'’][\p{L}\p{N}]+)*|%|°/gu;

/** Splits text into words, without the number pass (for names: "Sensor 2" and "sensor two" meet in numbers()). */
export function words(text: string, lang: LanguageData): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().normalize('NFC').matchAll(WORD)) {
    let w = m[0].replace(/’/g, "'");
    const opened = lang.contractions[w];
    if (opened) {
      out.push(...opened.split(' '));
      continue;
    }
    if (w.endsWith("'s")) w = w.slice(0, -2);
    w = w.replace(/'/g, '');
    // "50%", "1°", "21°c": the number and its unit apart.
    const unit = /^(\d+(?:\.\d+)?)(%|°c|°f|°|c|f|k)$/.exec(w);
    if (unit && /\d/.test(w) && (unit[2]!.startsWith('°') || unit[2] === '%')) {
      out.push(unit[1]!, unit[2]!);
      continue;
    }
    if (w) out.push(w);
  }
  return out;
}

/** Turns runs of number words into one digit word. */
export function numbers(tokens: readonly string[], lang: LanguageData): string[] {
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
      } else if (seen && lang.number_joiners.includes(t) && lang.numbers[tokens[i + 1] ?? ''] !== undefined && current >= 100) {
        i++;
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
