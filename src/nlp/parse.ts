// From the matched phrases of a sentence to what was said: whether it asks or commands, which
// verbs, which things (names, kinds of things, device classes; parts of a list apart), where (areas,
// floors, here, everywhere, outdoors), what is left out ("except"), which states and values, and
// every word that forbids acting now (a negation, a time, a condition). No home-specific choice is
// made here.
import type { Amount, HistoryMeasure, HistoryWindow, QuestionKind } from './language.js';
import type { Lexeme, Meaning } from './lexicon.js';

export type { QuestionKind };

export type TargetMeaning = Extract<Meaning, { k: 'entity' | 'domain' | 'bnoun' | 'snoun' | 'generic' | 'scene' | 'group' }>;

export interface Mention {
  text: string;
  index: number;
  meanings: TargetMeaning[];
  /** Which part of a list ("the tv and the lights": 0 and 1); words side by side are one part. */
  group: number;
}

export interface Place {
  id: string;
  name: string;
  group: number;
}

export interface NumberValue {
  value: number;
  text: string;
  unit?: 'percent' | 'degrees' | 'kelvin' | 'celsius' | 'fahrenheit';
  by: boolean;
  to: boolean;
  /** Said as a value (with a unit, after to/by or a property, or with a verb that sets); otherwise it is not known what it counts. */
  anchored: boolean;
}

export type BlockerKind = 'negation' | 'time' | 'condition' | 'asked' | 'history';

export interface Frame {
  question?: QuestionKind;
  actions: string[];
  particles: ('on' | 'off' | 'up' | 'down')[];
  mentions: Mention[];
  areas: Place[];
  floors: Place[];
  here: boolean;
  everywhere: boolean;
  outdoors: boolean;
  all: boolean;
  any: boolean;
  everything: boolean;
  states: string[];
  bstates: { cls: string; on: boolean }[];
  numbers: NumberValue[];
  props: string[];
  color?: string;
  kelvin?: number;
  fraction?: number;
  fanSpeed?: number;
  alarmMode?: string;
  comparative?: string;
  rel?: 'up' | 'down';
  amount?: Amount;
  code?: string;
  unknown: string[];
  /** Words that forbid acting now, by kind. */
  blockers: { kind: BlockerKind; words: string[] }[];
  /** What "except" / "but not" leaves out. */
  exclude?: { words: string[]; mentions: Mention[]; areas: Place[]; floors: Place[]; positions: { forms: string[]; group: number }[]; here?: boolean };
  /** Words that count things ("two of the lights", "half the lights"): the parser never picks some of several. */
  counts: string[];
  /** The clause's own text. */
  text: string;
  /** Positions said of the things (left, front): only things whose names carry one are meant. */
  positions: { forms: string[]; group: number }[];
  /** A word standing for things said before: the same things (it, them) or things of the same kind (the one, the ones). */
  pronoun?: 'same' | 'kind' | 'kinds' | 'other';
  /** The words that said it ("them", "the kitchen ones", "sie"). */
  pronounWords?: string[];
  /** Parts of a list that are "the one(s)" of a kind said in another part, with whether one is meant. */
  kindParts: { group: number; one: boolean }[];
  /** A period a question asks about (today, this month): its words and the words a name carries for it. */
  period?: { words: string[]; names: string[]; window?: HistoryWindow };
  /** A question about the past ("when did", "how long", "wie oft"): what it measures, answered from the recorder. */
  history?: { words: string[]; measure: HistoryMeasure };
  /** Verbs said in a question ("when was the door unlocked"): what happened, asked about, never done. */
  done: string[];
  /** Said as what the speaker did ("I left the lamp on"): it answers alone, and is only what a later part's "it" stands for otherwise. */
  statement?: boolean;
  /** Unknown words where a place is said ("in the sauna"): a place the home does not have. */
  places: string[];
  /** Unknown words after an article ("the attic", "die Sauna"): a thing or place, unless a name carries them. */
  nouns: string[];
}

/** A frame with nothing read into it yet. */
export function emptyFrame(): Frame {
  return {
    actions: [],
    particles: [],
    mentions: [],
    areas: [],
    floors: [],
    here: false,
    everywhere: false,
    outdoors: false,
    all: false,
    any: false,
    everything: false,
    states: [],
    bstates: [],
    numbers: [],
    props: [],
    unknown: [],
    blockers: [],
    counts: [],
    text: '',
    positions: [],
    kindParts: [],
    places: [],
    nouns: [],
    done: [],
  };
}

const TARGET = new Set(['entity', 'domain', 'bnoun', 'snoun', 'generic', 'scene', 'group']);
const NAMES = new Set(['entity', 'area', 'floor', 'scene', 'group']);
const PLACE = new Set(['entity', 'area', 'floor', 'domain', 'scene', 'group']);
const SETTING = new Set(['set', 'increase', 'decrease', 'dim', 'brighten']);
const has = (l: Lexeme | undefined, k: Meaning['k']) => Boolean(l?.meanings.some((m) => m.k === k));
const thingAt = (l: Lexeme | undefined) => Boolean(l?.meanings.some((m) => TARGET.has(m.k)));
const only = (l: Lexeme, ...ks: Meaning['k'][]) => l.meanings.length > 0 && l.meanings.every((m) => ks.includes(m.k));
const BLOCKERS = ['negation', 'time', 'condition'] as const;

