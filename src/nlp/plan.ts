// The planner: a sentence, the speaker's area and the home in; for each clause either the service
// calls to make, a question's entities and answer, an ambiguity with its candidates, or a refusal
// with its reason. It acts only when every word that changes meaning is understood: a negation, a
// time, a condition, a count of things, a value out of range, an unknown word or a part of a
// compound that cannot be planned refuses the whole command. Pure: the hub's states and services
// come in as functions.
import type { HubState } from '../hub/types.js';
import { actOf, impliedDomains, outOfRange, serviceFor, temperatureOutOfRange, valueSaid, type Act, type Units } from './act.js';
import type { Home, HomeEntity } from './home.js';
import type { HistoryMeasure, HistoryWindow, LanguageData } from './language.js';
import { THING, type Lexicon } from './lexicon.js';
import { clauses, frameOf, inherit, type BlockerKind, type Frame, type QuestionKind } from './parse.js';
import { Recoverer, type Recovery } from './recover.js';
import { absent, answer, say } from './reply.js';
import { stateApplies, stateIs } from './states.js';
import { EVERYTHING, kindsOf, resolve, scopeOf } from './targets.js';
import { fold, numbers, words } from './text.js';

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
  /** The hub's units (unit_system); Celsius when unknown. */
  units?: Units;
}

export interface Step {
  domain: string;
  service: string;
  data: Record<string, unknown>;
  entity_ids: string[];
}

export type RefusalReason =
  | 'empty'
  | 'unknown_words'
  | 'unsure'
  | 'no_action'
  | 'no_target'
  | 'cannot'
  | 'scene_action'
  | 'group_action'
  | BlockerKind
  | 'quantity'
  | 'range'
  | 'count_of_things'
  | 'exception'
  | 'keep'
  | 'no_place'
  /** "close them", "the kitchen ones" with nothing said before for them to stand for. */
  | 'no_antecedent'
  /** A question about a kind of thing the place (or home) lacks: said so, never answered from another. */
  | 'no_such'
  | 'period';

export type Outcome =
  | { kind: 'act'; steps: Step[]; what: string }
  | { kind: 'scene'; key: string; name: string }
  | { kind: 'group'; key: string; name: string; action: string; parameters: Record<string, unknown> }
  | {
      kind: 'query';
      question: QuestionKind;
      entities: string[];
      matching: string[];
      answer: string;
      /** A question about the past: answered from the recorder (history-answer.ts), not from the states. */
      history?: PastQuestion;
    }
  | { kind: 'ambiguous'; noun: string; candidates: string[] }
  | {
      kind: 'not_understood';
      reason: RefusalReason;
      words: string[];
      /** The clause that could not be planned (the whole command when it has one). */
      part: string;
      /** The act asked for, the things named, a guess, a range: what the reply needs to say why. */
      detail?: { verb?: string; ids?: string[]; guess?: string; value?: number; min?: number; max?: number; where?: string[]; message?: string };
    };

/** What a question about the past asks the recorder: over which window, what of which state (a binary sensor's on/off where bstate is set). */
export interface PastQuestion {
  window: HistoryWindow;
  measure: HistoryMeasure;
  state: string;
  bstate?: boolean;
}

const ORDER: BlockerKind[] = ['history', 'asked', 'negation', 'time', 'condition'];

