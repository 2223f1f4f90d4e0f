// Which entities a command or question is about: names first (narrowed by the kinds of thing, device
// classes and states said beside them), else kinds of thing within the places said (areas, floors,
// "here", the speaker's area, the whole home). A singular kind with no place that fits more than one
// entity is ambiguous, and ambiguity never acts.
import { areaIdFor } from '../hub/areas.js';
import type { HubState } from '../hub/types.js';
import type { Home, HomeEntity } from './home.js';
import type { Frame, Mention, TargetMeaning } from './parse.js';

export interface Scope {
  /** Areas and floors said, or "here" with a known speaker area. */
  explicit: boolean;
  areas: Set<string>;
  floors: Set<string>;
  /** The speaker's area when none was said (used when it has matches). */
  soft?: string;
}

export type Resolution =
  | { kind: 'entities'; ids: string[]; noun?: string; singular: boolean }
  | { kind: 'ambiguous'; noun: string; candidates: string[] }
  | { kind: 'none'; noun?: string; where?: string; /** The kind of thing said, when the words named one the place lacks. */ said?: TargetMeaning }
  | { kind: 'scene'; key: string; name: string }
  | { kind: 'group'; key: string; name: string };

export interface Filters {
  /** Whether an entity fits what is asked or done (a state word, a service it supports). */
  fits?: (e: HomeEntity) => boolean;
  /** Domains an act points at when no kind of thing is named. */
  implied: string[];
  /** Questions tell "is any ... on" from "what is the temperature": sensors answer values, binary sensors yes/no. */
  valueQuestion: boolean;
  state: (id: string) => HubState | undefined;
}

export function scopeOf(f: Frame, home: Home, contextArea: string | undefined): Scope {
  const areas = new Set(f.areas.map((a) => a.id));
  const floors = new Set(f.floors.map((x) => x.id));
  const ctx = contextArea ? areaIdOf(home, contextArea) : undefined;
  if (f.here && ctx) areas.add(ctx);
  const explicit = areas.size > 0 || floors.size > 0;
  return { explicit, areas, floors, soft: !explicit && !f.everywhere && !f.all ? ctx : undefined };
}

export function areaIdOf(home: Home, area: string): string | undefined {
  return areaIdFor([...home.areas.values()].map((a) => ({ area_id: a.id, name: a.name, aliases: a.aliases })), area);
}

const inScope = (e: HomeEntity, s: Scope) => s.areas.has(e.area ?? '') || s.floors.has(e.floor ?? '');

/** The first non-empty narrowing, else the list as it was. */
const narrow = (list: HomeEntity[], keep: (e: HomeEntity) => boolean) => {
  const kept = list.filter(keep);
  return kept.length ? kept : list;
};

