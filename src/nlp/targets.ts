// Which entities a command or question is about. Each part of a list ("the tv and the lights") is
// found on its own and every part must find something: names first (narrowed by the kinds of thing,
// device classes and states said beside them), else kinds of thing within the places said (areas,
// floors, "here", the speaker's area, the whole home). What "except" names is taken out. A singular
// kind with no place that fits more than one entity is ambiguous, and ambiguity never acts. A thing
// named that cannot do what is asked is said so, never swapped for another thing.
import { areaIdFor } from '../hub/areas.js';
import type { HubState } from '../hub/types.js';
import type { Home, HomeEntity } from './home.js';
import { emptyFrame, type Frame, type Mention, type Place, type TargetMeaning } from './parse.js';

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
  | { kind: 'none'; noun?: string; where?: string /** The kind of thing said, when the words named one the place lacks. */; said?: TargetMeaning }
  /** Named things that cannot do what is asked. */
  | { kind: 'cannot'; noun: string; ids: string[] }
  /** What "except" names was not found. */
  | { kind: 'no_exception'; words: string[] }
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
  /** Words of the outdoors (outside, draußen), to find the outdoor thermometer by its name. */
  outdoors?: readonly string[];
  /** The language's determiners (the, my), left out when a name said is looked for in other names. */
  determiners?: readonly string[];
  /** The language's spelling fold (ß = ss), for comparing those words with names. */
  fold?: (text: string) => string;
}

/** Text as names are compared: the language's folding, else lower case. */
const folded = (filters: Filters, text: string): string => filters.fold?.(text) ?? text.toLowerCase();

/** What "everything" switches: the things people turn on and off, not heating, locks or covers. */
export const EVERYTHING = ['light', 'switch', 'fan', 'media_player', 'input_boolean'];

export function scopeOf(
  f: Pick<Frame, 'areas' | 'floors' | 'here' | 'everywhere' | 'all'> & Partial<Pick<Frame, 'exclude'>>,
  home: Home,
  contextArea: string | undefined,
): Scope {
  const areas = new Set(f.areas.map((a) => a.id));
  const floors = new Set(f.floors.map((x) => x.id));
  const ctx = contextArea ? areaIdOf(home, contextArea) : undefined;
  if (f.here && ctx) areas.add(ctx);
  const explicit = areas.size > 0 || floors.size > 0;
  // "the lights apart from this room": the rest of the home, not the speaker's room.
  return { explicit, areas, floors, soft: !explicit && !f.everywhere && !f.all && !f.exclude?.here ? ctx : undefined };
}

export function areaIdOf(home: Home, area: string): string | undefined {
  return areaIdFor(
    [...home.areas.values()].map((a) => ({ area_id: a.id, name: a.name, aliases: a.aliases })),
    area,
  );
}

const inScope = (e: HomeEntity, s: Scope) => s.areas.has(e.area ?? '') || s.floors.has(e.floor ?? '');

/** The first non-empty narrowing, else the list as it was. */
const narrow = (list: HomeEntity[], keep: (e: HomeEntity) => boolean) => {
  const kept = list.filter(keep);
  return kept.length ? kept : list;
};

/**
 * The entities of a command or question: each part of a list on its own (with the places said in
 * it, else those of the whole clause), joined, less what "except" names.
 */
