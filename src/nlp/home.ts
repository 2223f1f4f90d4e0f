// What the parser knows of one home, learnt from the hub: each entity with its names, domain, device
// class, area and floor; the names and aliases of areas and floors; the bridge's scenes and groups.
// Built once per change of the home (not per command) into a phrase table of names.
import type { Registries } from '../hub/registries.js';
import type { HubState } from '../hub/types.js';
import type { LanguageData } from './language.js';
import { Lexicon } from './lexicon.js';
import { tokenize } from './text.js';

export interface HomeEntity {
  id: string;
  domain: string;
  name: string;
  cls: string | null;
  area: string | null;
  floor: string | null;
  /** Hidden or configuration/diagnostic entities answer to their names, not to "all the lights". */
  background: boolean;
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

const nameOf = (s: HubState) => (typeof s.attributes.friendly_name === 'string' && s.attributes.friendly_name.trim() ? s.attributes.friendly_name : s.entity_id.split('.')[1]!.replace(/_/g, ' '));

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
  for (const a of reg.areas.values()) {
    areas.set(a.area_id, { id: a.area_id, name: a.name, floor: a.floor_id ?? null, aliases: a.aliases ?? [] });
    for (const n of [a.name, ...(a.aliases ?? [])]) {
      names.add(n, { k: 'area', id: a.area_id, name: a.name });
      known.add(n);
    }
  }
  const entities = new Map<string, HomeEntity>();
  const byDomain = new Map<string, HomeEntity[]>();
  for (const s of src.states) {
    if (src.visible && !src.visible(s.entity_id)) continue;
    const entry = reg.entities.get(s.entity_id);
    const areaId = reg.areaIdOf(s.entity_id);
    const domain = s.entity_id.slice(0, s.entity_id.indexOf('.'));
    const name = nameOf(s);
    const e: HomeEntity = {
      id: s.entity_id,
      domain,
      name,
      cls: typeof s.attributes.device_class === 'string' ? s.attributes.device_class : null,
      area: areaId,
      floor: areaId ? (areas.get(areaId)?.floor ?? null) : null,
      background: Boolean(entry?.hidden_by || entry?.entity_category),
    };
    entities.set(e.id, e);
    let list = byDomain.get(domain);
    if (!list) byDomain.set(domain, (list = []));
    list.push(e);
    const meaning = { k: 'entity' as const, ids: [e.id], name };
    const all = [name, ...(entry?.name ? [entry.name] : []), ...(entry?.aliases ?? [])];
    for (const n of all) {
      names.add(n, meaning);
      known.add(n);
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
