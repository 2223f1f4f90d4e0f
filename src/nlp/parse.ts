// From the matched phrases of a sentence to what was said: whether it asks or commands, which
// verbs, which things (names, kinds of things, device classes), where (areas, floors, here,
// everywhere), which states and which values. No home-specific choice is made here.
import type { Lexeme, Meaning } from './lexicon.js';

export type QuestionKind = 'count' | 'list' | 'where' | 'who' | 'value' | 'yesno';

export type TargetMeaning = Extract<Meaning, { k: 'entity' | 'domain' | 'bnoun' | 'snoun' | 'generic' | 'scene' | 'group' }>;

export interface Mention {
  text: string;
  index: number;
  meanings: TargetMeaning[];
}

export interface NumberValue {
  value: number;
  text: string;
  unit?: 'percent' | 'degrees' | 'kelvin';
  by: boolean;
  to: boolean;
}

export interface Frame {
  question?: QuestionKind;
  actions: string[];
  particles: ('on' | 'off' | 'up' | 'down')[];
  mentions: Mention[];
  areas: { id: string; name: string }[];
  floors: { id: string; name: string }[];
  here: boolean;
  everywhere: boolean;
  all: boolean;
  any: boolean;
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
  code?: string;
  unknown: string[];
}

const TARGET = new Set(['entity', 'domain', 'bnoun', 'snoun', 'generic', 'scene', 'group']);
const PLACE = new Set(['entity', 'area', 'floor', 'domain', 'scene', 'group']);
const has = (l: Lexeme | undefined, k: Meaning['k']) => Boolean(l?.meanings.some((m) => m.k === k));
const only = (l: Lexeme, ...ks: Meaning['k'][]) => l.meanings.length > 0 && l.meanings.every((m) => ks.includes(m.k));

