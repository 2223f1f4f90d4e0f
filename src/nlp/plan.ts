// The planner: a sentence, the speaker's area and the home in; for each clause either the service
// calls to make, a question's entities and answer, an ambiguity with its candidates, or what was
// not understood. Pure: the hub's states and services come in as functions.
import type { HubState } from '../hub/types.js';
import { actOf, impliedDomains, serviceFor, type Act } from './act.js';
import type { Home, HomeEntity } from './home.js';
import type { LanguageData } from './language.js';
import type { Lexicon } from './lexicon.js';
import { clauses, frameOf, type Frame, type QuestionKind, type TargetMeaning } from './parse.js';
import { stateApplies, stateIs } from './states.js';
import { resolve, scopeOf } from './targets.js';
import { tokenize } from './text.js';

export interface PlanInput {
  command: string;
  context?: { area?: string };
  /** The entity meant where the words name several (one of an ambiguity's candidates). */
  choose?: string;
}

export interface PlanDeps {
  lang: LanguageData;
  vocabulary: Lexicon;
  home: Home;
  state: (id: string) => HubState | undefined;
  /** Whether the hub has this service for this entity (its domain's service, taken by its features). */
  supports: (entityId: string, service: string) => boolean;
}

export interface Step {
  domain: string;
  service: string;
  data: Record<string, unknown>;
  entity_ids: string[];
}

export type Outcome =
  | { kind: 'act'; steps: Step[]; what: string }
  | { kind: 'scene'; key: string; name: string }
  | { kind: 'group'; key: string; name: string; action: string; parameters: Record<string, unknown> }
  | { kind: 'query'; question: QuestionKind; entities: string[]; matching: string[]; answer: string }
  | { kind: 'ambiguous'; noun: string; candidates: string[] }
  | { kind: 'not_understood'; words: string[]; reason: string };

export function plan(input: PlanInput, deps: PlanDeps): Outcome[] {
  const { lang, vocabulary, home } = deps;
  const tokens = tokenize(input.command, lang);
  const lexemes = vocabulary.match(tokens, home.names);
  if (!lexemes.length) return [{ kind: 'not_understood', words: [], reason: 'empty' }];
  return clauses(lexemes).map((c) => planClause(frameOf(c, lang.determiners), input.context?.area, deps, input.choose));
}

/** An ambiguity the caller settled: the chosen candidate alone. */
function settled<R extends { kind: string }>(r: R, choose: string | undefined): R | { kind: 'entities'; ids: string[]; singular: true } {
  return r.kind === 'ambiguous' && choose !== undefined && (r as unknown as { candidates: string[] }).candidates.includes(choose) ? { kind: 'entities', ids: [choose], singular: true } : r;
}

