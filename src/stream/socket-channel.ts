// The general-purpose WebSocket channel (/api/ws and /ws): JSON messages with a `type` and an
// optional `id` that the reply echoes. Each type is one entry of a table, reaching the same
// services as the REST routes; other parts add their own types (natural language adds `command`).
// It speaks to connections, not sockets: the transport (src/http/stream-sinks.ts) adapts uWS.
import { textTooDeep, tooDeep } from '../json-depth.js';
import * as v from 'valibot';
import type { Principal } from '../auth/tokens.js';
import { AppError, toAppError, unauthorized } from '../errors.js';
import type { Logger } from '../log.js';
import { check } from '../validation.js';
import type { WsConnection } from './connection.js';
import type { FanOut, SocketOptions } from './fan-out.js';
import { filterFields } from './filters.js';
import { PERIODS, type Period, type StreamMetrics } from './metrics.js';
import type { Sink } from './sink.js';

export const AUTH_TIMEOUT_MS = 10_000;
/** The largest message a client may send (bytes). */
export const MESSAGE_LIMIT = 64 * 1024;

type MessageId = string | number | null;

export interface SocketRequest<T> {
  connection: WsConnection;
  /** The token's subject (the client). */
  client: string;
  /** Who is calling, as admission saw them. */
  principal: Principal;
  fields: T;
}

export interface SocketMessage<S extends v.GenericSchema = v.GenericSchema> {
  /** The fields besides `type` and `id`, checked before `run`. */
  fields: S;
  /** The reply's `data`; with `spread`, its fields go into the reply itself. */
  run(req: SocketRequest<v.InferOutput<S>>): unknown;
  spread?: boolean;
}

/** Declares a message type with its fields typed by their schema. */
export const socketMessage = <S extends v.GenericSchema>(m: SocketMessage<S>): SocketMessage => m as unknown as SocketMessage;

/** Checks a token sent as a message, through the one admission: the principal, or undefined when refused. */
export type Authenticate = (token: string, ip: string) => Principal | undefined | Promise<Principal | undefined>;

const envelope = v.object({
  type: v.pipe(v.string('type must be a string'), v.nonEmpty('type must not be empty'), v.maxLength(64, 'type is too long')),
  id: v.optional(v.union([v.pipe(v.string(), v.maxLength(128)), v.number()], 'id must be a string or a number (at most 128 characters)')),
});

const periodList = Object.keys(PERIODS).join(', ');

export class SocketChannel {
  private readonly table = new Map<string, SocketMessage>();
  /** Sockets that have not sent their token yet, with the time they have left. */
  private readonly waiting = new Map<WsConnection, NodeJS.Timeout>();

  constructor(private readonly deps: { fanOut: FanOut; metrics: StreamMetrics; authenticate: Authenticate; log: Logger }) {
    const { fanOut, metrics } = deps;
    this.add('get_sse_stats', socketMessage({ fields: v.strictObject({}), run: () => metrics.stats() }));
    this.add(
      'get_sse_connection',
      socketMessage({
        fields: v.strictObject({
          connection_id: v.pipe(v.string('connection_id must be a string'), v.nonEmpty('connection_id is required'), v.maxLength(128)),
        }),
        run: ({ fields }) => ({ connection: metrics.connection(fields.connection_id) }),
      }),
    );
    this.add(
      'get_sse_metrics',
      socketMessage({
        fields: v.strictObject({ period: v.optional(v.picklist(Object.keys(PERIODS) as Period[], `must be one of ${periodList}`), '1h') }),
        run: ({ fields }) => metrics.metrics(fields.period),
      }),
    );
    this.add(
      'subscribe_events',
      socketMessage({
        fields: v.strictObject(filterFields, 'only event_type, entity_id and domain may be given'),
        run: ({ connection, fields }) => fanOut.subscribeSocket(connection, fields),
      }),
    );
    this.add(
      'unsubscribe_events',
      socketMessage({
        fields: v.strictObject({
          subscription_id: v.pipe(v.string('subscription_id must be a string'), v.nonEmpty('subscription_id is required'), v.maxLength(128)),
        }),
        run: ({ connection, fields }) => fanOut.unsubscribeSocket(connection, fields.subscription_id),
      }),
    );
  }

  /** Adds a message type (one place per type; a second registration is a mistake). */
  add(type: string, message: SocketMessage): void {
    if (this.table.has(type) || type === 'auth') throw new Error(`WebSocket message type ${type} is registered twice`);
    this.table.set(type, message);
  }

  get types(): string[] {
    return ['auth', ...this.table.keys()];
  }