export function resolve(f: Frame, home: Home, scope: Scope, filters: Filters, contextArea?: string): Resolution {
  for (const m of f.mentions) {
    const scene = m.meanings.find((x) => x.k === 'scene');
    if (scene && scene.k === 'scene') return { kind: 'scene', key: scene.key, name: scene.name };
    const group = m.meanings.find((x) => x.k === 'group');
    if (group && group.k === 'group') return { kind: 'group', key: group.key, name: group.name };
  }
  // "the temperature outside": an area of that name if it has a thermometer, else the outdoor one.
  if (f.outdoors && f.question !== undefined) {
    const r = scope.explicit ? resolveGroup(f, home, scope, filters) : undefined;
    if (r?.kind === 'entities') return r;
    const out = outdoors(f, home, filters);
    if (out) return out;
  }
  // A part may be only a place ("the bedroom lamp and the kitchen"): it counts as a part too.
  const groups = [...new Set([...f.mentions, ...f.areas, ...f.floors, ...f.kindParts, ...f.positions].map((x) => x.group))].sort((a, b) => a - b);
  let r = groups.length <= 1 || f.question !== undefined ? resolveGroup(f, home, scope, filters) : resolveParts(f, groups, home, scope, filters, contextArea);
  // "the other one": the things said before are left out before one is chosen.
  const other = f.pronoun === 'other' && f.exclude !== undefined;
  if (r.kind === 'entities' && other) r = without(r, f.exclude!, home, filters, contextArea);
  // "the one in the bedroom": one thing is meant, so several are asked about.
  if (r.kind === 'entities' && r.ids.length > 1 && groups.length <= 1 && f.kindParts.some((k) => k.one) && f.question === undefined) {
    const ids = carryingWord(r.ids, f.mentions, home, filters);
    r = ids.length === 1 ? { ...r, ids } : { kind: 'ambiguous', noun: f.text, candidates: r.ids };
  }
  // "mach links zu": a position said with no kind of thing stands for one thing; several fit, so it is asked.
  if (r.kind === 'entities' && r.ids.length > 1 && !f.mentions.length && f.positions.length && f.question === undefined && !f.all && !f.everything)
    return { kind: 'ambiguous', noun: f.positions.map((p) => p.forms[0]).join(' '), candidates: r.ids };
  if (r.kind === 'entities' && f.exclude && !other) return without(r, f.exclude, home, filters, contextArea);
  return r;
}

/**
 * A name carries a kind word said of it: the whole word ("lamp" in "Bedroom Lamp"), or for a word of
 * several ("ceiling light") the words before the kind's own ("Kitchen ceiling"), each a word of the name.
 */
function carries(name: string, word: string, filters: Filters): boolean {
  const n = folded(filters, name);
  const w = word.toLowerCase();
  if (n.includes(w)) return true;
  const parts = w.split(' ');
  if (parts.length < 2) return false;
  const tokens = n.split(/[^\p{L}\p{N}]+/u);
  return parts.slice(0, -1).every((p) => tokens.some((t) => t === p || t === `${p}s` || p === `${t}s`));
}

/** Of several things, the one whose name carries the word of the kind said ("the one" after "the bedroom lamp": a lamp), else all. */
function carryingWord(ids: string[], mentions: Mention[], home: Home, filters: Filters): string[] {
  const words = mentions.flatMap((m) => m.meanings.flatMap((x) => (x.k === 'domain' && x.word !== x.domain ? [x.word] : [])));
  const carrying = ids.filter((id) => words.some((w) => carries(home.entities.get(id)!.name, w, filters)));
  return carrying.length === 1 ? carrying : ids;
}

/** The kinds of the things said ("the bedroom lamp": a light), for "the one(s)" said after them. */
export function kindsOf(mentions: Mention[], home: Home): Mention[] {
  return mentions
    .map((m) => {
      const kinds = m.meanings.filter((x) => x.k !== 'entity' && x.k !== 'scene' && x.k !== 'group');
      if (kinds.length) return { ...m, meanings: kinds };
      const named = m.meanings
        .flatMap((x) => (x.k === 'entity' ? x.ids : []))
        .map((id) => home.entities.get(id))
        .filter((e): e is HomeEntity => e !== undefined);
      const domains = [...new Set(named.map((e) => e.domain))];
      // Of one device class ("Rollo links": a blind), the one(s) said after are of that class too.
      const classes = [...new Set(named.map((e) => e.cls))];
      const cls = domains.length === 1 && classes.length === 1 && classes[0] ? { cls: classes[0] } : {};
      // The name's last word is the word for its kind ("bedroom lamp": lamp), when it is not the name itself.
      const last = m.text.split(' ').pop()!;
      const word = m.text.includes(' ') ? last : domains[0]!;
      return { ...m, meanings: domains.map((domain) => ({ k: 'domain', domain, word, plural: false, ...cls }) as TargetMeaning) };
    })
    .filter((m) => m.meanings.length);
}

/** Whether an entity's name carries every position said (left, linke: "Curtain Left", "Rollo links"). */
function placed(e: HomeEntity, positions: Frame['positions'], filters: Filters): boolean {
  if (!positions.length) return true;
  const words = folded(filters, e.name).split(/[^\p{L}\p{N}]+/u);
  return positions.every((p) => p.forms.some((form) => words.includes(form)));
}