function planClause(f: Frame, contextArea: string | undefined, deps: PlanDeps, choose?: string): Outcome {
  const { home } = deps;
  const scope = scopeOf(f, home, contextArea);
  if (f.question) return planQuestion(f, scope, deps, choose);

  const act = actOf(f);
  if (!act) return { kind: 'not_understood', words: f.unknown, reason: 'no_action' };
  if (f.unknown.length) return { kind: 'not_understood', words: f.unknown, reason: 'unknown_words' };
  // Each entity's step is worked out once: resolving asks whether it fits, planning uses it.
  const steps0 = new Map<string, ReturnType<typeof serviceFor>>();
  const stepOf = (e: HomeEntity) => {
    if (steps0.has(e.id)) return steps0.get(e.id);
    const found = serviceFor(act, e.domain, deps.state(e.id));
    const step = found && deps.supports(e.id, found.service) ? found : undefined;
    steps0.set(e.id, step);
    return step;
  };
  const filters = { fits: (e: HomeEntity) => stepOf(e) !== undefined, implied: impliedDomains(act), valueQuestion: false, state: deps.state };
  let r = resolve(f, home, scope, filters);
  // "vacuum the kitchen": a robot from another room cleans it.
  if (r.kind === 'none' && act.verb === 'clean' && scope.explicit) r = resolve({ ...f, areas: [], floors: [], here: false }, home, { explicit: false, areas: new Set(), floors: new Set() }, filters);
  r = settled(r, choose);
  if (r.kind === 'scene') {
    if (['turn_on', 'start', 'set'].includes(act.verb)) return { kind: 'scene', key: r.key, name: r.name };
    return { kind: 'not_understood', words: [r.name], reason: 'scene_action' };
  }
  if (r.kind === 'group') {
    const g = groupAction(act);
    if (!g) return { kind: 'not_understood', words: [r.name], reason: 'group_action' };
    return { kind: 'group', key: r.key, name: r.name, ...g };
  }
  if (r.kind === 'ambiguous') {
    // "next song" with several players: the one that is playing (or, to resume, the paused one).
    const busy = MEDIA_BUSY[act.verb];
    const playing = busy ? r.candidates.filter((id) => id.startsWith('media_player.') && busy.includes(deps.state(id)?.state ?? '')) : [];
    if (playing.length !== 1) return r;
    r = { kind: 'entities', ids: playing, singular: true };
  }
  if (r.kind === 'none') return { kind: 'not_understood', words: r.noun ? [r.noun] : [], reason: 'no_target' };
  // One step per distinct service and data, so "all the lights" is one call.
  const steps = new Map<string, Step>();
  for (const id of r.ids) {
    const e = home.entities.get(id)!;
    const step = stepOf(e)!;
    const key = `${e.domain}|${step.service}|${Object.keys(step.data).length ? JSON.stringify(step.data) : ''}`;
    const s = steps.get(key);
    if (s) s.entity_ids.push(id);
    else steps.set(key, { domain: e.domain, service: step.service, data: step.data, entity_ids: [id] });
  }
  return { kind: 'act', steps: [...steps.values()], what: act.verb };
}

const MEDIA_BUSY: Record<string, string[]> = {
  pause: ['playing'],
  next: ['playing', 'paused'],
  previous: ['playing', 'paused'],
  stop: ['playing', 'paused'],
  mute: ['playing'],
  resume: ['paused'],
  increase: ['playing'],
  decrease: ['playing'],
  set: ['playing'],
};

function groupAction(act: Act): { action: string; parameters: Record<string, unknown> } | undefined {
  if (act.verb === 'turn_on' || act.verb === 'turn_off' || act.verb === 'toggle') return { action: act.verb, parameters: {} };
  if (act.verb === 'set' && act.color) return { action: 'turn_on', parameters: { color_name: act.color } };
  if (act.verb === 'set' && act.value !== undefined && (!act.prop || act.prop === 'brightness')) return { action: 'turn_on', parameters: { brightness_pct: act.value } };
  return undefined;
}

