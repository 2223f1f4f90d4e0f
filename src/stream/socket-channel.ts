// The general-purpose WebSocket channel (/api/ws and /ws): JSON messages with a `type` and an
// optional `id` that the reply echoes. Each type is one entry of a table, reaching the same
// services as the REST routes; other parts add their own types (natural language adds `command`).
import { textTooDeep, tooDeep } from '../json-depth.js';
import * as v from 'valibot';
import type { Principal } from '../auth/tokens.js';
import { AppError, toAppError, unauthorized } from '../errors.js';
import type { Admit } from '../http/admission.js';
import type { SocketData } from '../http/routes.js';
import type { WebSocket } from '../http/uws.js';
import type { Logger } from '../log.js';
import { check } from '../validation.js';
import type { WsConnection } from './connection.js';
import type { EventHub } from './event-hub.js';
import { filterFields } from './filters.js';
import { PERIODS, type Period, type StreamMetrics } from './metrics.js';

export const AUTH_TIMEOUT_MS = 10_000;

type MessageId = string | number | null;

export interface SocketRequest<T> {
  connection: WsConnection;
  /** The token's subject (the client). */
  client: string;
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

const envelope = v.object({
  type: v.pipe(v.string('type must be a string'), v.nonEmpty('type must not be empty'), v.maxLength(64, 'type is too long')),
  id: v.optional(v.union([v.pipe(v.string(), v.maxLength(128)), v.number()], 'id must be a string or a number (at most 128 characters)')),
});

const periodList = Object.keys(PERIODS).join(', ');

interface State {
  connection: WsConnection;
  timer?: NodeJS.Timeout;
}

export class SocketChannel {
  private readonly table = new Map<string, SocketMessage>();

  constructor(private readonly deps: { hub: EventHub; metrics: StreamMetrics; admit: Admit; log: Logger }) {
    const { hub, metrics } = deps;
    this.add('get_sse_stats', socketMessage({ fields: v.strictObject({}), run: () => metrics.stats() }));
    this.add(
      'get_sse_connection',
      socketMessage({
        fields: v.strictObject({ connection_id: v.pipe(v.string('connection_id must be a string'), v.nonEmpty('connection_id is required'), v.maxLength(128)) }),
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
    this.add('subscribe_events', socketMessage({ fields: v.strictObject(filterFields, 'only event_type, entity_id and domain may be given'), run: ({ connection, fields }) => hub.subscribeSocket(connection, fields) }));
    this.add(
      'unsubscribe_events',
      socketMessage({
        fields: v.strictObject({ subscription_id: v.pipe(v.string('subscription_id must be a string'), v.nonEmpty('subscription_id is required'), v.maxLength(128)) }),
        run: ({ connection, fields }) => hub.unsubscribeSocket(connection, fields.subscription_id),
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

  open(ws: WebSocket<SocketData>): void {
    const data = ws.getUserData();
    const client = data.principal?.sub ?? null;
    const connection = this.deps.hub.openSocket(ws as WebSocket<unknown>, { client, ip: data.request.ip, userAgent: data.request.headers['user-agent'] ?? '' });
    const state: State = { connection };
    data.state = state;
    // The socket lives on; the upgrade's headers (a token among them) need not.
    data.request.headers = {};
    if (client) {
      connection.sendNow(JSON.stringify({ type: 'connected', data: { connection_id: connection.id, client_id: client, types: this.types } }));
      return;
    }
    connection.sendNow(JSON.stringify({ type: 'auth_required', message: 'send {"type": "auth", "token": "<access token>"} within 10 seconds' }));
    state.timer = setTimeout(() => connection.close('auth_timeout'), AUTH_TIMEOUT_MS);
    state.timer.unref();
  }

  drain(ws: WebSocket<SocketData>): void {
    (ws.getUserData().state as State | undefined)?.connection.onDrain();
  }

  close(ws: WebSocket<SocketData>): void {
    const state = ws.getUserData().state as State | undefined;
    if (!state) return;
    clearTimeout(state.timer);
    state.connection.onClosed();
  }

  message(ws: WebSocket<SocketData>, raw: ArrayBuffer, isBinary: boolean): void {
    const state = ws.getUserData().state as State;
    const c = state.connection;
    let id: MessageId = null;
    const fail = (err: unknown) => {
      const e = toAppError(err);
      if (e.status >= 500 && !(err instanceof AppError)) this.deps.log.error({ err }, 'WebSocket message failed');
      c.sendNow(JSON.stringify({ type: 'error', id, error: { code: e.code, message: e.message, ...(Object.keys(e.details).length ? { details: e.details } : {}) } }));
    };
    try {
      if (isBinary) throw new AppError('BAD_REQUEST', 400, 'Messages must be JSON text, not binary');
      let msg: unknown;
      if (textTooDeep(Buffer.from(raw))) throw tooDeep('The message');
      try {
        msg = JSON.parse(Buffer.from(raw).toString('utf8'));
      } catch {
        throw new AppError('BAD_REQUEST', 400, 'The message is not valid JSON');
      }
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new AppError('BAD_REQUEST', 400, 'A message must be a JSON object with a type');
      const rawId = (msg as { id?: unknown }).id;
      if (typeof rawId === 'string' || typeof rawId === 'number') id = rawId;
      const { type } = check(envelope, msg, { what: 'message' });
      const { type: _t, id: _i, ...fields } = msg as Record<string, unknown>;
      if (type === 'auth') return this.auth(state, id, fields, ws);
      const handler = this.table.get(type);
      if (!handler) throw new AppError('BAD_REQUEST', 400, `Unknown message type ${type.slice(0, 64)}; known types: ${this.types.join(', ')}`, { known_types: this.types });
      if (c.client === null) throw unauthorized('Authenticate first: send {"type": "auth", "token": "<access token>"}');
      const input = check(handler.fields, fields, { what: 'message' });
      const out = handler.run({ connection: c, client: c.client, fields: input });
      const reply = (data: unknown) => c.sendNow(JSON.stringify(handler.spread ? { type: `${type}_result`, id, ...(data as object) } : { type: `${type}_result`, id, success: true, data }));
      if (out instanceof Promise) out.then(reply, fail);
      else reply(out);
    } catch (err) {
      fail(err);
    }
  }

  private auth(state: State, id: MessageId, fields: Record<string, unknown>, ws: WebSocket<SocketData>): void {
    const c = state.connection;
    if (c.client !== null) throw new AppError('BAD_REQUEST', 400, 'This connection is authenticated already');
    const token = typeof fields.token === 'string' ? fields.token : '';
    const refuse = () => {
      c.sendNow(JSON.stringify({ type: 'error', id, error: { code: 'AUTHENTICATION_ERROR', message: 'The token is missing, invalid or expired' } }));
      clearTimeout(state.timer);
      c.close('auth_invalid');
    };
    const accept = (p: Principal) => {
      if (c.closed) return;
      clearTimeout(state.timer);
      this.deps.hub.authenticate(c, p.sub);
      ws.getUserData().principal = p;
      c.sendNow(JSON.stringify({ type: 'auth_result', id, success: true, data: { connection_id: c.id, client_id: p.sub, types: this.types } }));
    };
    if (!token) return refuse();
    const request = ws.getUserData().request;
    try {
      const admitted = this.deps.admit({ headers: { authorization: `Bearer ${token}` }, ip: request.ip }, { rateLimited: false });
      if (admitted instanceof Promise) admitted.then((a) => (a.principal ? accept(a.principal) : refuse()), refuse);
      else if (admitted.principal) accept(admitted.principal);
      else refuse();
    } catch {
      refuse();
    }
  }
}