export function plan(input: PlanInput, deps: PlanDeps): Outcome[] {
  const { lang, vocabulary, home } = deps;
  const recoverer = new Recoverer(lang, [vocabulary, home.names]);
  const grammar = {
    determiners: lang.determiners,
    hesitations: lang.hesitations,
    separable: vocabulary.separable,
    delays: lang.delays,
    clock: lang.clock,
    copulas: lang.copulas,
    exceptWithNot: lang.except_with_not,
    yesno: lang.questions.yesno ?? [],
    placeWords: placeWords(lang),
  };
  const frames: Frame[] = [];
  let unsure: { word: string; guess: string } | undefined;
  let doubt: { word: string; guess: string } | undefined;
  const guessed: Recovery['guesses'] = [];
  // Each sentence on its own: one that ends in a question mark asks in its last part.
  for (const sentence of input.command.split(/(?<=\?)/)) {
    doubt ??= doubtfulNumber(words(sentence, lang), lang);
    const recovered = recoverer.recover(recoverer.shareNoun(numbers(recoverer.numberWords(words(sentence, lang)), lang), home.names));
    unsure ??= recovered.unsure;
    // A guessed word names a thing, never an act: "lokc" may be a lock, never the verb lock; nor all things ("schön" is not "Sachen").
    // Beside a word not known at all ("the wine cellar") it is not guessed: the two are a name the home lacks.
    const matched = vocabulary.match(recovered.tokens, home.names);
    guessed.push(...recovered.guesses);
    // A verb or position read by a slip of the finger ("unlcok", "lfet") is taken only where every other word is understood; else it is asked about.
    const clear = matched.every((l) => l.meanings.length || l.text === ',');
    const slip = recovered.guesses.find((g) => g.slip);
    if (slip && !clear) unsure ??= { word: slip.word, guess: slip.as };
    const lexemes = matched.map((l, i) => {
      const g = recovered.guesses.find((x) => x.at >= l.start && x.at < l.end);
      if (!g || (g.slip && clear)) return l;
      return { ...l, meanings: matched[i + 1] && !matched[i + 1]!.meanings.length ? [] : l.meanings.filter((m) => THING.has(m.k) && m.k !== 'generic') };
    });
    if (!lexemes.some((l) => l.text !== ',')) continue;
    const parts = clauses(lexemes, lang.determiners);
    const marked = sentence.trimEnd().endsWith('?');
    parts.forEach((c, k) => {
      const prev = frames[frames.length - 1];
      // "did you turn off the tv and lock the door": a part joined to a question asks too (and so never acts).
      const joined = k > 0 && prev?.question !== undefined && !prev.statement && !c.some((l) => l.meanings.some((m) => m.k === 'request'));
      const f = inherit(prev, frameOf(c, grammar, (marked && k === parts.length - 1) || joined));
      // "… and the one in the kitchen": the kind of the thing named before.
      // "…, das rechte auf", "…, das linke bleibt": a position alone is of that kind too.
      if (prev && ((f.pronoun && f.pronoun !== 'same') || f.positions.length) && !f.mentions.length)
        f.mentions = kindsOf(prev.mentions, home).map((m) => ({ ...m, group: 0 }));
      if (prev && f.pronoun === 'other') otherThan(f, prev, input.context?.area, deps);
      frames.push(f);
    });
  }
  if (!frames.length) return [{ kind: 'not_understood', words: [], reason: 'empty', part: input.command }];
  const recovered = { unsure };
  dropContrasted(frames, input.context?.area, deps);
  // A word that forbids acting anywhere refuses the whole command, whatever the other parts say.
  for (const kind of ORDER) {
    const f = frames.find((x) => x.blockers.some((b) => b.kind === kind));
    if (f) return [{ kind: 'not_understood', reason: kind, words: f.blockers.find((b) => b.kind === kind)!.words, part: f.text }];
  }
  // A statement ("I left the lamp on, …") followed by a command is only what the command's "it" stands for.
  // So is a feeling with nothing named ("it's chilly, bump the thermostat up two"): the later part says what changes.
  // "the telly's too loud, turn it down to 15": a feeling about a thing, then what to do with it.
  const feeling = (f: Frame) => !f.question && f.comparative !== undefined && !f.actions.length && !f.numbers.length && !f.particles.length;
  // A change: a thing named with a verb, a direction, a comparison, a number or a particle ("turn off the ceiling light").
  const changes = (f: Frame) =>
    !f.question &&
    f.mentions.length > 0 &&
    (f.actions.length > 0 || f.rel !== undefined || f.comparative !== undefined || f.numbers.length > 0 || f.particles.length > 0);
  const reason = (f: Frame, i: number) =>
    // With things named, only when the next part's "it" stands for them ("Lampe heller und Leselampe dunkler" is two changes).
    feeling(f) && frames.slice(i + 1).some(changes) && (!f.mentions.length || frames[i + 1]?.pronoun === 'same');
  // The place a feeling was had in is where the change it explains is made ("it's too cold in the living room, turn up the heat").
  frames.forEach((f, i) => {
    const next = frames[i + 1];
    if (next && reason(f, i) && (f.areas.length || f.floors.length) && !next.areas.length && !next.floors.length && !next.here) {
      frames[i + 1] = { ...next, areas: f.areas, floors: f.floors };
    }
  });
  const planned = frames.filter((f, i) => !(f.statement && frames.slice(i + 1).some((x) => !x.question)) && !reason(f, i));
  const out = keptApart(once(planned.map((f) => planClause(f, input.context?.area, deps, input.choose))));
  // A refusal names the words as typed ("lfet"), never as guessed ("left").
  const typed = (w: string) =>
    w
      .split(' ')
      .map((x) => guessed.find((g) => g.as === x)?.word ?? x)
      .join(' ');
  for (const o of out) if (o.kind === 'not_understood') o.words = o.words.map(typed);
  // A number heard two ways ("seventy too"): nothing is done with either; the person is asked.
  if (doubt && out.some((o) => o.kind !== 'query' && o.kind !== 'not_understood'))
    return [{ kind: 'not_understood', reason: 'unsure', words: [doubt.word], part: input.command, detail: { guess: doubt.guess } }];
  // Not sure of the one word not understood: ask about it rather than say it was not understood.
  if (recovered.unsure) {
    const i = out.findIndex((o) => o.kind === 'not_understood' && o.reason !== 'no_place' && o.words.length === 1 && o.words[0] === recovered.unsure!.word);
    if (i >= 0)
      out[i] = { kind: 'not_understood', reason: 'unsure', words: [recovered.unsure.word], part: frames[i]!.text, detail: { guess: recovered.unsure.guess } };
  }
  return out;
}