/** Each part of a list on its own; the first that finds nothing, or is ambiguous, answers for all. */
function resolveParts(f: Frame, groups: number[], home: Home, scope: Scope, filters: Filters, contextArea: string | undefined): Resolution {
  const ids: string[] = [];
  for (const g of groups) {
    const own = (p: Place[]) => p.filter((x) => x.group === g);
    const mentions = f.mentions.filter((m) => m.group === g);
    // "den linken Vorhang und den rechten": a position alone stands for one of the kind said.
    const pronoun =
      f.kindParts.find((k) => k.group === g) ?? (!mentions.length && f.positions.some((x) => x.group === g) ? { group: g, one: true } : undefined);
    // A part that is only a place takes the kinds of thing said in the others ("the lights in the bedroom and the kitchen");
    // "the one in the kitchen" takes the kind of the thing named ("the bedroom lamp and the one in the kitchen").
    const kinds = mentions.length
      ? mentions
      : pronoun
        ? kindsOf(f.mentions, home)
        : f.mentions
            .map((m) => ({ ...m, meanings: m.meanings.filter((x) => x.k !== 'entity' && x.k !== 'scene' && x.k !== 'group') }))
            .filter((m) => m.meanings.length);
    const part = { ...f, mentions: kinds, areas: own(f.areas), floors: own(f.floors), positions: f.positions.filter((x) => x.group === g), kindParts: [] };
    // A part with no place of its own takes the clause's; if nothing is there, the speaker's or the whole home.
    const hasOwn = part.areas.length > 0 || part.floors.length > 0;
    let one = resolveGroup(part, home, hasOwn ? scopeOf(part, home, contextArea) : scope, filters);
    if (one.kind === 'none' && !hasOwn && scope.explicit)
      one = resolveGroup({ ...part, areas: [], floors: [] }, home, scopeOf({ ...part, areas: [], floors: [] }, home, contextArea), filters);
    if (one.kind === 'entities' && pronoun?.one && one.ids.length > 1) one = { ...one, ids: carryingWord(one.ids, kinds, home, filters) };
    if (one.kind === 'entities' && pronoun?.one && one.ids.length > 1)
      return { kind: 'ambiguous', noun: kinds.map((m) => m.text).join(' '), candidates: one.ids };
    if (one.kind !== 'entities') return one;
    ids.push(...one.ids);
  }
  return { kind: 'entities', ids: [...new Set(ids)], singular: false };
}