/**
 * A word that forbids acting, unless it is also a name in this home (a scene called "Morning"); a
 * time word that means something else too ("min": minimum or minutes) is a time after a number.
 */
function blockerOf(l: Lexeme, prev: Lexeme | undefined): BlockerKind | undefined {
  if (l.meanings.some((m) => NAMES.has(m.k))) return undefined;
  const kind = BLOCKERS.find((k) => has(l, k));
  if (kind === 'time' && l.meanings.some((m) => m.k !== 'time' && m.k !== 'filler' && m.k !== 'period') && !has(prev, 'number')) return undefined;
  return kind;
}

/** Whether the words name an act: a verb (not filler) or an on/off/up/down. */
const actWord = (l: Lexeme, determiners: readonly string[], prev?: Lexeme, next?: Lexeme[]) =>
  (has(l, 'action') && !has(l, 'filler')) || (has(l, 'particle') && !(next && notAParticle(l, prev, next, determiners)));

/**
 * Whether a particle word is not a particle here: before a place it is a preposition ("on the
 * first floor", "auf der Terrasse"), before a value it says "to" ("auf 50 %"), and a determiner
 * before a thing is an article ("ein Fenster").
 */
function notAParticle(l: Lexeme, prev: Lexeme | undefined, next: Lexeme[], determiners: readonly string[]): boolean {
  if (!has(l, 'particle')) return false;
  const value = (x: Lexeme | undefined) => ['number', 'fraction', 'color', 'white', 'fan_speed'].some((k) => has(x, k as Meaning['k']));
  if (value(next[0]) || (has(next[0], 'filler') && value(next[1]))) return has(l, 'to');
  if (determiners.includes(l.text) && next[0]?.meanings.some((m) => TARGET.has(m.k))) return true;
  if (
    prev?.meanings.some((m) => m.k === 'action' && (m.action === 'set' || m.action === 'turn_on')) &&
    l.meanings.some((m) => m.k === 'particle' && m.p === 'on')
  )
    return false;
  let j = 0;
  while (next[j] && determiners.includes(next[j]!.text)) j++;
  return Boolean(next[j]?.meanings.some((m) => PLACE.has(m.k)));
}

/** A verb proper (not a word that is also filler or a thing: "close", not "set" alone). */
const actVerb = (l: Lexeme | undefined) => Boolean(l && has(l, 'action') && !has(l, 'filler') && !thingAt(l));

/** Whether a part of a sentence says what to do by itself (a verb with its particle or value, not a bare "turn"). */
function complete(part: Lexeme[], determiners: readonly string[]): boolean {
  // "Schlafzimmerlampe heller": a comparative says what to do without a verb.
  if (part.some((l) => has(l, 'comparative'))) return true;
  const verbs = part.filter((l, i) => actWord(l, determiners, part[i - 1], part.slice(i + 1)));
  if (!verbs.length) return false;
  const strong = verbs.some((l) => l.meanings.some((m) => (m.k === 'action' && m.action !== 'set') || m.k === 'particle'));
  return strong || part.some((l) => has(l, 'number') || has(l, 'color') || has(l, 'white') || has(l, 'fraction'));
}

/**
 * Splits a sentence where a new command starts after "and", "then" or a comma: a new verb ("... and
 * lock the back door"), a new on/off or value with the first part complete ("turn the kitchen lights
 * off and the bedroom lamp on", "70 in the living room and 65 in the office"), never inside a list
 * of things ("the kitchen and living room lights", "the tv and the lights").
 */
export function clauses(lexemes: Lexeme[], determiners: readonly string[] = []): Lexeme[][] {
  const out: Lexeme[][] = [];
  let cur: Lexeme[] = [];
  for (let i = 0; i < lexemes.length; i++) {
    const l = lexemes[i]!;
    // "leave the left curtain open but close the right one": "but" before a verb joins two commands, it leaves nothing out.
    if (
      has(l, 'except') &&
      only(l, 'except', 'filler') &&
      cur.length &&
      actVerb(lexemes[i + 1]) &&
      cur.some((x, j) => actWord(x, determiners, cur[j - 1], cur.slice(j + 1)))
    ) {
      out.push(cur);
      cur = [];
      continue;
    }
    if ((has(l, 'connector') || has(l, 'list')) && cur.length) {
      const rest = lexemes.slice(i + 1);
      const end = rest.findIndex((x) => has(x, 'connector') || has(x, 'list'));
      const part = end < 0 ? rest : rest.slice(0, end);
      const startsCommand = has(l, 'connector') && rest.slice(0, 2).some((x) => has(x, 'action') && !has(x, 'filler'));

      const before = cur.some((x, j) => actWord(x, determiners, cur[j - 1], cur.slice(j + 1)));
      const ownAct = part.some((x, j) => (actWord(x, determiners, part[j - 1], part.slice(j + 1)) && !has(x, 'action')) || has(x, 'comparative'));
      const ownValue = part.some((x) => has(x, 'number')) && cur.some((x) => has(x, 'number'));
      // "…, das linke bleibt": a part that keeps things as they are is a command of its own.
      const keeps = part.some((x) => x.meanings.some((m) => m.k === 'action' && m.action === 'keep'));
      // "… and the other one": the things of the part before are known only once it is planned.
      const other = part.some((x) => x.meanings.some((m) => m.k === 'pronoun' && m.p === 'other'));
      // "the curtain is open, can you close it": after a comma, a part that opens with its own verb
      // (past "can you", "please") is a command of its own, not a second verb of the first.
      const lead = part.find((x) => !x.meanings.length || !x.meanings.every((m) => m.k === 'filler' || m.k === 'request' || m.k === 'tag_request'));
      const verbFirst = has(l, 'list') && !has(l, 'connector') && actVerb(lead);
      if ((startsCommand && before) || (complete(cur, determiners) && (ownAct || ownValue || keeps || other || verbFirst))) {
        out.push(cur);
        cur = [];
        continue;
      }
    }
    cur.push(l);
  }
  if (cur.length) out.push(cur);
  return out;
}