/**
 * "close the left curtain and the other one too", "Schreibtischlampe an, die andere aus": the things
 * of the kind said before, where they were, less the ones it named. Several left are asked between.
 */
function otherThan(f: Frame, prev: Frame, contextArea: string | undefined, deps: PlanDeps): void {
  const { home } = deps;
  const before = resolve(prev, home, scopeOf(prev, home, contextArea), keepFilters(deps), contextArea);
  if (before.kind !== 'entities') return;
  const first = home.entities.get(before.ids[0]!)!;
  f.exclude = {
    words: [],
    mentions: [{ text: prev.text, index: 0, meanings: [{ k: 'entity', ids: before.ids, name: first.name }], group: 0 }],
    areas: [],
    floors: [],
    positions: [],
  };
  if (f.areas.length || f.floors.length || f.here) return;
  const areas = [...new Set(before.ids.map((id) => home.entities.get(id)?.area).filter((a): a is string => Boolean(a)))];
  f.areas = areas.map((id) => ({ id, name: home.areas.get(id)?.name ?? id, group: 0 }));
}

/** Any thing named, whatever it can do: what a "leave ... as it is" part is about. */
const keepFilters = (deps: PlanDeps) => ({ implied: [], valueQuestion: false, state: deps.state, fold: (t: string) => fold(t, deps.lang) });

/**
 * "leave the left curtain open but close the right one", "Rollo rechts hoch, das linke bleibt": a
 * part that keeps things as they are asks nothing of the hub, so the parts that act go ahead when
 * the kept things were found and none of them is acted on. Alone, or unsure what it keeps, it refuses.
 */
function keptApart(out: Outcome[]): Outcome[] {
  const acted = new Set(out.flatMap((o) => (o.kind === 'act' ? o.steps.flatMap((s) => s.entity_ids) : [])));
  if (!acted.size || out.some((o) => o.kind !== 'act' && !(o.kind === 'not_understood' && o.reason === 'keep'))) return out;
  const apart = (o: Outcome) =>
    o.kind === 'not_understood' && o.reason === 'keep' && (o.detail?.ids?.length ?? 0) > 0 && !o.detail!.ids!.some((id) => acted.has(id));
  return out.every((o) => o.kind === 'act' || apart(o)) ? out.filter((o) => o.kind === 'act') : out;
}

/**
 * One thing given the same service twice in a command is one call, with what the later part adds or
 * says again: "turn on the lamp and dim it to 40%" is one turn_on at 40%; "too cold in here, turn it
 * up two degrees" sets the one temperature said last.
 */
function once(out: Outcome[]): Outcome[] {
  const acts = out.filter((o): o is Extract<Outcome, { kind: 'act' }> => o.kind === 'act');
  for (let j = acts.length - 1; j > 0; j--) {
    for (const later of [...acts[j]!.steps]) {
      for (const id of [...later.entity_ids]) {
        for (const earlier of acts.slice(0, j).flatMap((a) => a.steps)) {
          // A toggle said twice is two toggles.
          if (earlier.domain !== later.domain || earlier.service !== later.service || later.service === 'toggle' || !earlier.entity_ids.includes(id)) continue;
          earlier.entity_ids = earlier.entity_ids.filter((x) => x !== id);
          const extra = Object.keys(earlier.data).filter((k) => !(k in later.data));
          if (!extra.length) continue;
          // What only the earlier part said is kept, for this thing alone.
          later.entity_ids = later.entity_ids.filter((x) => x !== id);
          acts[j]!.steps.push({ ...later, data: { ...earlier.data, ...later.data }, entity_ids: [id] });
        }
      }
    }
  }
  for (const a of acts) a.steps = a.steps.filter((s) => s.entity_ids.length);
  return out.filter((o) => o.kind !== 'act' || o.steps.length);
}

/** Binary sensors that say whether someone is in a room. */
const PRESENCE = ['occupancy', 'presence'];

const ON_OFF_VERBS = new Set(['turn_on', 'turn_off', 'toggle']);
/** Acts that take a value. */
const VALUE_VERBS = new Set(['set', 'increase', 'decrease']);

/** Verbs that say little of their own ("start the next song", "spiele das vorherige Lied"): another verb says more. */
const GENERIC_VERBS = new Set(['set', 'start', 'resume']);

/**
 * A clause with two verbs ("go back to the charger": previous, dock; "starte den nächsten Titel":
 * start, next) means the more telling one that fits the things named.
 */
function planClause(f: Frame, contextArea: string | undefined, deps: PlanDeps, choose?: string): Outcome {
  const verbs = [...new Set(f.actions.filter((a) => a !== 'set'))].sort((a, b) => Number(GENERIC_VERBS.has(a)) - Number(GENERIC_VERBS.has(b)));
  // "leave the curtain open": keeping is never traded for the other verb said with it.
  if (f.question || verbs.length < 2 || verbs.includes('keep'))
    return planOne(verbs.includes('keep') ? { ...f, actions: ['keep'] } : f, contextArea, deps, choose);
  const tries = verbs.map((v) => planOne({ ...f, actions: [v, ...f.actions.filter((a) => a !== v)] }, contextArea, deps, choose));
  return tries.find((o) => o.kind !== 'not_understood') ?? tries[0]!;
}