function planQuestion(f: Frame, scope: ReturnType<typeof scopeOf>, deps: PlanDeps, choose?: string): Outcome {
  const { home, lang } = deps;
  const q = f.question!;
  const valueQuestion = q === 'value' || q === 'where';
  const words = [...f.states];
  const fits = words.length || f.bstates.length ? (e: HomeEntity) => words.some((w) => stateApplies(w, e)) || f.bstates.some((b) => e.domain === 'binary_sensor' && e.cls === b.cls) : undefined;
  let implied: string[] = [];
  if (q === 'who' || words.includes('home') || words.includes('not_home')) implied = ['person'];
  const r = settled(resolve(f, home, scope, { fits, implied, valueQuestion, state: deps.state }), choose);
  if (r.kind === 'ambiguous') return r;
  // "what is the temperature in the living room" where it has no thermometer: say so.
  if (r.kind === 'none' && r.said && !f.unknown.length && !words.length) return { kind: 'query', question: q, entities: [], matching: [], answer: absent(r.said, scope, home, lang) };
  if (r.kind !== 'entities') return { kind: 'not_understood', words: 'noun' in r && r.noun ? [r.noun] : f.unknown, reason: 'no_target' };
  const entities = r.ids.map((id) => home.entities.get(id)!);
  // "is there smoke?" asks whether it is detected; a question with words we do not know gets the state itself.
  const implicitOn = q === 'yesno' && !words.length && !f.unknown.length;
  const test = (e: HomeEntity) => {
    const st = deps.state(e.id);
    const b = f.bstates.find((x) => e.domain === 'binary_sensor' && x.cls === e.cls);
    if (b) return stateIs('', e, st, b);
    // "is there smoke", "who is": detected, at home.
    const w = words.find((x) => stateApplies(x, e)) ?? (q === 'who' ? 'home' : implicitOn && stateApplies('on', e) ? 'on' : undefined);
    return w ? stateIs(w, e, st) : true;
  };
  const hasTest = Boolean(f.bstates.length || words.length || q === 'who' || (implicitOn && entities.some((e) => stateApplies('on', e))));
  const matching = hasTest ? entities.filter(test) : entities;
  return { kind: 'query', question: q, entities: r.ids, matching: matching.map((e) => e.id), answer: answer(q, f, entities, matching, hasTest, deps, lang) };
}

/** "There is no temperature sensor in Living Room." */
function absent(said: TargetMeaning, scope: ReturnType<typeof scopeOf>, home: Home, lang: LanguageData): string {
  const m = lang.messages;
  const what = said.k === 'domain' ? said.word : said.k === 'bnoun' || said.k === 'snoun' ? m.sensor!.replace('{kind}', said.cls.replace(/_/g, ' ')) : 'thing';
  const places = [...[...scope.areas].map((id) => home.areas.get(id)?.name ?? id), ...[...scope.floors].map((id) => home.floors.get(id)?.name ?? id)];
  if (!places.length) return m.no_such_anywhere!.replace('{what}', what);
  return m.no_such!.replace('{what}', what).replace('{where}', places.join(` ${m.or} `));
}

function valueOf(e: HomeEntity, st: HubState | undefined): string {
  if (!st) return 'unknown';
  const a = st.attributes;
  if (e.domain === 'climate' && a.current_temperature !== undefined) return `${a.current_temperature}${typeof a.temperature_unit === 'string' ? ` ${a.temperature_unit}` : ''}`;
  if (e.domain === 'weather' && a.temperature !== undefined) return `${st.state}, ${a.temperature}${typeof a.temperature_unit === 'string' ? ` ${a.temperature_unit}` : ''}`;
  const unit = typeof a.unit_of_measurement === 'string' ? ` ${a.unit_of_measurement}` : '';
  return `${st.state}${unit}`;
}

function answer(q: QuestionKind, f: Frame, all: HomeEntity[], matching: HomeEntity[], hasTest: boolean, deps: PlanDeps, lang: LanguageData): string {
  const m = lang.messages;
  const names = (list: HomeEntity[]) => list.map((e) => e.name).join(', ');
  switch (q) {
    case 'count':
      return `${matching.length}${hasTest ? ` of ${all.length}` : ''}${matching.length ? `: ${names(matching)}` : ''}`;
    case 'list':
    case 'who':
      return matching.length ? names(matching) : m.none!;
    case 'yesno': {
      if (!hasTest) return all.map((e) => `${e.name}: ${valueOf(e, deps.state(e.id))}`).join('; ');
      const yes = f.all ? matching.length === all.length : matching.length > 0;
      const detail = all.length > 1 ? ` (${matching.length} of ${all.length}${matching.length && matching.length < all.length ? `: ${names(matching)}` : ''})` : '';
      return `${yes ? m.yes : m.no}${detail}`;
    }
    default:
      return all.map((e) => `${e.name}: ${valueOf(e, deps.state(e.id))}`).join('; ');
  }
}
