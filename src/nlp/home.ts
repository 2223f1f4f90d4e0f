// What the parser knows of one home, learnt from the hub: each entity with its names, domain, device
// class, area and floor; the names and aliases of areas and floors; the bridge's scenes and groups.
// Built once per change of the home (not per command) into a phrase table of names.
import type { Registries } from '../hub/registries.js';
import type { HubState } from '../hub/types.js';
import type { LanguageData } from './language.js';
import { Lexicon } from './lexicon.js';
import { Recoverer } from './recover.js';
import { fold, singularOf, tokenize } from './text.js';

export interface HomeEntity {
  id: string;
  domain: string;
  name: string;
  cls: string | null;
  area: string | null;
  floor: string | null;
  /** Hidden or configuration/diagnostic entities answer to their names, not to "all the lights". */
  background: boolean;
  /** What a thermostat measures besides its target (current_temperature, current_humidity). */
  measures: string[];
}

export interface HomeSource {
  states: Iterable<HubState>;
  registries: Registries;
  scenes: readonly { id: string; name: string }[];
  groups: readonly { id: string; name: string }[];
  /** Whether callers may see an entity at all (TOOLS_EXPOSED_ONLY). */
  visible?: (entityId: string) => boolean;
}

export interface Home {
  entities: Map<string, HomeEntity>;
  byDomain: Map<string, HomeEntity[]>;
  areas: Map<string, { id: string; name: string; floor: string | null; aliases: string[] }>;
  floors: Map<string, { id: string; name: string }>;
  names: Lexicon;
  /** Every name a person may say, for "closest known names". */
  known: string[];
}

/** A sensor without a device class is known by its unit (a thermometer in °C). */
const CLASS_OF_UNIT: Record<string, string> = {
  '°C': 'temperature',
  '°F': 'temperature',
  K: 'temperature',
  lx: 'illuminance',
  hPa: 'atmospheric_pressure',
  W: 'power',
  kWh: 'energy',
  V: 'voltage',
  A: 'current',
};

function classOf(s: HubState): string | null {
  if (typeof s.attributes.device_class === 'string') return s.attributes.device_class;
  const unit = s.attributes.unit_of_measurement;
  return s.entity_id.startsWith('sensor.') && typeof unit === 'string' ? (CLASS_OF_UNIT[unit] ?? null) : null;
}

/** The phrase with its last word in the singular, where the language's plural rules made it ("sliding doors"). */
function singularPhrase(ws: string[], lang: LanguageData): string[] | undefined {
  const one = singularOf(ws[ws.length - 1] ?? '', lang);
  return one === undefined ? undefined : [...ws.slice(0, -1), one];
}

const nameOf = (s: HubState) =>
  typeof s.attributes.friendly_name === 'string' && s.attributes.friendly_name.trim()
    ? s.attributes.friendly_name
    : s.entity_id.split('.')[1]!.replace(/_/g, ' ');