/** The question a clause asks, by its first word after any hesitation ("um, is the door locked"), and where that word is. */
export function questionOf(lexemes: Lexeme[], hesitations: readonly string[] = [], yesno: readonly string[] = []): { q: QuestionKind; at: number } | undefined {
  let at = lexemes.findIndex((l) => l.text !== ',' && !hesitations.includes(l.text));
  // "auf wie viel Grad steht …", "to what temperature is …": a preposition before the question word still asks.
  if (has(lexemes[at], 'to') && has(lexemes[at + 1], 'question')) at++;
  const q = lexemes[at]?.meanings.find((m): m is Extract<Meaning, { k: 'question' }> => m.k === 'question');
  if (q) return { q: q.q, at };
  // "did he lock the door", "is she home": a tag that opens with a yes/no question word asks where it opens the sentence too.
  const open = lexemes[at];
  if (open && has(open, 'tag_question') && open.text.includes(' ') && yesno.includes(open.text.split(' ')[0]!)) return { q: 'yesno', at };
  return undefined;
}

/** Whether a number or fraction at i counts things ("two of the lights", "half the lights"). */
function countsThings(lexemes: Lexeme[], i: number, determiners: readonly string[]): boolean {
  let j = i + 1;
  while (
    lexemes[j] &&
    (has(lexemes[j], 'of') || determiners.includes(lexemes[j]!.text) || has(lexemes[j], 'area') || has(lexemes[j], 'floor') || has(lexemes[j], 'all'))
  )
    j++;
  const next = lexemes[j];
  return Boolean(next?.meanings.some((m) => (m.k === 'domain' || m.k === 'generic' || m.k === 'bnoun') && m.plural));
}

export interface Grammar {
  determiners?: readonly string[];
  /** Words before a place (in, im): an unknown word after one is taken for a place. */
  placeWords?: readonly string[];
  hesitations?: readonly string[];
  /** Separable verbs: form said, then particle, to the act. */
  separable?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Words that make a bare number after them a delay (in, for). */
  delays?: readonly string[];
  /** Words that make a bare number after them a time of day (at, um). */
  clock?: readonly string[];
  /** "is", "ist": between a thing and its state, the clause says how things are. */
  copulas?: readonly string[];
  /** "only", "nur", "aber": with a negation after a command, they open what is left out. */
  exceptWithNot?: readonly string[];
  /** The words that open a yes/no question ("is", "did"). */
  yesno?: readonly string[];
}

/**
 * "switch off the lights, not the lamp", "alles zu, nur den rechten Vorhang nicht", "…, nur nicht den
 * im Flur": after a command with its verb and its things, a negation beside nothing but things,
 * places and positions (after a comma, "only", "but") leaves those out; it does not forbid the act.
 * Where the words left out start (`at`: read as "except") and the word to pass over (`skip`: the negation, or "only" before it).
 */
export function negatedExceptions(lexemes: Lexeme[], grammar: Grammar = {}): { at: number; skip: number } | undefined {
  const { determiners = [], placeWords = [], exceptWithNot = [] } = grammar;
  const neg = lexemes.findIndex((l) => has(l, 'negation') && only(l, 'negation', 'filler'));
  if (neg < 1 || lexemes.slice(neg + 1).some((l) => has(l, 'negation'))) return undefined;
  const named = (x: Lexeme) =>
    thingAt(x) ||
    has(x, 'area') ||
    has(x, 'floor') ||
    has(x, 'position') ||
    has(x, 'here') ||
    (has(x, 'pronoun') && !only(x, 'pronoun', 'filler')) ||
    x.text === '1';
  const word = (x: Lexeme) => named(x) || determiners.includes(x.text) || placeWords.includes(x.text) || has(x, 'pronoun');
  // What may close the sentence after the things: a comma, a tag, "too", "please".
  const closing = (x: Lexeme) => x.text === ',' || has(x, 'tag_question') || has(x, 'tag_request') || only(x, 'filler');
  const opener = (x: Lexeme | undefined) => Boolean(x && (x.text === ',' || exceptWithNot.includes(x.text)));
  const commandBefore = (end: number) => {
    const part = lexemes.slice(0, end);
    return (
      part.some((x, j) => actWord(x, determiners, part[j - 1], part.slice(j + 1))) &&
      part.some((x) => thingAt(x) || has(x, 'area') || has(x, 'floor') || has(x, 'everything') || has(x, 'here'))
    );
  };
  // "…, not the lamp", "…, nur nicht den im Flur": the negation opens the things.
  let open = neg - 1;
  if (exceptWithNot.includes(lexemes[open]!.text) && lexemes[open - 1]?.text === ',') open--;
  if (opener(lexemes[neg - 1])) {
    let j = neg + 1;
    while (lexemes[j] && word(lexemes[j]!)) j++;
    if (j > neg + 1 && lexemes.slice(neg + 1, j).some(named) && lexemes.slice(j).every(closing) && commandBefore(open))
      return { at: neg, skip: lexemes[neg - 1]!.text === ',' ? -1 : neg - 1 };
  }
  // "…, nur den rechten Vorhang nicht", "…, aber die Rollläden nicht": the negation closes them.
  if (!lexemes.slice(neg + 1).every(closing)) return undefined;
  let j = neg - 1;
  while (j > 0 && word(lexemes[j]!)) j--;
  if (j < neg - 1 && opener(lexemes[j]) && lexemes.slice(j + 1, neg).some(named) && commandBefore(j)) return { at: j, skip: neg };
  return undefined;
}