/** The entities less those "except" names (by name or kind within the list, or by area or floor). */
function without(
  r: Extract<Resolution, { kind: 'entities' }>,
  ex: NonNullable<Frame['exclude']>,
  home: Home,
  filters: Filters,
  contextArea?: string,
): Resolution {
  const out = new Set<string>();
  const areas = new Set(ex.areas.map((a) => a.id));
  if (ex.here) {
    const ctx = contextArea ? areaIdOf(home, contextArea) : undefined;
    if (!ctx) return { kind: 'no_exception', words: ex.words };
    areas.add(ctx);
  }
  // A thing left out that the home has but the command did not take ("open the curtains but not the
  // shade") leaves nothing out; one the home does not have may be misheard, so it refuses.
  let known = areas.size > 0 || ex.floors.length > 0;
  const floors = new Set(ex.floors.map((x) => x.id));
  for (const id of r.ids) {
    const e = home.entities.get(id)!;
    if (areas.has(e.area ?? '') || floors.has(e.floor ?? '')) out.add(id);
  }
  // "except the left one": by the position its name carries, among the kinds said there (else any).
  if (ex.positions.length) {
    const kinds = ex.mentions.flatMap((m) => m.meanings.filter((x) => x.k !== 'entity'));
    const ids = r.ids.filter((id) => {
      const e = home.entities.get(id)!;
      return placed(e, ex.positions, filters) && (!kinds.length || kinds.some((k) => kindFits(k, e)));
    });
    const anywhere = [...home.entities.values()].some((e) => placed(e, ex.positions, filters) && (!kinds.length || kinds.some((k) => kindFits(k, e))));
    if (!ids.length && !anywhere) return { kind: 'no_exception', words: ex.words };
    known = true;
    for (const id of ids) out.add(id);
  }
  // "except the countertop light": a kind word right after a name that is of that kind only says what the named thing is.
  const idsOf = (m: Mention) => m.meanings.flatMap((x) => (x.k === 'entity' ? x.ids : []));
  const qualifies = (m: Mention) =>
    ex.mentions.some(
      (o) =>
        o.index === m.index - 1 && idsOf(o).length > 0 && idsOf(o).every((id) => m.meanings.some((k) => KINDS.has(k.k) && kindFits(k, home.entities.get(id)!))),
    );
  for (const m of ex.positions.length ? [] : ex.mentions.filter((x) => !qualifies(x))) {
    const found = resolveGroup(
      { ...emptyFrame(), mentions: [{ ...m, group: 0 }], question: 'list' },
      home,
      { explicit: areas.size > 0 || floors.size > 0, areas, floors },
      { implied: [], valueQuestion: false, state: filters.state },
    );
    let ids = found.kind === 'entities' ? found.ids.filter((id) => r.ids.includes(id)) : [];
    // "except the lights": a word of several kinds (the lights, or light sensors) leaves out the things
    // meant of whichever kind fits them, not the home's first reading of the word.
    const kinds = m.meanings.filter((x) => KINDS.has(x.k));
    const ofKind = kinds.length
      ? r.ids.filter((id) => {
          const e = home.entities.get(id)!;
          return kinds.some((k) => kindFits(k, e)) && (!areas.size && !floors.size ? true : areas.has(e.area ?? '') || floors.has(e.floor ?? ''));
        })
      : [];
    if (!ids.length && ofKind.length) ids = ofKind;
    // "except the lamp": of the things meant, those that carry the word said, if any do.
    const words = m.meanings.flatMap((x) => (x.k === 'domain' && x.word !== x.domain ? [x.word] : []));
    const carrying = ids.filter((id) => words.some((w) => carries(home.entities.get(id)!.name, w, filters)));
    if (carrying.length) ids = carrying;
    if (!ids.length && !(found.kind === 'entities' && found.ids.length)) return { kind: 'no_exception', words: [m.text] };
    known = true;
    for (const id of ids) out.add(id);
  }
  if (!out.size && !known) return { kind: 'no_exception', words: ex.words };
  const ids = r.ids.filter((id) => !out.has(id));
  return ids.length ? { ...r, ids } : { kind: 'none', noun: r.noun };
}

/** The outdoor temperature (or humidity): a sensor named for the outdoors, else the weather. */
function outdoors(f: Frame, home: Home, filters: Filters): Resolution | undefined {
  const cls = f.mentions.flatMap((m) => m.meanings).find((m) => m.k === 'snoun')?.cls ?? 'temperature';
  // A name of the outdoors word, or written with it (Außentemperatur).
  const words = (filters.outdoors ?? []).filter((w) => !w.includes(' ')).map((w) => filters.fold?.(w) ?? w);
  const outdoor = (name: string) =>
    folded(filters, name)
      .split(/[^\p{L}\p{N}]+/u)
      .some((t) => words.some((w) => t.startsWith(w)));
  const named = (e: HomeEntity) => outdoor(e.name) || outdoor(home.areas.get(e.area ?? '')?.name ?? '');
  const sensors = (home.byDomain.get('sensor') ?? []).filter((e) => e.cls === cls && named(e));
  if (sensors.length) return { kind: 'entities', ids: sensors.map((e) => e.id), singular: sensors.length === 1 };
  const weather = home.byDomain.get('weather') ?? [];
  if (weather.length && (cls === 'temperature' || cls === 'humidity'))
    return { kind: 'entities', ids: weather.map((e) => e.id), singular: weather.length === 1 };
  return undefined;
}

const KINDS = new Set(['domain', 'bnoun', 'snoun', 'generic']);