  /** A socket opened; with a principal when its upgrade carried a token, else it has 10 s to send one. */
  open(sink: Sink, o: SocketOptions): WsConnection {
    const c = this.deps.fanOut.openSocket(sink, o);
    if (c.client) {
      c.send(JSON.stringify({ type: 'connected', data: { connection_id: c.id, client_id: c.client, types: this.types } }));
      return c;
    }
    c.send(JSON.stringify({ type: 'auth_required', message: 'send {"type": "auth", "token": "<access token>"} within 10 seconds' }));
    const timer = setTimeout(() => {
      this.waiting.delete(c);
      c.close('auth_timeout');
    }, AUTH_TIMEOUT_MS);
    timer.unref();
    this.waiting.set(c, timer);
    return c;
  }

  /** The transport dropped a message for this socket: it holds more than the limit. */
  overLimit(c: WsConnection): void {
    this.deps.fanOut.checkBuffer(c);
  }

  /**
   * A message over MESSAGE_LIMIT: an error naming the limit, then the socket closes with 1009
   * (message too big) and the same words, so a client learns why instead of seeing a dropped line.
   */
  tooLarge(c: WsConnection, size: number): void {
    const message = `The message is ${size} bytes; messages may be at most ${MESSAGE_LIMIT} bytes (64 KiB)`;
    c.send(JSON.stringify({ type: 'error', id: null, error: { code: 'PAYLOAD_TOO_LARGE', message, details: { limit: MESSAGE_LIMIT, size } } }));
    c.close('message_too_large', `a message was larger than the limit of ${MESSAGE_LIMIT} bytes (64 KiB)`);
  }

  closed(c: WsConnection): void {
    clearTimeout(this.waiting.get(c));
    this.waiting.delete(c);
  }

  /** One message from the client: `text`, or undefined when it came as binary. */
  message(c: WsConnection, text: string | undefined): void {
    let id: MessageId = null;
    const fail = (err: unknown) => {
      const e = toAppError(err);
      if (e.status >= 500 && !(err instanceof AppError)) this.deps.log.error({ err }, 'WebSocket message failed');
      c.send(
        JSON.stringify({ type: 'error', id, error: { code: e.code, message: e.message, ...(Object.keys(e.details).length ? { details: e.details } : {}) } }),
      );
    };
    try {
      if (text === undefined) throw new AppError('BAD_REQUEST', 400, 'Messages must be JSON text, not binary');
      let msg: unknown;
      if (textTooDeep(text)) throw tooDeep('The message');
      try {
        msg = JSON.parse(text);
      } catch {
        throw new AppError('BAD_REQUEST', 400, 'The message is not valid JSON');
      }
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new AppError('BAD_REQUEST', 400, 'A message must be a JSON object with a type');
      const rawId = (msg as { id?: unknown }).id;
      if (typeof rawId === 'string' || typeof rawId === 'number') id = rawId;
      const { type } = check(envelope, msg, { what: 'message' });
      const { type: _t, id: _i, ...fields } = msg as Record<string, unknown>;
      if (type === 'auth') return this.auth(c, id, fields);
      const handler = this.table.get(type);
      if (!handler)
        throw new AppError('BAD_REQUEST', 400, `Unknown message type ${type.slice(0, 64)}; known types: ${this.types.join(', ')}`, { known_types: this.types });
      if (c.client === null || !c.principal) throw unauthorized('Authenticate first: send {"type": "auth", "token": "<access token>"}');
      const input = check(handler.fields, fields, { what: 'message' });
      const out = handler.run({ connection: c, client: c.client, principal: c.principal, fields: input });
      const reply = (data: unknown) =>
        c.send(JSON.stringify(handler.spread ? { type: `${type}_result`, id, ...(data as object) } : { type: `${type}_result`, id, success: true, data }));
      if (out instanceof Promise) out.then(reply, fail);
      else reply(out);
    } catch (err) {
      fail(err);
    }
  }

  private auth(c: WsConnection, id: MessageId, fields: Record<string, unknown>): void {
    if (c.client !== null) throw new AppError('BAD_REQUEST', 400, 'This connection is authenticated already');
    const token = typeof fields.token === 'string' ? fields.token : '';
    const done = () => {
      clearTimeout(this.waiting.get(c));
      this.waiting.delete(c);
    };
    const refuse = () => {
      c.send(JSON.stringify({ type: 'error', id, error: { code: 'AUTHENTICATION_ERROR', message: 'The token is missing, invalid or expired' } }));
      done();
      c.close('auth_invalid');
    };
    const accept = (p: Principal | undefined) => {
      if (c.ended) return;
      if (!p) return refuse();
      done();
      this.deps.fanOut.authenticate(c, p);
      c.send(JSON.stringify({ type: 'auth_result', id, success: true, data: { connection_id: c.id, client_id: p.sub, types: this.types } }));
    };
    if (!token) return refuse();
    try {
      const p = this.deps.authenticate(token, c.ip);
      if (p instanceof Promise) p.then(accept, refuse);
      else accept(p);
    } catch {
      refuse();
    }
  }
}