/**
 * How a clause asks: its question word, or, said as a question (a question mark, a tag such as
 * "right?" or "oder?") with no request in it ("can you", "bitte"), a yes/no question when it names
 * no act, or a question about an act (which never acts) when it does.
 */
function askedOf(
  lexemes: Lexeme[],
  hesitations: readonly string[],
  marked: boolean,
  grammar: Grammar = {},
): { q: QuestionKind; at: number; said?: true } | 'act' | undefined {
  const asked = questionOf(lexemes, hesitations, grammar.yesno);
  if (asked) return asked;
  const content = lexemes.filter((l) => l.text !== ',');
  const last = content[content.length - 1];
  // A tag after a comma or a question mark; at the very end without either when it can be nothing else ("isn't it", "oder").
  const plainTag = Boolean(last && (last.text.includes(' ') || !last.meanings.some((m) => m.k === 'position' || NAMES.has(m.k) || TARGET.has(m.k))));
  const imperative = content.some(
    (l) =>
      has(l, 'action') &&
      !l.meanings.some((m) => m.k === 'filler' || m.k === 'state' || m.k === 'bstate' || m.k === 'particle' || m.k === 'question' || m.k === 'tag_question'),
  );
  // "the tv is off right": after a thing and "is" with no verb, even a word that may be a position is a tag.
  // "you locked the front door right": a thing and a state with no verb are a statement, and a tag asks it.
  const stated =
    !imperative &&
    (content.some((l, i) => i > 0 && l.meanings.some((m) => m.k === 'question' && m.q === 'yesno') && content.slice(0, i).some((x) => thingAt(x))) ||
      (content.some((l) => has(l, 'state') || has(l, 'bstate')) && content.some((x) => thingAt(x))));
  // "the tv is on", "der Fernseher ist an": a thing, "is", then its state, with no verb, says how things are.
  // It is answered as the question it amounts to, never acted on; a later "it" stands for its things.
  // Only things, places and articles before "is": "make sure every light is off" asks to act.
  const { copulas = [], determiners = [], placeWords = [] } = grammar;
  const subject = (x: Lexeme) =>
    thingAt(x) || determiners.includes(x.text) || placeWords.includes(x.text) || has(x, 'area') || has(x, 'floor') || has(x, 'position') || has(x, 'all');
  const copula = content.findIndex(
    (l, i) => i > 0 && copulas.includes(l.text) && content.slice(0, i).some((x) => thingAt(x)) && content.slice(0, i).every(subject),
  );
  if (
    !imperative &&
    copula > 0 &&
    !lexemes.some((l) => has(l, 'request')) &&
    content.slice(copula + 1).some((l) => has(l, 'state') || has(l, 'bstate') || l.meanings.some((m) => m.k === 'particle' && (m.p === 'on' || m.p === 'off')))
  ) {
    const at = lexemes.findIndex((l) => l.text !== ',' && !hesitations.includes(l.text));
    return { q: 'yesno', at: at - 1, said: true };
  }
  const tagged = has(last, 'tag_question') && !has(last, 'tag_request') && (marked || lexemes[lexemes.indexOf(last!) - 1]?.text === ',' || plainTag || stated);
  if (
    !(marked || tagged || lexemes.some((l) => has(l, 'asks') || has(l, 'statement') || (has(l, 'history') && !l.meanings.some((m) => NAMES.has(m.k))))) ||
    lexemes.some((l) => has(l, 'request')) ||
    (has(last, 'tag_request') && !has(last, 'tag_question'))
  )
    return undefined;
  // "when did someone last lock the door": a verb after a question about the past says what happened, not what to do.
  // "you didn't leave the tv on, did you": a verb after what someone did is told, not asked to be done.
  // "has the washer run today?": asked with a period, a verb says what happened.
  const past = (l: Lexeme) =>
    (has(l, 'history') || has(l, 'statement') || l.meanings.some((m) => m.k === 'period' && m.window !== undefined)) && !l.meanings.some((m) => NAMES.has(m.k));
  if (imperative && !lexemes.some(past)) return 'act';
  const at = lexemes.findIndex((l) => l.text !== ',' && !hesitations.includes(l.text));
  return { q: 'yesno', at: at - 1 };
}