/** One part of a list: its names first, else its kinds of thing in the scope. */
function resolveGroup(f: Frame, home: Home, scope: Scope, filters: Filters): Resolution {
  const kinds = f.mentions.flatMap((m) => m.meanings.filter((x) => x.k !== 'entity'));
  const named: string[] = [];
  const usedAsName = new Set<Mention>();
  let cannot: { noun: string; ids: string[] } | undefined;
  for (const m of f.mentions) {
    const ent = m.meanings.find((x) => x.k === 'entity');
    if (ent?.k !== 'entity') continue;
    let list = ent.ids.map((id) => home.entities.get(id)).filter((e): e is HomeEntity => e !== undefined);
    // "the tv light": a name beside a kind its thing is not of does not act on the named thing.
    const besides = f.mentions.filter((x) => x !== m).flatMap((x) => x.meanings.filter((y) => y.k === 'domain'));
    if (f.question === undefined && besides.length && !list.some((e) => besides.some((k) => kindFits(k, e)))) continue;
    // "the signal strength of my phone", "is my phone charging": a sensor of the kind (or state) asked whose
    // name carries the name said (less its determiners: my, the), over the thing of that name.
    const sensed = (e: HomeEntity) => kinds.some((k) => kindFits(k, e)) || f.bstates.some((b) => e.domain === 'binary_sensor' && e.cls === b.cls);
    if (f.question !== undefined && !list.some(sensed)) {
      const said = folded(filters, m.text)
        .split(' ')
        .filter((w) => !filters.determiners?.includes(w));
      const wanted = [
        ...kinds.filter((k) => k.k === 'snoun' || k.k === 'bnoun'),
        ...f.bstates.map((b) => ({ k: 'bnoun', cls: b.cls, plural: false }) as const),
      ];
      const carrying = wanted
        .flatMap((k) => entitiesOfKind(home, k))
        .filter((e) => {
          const words = folded(filters, e.name).split(/[^\p{L}\p{N}]+/u);
          return said.length > 0 && said.every((w) => words.includes(w));
        });
      if (carrying.length) list = [...new Set(carrying)];
    }
    list = narrow(list, (e) => kinds.some((k) => kindFits(k, e)));
    list = narrow(list, (e) => f.bstates.some((b) => e.domain === 'binary_sensor' && e.cls === b.cls));
    if (f.positions.length) list = list.filter((e) => placed(e, f.positions, filters));
    if (scope.explicit) {
      // A name that is also a word for a kind ("Thermostat"), said with a place where its thing is not,
      // means that kind in that place: "the basement thermostat" is not the living room's.
      if (m.meanings.some((x) => KINDS.has(x.k)) && !list.some((e) => inScope(e, scope))) continue;
      list = narrow(list, (e) => inScope(e, scope));
    }
    const before = list;
    if (filters.fits) list = list.filter(filters.fits);
    // Asked about by name, a thing is the subject even when the state words do not fit it ("ist Madlen auf Arbeit").
    if (!list.length && f.question !== undefined && before.length && !kinds.length) list = before;
    if (!list.length) {
      // Only a name, and what it names cannot do this: say so rather than act on something else.
      if (f.question === undefined && before.length && !m.meanings.some((x) => KINDS.has(x.k)) && !kinds.length)
        cannot ??= { noun: m.text, ids: before.map((e) => e.id) };
      continue;
    }
    if (list.length > 1 && !filters.valueQuestion && f.question === undefined) return { kind: 'ambiguous', noun: m.text, candidates: list.map((e) => e.id) };
    // "what does the outside rain sensor say": readings of one name that measure different things, with
    // nothing said to choose: asked, not all read out.
    if (list.length > 1 && f.question !== undefined && f.question !== 'count' && !kinds.length && !f.bstates.length && oneName(list, filters)) {
      if (list.every((e) => e.domain === 'sensor') && new Set(list.map((e) => e.cls)).size === list.length)
        return { kind: 'ambiguous', noun: m.text, candidates: list.map((e) => e.id) };
    }
    usedAsName.add(m);
    named.push(...list.map((e) => e.id));
  }
  if (named.length) return { kind: 'entities', ids: [...new Set(named)], singular: named.length === 1 };
  if (cannot) return { kind: 'cannot', ...cannot };
  // Two kinds of thing side by side that share no domain ("the tv light") name no one thing.
  if (f.question === undefined) {
    const domains = f.mentions.map((m) => new Set(m.meanings.flatMap((x) => (x.k === 'domain' ? [x.domain] : []))));
    if (domains.some((a, i) => a.size && domains.some((b, j) => j !== i && b.size && ![...a].some((d) => b.has(d)))))
      return { kind: 'none', noun: f.mentions.map((m) => m.text).join(' ') };
  }

  // Kinds of thing: the mentions' meanings, else device classes from state words, else the act's domains.
  let options: TargetMeaning[] = f.mentions.filter((m) => !usedAsName.has(m)).flatMap((m) => m.meanings.filter((x) => x.k !== 'entity'));
  const generic = options.some((o) => o.k === 'generic');
  options = options.filter((o) => o.k !== 'generic' && o.k !== 'scene' && o.k !== 'group');
  // Commands act on things, not on what sensors measure ("set the temp", "the volume in here").
  if (f.question === undefined) options = options.filter((o) => o.k === 'domain');
  if (f.question === 'who') options = [{ k: 'domain', domain: 'person', word: 'person', plural: true }];
  const said = options[0];
  if (!options.length && f.bstates.length && !filters.implied.length)
    options = f.bstates.map((b) => ({ k: 'bnoun', cls: b.cls, plural: true }) as TargetMeaning);
  if (!options.length) options = filters.implied.map((domain) => ({ k: 'domain', domain, word: domain, plural: false }) as TargetMeaning);
  if (generic && f.bstates.length) options = [...f.bstates.map((b) => ({ k: 'bnoun', cls: b.cls, plural: true }) as TargetMeaning), ...options];
  return resolveKinds(f, home, scope, filters, options, said);
}

