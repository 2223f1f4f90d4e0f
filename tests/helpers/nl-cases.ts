// The natural-language cases (tests/fixtures/nl): reading them, the rule that keeps a fifth of each
// set held out, and how a reply is judged, as tests/fixtures/nl/README.md says.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ExpectedAction {
  entity_id: string;
  /** The hub's service; `a|b` accepts either. */
  action: string;
  /** Each given parameter must be present with this value; a pair of numbers [lo, hi] is a range. */
  parameters?: Record<string, unknown>;
}

/** A case of the intents corpus. */
export interface CorpusCase {
  command: string;
  context?: { area: string };
  intent: string;
  actions?: ExpectedAction[];
  query?: { entities: string[] };
  /** The refusal's reason, where this project refuses what the corpus only parses (1 °F on a thermostat that takes 45-95 °F). */
  refused?: string;
}

/** A case of the paraphrase set: what a person would want, or that nothing be done. */
export interface Paraphrase {
  command: string;
  context?: { area: string };
  category: string;
  expect: 'act' | 'query' | 'refuse' | 'ask';
  actions?: ExpectedAction[];
  query?: { entities: string[] };
  candidates?: string[];
}

export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/nl/${name}`, import.meta.url));

export function readCases<T>(name: string): T[] {
  return readFileSync(fixture(name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}

/** A case is held out when the first four bytes of the SHA-256 of its sentence, as a number, divide by 5. */
export const isHeldOut = (command: string) => createHash('sha256').update(command).digest().readUInt32BE(0) % 5 === 0;

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

function valueMatches(want: unknown, got: unknown): boolean {
  if (Array.isArray(want) && want.length === 2 && want.every((x) => typeof x === 'number')) {
    return typeof got === 'number' && got >= (want[0] as number) && got <= (want[1] as number);
  }
  return got === want;
}

interface GotAction {
  entity_id: string;
  action: string;
  parameters: Record<string, unknown>;
}

/** The planned actions equal the expected set (order free), each expected parameter present with its value. */
export function actionsMatch(want: ExpectedAction[], got: GotAction[]): boolean {
  if (got.length !== want.length) return false;
  const left = [...got];
  for (const w of want) {
    const i = left.findIndex(
      (g) =>
        g.entity_id === w.entity_id &&
        w.action.split('|').includes(g.action) &&
        Object.entries(w.parameters ?? {}).every(([k, v]) => valueMatches(v, g.parameters?.[k])),
    );
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** A corpus case passes when the reply is 200 and its set matches exactly (the fixture README's rule). */
export function corpusPasses(c: CorpusCase, status: number, body: Record<string, any>): boolean {
  if (c.refused) return status === 422 && body.details?.reason === c.refused && (body.actions ?? []).length === 0;
  if (status !== 200) return false;
  if (c.query) return Array.isArray(body.query?.entities) && sameSet(body.query.entities, c.query.entities) && (body.actions ?? []).length === 0;
  const got = (body.actions ?? []) as GotAction[];
  if (
    !sameSet(
      got.map((a) => `${a.entity_id} ${a.action}`),
      c.actions!.map((a) => `${a.entity_id} ${a.action}`),
    )
  )
    return false;
  return actionsMatch(c.actions!, got);
}

export type Verdict = 'correct' | 'refused' | 'wrong';

/**
 * correct: what the case expects. refused: nothing done where something was wanted (a safe miss).
 * wrong: an action that was not wanted, or an answer about other things than asked.
 */
export function judge(p: Paraphrase, status: number, body: Record<string, any>): Verdict {
  const acted = status === 200 && (body.actions ?? []).length > 0;
  const answered = status === 200 && body.query !== undefined;
  const refused = !acted && !answered;
  switch (p.expect) {
    case 'act':
      if (refused) return 'refused';
      return acted && !answered && actionsMatch(p.actions!, body.actions) ? 'correct' : 'wrong';
    case 'query':
      if (refused) return 'refused';
      return !acted && sameSet(body.query.entities, p.query!.entities) ? 'correct' : 'wrong';
    case 'refuse':
      return refused ? 'correct' : 'wrong';
    case 'ask':
      if (!refused) return 'wrong';
      return status === 409 &&
        body.code === 'AMBIGUOUS' &&
        sameSet(
          (body.details?.candidates ?? []).map((c: { entity_id: string }) => c.entity_id),
          p.candidates!,
        )
        ? 'correct'
        : 'refused';
  }
}
