// The request state of MCP's multi round-trip requests: what a call has learned so far (the keys it
// asked, the answers it had), sealed with an HMAC under a key that lives only in this process,
// bound to the caller, the request (method, tool or prompt name or URI, and its arguments) and a
// deadline, and good for one use. The client only echoes it; a state that was changed, belongs to
// another call or caller, is late, or comes a second time is refused (-32602).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** What a round carries to the next. */
export interface Carried {
  asked: string[];
  answers: Record<string, unknown>;
}

/** The request a state belongs to. */
export interface Binding {
  caller: string;
  method: string;
  /** The tool or prompt name, or the resource URI. */
  name: string;
  args: unknown;
}

interface Sealed extends Carried {
  c: string;
  m: string;
  n: string;
  h: string;
  /** One use: the id is remembered until the deadline. */
  id: string;
  exp: number;
}

/** A person answers at their own pace, but not tomorrow. */
const TTL_MS = 10 * 60_000;

const stable = (x: unknown): string =>
  Array.isArray(x)
    ? `[${x.map(stable).join(',')}]`
    : x && typeof x === 'object'
      ? `{${Object.keys(x)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${stable((x as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(x ?? null);

const digest = (args: unknown) => createHash('sha256').update(stable(args)).digest('base64url');

const refuse = (why: string) =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid or expired requestState: ${why}; call again without it`, { reason: 'invalid_request_state' });

export class RequestStateSeal {
  private readonly key = randomBytes(32);
  private readonly used = new Map<string, number>();

  constructor(private readonly ttlMs = TTL_MS) {}

  mint(carried: Carried, b: Binding, now = Date.now()): string {
    const body: Sealed = {
      ...carried,
      c: b.caller,
      m: b.method,
      n: b.name,
      h: digest(b.args),
      id: randomBytes(12).toString('base64url'),
      exp: now + this.ttlMs,
    };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The carried part of a state, once: throws for anything changed, foreign, late or seen before. */
  open(state: string, b: Binding, now = Date.now()): Carried {
    const [payload, mac, extra] = state.split('.');
    if (!payload || !mac || extra !== undefined) throw refuse('it is not one this bridge made');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse('it was changed');
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Sealed;
    if (body.exp <= now) throw refuse('it is too old');
    if (body.c !== b.caller || body.m !== b.method || body.n !== b.name || body.h !== digest(b.args)) throw refuse('it belongs to another request');
    this.forgetOld(now);
    if (this.used.has(body.id)) throw refuse('it was used already');
    this.used.set(body.id, body.exp);
    return { asked: Array.isArray(body.asked) ? body.asked : [], answers: body.answers && typeof body.answers === 'object' ? body.answers : {} };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  private forgetOld(now: number): void {
    for (const [id, exp] of this.used) if (exp <= now) this.used.delete(id);
  }
}