/** The entities of the kinds said (`said`: the first kind the words named, for saying a place lacks it). */
function resolveKinds(f: Frame, home: Home, scope: Scope, filters: Filters, given: TargetMeaning[], said?: TargetMeaning): Resolution {
  const options = joinClasses(given);
  const plural = f.everything || f.mentions.some((m) => m.meanings.some((x) => (x.k === 'domain' || x.k === 'bnoun' || x.k === 'generic') && x.plural));
  const word = f.mentions.find((m) => m.meanings.some((x) => x.k !== 'entity'))?.text;
  let best: { list: HomeEntity[]; score: number; meaning: TargetMeaning } | undefined;
  const union: HomeEntity[] = [];
  for (const o of options) {
    let list = entitiesOfKind(home, o);
    // A word for a kind of thing with a device class ("curtains", "Rollos", "the radio") means that class,
    // and the things of its domain with no class whose name carries a word of it ("TV" for "the
    // television"); never every cover, nor a TV for "the radio" (issue 39).
    if (o.k === 'domain' && o.cls) {
      const words = (o.kin ?? [o.word]).map((w) => folded(filters, w));
      const carriesOne = (e: HomeEntity) => {
        const name = folded(filters, e.name);
        return words.some((w) => name.includes(w));
      };
      list = [...list, ...(home.byDomain.get(o.domain) ?? []).filter((e) => !e.cls && carriesOne(e))];
    }
    list = list.filter((e) => !e.background && (!scope.explicit || inScope(e, scope)) && placed(e, f.positions, filters));
    if (!scope.explicit && scope.soft) {
      const here = list.filter((e) => e.area === scope.soft);
      if (here.length) list = here;
    }
    let fitting = filters.fits ? list.filter(filters.fits) : list;
    // A room with a thermometer answers from it; a thermostat answers where there is none.
    if (o.k === 'snoun' && fitting.some((e) => e.domain === 'sensor')) fitting = fitting.filter((e) => e.domain === 'sensor');
    if (!fitting.length) continue;
    if (f.everything) union.push(...fitting);
    const score = scoreOf(o, f, filters) + fitting.length / (list.length || 1);
    if (!best || score > best.score) best = { list: fitting, score, meaning: o };
  }
  if (f.everything && union.length) return { kind: 'entities', ids: [...new Set(union.map((e) => e.id))], noun: word, singular: false };
  if (!best) return { kind: 'none', noun: word, where: [...scope.areas, ...scope.floors].join(', ') || undefined, ...(said ? { said } : {}) };

  let list = best.list;
  const singular = !plural && !f.all && !f.any && !f.everywhere;
  const m = best.meaning;
  // "the lamp" in the speaker's room: the lamp there, when the room has one by that word.
  if (singular && list.length > 1 && !scope.explicit && scope.soft && m.k === 'domain' && m.word !== m.domain) {
    const withWord = list.filter((e) => carries(e.name, m.word, filters));
    if (withWord.length) list = withWord;
  }
  // "the lamp in the living room", a room said: the one thing there whose name carries the precise word, when one does.
  if (
    singular &&
    list.length > 1 &&
    scope.areas.size === 1 &&
    !scope.floors.size &&
    m.k === 'domain' &&
    m.word !== m.domain &&
    !m.everyday &&
    !m.cls &&
    !m.classes
  ) {
    const withWord = list.filter((e) => carries(e.name, m.word, filters));
    if (withWord.length === 1) list = withWord;
  }
  // In the speaker's room the everyday word for a kind ("das Licht", "the light") means all of it there, as in Home
  // Assistant; a word that names a kind more precisely ("die Lampe", "the lamp") means one, so several are asked about.
  const precise = m.k === 'domain' && !m.everyday && !m.cls && !m.classes && m.word !== m.domain;
  if (singular && list.length > 1 && !scope.explicit && !(scope.soft && list.every((e) => e.area === scope.soft) && !precise)) {
    // "the lamp": the entities that carry the word in their name, if that settles it (not for a word of several
    // kinds: "das Tor" is the gate or the garage door, whichever name carries "Tor").
    if (m.k === 'domain' && m.word !== m.domain && !m.classes) {
      const withWord = list.filter((e) => carries(e.name, m.word, filters));
      if (withWord.length === 1) list = withWord;
      else if (withWord.length > 1 && (f.question === undefined || f.question === 'yesno'))
        return { kind: 'ambiguous', noun: word ?? m.word, candidates: withWord.map((e) => e.id) };
    }
    if (list.length > 1 && (f.question === undefined || f.question === 'yesno'))
      return { kind: 'ambiguous', noun: word ?? kindWord(m), candidates: list.map((e) => e.id) };
  }
  return { kind: 'entities', ids: list.map((e) => e.id), noun: word, singular: list.length === 1 };
}