export function resolve(f: Frame, home: Home, scope: Scope, filters: Filters): Resolution {
  for (const m of f.mentions) {
    const scene = m.meanings.find((x) => x.k === 'scene');
    if (scene && scene.k === 'scene') return { kind: 'scene', key: scene.key, name: scene.name };
    const group = m.meanings.find((x) => x.k === 'group');
    if (group && group.k === 'group') return { kind: 'group', key: group.key, name: group.name };
  }
  const kinds = f.mentions.flatMap((m) => m.meanings.filter((x) => x.k !== 'entity'));
  const named: string[] = [];
  const usedAsName = new Set<Mention>();
  for (const m of f.mentions) {
    const ent = m.meanings.find((x) => x.k === 'entity');
    if (!ent || ent.k !== 'entity') continue;
    let list = ent.ids.map((id) => home.entities.get(id)).filter((e): e is HomeEntity => e !== undefined);
    list = narrow(list, (e) => kinds.some((k) => kindFits(k, e)));
    list = narrow(list, (e) => f.bstates.some((b) => e.domain === 'binary_sensor' && e.cls === b.cls));
    if (scope.explicit) list = narrow(list, (e) => inScope(e, scope));
    if (filters.fits) list = list.filter(filters.fits);
    if (!list.length) continue;
    if (list.length > 1 && !filters.valueQuestion && f.question === undefined) return { kind: 'ambiguous', noun: m.text, candidates: list.map((e) => e.id) };
    usedAsName.add(m);
    named.push(...list.map((e) => e.id));
  }
  if (named.length) return { kind: 'entities', ids: [...new Set(named)], singular: named.length === 1 };

  // Kinds of thing: the mentions' meanings, else device classes from state words, else the act's domains.
  let options: TargetMeaning[] = f.mentions.filter((m) => !usedAsName.has(m)).flatMap((m) => m.meanings.filter((x) => x.k !== 'entity'));
  const plural = f.mentions.some((m) => m.meanings.some((x) => (x.k === 'domain' || x.k === 'bnoun' || x.k === 'generic') && x.plural));
  const generic = options.some((o) => o.k === 'generic');
  options = options.filter((o) => o.k !== 'generic' && o.k !== 'scene' && o.k !== 'group');
  // Commands act on things, not on what sensors measure ("set the temp", "the volume in here").
  if (f.question === undefined) options = options.filter((o) => o.k === 'domain');
  if (f.question === 'who') options = [{ k: 'domain', domain: 'person', word: 'person', plural: true }];
  const said = options[0];
  if (!options.length && f.bstates.length) options = f.bstates.map((b) => ({ k: 'bnoun', cls: b.cls, plural: true }) as TargetMeaning);
  if (!options.length) options = filters.implied.map((domain) => ({ k: 'domain', domain, word: domain, plural: false }) as TargetMeaning);
  if (generic && f.bstates.length) options = [...f.bstates.map((b) => ({ k: 'bnoun', cls: b.cls, plural: true }) as TargetMeaning), ...options];

  const word = f.mentions.find((m) => m.meanings.some((x) => x.k !== 'entity'))?.text;
  let best: { list: HomeEntity[]; score: number; meaning: TargetMeaning } | undefined;
  for (const o of options) {
    let list = entitiesOfKind(home, o);
    if (!list.length && o.k === 'domain' && o.cls) list = (home.byDomain.get(o.domain) ?? []).filter((e) => e.name.toLowerCase().includes(o.word));
    list = list.filter((e) => !e.background && (!scope.explicit || inScope(e, scope)));
    if (!scope.explicit && scope.soft) {
      const here = list.filter((e) => e.area === scope.soft);
      if (here.length) list = here;
    }
    let fitting = filters.fits ? list.filter(filters.fits) : list;
    // A room with a thermometer answers from it; a thermostat answers where there is none.
    if (o.k === 'snoun' && fitting.some((e) => e.domain === 'sensor')) fitting = fitting.filter((e) => e.domain === 'sensor');
    if (!fitting.length) continue;
    const score = scoreOf(o, f, filters) + fitting.length / (list.length || 1);
    if (!best || score > best.score) best = { list: fitting, score, meaning: o };
  }
  if (!best) return { kind: 'none', noun: word, where: [...scope.areas, ...scope.floors].join(', ') || undefined, said };

  let list = best.list;
  const singular = !plural && !f.all && !f.any && !f.everywhere;
  const m = best.meaning;
  // "the lamp" in the speaker's room: the lamp there, when the room has one by that word.
  if (singular && list.length > 1 && !scope.explicit && scope.soft && m.k === 'domain' && m.word !== m.domain) {
    const withWord = list.filter((e) => e.name.toLowerCase().includes(m.word.toLowerCase()));
    if (withWord.length) list = withWord;
  }
  if (singular && list.length > 1 && !scope.explicit && !(scope.soft && list.every((e) => e.area === scope.soft))) {
    // "the lamp": the entities that carry the word in their name, if that settles it.
    if (m.k === 'domain' && m.word !== m.domain) {
      const w = m.word.toLowerCase();
      const withWord = list.filter((e) => e.name.toLowerCase().includes(w));
      if (withWord.length === 1) list = withWord;
      else if (withWord.length > 1) return { kind: 'ambiguous', noun: word ?? m.word, candidates: withWord.map((e) => e.id) };
    }
    if (list.length > 1 && (f.question === undefined || f.question === 'yesno')) return { kind: 'ambiguous', noun: word ?? kindWord(m), candidates: list.map((e) => e.id) };
  }
  return { kind: 'entities', ids: list.map((e) => e.id), noun: word, singular: list.length === 1 };
}

function kindWord(m: TargetMeaning): string {
  return m.k === 'domain' ? m.word : m.k === 'bnoun' || m.k === 'snoun' ? m.cls.replace(/_/g, ' ') : 'thing';
}

function kindFits(k: TargetMeaning, e: HomeEntity): boolean {
  switch (k.k) {
    case 'domain':
      return e.domain === k.domain && (!k.cls || e.cls === k.cls);
    case 'bnoun':
      return e.domain === 'binary_sensor' && e.cls === k.cls;
    case 'snoun':
      return e.cls === k.cls && e.domain !== 'binary_sensor';
    default:
      return false;
  }
}

function entitiesOfKind(home: Home, o: TargetMeaning): HomeEntity[] {
  switch (o.k) {
    case 'domain':
      return o.cls ? (home.byDomain.get(o.domain) ?? []).filter((e) => e.cls === o.cls) : (home.byDomain.get(o.domain) ?? []);
    case 'bnoun':
      return (home.byDomain.get('binary_sensor') ?? []).filter((e) => e.cls === o.cls);
    case 'snoun': {
      const sensors = (home.byDomain.get('sensor') ?? []).filter((e) => e.cls === o.cls);
      // A room's temperature or humidity: its sensors, and its thermostats (they measure it too).
      if (o.cls === 'temperature' || o.cls === 'humidity') return [...sensors, ...(home.byDomain.get('climate') ?? [])];
      return sensors;
    }
    default:
      return [];
  }
}

/** How well a kind of thing fits the rest of what was said. */
function scoreOf(o: TargetMeaning, f: Frame, filters: Filters): number {
  let score = 0;
  if (o.k === 'bnoun' && f.bstates.some((b) => b.cls === o.cls)) score += 4;
  if (o.k === 'snoun' && filters.valueQuestion) score += 2;
  if (o.k === 'bnoun' && !filters.valueQuestion && f.question) score += 1;
  if (o.k === 'domain' && f.states.length) score += 2;
  if (o.k === 'domain' && !f.question) score += 3;
  return score;
}
