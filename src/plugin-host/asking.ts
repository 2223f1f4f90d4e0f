// Questions a tool asks its caller (src/plugin-sdk/types.ts, ClientChannel), transport apart. A
// question the client has not answered leaves the tool as InputNeeded; the transport turns that
// into MCP's input-required result and, when the client comes back with the answers, runs the tool
// again with them: the same question then returns its answer at once. An answer counts only for a
// question asked in the round before (the transport proves that with sealed request state) and
// only when it has the shape of an answer to that question; anything else is asked again.
import { AppError } from '../errors.js';
import type { AskKind, Choice, ClientChannel, ClientLogLevel, InputRequest } from '../plugin-sdk/types.js';

/** A tool asked what the client has not answered yet. Not an AppError: nothing may make it an error result. */
export class InputNeeded extends Error {
  constructor(
    /** The questions still open, by key. */
    readonly questions: Record<string, InputRequest>,
    /** Every answer this call has had so far, to carry into the next round. */
    readonly answers: Record<string, unknown>,
  ) {
    super('the tool asked its caller something');
    this.name = 'InputNeeded';
  }
}

/** What one round of a call knows: earlier answers, the keys asked last, and this round's answers. */
export interface Round {
  answers: Record<string, unknown>;
  asked: readonly string[];
  /** As the client sent them: untrusted. */
  responses: Record<string, unknown>;
}

export const FIRST_ROUND: Round = { answers: {}, asked: [], responses: {} };

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Whether an answer has the shape of a result of this question. */
function answers(q: InputRequest, a: unknown): boolean {
  if (!isObject(a)) return false;
  if (q.method === 'elicitation/create')
    return ['accept', 'decline', 'cancel'].includes(a.action as string) && (a.content === undefined || isObject(a.content));
  if (q.method === 'sampling/createMessage') return typeof a.role === 'string' && isObject(a.content);
  return Array.isArray(a.roots) && a.roots.every((r) => isObject(r) && typeof r.uri === 'string');
}

export const unsupported = (what: string) =>
  new AppError('UNSUPPORTED_BY_CLIENT', 400, `This caller cannot ${what}; call the tool from an MCP client that supports it`, { needs: what });

export interface ChannelParts {
  can(kind: AskKind): boolean;
  progress(progress: number, total?: number, message?: string): Promise<void>;
  log(level: ClientLogLevel, data: unknown): Promise<void>;
  round: Round;
  /** See ClientChannel.background; a no-op where the call cannot become a task. */
  background?: () => boolean;
  signal?: AbortSignal;
}

const NEVER = new AbortController().signal;

const CONFIRM_SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Yes, do it', default: false } }, required: ['confirm'] };

/** A client channel for one round of one call. */
export function askingChannel(parts: ChannelParts): ClientChannel {
  const { round } = parts;
  const known: Record<string, unknown> = { ...round.answers };
  const asked = new Set(round.asked);
  const uses = new Map<string, number>();
  // The same question asked twice in one call gets its own key each time, the same on every run.
  const keyOf = (base: string) => {
    const n = (uses.get(base) ?? 0) + 1;
    uses.set(base, n);
    return n === 1 ? base : `${base}_${n}`;
  };

  const ask = async (questions: Record<string, InputRequest>): Promise<Record<string, unknown>> => {
    const open: Record<string, InputRequest> = {};
    const out: Record<string, unknown> = {};
    // A question the client did not say it can answer still goes out: MCP's gate refuses it
    // (-32021, naming the capability), rather than the tool guessing an answer.
    for (const [key, q] of Object.entries(questions)) {
      if (key in known) out[key] = known[key];
      else if (asked.has(key) && answers(q, round.responses[key])) out[key] = known[key] = round.responses[key];
      else open[key] = q;
    }
    if (Object.keys(open).length) throw new InputNeeded(open, { ...known });
    return out;
  };

  const one = async (base: string, q: InputRequest, key?: string) => {
    const k = key ?? keyOf(base);
    return (await ask({ [k]: q }))[k];
  };

  return {
    progress: parts.progress,
    log: parts.log,
    can: parts.can,
    background: parts.background ?? (() => false),
    signal: parts.signal ?? NEVER,
    ask,
    elicit: async (params, key) => (await one('elicit', { method: 'elicitation/create', params }, key)) as never,
    sample: async (params, key) => (await one('sample', { method: 'sampling/createMessage', params }, key)) as Record<string, unknown>,
    roots: async (key) => (await one('roots', { method: 'roots/list', params: {} }, key)) as never,
    confirm: async (question) => {
      const r = (await one('confirm', { method: 'elicitation/create', params: { message: question, requestedSchema: CONFIRM_SCHEMA } })) as {
        action: string;
        content?: Record<string, unknown>;
      };
      return r.action === 'accept' && r.content?.confirm === true;
    },
    choose: async (question, options: readonly Choice[]) => {
      const schema = {
        type: 'object',
        properties: { choice: { type: 'string', title: 'Which one', oneOf: options.map((o) => ({ const: o.value, title: o.label })) } },
        required: ['choice'],
      };
      const r = (await one('choose', { method: 'elicitation/create', params: { message: question, requestedSchema: schema } })) as {
        action: string;
        content?: Record<string, unknown>;
      };
      const choice = r.content?.choice;
      return r.action === 'accept' && options.some((o) => o.value === choice) ? (choice as string) : undefined;
    },
  };
}
