// A language's words for the command parser: the language-general data file (src/nlp/lang/<code>.json)
// merged with what each plugin contributes for its domains. Nothing here knows a particular home.
import en from './lang/en.json' with { type: 'json' };

export interface DomainWords {
  nouns?: string[];
  /** Device classes of the domain, each with the nouns that name it (curtain: curtain, drape). */
  classes?: Record<string, string[]>;
}

export interface BinaryClassWords {
  nouns: string[];
  on: string[];
  off: string[];
}

export interface LanguageData {
  language: string;
  plural: [string, string][];
  invariant_plural: string[];
  contractions: Record<string, string>;
  numbers: Record<string, number>;
  number_scales: Record<string, number>;
  number_joiners: string[];
  point: string[];
  fractions: Record<string, number>;
  units: Record<'percent' | 'degrees' | 'kelvin', string[]>;
  actions: Record<string, string[]>;
  particles: Record<'on' | 'off' | 'up' | 'down', string[]>;
  relative: Record<'up' | 'down', string[]>;
  comparatives: Record<string, string>;
  by: string[];
  to: string[];
  properties: Record<string, string[]>;
  fan_speeds: Record<string, number>;
  alarm_modes: Record<string, string[]>;
  colors: Record<string, string>;
  whites: Record<string, number>;
  here: string[];
  everywhere: string[];
  all: string[];
  any: string[];
  generic_nouns: string[];
  questions: Record<'count' | 'list' | 'where' | 'who' | 'value' | 'yesno', string[]>;
  states: Record<string, string[]>;
  binary_sensor_classes: Record<string, BinaryClassWords>;
  sensor_classes: Record<string, string[]>;
  domains: Record<string, DomainWords>;
  filler: string[];
  /** Words between a preposition and its place ("on the first floor"). */
  determiners: string[];
  connectors: string[];
  messages: Record<string, string>;
}

/** What a plugin gives for one language (its `vocabulary[code]`). */
export interface PluginWords {
  domains?: Record<string, DomainWords>;
}

const BUILT_IN: Record<string, LanguageData> = { en: en as unknown as LanguageData };

export const LANGUAGES = Object.keys(BUILT_IN);
export const DEFAULT_LANGUAGE = 'en';

/** The language's data with the plugins' domain words added (a plugin's words extend, never replace). */
export function languageWith(code: string, plugins: readonly PluginWords[]): LanguageData | undefined {
  const base = BUILT_IN[code];
  if (!base) return undefined;
  const domains: Record<string, DomainWords> = structuredClone(base.domains);
  for (const words of plugins) {
    for (const [domain, w] of Object.entries(words.domains ?? {})) {
      const into = (domains[domain] ??= {});
      if (w.nouns) into.nouns = [...new Set([...(into.nouns ?? []), ...w.nouns])];
      if (w.classes) {
        into.classes ??= {};
        for (const [cls, nouns] of Object.entries(w.classes)) into.classes[cls] = [...new Set([...(into.classes[cls] ?? []), ...nouns])];
      }
    }
  }
  return { ...base, domains };
}