/** Whether a word is a zone someone is in (a person's state: "auf der Arbeit"), which is no thing of the home. */
function zoneOf(word: string, deps: PlanDeps): boolean {
  const people = [...(deps.home.byDomain.get('person') ?? []), ...(deps.home.byDomain.get('device_tracker') ?? [])];
  return people.some((e) => fold(deps.state(e.id)?.state ?? '', deps.lang) === word);
}

/** The one-word place prepositions of a language ("in", "im"). */
const placeWords = (lang: LanguageData) => lang.place_prepositions.filter((p) => !p.includes(' '));

/** An ambiguity the caller settled: the chosen candidate alone. */
function settled<R extends { kind: string }>(r: R, choose: string | undefined): R | { kind: 'entities'; ids: string[]; singular: true } {
  return r.kind === 'ambiguous' && choose !== undefined && (r as unknown as { candidates: string[] }).candidates.includes(choose)
    ? { kind: 'entities', ids: [choose], singular: true }
    : r;
}

function planOne(f: Frame, contextArea: string | undefined, deps: PlanDeps, choose?: string): Outcome {
  const { home } = deps;
  // "how much energy is in the powerwall", "how much solar did we make": a question not understood
  // otherwise, whose words not understood are all words of one thing's name (and of no other), asks of that thing.
  if (f.question && f.question !== 'who') {
    const first = planOneAsIs(f, contextArea, deps, choose);
    const named = first.kind === 'not_understood' ? namedByWords(f, home, deps.lang) : f;
    if (named === f) return first;
    const again = planOneAsIs(named, contextArea, deps, choose);
    return again.kind === 'query' ? again : first;
  }
  return planOneAsIs(f, contextArea, deps, choose);
}

