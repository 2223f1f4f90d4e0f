// Runs the parity cases (cases.ts) against one hub, real or simulated: the same steps, the same
// expectations. A case's steps share one authenticated WebSocket connection; replies and events
// are compared with vitest's toEqual after placeholders (ref) are filled in from earlier steps.
import { expect } from 'vitest';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { type Expected, type ParityCase, Ref, type Step, TOKEN, type Vars } from './cases.js';

export interface ParityTarget {
  /** http://host:port */
  url: string;
  token: string;
}

type Message = Record<string, any>;

const wsUrlOf = (url: string) => `${url.replace(/^http/, 'ws')}/api/websocket`;

function isMatcher(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { asymmetricMatch?: unknown }).asymmetricMatch === 'function';
}

function dig(value: unknown, path: string): unknown {
  if (!path) return value;
  let cur: any = value;
  for (const key of path.split('.')) cur = cur?.[key];
  return cur;
}

/** Fills in ref() placeholders and expectation functions; matchers pass through untouched. */
export function resolve(expected: Expected, vars: Vars): unknown {
  const value = typeof expected === 'function' ? expected(vars) : expected;
  if (value instanceof Ref) {
    if (!(value.name in vars)) throw new Error(`ref to ${value.name}, which no earlier step saved`);
    return dig(vars[value.name], value.path);
  }
  if (isMatcher(value) || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => resolve(v, vars));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, vars)]));
}

function withToken(value: unknown, token: string): unknown {
  if (value === TOKEN) return token;
  if (Array.isArray(value)) return value.map((v) => withToken(v, token));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withToken(v, token)]));
  return value;
}

async function rest(target: ParityTarget, step: Extract<Step, { rest: unknown }>['rest']) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = step.token === 'invalid' ? 'not-a-valid-token' : step.token === 'none' ? undefined : target.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${target.url}${step.path}`, {
    method: step.method ?? 'GET',
    headers,
    body: step.body === undefined ? undefined : typeof step.body === 'string' ? step.body : JSON.stringify(step.body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the steps of a case (or its cleanup) on one connection. */
async function runSteps(target: ParityTarget, steps: Step[], vars: Vars, label: string, check: boolean): Promise<void> {
  let conn: RawClient | undefined;
  const connection = async () => {
    conn ??= await RawClient.connect(wsUrlOf(target.url), target.token, { timeoutMs: 15_000 });
    return conn;
  };
  /** Per subscription: index of the next message to look at. */
  const cursors = new Map<number, number>();
  const compare = (actual: unknown, expected: Expected, what: string) => {
    if (check) expect(actual, `${label}: ${what}`).toEqual(resolve(expected, vars));
  };
  try {
    for (const [i, step] of steps.entries()) {
      const where = `step ${i + 1}`;
      if ('handshake' in step) {
        const c = await RawClient.open(wsUrlOf(target.url));
        try {
          await c.find((m) => m.type === 'auth_required');
          const { send } = step.handshake;
          if (send !== undefined) c.sendRaw(typeof send === 'string' ? send : JSON.stringify(withToken(send, target.token)));
          const want = Array.isArray(step.replies) ? step.replies.length : 1;
          await c.find(() => c.messages.length >= want, 0, 10_000).catch(() => undefined);
          if (step.closes !== undefined) {
            const code = await Promise.race([c.closed.then((x) => x.code), sleep(10_000).then(() => 'still open')]);
            compare(code, step.closes, `${where} close code`);
          } else {
            await sleep(100);
          }
          compare(c.messages, step.replies, `${where} handshake messages`);
        } finally {
          await c.close();
        }
      } else if ('ws' in step) {
        const c = await connection();
        const from = c.messages.length;
        const id = c.send(resolve(step.ws, vars) as Message);
        const { message } = await c.find((m) => m.id === id && (m.type === 'result' || m.type === 'pong'), from, step.timeoutMs);
        cursors.set(id, from);
        if (step.save) vars[step.save] = message;
        if (step.reply !== undefined) {
          const actual = step.pick ? step.pick(message) : message;
          const expected = step.pick ? step.reply : (v: Vars) => ({ id, ...(resolve(step.reply, v) as object) });
          compare(actual, expected, `${where} reply to ${String(step.ws.type)}`);
        }
      } else if ('event' in step) {
        const c = await connection();
        const sub = vars[step.event]?.id as number | undefined;
        if (sub === undefined) throw new Error(`${label}: ${where} waits on ${step.event}, which no earlier step saved`);
        const from = cursors.get(sub) ?? 0;
        const match = step.where ?? (() => true);
        const { message, index } = await c.find((m) => m.type === 'event' && m.id === sub && match(m.event), from, step.timeoutMs);
        cursors.set(sub, index + 1);
        if (step.save) vars[step.save] = message.event;
        if (step.expect !== undefined) compare(message.event, step.expect, `${where} event of ${step.event}`);
      } else if ('rest' in step) {
        const r = await rest(target, step.rest);
        if (step.save) vars[step.save] = r.json;
        compare(r.status, step.status, `${where} ${step.rest.method ?? 'GET'} ${step.rest.path} status`);
        if (step.text !== undefined) compare(r.text, step.text, `${where} body text`);
        if (step.json !== undefined) compare(r.json, step.json, `${where} body`);
        if (step.contentType !== undefined) compare(r.contentType, step.contentType, `${where} content type`);
      } else if ('state' in step) {
        const deadline = Date.now() + (step.timeoutMs ?? 15_000);
        let last: any;
        for (;;) {
          const r = await rest(target, { path: `/api/states/${step.state}` });
          last = r.json;
          if (r.status === 200 && (!step.until || step.until(last))) break;
          if (Date.now() > deadline) throw new Error(`${label}: ${where}: ${step.state} never got there; last ${JSON.stringify(last)}`);
          await sleep(50);
        }
        if (step.save) vars[step.save] = last;
        if (step.expect !== undefined) compare(last, step.expect, `${where} state of ${step.state}`);
      }
    }
  } finally {
    await conn?.close();
  }
}

/** Runs one case; its cleanup runs afterwards whatever happened, without hiding the case's failure. */
export async function runCase(target: ParityTarget, c: ParityCase): Promise<void> {
  const vars: Vars = {};
  let failure: unknown;
  try {
    await runSteps(target, c.steps, vars, c.name, true);
  } catch (err) {
    failure = err;
  }
  if (c.cleanup) {
    try {
      await runSteps(target, c.cleanup, vars, `${c.name} (cleanup)`, false);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
}