export function buildHome(src: HomeSource, lang: LanguageData, vocabulary: Lexicon): Home {
  const reg = src.registries;
  const names = new Lexicon(lang);
  const known = new Set<string>();
  const areas: Home['areas'] = new Map();
  const floors = new Map<string, { id: string; name: string }>();
  for (const f of reg.floors.values()) {
    floors.set(f.floor_id, { id: f.floor_id, name: f.name });
    for (const n of [f.name, ...(f.aliases ?? [])]) {
      names.add(n, { k: 'floor', id: f.floor_id, name: f.name });
      known.add(n);
    }
  }
  // "downstairs": a word for a floor is that floor only where the home has exactly one floor of a name it stands for.
  for (const [word, forms] of Object.entries(lang.floor_words)) {
    const fits = [...floors.values()].filter((f) => forms.some((x) => fold(x, lang) === fold(f.name, lang)));
    if (fits.length === 1 && !names.meaningsOf(fold(word, lang))) names.add(word, { k: 'floor', id: fits[0]!.id, name: fits[0]!.name });
  }
  for (const a of reg.areas.values()) {
    areas.set(a.area_id, { id: a.area_id, name: a.name, floor: a.floor_id ?? null, aliases: a.aliases ?? [] });
    for (const n of [a.name, ...(a.aliases ?? [])]) {
      names.add(n, { k: 'area', id: a.area_id, name: a.name });
      known.add(n);
    }
  }
  const areaNames = [...areas.values()].flatMap((a) => [a.name, ...a.aliases].map((n) => ({ id: a.id, ws: tokenize(n, lang) })));
  const areaByName = (name: string): string | null => {
    const ws = tokenize(name, lang);
    const hit = areaNames.filter((a) => a.ws.length < ws.length && a.ws.every((w, i) => ws[i] === w)).sort((a, b) => b.ws.length - a.ws.length)[0];
    return hit?.id ?? null;
  };
  const pending: { ws: string[]; meaning: { k: 'entity'; ids: string[]; name: string } }[] = [];
  const entities = new Map<string, HomeEntity>();
  const byDomain = new Map<string, HomeEntity[]>();
  for (const s of src.states) {
    if (src.visible && !src.visible(s.entity_id)) continue;
    const entry = reg.entities.get(s.entity_id);
    // An entity with no area whose name starts with an area's name ("Living room humidity") is taken to be there.
    const areaId = reg.areaIdOf(s.entity_id) ?? areaByName(nameOf(s));
    const domain = s.entity_id.slice(0, s.entity_id.indexOf('.'));
    const name = nameOf(s);
    const e: HomeEntity = {
      id: s.entity_id,
      domain,
      name,
      cls: classOf(s),
      area: areaId,
      floor: areaId ? (areas.get(areaId)?.floor ?? null) : null,
      background: Boolean(entry?.hidden_by || entry?.entity_category),
      measures: ['current_temperature', 'current_humidity'].filter((k) => s.attributes[k] !== undefined && s.attributes[k] !== null),
    };
    entities.set(e.id, e);
    let list = byDomain.get(domain);
    if (!list) byDomain.set(domain, (list = []));
    list.push(e);
    const meaning = { k: 'entity' as const, ids: [e.id], name };
    const all = [name, ...(entry?.name ? [entry.name] : []), ...(entry?.aliases ?? [])];
    for (const n of all) {
      const ws = tokenize(n, lang);
      names.addWords(ws, meaning);
      known.add(n);
      // "the sliding door" for "Sliding Doors".
      const one = singularPhrase(ws, lang);
      if (one && !isVocabulary(vocabulary, one)) names.addWords(one, meaning);
      pending.push({ ws, meaning });
    }
    // "the countertop" in the kitchen: a name that starts or ends with its area's name answers to the rest too.
    const area = areaId ? areas.get(areaId) : undefined;
    if (area) {
      const own = tokenize(name, lang);
      const room = tokenize(area.name, lang);
      const starts = room.every((w, i) => own[i] === w);
      const ends = room.every((w, i) => own[own.length - room.length + i] === w);
      const rest = starts ? own.slice(room.length) : ends ? own.slice(0, own.length - room.length) : [];
      // Only when the rest is not a word the language already has (a "lamp" stays a kind of thing).
      if (rest.length && own.length > room.length && !isVocabulary(vocabulary, rest)) names.addWords(rest, meaning);
    }
  }
  // A name written as one word (Schlafzimmerlampe) also answers to its parts said apart.
  if (lang.compounds) {
    const recoverer = new Recoverer(lang, [vocabulary, names]);
    for (const { ws, meaning } of pending) {
      const split = ws.flatMap((w) => recoverer.parts(w) ?? [w]);
      if (split.length > ws.length) names.addWords(split, meaning);
    }
  }
  for (const s of src.scenes) {
    names.add(s.name, { k: 'scene', key: s.id, name: s.name });
    known.add(s.name);
  }
  for (const g of src.groups) {
    names.add(g.name, { k: 'group', key: g.id, name: g.name });
    known.add(g.name);
  }
  return { entities, byDomain, areas, floors, names, known: [...known] };
}

function isVocabulary(vocabulary: Lexicon, ws: string[]): boolean {
  const m = vocabulary.match(ws);
  return m.length === 1 && m[0]!.meanings.some((x) => x.k !== 'filler');
}