function planOneAsIs(f: Frame, contextArea: string | undefined, deps: PlanDeps, choose?: string): Outcome {
  const { home } = deps;
  const refuse = (reason: RefusalReason, words: string[], detail?: Extract<Outcome, { kind: 'not_understood' }>['detail']): Outcome => ({
    kind: 'not_understood',
    reason,
    words,
    part: f.text,
    ...(detail ? { detail } : {}),
  });
  const scope = scopeOf(f, home, contextArea);
  // "in the sauna": a place this home does not have is said so, never answered from another.
  // Who is somewhere asks of people's zones ("wer ist in der Schule"), not of the home's areas.
  if (f.places.length && f.question !== 'who') return refuse('no_place', f.places);
  // "is it on", "did they?": nothing named and only on or off asked, so what "it" is was not said.
  const named = f.mentions.length || f.areas.length || f.floors.length || f.here || f.outdoors || f.everything || f.any || f.all || f.positions.length;
  const onOff = [...(deps.lang.particles.on ?? []), ...(deps.lang.particles.off ?? [])];
  if (
    f.question === 'yesno' &&
    !named &&
    f.text
      .split(' ')
      .slice(2)
      .every((w) => onOff.includes(w))
  )
    return refuse('no_antecedent', [f.text.split(' ').slice(0, 2).join(' ')]);
  if (f.question) return planQuestion(f, scope, contextArea, deps, choose);
  if (f.counts.length) return refuse('count_of_things', f.counts);

  // A scene said alone ("Partymodus", "movie night") is activated.
  const act =
    actOf(f) ??
    (!f.unknown.length &&
    f.mentions.length === 1 &&
    f.mentions[0]!.meanings.some((m) => m.k === 'scene' || (m.k === 'entity' && m.ids.every((id) => id.startsWith('scene.'))))
      ? { verb: 'turn_on' }
      : undefined);
  if (!act) return refuse('no_action', f.unknown);
  // A word standing for things said before, with nothing said before it could stand for, is never "everything here".
  // "the left one" is found by its position (the things whose names carry it); the "it" of "it is too warm",
  // "warm it up" is the air of the room, which the temperature act finds itself.
  // So is the "it" of "make it brighter in here": a change said of a place is of what the place has.
  if (
    f.pronoun &&
    !f.mentions.length &&
    !f.everything &&
    !f.positions.length &&
    !(f.pronoun === 'same' && (act.prop === 'temperature' || (f.comparative && (f.here || f.areas.length > 0))))
  )
    return refuse('no_antecedent', f.pronounWords ?? []);
  // "leave the tv off", "lass das Licht an": asked to change nothing.
  // With the things kept found, another part of the command that acts on others may go ahead (see plan).
  if (act.verb === 'keep') {
    const kept = f.mentions.length || f.positions.length ? resolve(f, home, scope, keepFilters(deps), contextArea) : undefined;
    return refuse(
      'keep',
      f.text.split(' ').filter((w) => deps.lang.actions.keep?.some((k) => k.split(' ').includes(w))),
      // Several that fit ("das linke" of three): it is one of them, so none of them may be acted on.
      kept?.kind === 'entities' ? { ids: kept.ids } : kept?.kind === 'ambiguous' ? { ids: kept.candidates } : undefined,
    );
  }
  if (f.unknown.length) return refuse('unknown_words', f.unknown);
  // A number that is neither a value nor a count of something known ("turn on the lamp 3").
  const loose = f.numbers.filter((n) => !n.anchored);
  if (loose.length)
    return refuse(
      'quantity',
      loose.map((n) => n.text),
    );
  // Several values with none said after "to" ("set the lamp 30 50"): which is meant is not guessed.
  if (f.numbers.length > 1 && !valueSaid(f))
    return refuse(
      'quantity',
      f.numbers.map((n) => n.text),
    );
  // A value said to an act that takes none ("lock the doors at 11") is not dropped.
  if (act.value !== undefined && !VALUE_VERBS.has(act.verb)) return refuse('quantity', f.numbers.length ? f.numbers.map((n) => n.text) : [String(act.value)]);
  const range = outOfRange(act);
  if (range) return refuse('range', [String(range.value)], range);
  // "alles zumachen im Wohnzimmer", "close everything in the living room": a room's covers; never the whole home's ("open everything").
  const roomCovers = f.everything && (act.verb === 'open' || act.verb === 'close') && (f.areas.length > 0 || f.floors.length > 0 || f.here);
  if (f.everything && !f.mentions.length && !ON_OFF_VERBS.has(act.verb) && !roomCovers) return refuse('cannot', [f.text], { verb: act.verb });
  // "start", "get going" with nothing named: what to start is not guessed (a robot is named, or its place, or "clean").
  if (act.verb === 'start' && !f.mentions.length && !f.areas.length && !f.floors.length && !f.here && !f.everything)
    return refuse('no_target', [], { verb: act.verb, where: [] });
  // Each entity's step is worked out once: resolving asks whether it fits, planning uses it.
  const steps0 = new Map<string, ReturnType<typeof serviceFor>>();
  const stepOf = (e: HomeEntity) => {
    if (steps0.has(e.id)) return steps0.get(e.id);
    const found = serviceFor(act, e.domain, deps.state(e.id), deps.units);
    const step = found && deps.supports(e.id, found.service) ? found : undefined;
    steps0.set(e.id, step);
    return step;
  };
  // There, everything is the covers, never a garage door or a gate (which a person opens on purpose).
  const filters = {
    fits: (e: HomeEntity) => stepOf(e) !== undefined && !(roomCovers && ['garage', 'gate', 'door'].includes(e.cls ?? '')),
    implied: roomCovers ? ['cover'] : f.everything ? EVERYTHING : impliedDomains(act),
    valueQuestion: false,
    state: deps.state,
    outdoors: deps.lang.outdoors,
    fold: (t: string) => fold(t, deps.lang),
  };
  let r = resolve(f, home, scope, filters, contextArea);
  // "vacuum the kitchen": a robot from another room cleans it.
  if (r.kind === 'none' && act.verb === 'clean' && scope.explicit)
    r = resolve({ ...f, areas: [], floors: [], here: false }, home, { explicit: false, areas: new Set(), floors: new Set() }, filters, contextArea);
  r = settled(r, choose);
  if (r.kind === 'scene') {
    if (['turn_on', 'start', 'set'].includes(act.verb)) return { kind: 'scene', key: r.key, name: r.name };
    return refuse('scene_action', [r.name], { verb: act.verb });
  }
  if (r.kind === 'group') {
    const g = groupAction(act);
    if (!g) return refuse('group_action', [r.name], { verb: act.verb });
    return { kind: 'group', key: r.key, name: r.name, ...g };
  }
  if (r.kind === 'cannot') return refuse('cannot', [r.noun], { verb: act.verb, ids: r.ids });
  if (r.kind === 'no_exception') return refuse('exception', r.words);
  if (r.kind === 'ambiguous') {
    // "next song" with several players: the one that is playing (or, to resume, the paused one).
    const busy = MEDIA_BUSY[act.verb];
    const playing = busy ? r.candidates.filter((id) => id.startsWith('media_player.') && busy.includes(deps.state(id)?.state ?? '')) : [];
    if (playing.length !== 1) return r;
    r = { kind: 'entities', ids: playing, singular: true };
  }
  if (r.kind === 'none')
    return refuse('no_target', r.noun ? [r.noun] : [], {
      verb: act.verb,
      where: [...scope.areas, ...scope.floors].map((id) => home.areas.get(id)?.name ?? home.floors.get(id)?.name ?? id),
    });
  // "set the living room to 72": a bare number said to a place, with nothing named, could be the
  // lights' brightness or the thermostat's temperature there: which is meant is asked, never guessed.
  if (
    r.kind === 'entities' &&
    choose === undefined &&
    act.verb === 'set' &&
    act.value !== undefined &&
    act.prop === undefined &&
    act.unit === undefined &&
    !f.mentions.length &&
    !f.everything
  ) {
    const lit = r.ids;
    const warm = resolve(
      f,
      home,
      scope,
      { ...filters, implied: ['climate'], fits: (e: HomeEntity) => e.domain === 'climate' && stepOf(e) !== undefined },
      contextArea,
    );
    if (warm.kind === 'entities' && warm.ids.some((id) => !lit.includes(id)))
      return { kind: 'ambiguous', noun: f.numbers[0]?.text ?? String(act.value), candidates: [...lit, ...warm.ids] };
  }
  // One step per distinct service and data, so "all the lights" is one call.
  const steps = new Map<string, Step>();
  for (const id of r.ids) {
    const e = home.entities.get(id)!;
    const step = stepOf(e)!;
    // A target the thermostat does not take is said so, not sent to the hub (which a dry run never asks).
    const hot = temperatureOutOfRange(e.domain, step, deps.state(id)?.attributes ?? {}, deps.units ?? { temperature: '°C' });
    if (hot) return refuse('range', [String(hot.value)], hot);
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
  if (act.verb === 'set' && act.value !== undefined && (!act.prop || act.prop === 'brightness'))
    return { action: 'turn_on', parameters: { brightness_pct: act.value } };
  return undefined;
}

/** The frame with its unknown words, unknown places and nouns read as the one thing whose name carries every one of them, if exactly one does. */
function namedByWords(f: Frame, home: Home, lang: LanguageData): Frame {
  const said = [...new Set([...f.unknown, ...f.places, ...f.nouns])];
  if (!said.length || f.mentions.some((m) => m.meanings.some((x) => x.k === 'entity'))) return f;
  const words = said.map((w) => fold(w, lang));
  const ids = [...home.entities.values()]
    .filter((e) => {
      const name = fold(e.name, lang).split(/\s+/);
      return words.every((w) => name.includes(w));
    })
    .map((e) => e.id);
  if (ids.length !== 1) return f;
  const gone = (w: string) => !said.includes(w);
  return {
    ...f,
    unknown: f.unknown.filter(gone),
    places: f.places.filter(gone),
    nouns: f.nouns.filter(gone),
    mentions: [...f.mentions, { text: said.join(' '), index: 0, meanings: [{ k: 'entity', ids, name: home.entities.get(ids[0]!)!.name }], group: 0 }],
  };
}

function planQuestion(f: Frame, scope: ReturnType<typeof scopeOf>, contextArea: string | undefined, deps: PlanDeps, choose?: string): Outcome {
  const { home, lang } = deps;
  const q = f.question!;
  const valueQuestion = q === 'value' || q === 'where';
  const words = [...f.states];
  const fits =
    words.length || f.bstates.length
      ? (e: HomeEntity) => words.some((w) => stateApplies(w, e)) || f.bstates.some((b) => e.domain === 'binary_sensor' && e.cls === b.cls)
      : undefined;
  let implied: string[] = [];
  if (q === 'who' || words.includes('home') || words.includes('not_home')) implied = ['person'];
  let r = resolve(
    f,
    home,
    scope,
    { fits, implied, valueQuestion, state: deps.state, outdoors: lang.outdoors, determiners: lang.determiners, fold: (t: string) => fold(t, lang) },
    contextArea,
  );
  // State words that fit nothing here ("wer hält sich in der Schule auf": auf) are not what is asked.
  let dropped = false;
  if (r.kind === 'none' && (words.length || f.bstates.length)) {
    const plain = resolve(
      { ...f, states: [], bstates: [] },
      home,
      scope,
      { implied, valueQuestion, state: deps.state, outdoors: lang.outdoors, fold: (t: string) => fold(t, lang) },
      contextArea,
    );
    if (plain.kind === 'entities') {
      r = plain;
      words.length = 0;
      dropped = true;
    }
  }
  // "is anybody in the kitchen": people are in zones, not rooms; in a room, its occupancy or presence sensors say.
  if (r.kind === 'none' && r.said?.k === 'domain' && r.said.domain === 'person' && scope.explicit) {
    const sensed = resolve(
      {
        ...f,
        mentions: f.mentions.map((m) =>
          m.meanings.some((x) => x.k === 'domain' && x.domain === 'person')
            ? { ...m, meanings: PRESENCE.map((cls) => ({ k: 'bnoun', cls, plural: true }) as const) }
            : m,
        ),
      },
      home,
      scope,
      { implied, valueQuestion, state: deps.state, fold: (t: string) => fold(t, lang) },
      contextArea,
    );
    if (sensed.kind === 'entities') r = sensed;
    else r = { ...r, said: { k: 'bnoun', cls: PRESENCE[0]!, plural: false } };
  }
  r = settled(r, choose);
  // "is the sauna on": a thing not known, with no name or kind said that is known, is not answered with another.
  if (f.unknown.length && !f.mentions.length && q !== 'who' && r.kind !== 'none')
    return { kind: 'not_understood', words: f.unknown, reason: 'no_target', part: f.text };
  if (r.kind === 'ambiguous') return r;
  // "what is the temperature in the living room" where it has no thermometer: say so.
  if (r.kind === 'none' && r.said && !f.unknown.length && !words.length) {
    const places = [...[...scope.areas].map((id) => home.areas.get(id)?.name ?? id), ...[...scope.floors].map((id) => home.floors.get(id)?.name ?? id)];
    return { kind: 'not_understood', reason: 'no_such', words: [], part: f.text, detail: { message: absent(r.said, places, lang), where: places } };
  }
  if (r.kind !== 'entities') return { kind: 'not_understood', words: 'noun' in r && r.noun ? [r.noun] : f.unknown, reason: 'no_target', part: f.text };
  // "the bed sensor reading", "the sound bar": words not known as such are a part of a name; the things whose names carry them are meant.
  if (f.unknown.length) {
    const nameWords = (e: HomeEntity) => fold(e.name, lang).split(/[^\p{L}\p{N}]+/u);
    const carries = (e: HomeEntity) => f.unknown.every((w) => nameWords(e).includes(w));
    const among = r.ids.filter((id) => carries(home.entities.get(id)!));
    const anywhere = among.length ? [] : [...home.entities.values()].filter((e) => !e.background && carries(e));
    if (among.length) r = { ...r, ids: among };
    else if (anywhere.length) r = { ...r, ids: anywhere.map((e) => e.id) };
    // "how warm is the attic": a thing said that no name carries is not answered with another.
    else if (f.nouns.some((w) => !zoneOf(w, deps))) return { kind: 'not_understood', words: f.nouns, reason: 'no_target', part: f.text };
  }
  // "how much gas today": only a reading kept for that period answers it (its name says the period).
  if (f.period) {
    const names = f.period.names;
    const nameWords = (e: HomeEntity) => fold(e.name, lang).split(/[^\p{L}\p{N}]+/u);
    const forPeriod = (e: HomeEntity) => nameWords(e).some((w) => names.some((n) => w === n || w.startsWith(n)));
    let kept = r.ids.filter((id) => forPeriod(home.entities.get(id)!));
    // "how much water has the pump used today": the reading kept for the period may be of another class
    // than the one found (volume, not water); a sensor whose name says the period and carries every
    // thing said (each by its words or its class) answers it.
    if (!kept.length) {
      const carries = (e: HomeEntity) =>
        f.mentions.every((m) => {
          const ws = fold(m.text, lang).split(' ');
          return ws.every((w) => nameWords(e).includes(w)) || m.meanings.some((x) => x.k === 'snoun' && x.cls === e.cls);
        });
      kept = (home.byDomain.get('sensor') ?? [])
        .filter((e) => !e.background && forPeriod(e) && carries(e) && (!scope.explicit || scope.areas.has(e.area ?? '') || scope.floors.has(e.floor ?? '')))
        .map((e) => e.id);
    }
    if (!kept.length) {
      // "was the door open yesterday": no reading kept for the period, so the recorder answers it.
      // "how much gas today" asks a reading, never whether the gas detector was on.
      const past = f.period.window && (q === 'yesno' || f.history) ? pastQuery(f, r.ids, deps) : undefined;
      return past ?? { kind: 'not_understood', words: f.period.words, reason: 'period', part: f.text };
    }
    r = { ...r, ids: kept };
  } else if (f.history) return pastQuery(f, r.ids, deps) ?? { kind: 'not_understood', words: f.history.words, reason: 'history', part: f.text };
  const entities = r.ids.map((id) => home.entities.get(id)!);
  // "is there smoke?" asks whether it is detected; a question with words we do not know gets the state itself.
  const implicitOn = q === 'yesno' && !words.length && !dropped && !f.unknown.length;
  const test = (e: HomeEntity) => {
    const st = deps.state(e.id);
    const b = f.bstates.find((x) => e.domain === 'binary_sensor' && x.cls === e.cls);
    if (b) return stateIs('', e, st, b);
    // "is there smoke", "who is": detected, at home.
    const w = words.find((x) => stateApplies(x, e)) ?? (q === 'who' ? 'home' : implicitOn && stateApplies('on', e) ? 'on' : undefined);
    return w ? stateIs(w, e, st) : true;
  };
  // State words that fit none of the things asked about are no test of them (they are answered with their state).
  const applies =
    words.some((w) => entities.some((e) => stateApplies(w, e))) || f.bstates.some((b) => entities.some((e) => e.domain === 'binary_sensor' && e.cls === b.cls));
  const hasTest = Boolean(((f.bstates.length || words.length) && applies) || q === 'who' || (implicitOn && entities.some((e) => stateApplies('on', e))));
  const matching = hasTest ? entities.filter(test) : entities;
  return {
    kind: 'query',
    question: q,
    entities: r.ids,
    matching: matching.map((e) => e.id),
    answer: answer({ question: q, all: f.all, entities, matching, hasTest }, deps.state, lang),
  };
}

/** The state a verb said in a question about the past comes to ("when was it unlocked": unlocked). */
const DONE: Record<string, string> = {
  turn_on: 'on',
  turn_off: 'off',
  open: 'open',
  close: 'closed',
  lock: 'locked',
  unlock: 'unlocked',
  start: 'cleaning',
  play: 'playing',
  pause: 'paused',
  stop: 'off',
};
/** The state a question about the past means when it names none ("when did the washer run"): each domain's active one. */
const ACTIVE: Record<string, string> = { lock: 'unlocked', cover: 'open', valve: 'open', vacuum: 'cleaning', person: 'home', device_tracker: 'home' };

/**
 * A question about things' past states, for the recorder: the window said (else the latest change for
 * "when", today otherwise), what it measures, and the state asked of, from a state word, a verb or the
 * things' active state. Readings (sensors) have no state to count, so they are not asked this way.
 */
function pastQuery(f: Frame, ids: string[], deps: PlanDeps): Outcome | undefined {
  const { home } = deps;
  const entities = ids.map((id) => home.entities.get(id)!);
  if (!entities.length || entities.some((e) => e.domain === 'sensor' || e.domain === 'weather')) return undefined;
  const measure = f.history?.measure ?? 'whether';
  const window = f.period?.window ?? (measure === 'when' ? 'latest' : 'today');
  const b = f.bstates.find((x) => entities.every((e) => e.domain === 'binary_sensor' && e.cls === x.cls));
  // A door that is a lock was opened when it was unlocked.
  const asLock = (w: string) => (entities.every((e) => e.domain === 'lock') ? ({ open: 'unlocked', closed: 'locked' }[w] ?? w) : w);
  const said = [...f.states, ...f.done.map((a) => DONE[a]).filter((x): x is string => Boolean(x))].map(asLock);
  const fitting = said.find((w) => entities.every((e) => stateApplies(w, e)));
  // A state said that fits none of them ("when was the lamp locked") is not read as another.
  if (!b && !fitting && said.length && f.states.length) return undefined;
  const first = entities[0]!;
  const active = ACTIVE[first.domain] ?? 'on';
  const state = b ? (b.on ? 'on' : 'off') : (fitting ?? (entities.every((e) => stateApplies(active, e) || e.domain === first.domain) ? active : 'on'));
  return {
    kind: 'query',
    question: f.question!,
    entities: ids,
    matching: [],
    answer: '',
    history: { window, measure, state, ...(b ? { bstate: b.on } : {}) },
  };
}

/**
 * "set it to seventy too": a tens word then a word that sounds like a digit, at the end or before a
 * unit, is 72 or 70 misheard; which is asked, never guessed.
 */
function doubtfulNumber(tokens: readonly string[], lang: LanguageData): { word: string; guess: string } | undefined {
  const after = new Set([...Object.values(lang.units).flat(), ...lang.filler, ...lang.tag_requests, '%', '°', ',', '.', '!', '?']);
  for (let i = 0; i + 1 < tokens.length; i++) {
    const tens = lang.numbers[tokens[i]!] ?? (/^[2-9]0$/.test(tokens[i]!) ? Number(tokens[i]) : undefined);
    const digit = lang.number_homophones[tokens[i + 1]!];
    if (tens === undefined || digit === undefined || tens < 20 || tens > 90 || tens % 10 !== 0) continue;
    const next = tokens[i + 2];
    if (next === undefined || after.has(next))
      return { word: `${tokens[i]} ${tokens[i + 1]}`, guess: say(lang, 'list_or', { rest: String(tens + digit), last: String(tens) }) };
  }
  return undefined;
}

/** The things a planned part would act on or ask between. */
function thingsOf(o: Outcome): string[] | undefined {
  if (o.kind === 'act') return o.steps.flatMap((s) => s.entity_ids);
  if (o.kind === 'ambiguous') return o.candidates;
  return undefined;
}

/**
 * "don't close the left curtain, close the right one", "nicht den Vorhang, sondern das Rollo runter":
 * a part that only says what not to touch, before a part that acts on other things, is left out;
 * the other part acts. Where the two may share a thing, or either is unclear, the negation refuses all.
 */
function dropContrasted(frames: Frame[], area: string | undefined, deps: PlanDeps): void {
  for (let i = frames.length - 2; i >= 0; i--) {
    const f = frames[i]!;
    const next = frames[i + 1]!;
    if (f.question || next.question || f.blockers.length !== 1 || f.blockers[0]!.kind !== 'negation' || next.blockers.length) continue;
    if (!f.mentions.length || !next.mentions.length || (!next.actions.length && !next.particles.length) || next.all || next.everything) continue;
    const acts = planClause(next, area, deps);
    const spared = planClause(
      { ...f, blockers: [], actions: f.actions.length ? f.actions : next.actions, particles: f.particles.length ? f.particles : next.particles },
      area,
      deps,
    );
    const a = thingsOf(acts);
    const b = thingsOf(spared);
    if (acts.kind !== 'act' || !a || !b || a.some((id) => b.includes(id))) continue;
    frames.splice(i, 1);
  }
}