export function frameOf(lexemes: Lexeme[], grammar: Grammar = {}, marked = false): Frame {
  const { determiners = [], hesitations = [] } = grammar;
  const how = askedOf(lexemes, hesitations, marked, grammar);
  const asked = typeof how === 'object' ? how : undefined;
  const question = asked?.q;
  const f: Frame = { ...emptyFrame(), question, text: lexemes.map((l) => l.text).join(' ') };
  if (question && (asked?.said || lexemes.some((l) => has(l, 'statement')))) f.statement = true;
  const asking = question !== undefined;
  const first = asked?.at ?? 0;
  const stateWords = lexemes.filter((l, i) => i > first && (has(l, 'state') || has(l, 'bstate') || (asking && has(l, 'particle')))).length;
  const setting = lexemes.some((l) => l.meanings.some((m) => m.k === 'action' && SETTING.has(m.action)));
  let pendingBy = false;
  let pendingTo = false;
  let pendingCode = false;
  let group = 0;
  let groupHasThing = false;
  let excluding = false;
  const notExcept = asking ? undefined : negatedExceptions(lexemes, grammar);
  const block = (kind: BlockerKind, word: string) => {
    const b = f.blockers.find((x) => x.kind === kind);
    if (b) b.words.push(word);
    else f.blockers.push({ kind, words: [word] });
  };
  // "how warm is it": the opening names what is asked of.
  const opening = lexemes[first]?.meanings.filter((m): m is TargetMeaning => asking && m.k === 'snoun');
  if (opening?.length) f.mentions.push({ text: lexemes[first]!.text, index: first, meanings: opening, group });
  // A question that opens with its verb says the state it asks about ("lädt der Akku?", "läuft der Fernseher?").
  if (question === 'yesno') {
    for (const m of lexemes[first]?.meanings ?? []) {
      if (m.k === 'state') f.states.push(m.state);
      else if (m.k === 'bstate') f.bstates.push({ cls: m.cls, on: m.on });
    }
  }
  for (let i = asking ? first + 1 : 0; i < lexemes.length; i++) {
    const l = lexemes[i]!;
    const ms = l.meanings;
    if (i === notExcept?.skip) continue;
    // "ist die Markise draußen", "is the awning out": after a cover, at the end of a question, out is its state (extended);
    // "wie weit ist die Markise draußen" asks how far, never the weather outdoors.
    if (
      asking &&
      has(l, 'outdoors') &&
      !ms.some((m) => NAMES.has(m.k)) &&
      f.mentions.some((m) =>
        m.meanings.some((x) => (x.k === 'domain' && x.domain === 'cover') || (x.k === 'entity' && x.ids.every((id) => id.startsWith('cover.')))),
      ) &&
      lexemes.slice(i + 1).every((x) => x.text === ',' || has(x, 'tag_question') || only(x, 'filler'))
    ) {
      if (question === 'yesno') f.states.push('open');
      continue;
    }
    if (i === notExcept?.at) {
      excluding = true;
      f.exclude ??= { words: [], mentions: [], areas: [], floors: [], positions: [] };
      continue;
    }
    if (!ms.length) {
      f.unknown.push(l.text);
      // "in the sauna", "in the wine cellar": a place word before it, with only articles and unknown words between.
      let j = i - 1;
      while (j >= 0 && (determiners.includes(lexemes[j]!.text) || !lexemes[j]!.meanings.length) && !grammar.placeWords?.includes(lexemes[j]!.text)) j--;
      if (j >= 0 && grammar.placeWords?.includes(lexemes[j]!.text) && !lexemes[i + 1]?.meanings.some((m) => TARGET.has(m.k))) f.places.push(l.text);
      else if (determiners.includes(lexemes[i - 1]?.text ?? '')) f.nouns.push(l.text);
      continue;
    }
    // "how often was the door opened", "wie lange lief die Heizung": what the states cannot tell.
    if (has(l, 'history') && !ms.some((m) => NAMES.has(m.k))) {
      const said = ms.find((m): m is Extract<Meaning, { k: 'history' }> => m.k === 'history')!;
      // A question about the past is answered from the recorder; said in a command it forbids acting.
      if (asking) f.history = { words: [...(f.history?.words ?? []), l.text], measure: f.history?.measure ?? said.measure ?? 'when' };
      else block('history', l.text);
      continue;
    }
    // "should I", "soll ich", "what would happen if": a question about an act never acts.
    if (has(l, 'advice') && !ms.some((m) => NAMES.has(m.k))) {
      block('asked', l.text);
      continue;
    }
    if (
      has(l, 'request') ||
      ((has(l, 'tag_question') || has(l, 'tag_request')) &&
        i === lexemes.length - 1 &&
        only(l, 'tag_question', 'tag_request', 'filler', 'particle', 'state', 'position'))
    )
      continue;
    // "how much gas did we use today": a period asked about, not a time to act at.
    const period = ms.find((m): m is Extract<Meaning, { k: 'period' }> => m.k === 'period');
    if (period && asking && !ms.some((m) => NAMES.has(m.k))) {
      f.period = {
        words: [...(f.period?.words ?? []), l.text],
        names: [...(f.period?.names ?? []), ...period.names],
        window: f.period?.window ?? period.window,
      };
      continue;
    }
    // "the left curtain", "Rollo links": a position beside a thing picks among things of that kind.
    const position = ms.find((m): m is Extract<Meaning, { k: 'position' }> => m.k === 'position');
    // "was the back door left unlocked": asked after a whole name and before a state, "left" is the verb leave.
    // "was the kitchen ceiling light left on": a kind word after a name ends it too.
    const prevWhole =
      (has(lexemes[i - 1], 'entity') || (thingAt(lexemes[i - 1]) && f.mentions.some((m) => m.meanings.some((x) => x.k === 'entity')))) &&
      lexemes[i - 1]!.meanings.every((m) => m.k === 'filler' || m.k === 'bstate' || TARGET.has(m.k));
    const stateNext = ['state', 'bstate', 'particle'].some((k) => has(lexemes[i + 1], k as Meaning['k'])) && !thingAt(lexemes[i + 1]);
    if (asking && position && prevWhole && stateNext && only(l, 'position', 'filler')) continue;
    const oneNext = lexemes[i + 1]?.text === '1' || has(lexemes[i + 1], 'pronoun');
    if (position && !ms.some((m) => NAMES.has(m.k)) && (thingAt(lexemes[i + 1]) || thingAt(lexemes[i - 1]) || oneNext || ms.every((m) => m.k === 'position'))) {
      if (excluding) {
        f.exclude!.positions.push({ forms: position.forms, group: 0 });
        f.exclude!.words.push(l.text);
      } else {
        f.positions.push({ forms: position.forms, group });
        groupHasThing = true;
      }
      continue;
    }
    const pronoun = ms.find((m): m is Extract<Meaning, { k: 'pronoun' }> => m.k === 'pronoun');
    if (pronoun && ms.every((m) => m.k === 'pronoun' || m.k === 'filler')) {
      f.pronoun ??= pronoun.p;
      f.pronounWords = [...(f.pronounWords ?? []), l.text];
      if (pronoun.p !== 'same') f.kindParts.push({ group, one: pronoun.p === 'kind' || pronoun.p === 'other' });
      continue;
    }
    // "das im Wohnzimmer", "die in der Küche": an article before a place stands for a thing of the kind said.
    if (determiners.includes(l.text) && !grammar.placeWords?.includes(l.text) && grammar.placeWords?.includes(lexemes[i + 1]?.text ?? '') && !excluding) {
      f.pronoun ??= 'kind';
      f.pronounWords = [...(f.pronounWords ?? []), l.text];
      f.kindParts.push({ group, one: !f.mentions.some((m) => m.meanings.some((x) => (x.k === 'domain' || x.k === 'generic' || x.k === 'bnoun') && x.plural)) });
      continue;
    }
    const blocker = blockerOf(l, lexemes[i - 1]);
    // "is the fan not on", "the tv isn't on, is it": a question never acts, so its "not" forbids nothing;
    // before a verb ("any reason not to open …") it is about an act, and refused as one.
    if (blocker === 'negation' && asking && how !== 'act' && (f.statement || !lexemes.slice(i + 1).some(actVerb))) continue;
    if (blocker) {
      block(blocker, l.text);
      continue;
    }
    // "the light next to the tv": a thing found by another is not understood, never guessed at;
    // nor is a request that does not say what to do ("do the thing with the lights").
    if ((has(l, 'relation') || has(l, 'vague')) && !ms.some((m) => NAMES.has(m.k))) {
      f.unknown.push(l.text);
      continue;
    }
    if (has(l, 'except') && !ms.some((m) => NAMES.has(m.k))) {
      excluding = true;
      f.exclude ??= { words: [], mentions: [], areas: [], floors: [], positions: [] };
      continue;
    }
    if ((has(l, 'list') || has(l, 'connector')) && only(l, 'list', 'connector', 'filler', 'number')) {
      if (groupHasThing) {
        group++;
        groupHasThing = false;
      }
      continue;
    }
    const num = ms.find((m): m is Extract<Meaning, { k: 'number' }> => m.k === 'number');
    // "ein Grad runter", "up a degree": an article before a unit is one of it, never a particle ("ein" = on).
    const unitNext = lexemes[i + 1]?.meanings.find((m): m is Extract<Meaning, { k: 'unit' }> => m.k === 'unit');
    if (!num && unitNext && determiners.includes(l.text) && !has(lexemes[i - 1], 'number') && !excluding) {
      f.numbers.push({ value: 1, text: l.text, unit: unitNext.unit, by: pendingBy, to: pendingTo, anchored: true });
      pendingBy = pendingTo = false;
      i++;
      continue;
    }
    // "the bedroom one": one after a place or a name stands for a thing of the kind said.
    if (
      num &&
      l.text === '1' &&
      (has(lexemes[i - 1], 'area') || has(lexemes[i - 1], 'floor') || has(lexemes[i - 1], 'position')) &&
      !lexemes[i + 1]?.meanings.some((m) => m.k === 'unit' || TARGET.has(m.k))
    ) {
      if (!excluding) {
        f.pronoun ??= 'kind';
        f.pronounWords = [...(f.pronounWords ?? []), l.text];
        f.kindParts.push({ group, one: true });
      }
      continue;
    }
    // "not the ceiling one", "except for the ceiling one": one after a thing's word is that thing.
    if (num && l.text === '1' && excluding && thingAt(lexemes[i - 1]) && !lexemes[i + 1]?.meanings.some((m) => m.k === 'unit' || TARGET.has(m.k))) continue;
    if (num) {
      if (pendingCode || (f.props.includes('code') && !f.numbers.length)) {
        f.code = l.text;
        pendingCode = false;
        continue;
      }
      if (countsThings(lexemes, i, determiners)) {
        f.counts.push(l.text);
        continue;
      }
      const next = lexemes[i + 1];
      const unit = next?.meanings.find((m): m is Extract<Meaning, { k: 'unit' }> => m.k === 'unit');
      // "in ten", "for 20": a delay or a duration with its unit left out; "at 8", "um 8": a time of day.
      if (!unit && [...(grammar.delays ?? []), ...(grammar.clock ?? [])].includes(lexemes[i - 1]?.text ?? '')) {
        block('time', `${lexemes[i - 1]!.text} ${l.text}`);
        continue;
      }
      const prev = lexemes[i - 1];
      const anchored = Boolean(unit) || pendingBy || pendingTo || has(prev, 'prop') || setting;
      f.numbers.push({ value: num.value, text: l.text, unit: unit?.unit, by: pendingBy, to: pendingTo, anchored });
      if (unit) i++;
      pendingBy = pendingTo = false;
      continue;
    }
    const area = ms.find((m): m is Extract<Meaning, { k: 'area' }> => m.k === 'area');
    const floor = ms.find((m): m is Extract<Meaning, { k: 'floor' }> => m.k === 'floor');
    const targets = ms.filter((m): m is TargetMeaning => TARGET.has(m.k));
    if (area || floor) {
      if (has(l, 'outdoors')) f.outdoors = true;
      const into = excluding ? f.exclude! : f;
      if (excluding) f.exclude!.words.push(l.text);
      if (area) into.areas.push({ id: area.id, name: area.name, group });
      if (floor) into.floors.push({ id: floor.id, name: floor.name, group });
      continue;
    }
    // The question's own words ("are", "is there") after its start are only filler.
    if (asking && only(l, 'question', 'filler', 'any', 'all', 'everything')) {
      if (has(l, 'any')) f.any = true;
      if ((has(l, 'all') || has(l, 'everything')) && !has(l, 'question')) f.all = true;
      if (has(l, 'everything')) f.mentions.push({ text: l.text, index: i, meanings: [{ k: 'generic', plural: true }], group });
      continue;
    }
    if (asking) {
      // While asking, "on", "open", "home" and "here" are states unless nothing else is.
      const article = notAParticle(l, lexemes[i - 1], lexemes.slice(i + 1), determiners);
      const stateMeanings = ms.filter((m) => m.k === 'state' || m.k === 'bstate' || (m.k === 'particle' && !article));
      if (
        stateMeanings.length &&
        !(has(l, 'here') && stateWords > 1) &&
        // "who is home": the people are asked of, not a thing named Home (zone.home, weather.home).
        (!targets.some((t) => t.k === 'entity') || f.mentions.length > 0 || question === 'who')
      ) {
        for (const m of stateMeanings) {
          if (m.k === 'state') f.states.push(m.state);
          else if (m.k === 'bstate') f.bstates.push({ cls: m.cls, on: m.on });
          else if (m.k === 'particle' && (m.p === 'on' || m.p === 'off')) f.states.push(m.p);
        }
        // A word that is a state and a kind of thing ("running") after a thing is the state of it.
        if (targets.length && !f.mentions.length && question !== 'who')
          f.mentions.push({ text: l.text, index: i, meanings: targets.filter((t) => t.k !== 'generic'), group });
        continue;
      }
    }
    // A word that is both a verb and a thing ("vacuum", "toggle") is the verb when it opens the command.
    // Before "it" or "them" ("the lights, switch them off") it is the verb wherever it stands.
    const verbFirst =
      !asking &&
      has(l, 'action') &&
      !f.actions.length &&
      !determiners.includes(lexemes[i - 1]?.text ?? '') &&
      (!f.mentions.length || lexemes[i + 1]?.meanings.some((m) => m.k === 'pronoun' && m.p === 'same') === true);
    if (targets.length && !verbFirst) {
      if (excluding) {
        f.exclude!.mentions.push({ text: l.text, index: i, meanings: targets, group });
        f.exclude!.words.push(l.text);
        continue;
      }
      f.mentions.push({ text: l.text, index: i, meanings: targets, group });
      // "when did someone last lock the door": a verb that is also a kind of thing says what happened too.
      if (asking && f.history) for (const m of ms) if (m.k === 'action') f.done.push(m.action);
      groupHasThing = true;
      for (const m of ms) {
        if (m.k === 'prop') f.props.push(m.prop);
      }
      continue;
    }
    for (const m of ms) {
      switch (m.k) {
        case 'action':
          if (!asking) f.actions.push(m.action);
          else f.done.push(m.action);
          break;
        case 'particle':
          if (asking) {
            if ((m.p === 'on' || m.p === 'off') && !notAParticle(l, lexemes[i - 1], lexemes.slice(i + 1), determiners)) f.states.push(m.p);
          } else if (!notAParticle(l, lexemes[i - 1], lexemes.slice(i + 1), determiners)) f.particles.push(m.p);
          break;
        case 'rel':
          f.rel ??= m.dir;
          break;
        case 'comparative':
          // Two changes that pull apart in one part ("heller … dunkler") are not guessed between.
          if (f.comparative && f.comparative !== m.what) f.unknown.push(l.text);
          f.comparative = m.what;
          break;
        case 'amount':
          f.amount = m.amount;
          break;
        case 'by':
          pendingBy = true;
          break;
        case 'to':
          pendingTo = true;
          break;
        case 'prop':
          f.props.push(m.prop);
          if (m.prop === 'code') pendingCode = true;
          break;
        case 'fraction':
          if (countsThings(lexemes, i, determiners)) f.counts.push(l.text);
          // "dim it by half": a share of what it is now, which no service takes; never read as "to half".
          else if (pendingBy) f.unknown.push(l.text);
          else f.fraction = m.value;
          break;
        case 'fan_speed':
          f.fanSpeed = m.value;
          break;
        case 'alarm_mode':
          f.alarmMode = m.service;
          break;
        case 'color':
          f.color = m.name;
          break;
        case 'white':
          f.kelvin = m.kelvin;
          break;
        case 'here':
          // "apart from this room": the speaker's room is left out.
          if (excluding) {
            f.exclude!.here = true;
            f.exclude!.words.push(l.text);
          } else f.here = true;
          break;
        case 'everywhere':
          if (!ms.some((x) => x.k === 'state' && asking)) f.everywhere = true;
          break;
        case 'outdoors':
          f.outdoors = true;
          break;
        case 'all':
          f.all = true;
          break;
        case 'any':
          f.any = true;
          break;
        case 'everything':
          f.everything = true;
          f.all = true;
          break;
        case 'state':
          if (asking) f.states.push(m.state);
          break;
        case 'bstate':
          if (asking) f.bstates.push({ cls: m.cls, on: m.on });
          break;
        default:
          break;
      }
    }
  }
  if (!asking && grammar.separable) separate(f, lexemes, grammar.separable);
  // "lock up" is every lock only when nothing is named: "lock up the door" is that one door.
  if (f.all && !f.everything && lexemes.every((l) => !has(l, 'all') || has(l, 'action')) && singular(f)) f.all = false;
  if (how === 'act') block('asked', f.text);
  return f;
}