/** Splits a sentence where a new command starts after "and" / "then" (not inside "the kitchen and living room lights"). */
export function clauses(lexemes: Lexeme[]): Lexeme[][] {
  const out: Lexeme[][] = [];
  let cur: Lexeme[] = [];
  for (let i = 0; i < lexemes.length; i++) {
    const l = lexemes[i]!;
    if (has(l, 'connector') && cur.length) {
      const rest = lexemes.slice(i + 1);
      const startsCommand = rest.slice(0, 2).some((x) => has(x, 'action') && !has(x, 'filler'));
      const before = cur.some((x) => has(x, 'action') || has(x, 'particle'));
      if (startsCommand && before) {
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

export function questionOf(lexemes: Lexeme[]): QuestionKind | undefined {
  const first = lexemes[0];
  if (!first) return undefined;
  const q = first.meanings.find((m): m is Extract<Meaning, { k: 'question' }> => m.k === 'question');
  if (!q) return undefined;
  // "what lights are on" lists; "what is the temperature" asks a value.
  return q.q;
}

export function frameOf(lexemes: Lexeme[], determiners: readonly string[] = []): Frame {
  const question = questionOf(lexemes);
  const f: Frame = { question, actions: [], particles: [], mentions: [], areas: [], floors: [], here: false, everywhere: false, all: false, any: false, states: [], bstates: [], numbers: [], props: [], unknown: [] };
  const asking = question !== undefined;
  const stateWords = lexemes.filter((l, i) => i > 0 && (has(l, 'state') || has(l, 'bstate') || (asking && has(l, 'particle')))).length;
  let pendingBy = false;
  let pendingTo = false;
  let pendingCode = false;
  for (let i = asking ? 1 : 0; i < lexemes.length; i++) {
    const l = lexemes[i]!;
    const ms = l.meanings;
    if (!ms.length) {
      f.unknown.push(l.text);
      continue;
    }
    const num = ms.find((m): m is Extract<Meaning, { k: 'number' }> => m.k === 'number');
    if (num) {
      if (pendingCode || (f.props.includes('code') && !f.numbers.length)) {
        f.code = l.text;
        pendingCode = false;
        continue;
      }
      const next = lexemes[i + 1];
      const unit = next?.meanings.find((m): m is Extract<Meaning, { k: 'unit' }> => m.k === 'unit');
      f.numbers.push({ value: num.value, text: l.text, unit: unit?.unit, by: pendingBy, to: pendingTo });
      if (unit) i++;
      pendingBy = pendingTo = false;
      continue;
    }
    const area = ms.find((m): m is Extract<Meaning, { k: 'area' }> => m.k === 'area');
    const floor = ms.find((m): m is Extract<Meaning, { k: 'floor' }> => m.k === 'floor');
    const targets = ms.filter((m): m is TargetMeaning => TARGET.has(m.k));
    if (area || floor) {
      if (area) f.areas.push({ id: area.id, name: area.name });
      if (floor) f.floors.push({ id: floor.id, name: floor.name });
      continue;
    }
    // The question's own words ("are", "is there") after its start are only filler.
    if (asking && only(l, 'question', 'filler', 'any', 'all')) {
      if (has(l, 'any')) f.any = true;
      if (has(l, 'all') && !has(l, 'question')) f.all = true;
      continue;
    }
    if (asking) {
      // While asking, "on", "open", "home" and "here" are states unless nothing else is.
      const stateMeanings = ms.filter((m) => m.k === 'state' || m.k === 'bstate' || m.k === 'particle');
      if (stateMeanings.length && !(has(l, 'here') && stateWords > 1) && (!targets.some((t) => t.k === 'entity') || f.mentions.length > 0)) {
        for (const m of stateMeanings) {
          if (m.k === 'state') f.states.push(m.state);
          else if (m.k === 'bstate') f.bstates.push({ cls: m.cls, on: m.on });
          else if (m.k === 'particle' && (m.p === 'on' || m.p === 'off')) f.states.push(m.p);
        }
        if (targets.length) f.mentions.push({ text: l.text, index: i, meanings: targets.filter((t) => t.k !== 'generic') });
        continue;
      }
    }
    // A word that is both a verb and a thing ("vacuum", "toggle") is the verb when it opens the command.
    const verbFirst = !asking && has(l, 'action') && !f.actions.length && !f.mentions.length && !determiners.includes(lexemes[i - 1]?.text ?? '');
    if (targets.length && !verbFirst) {
      f.mentions.push({ text: l.text, index: i, meanings: targets });
      for (const m of ms) {
        if (m.k === 'prop') f.props.push(m.prop);
      }
      continue;
    }
    for (const m of ms) {
      switch (m.k) {
        case 'action':
          if (!asking) f.actions.push(m.action);
          break;
        case 'particle':
          if (asking) {
            if (m.p === 'on' || m.p === 'off') f.states.push(m.p);
          } else if (!(m.p === 'on' && isPreposition(lexemes, i, determiners))) f.particles.push(m.p);
          break;
        case 'rel':
          f.rel ??= m.dir;
          break;
        case 'comparative':
          f.comparative = m.what;
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
          f.fraction = m.value;
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
          f.here = true;
          break;
        case 'everywhere':
          if (!ms.some((x) => x.k === 'state' && asking)) f.everywhere = true;
          break;
        case 'all':
          f.all = true;
          break;
        case 'any':
          f.any = true;
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
  return f;
}

/** "on" before a place ("on the first floor", "on the TV") is where, not what. */
function isPreposition(lexemes: Lexeme[], i: number, determiners: readonly string[]): boolean {
  const prev = lexemes[i - 1];
  if (prev && prev.meanings.some((m) => m.k === 'action' && (m.action === 'set' || m.action === 'turn_on'))) return false;
  let j = i + 1;
  while (lexemes[j] && determiners.includes(lexemes[j]!.text)) j++;
  return Boolean(lexemes[j]?.meanings.some((m) => PLACE.has(m.k)));
}