const oneName = (list: HomeEntity[], filters: Filters) => new Set(list.map((e) => folded(filters, e.name))).size === 1;

const classesOf = (m: Extract<TargetMeaning, { k: 'domain' }>) => m.classes ?? (m.cls ? [m.cls] : []);

/** One word that names several classes of a domain ("Tor": gate and garage door) means all of them. */
function joinClasses(options: TargetMeaning[]): TargetMeaning[] {
  const out: TargetMeaning[] = [];
  for (const o of options) {
    const same = o.k === 'domain' && o.cls ? out.find((x) => x.k === 'domain' && x.cls && x.domain === o.domain && x.word === o.word) : undefined;
    if (same?.k === 'domain' && o.k === 'domain') same.classes = [...classesOf(same), ...classesOf(o)];
    else out.push(o.k === 'domain' ? { ...o } : o);
  }
  return out;
}

function kindWord(m: TargetMeaning): string {
  return m.k === 'domain' ? m.word : m.k === 'bnoun' || m.k === 'snoun' ? m.cls.replace(/_/g, ' ') : 'thing';
}

function kindFits(k: TargetMeaning, e: HomeEntity): boolean {
  switch (k.k) {
    case 'domain':
      return e.domain === k.domain && (!k.cls || classesOf(k).includes(e.cls ?? ''));
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
      return o.cls ? (home.byDomain.get(o.domain) ?? []).filter((e) => classesOf(o).includes(e.cls ?? '')) : (home.byDomain.get(o.domain) ?? []);
    case 'bnoun':
      return (home.byDomain.get('binary_sensor') ?? []).filter((e) => e.cls === o.cls);
    case 'snoun': {
      const sensors = (home.byDomain.get('sensor') ?? []).filter((e) => e.cls === o.cls);
      // A room's temperature or humidity: its sensors, and its thermostats that measure it too.
      const measured = o.cls === 'temperature' ? 'current_temperature' : o.cls === 'humidity' ? 'current_humidity' : undefined;
      if (measured) return [...sensors, ...(home.byDomain.get('climate') ?? []).filter((e) => e.measures.includes(measured))];
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