/** A thing named in the singular ("the door"), with no place or kind said in the plural. */
function singular(f: Frame): boolean {
  const kinds = f.mentions.flatMap((m) => m.meanings).filter((x) => x.k === 'domain' || x.k === 'bnoun' || x.k === 'generic' || x.k === 'entity');
  return kinds.length > 0 && !kinds.some((x) => 'plural' in x && x.plural);
}

/** A verb said apart from its particle ("schließ die Haustür auf"): the pair's act replaces both. */
function separate(f: Frame, lexemes: Lexeme[], separable: ReadonlyMap<string, ReadonlyMap<string, string>>): void {
  for (let i = 0; i < lexemes.length; i++) {
    const byParticle = separable.get(lexemes[i]!.text);
    if (!byParticle || !has(lexemes[i], 'action')) continue;
    for (let j = lexemes.length - 1; j > i; j--) {
      const action = byParticle.get(lexemes[j]!.text);
      if (!action) continue;
      const own = lexemes[i]!.meanings.filter((m) => m.k === 'action').map((m) => (m as { action: string }).action);
      f.actions = [action, ...f.actions.filter((a) => !own.includes(a))];
      const particle = lexemes[j]!.meanings.find((m) => m.k === 'particle') as { p: Frame['particles'][number] } | undefined;
      if (particle) f.particles.splice(f.particles.lastIndexOf(particle.p), 1);
      return;
    }
  }
}

/** A clause that leaves out its verb, value or kind of thing takes them from the one before ("and 65 in the office"). */
/** Verbs that set a state outright, not by a step up or down. */
const OUTRIGHT = new Set([
  'turn_on',
  'turn_off',
  'toggle',
  'open',
  'close',
  'lock',
  'unlock',
  'stop',
  'pause',
  'resume',
  'mute',
  'unmute',
  'start',
  'arm',
  'disarm',
]);

export function inherit(prev: Frame | undefined, f: Frame): Frame {
  // "I left the lamp on, switch it off": "it" stands for the things of a statement before.
  if (prev?.statement && !f.question && f.pronoun === 'same' && !f.mentions.length && !f.everything)
    return {
      ...f,
      mentions: prev.mentions,
      positions: prev.positions,
      ...(f.areas.length || f.floors.length ? {} : { areas: prev.areas, floors: prev.floors, here: prev.here }),
    };
  if (!prev || f.question || prev.question) return f;
  const out = { ...f };
  if (!f.actions.length && !f.particles.length) {
    out.actions = prev.actions;
    if (!f.numbers.length) out.particles = prev.particles;
    // "and 65 in the office": a value of the same kind as the one before.
    if (prev.numbers.some((n) => n.anchored)) out.numbers = f.numbers.map((n) => ({ ...n, anchored: true }));
  }
  if (!f.props.length) out.props = prev.props;
  // "it", "them": the same things, where they were. Otherwise the kind said before, not the named thing.
  if (!f.mentions.length && !f.everything && f.pronoun === 'same') {
    out.mentions = prev.mentions;
    if (!f.areas.length && !f.floors.length) {
      out.areas = prev.areas;
      out.floors = prev.floors;
      out.here = prev.here;
    }
    out.positions = prev.positions;
  } else if (!f.mentions.length && !f.everything) out.mentions = prev.mentions.filter((m) => m.meanings.some((x) => x.k !== 'entity'));
  // A part whose verb sets a state outright says its own change ("it's too bright, turn off the ceiling light");
  // one that only turns up or down takes the comparison before it ("it's too cold in here, turn up the heat").
  if (!f.comparative && !f.actions.some((a) => OUTRIGHT.has(a)) && !f.numbers.length && !f.particles.length) out.comparative = prev.comparative;
  return out;
}
