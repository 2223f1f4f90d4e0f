// One WebSocket client of the simulated hub: the auth phase, then commands. Outgoing messages
// queue and go out once per tick; with coalesce_messages on, a tick's messages go as one JSON
// array, as the hub's writer sends them.
import type { WebSocket } from 'ws';
import type { Command, CommandConnection, SimUser } from './commands.js';
import { HomeAssistantError, type Translation, UnauthorizedError } from './errors.js';
import { HA_ERROR, MSG } from './names.js';
import type { Hub } from './hub.js';
import { authInvalid, authOk, authRequired, errorMessage, resultMessage } from './protocol.js';
import { Invalid, dict, humanizeError, isPlainObject, isType, literal } from './schema.js';

const AUTH_TIMEOUT_MS = 10_000;
/** A client this far behind is cut off, as the hub cuts off one that cannot keep up. */
const MAX_BUFFERED_BYTES = 256 * 1024 * 1024;

const authSchema = dict({
  type: { v: literal(MSG.auth), required: true },
  api_password: { v: isType('str'), exclusive: 'auth' },
  access_token: { v: isType('str'), exclusive: 'auth' },
});

export interface ConnectionHost {
  hub: Hub;
  commands: Map<string, Command>;
  /** A paused hub neither reads nor writes; what arrives meanwhile is handled on resume. */
  isPaused(): boolean;
  /** The user a token belongs to, if it is accepted. */
  userForToken(token: string): SimUser | undefined;
  /**
   * Replaces the hub's auth phase (the Supervisor's /core/websocket checks the message its own
   * way): the user, a message for auth_invalid, or undefined to hang up without a word.
   */
  authenticate?(msg: unknown): { user: SimUser } | { invalid: string } | undefined;
  closed(conn: SimConnection): void;
}

export class SimConnection implements CommandConnection {
  readonly subscriptions = new Map<number, () => void>();
  user: SimUser = { id: '', name: '', isAdmin: false };
  private authed = false;
  private lastId = 0;
  private canCoalesce = false;
  private queue: string[] = [];
  private flushScheduled = false;
  private held: Array<{ data: Buffer; isBinary: boolean }> = [];
  private isClosed = false;
  private readonly authTimer: NodeJS.Timeout;

  constructor(
    private readonly ws: WebSocket,
    private readonly host: ConnectionHost,
  ) {
    this.send(authRequired(host.hub.version));
    this.authTimer = setTimeout(() => this.close(), AUTH_TIMEOUT_MS);
    this.authTimer.unref();
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.cleanup());
  }

  get hub(): Hub {
    return this.host.hub;
  }

  get authenticated(): boolean {
    return this.authed;
  }

  send(msg: object | string): void {
    if (this.isClosed) return;
    this.queue.push(typeof msg === 'string' ? msg : JSON.stringify(msg));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  sendResult(id: number, result: unknown = null): void {
    this.send(resultMessage(id, result));
  }

  sendError(id: number, code: string, message: string, translation?: Translation): void {
    this.send(errorMessage(id, code, message, translation));
  }

  setSupportedFeatures(features: Record<string, number>): void {
    this.canCoalesce = 'coalesce_messages' in features;
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.host.isPaused()) return;
    const batch = this.queue;
    this.queue = [];
    if (this.isClosed || batch.length === 0) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.host.hub.log.error('Client unable to keep up with pending messages; closing');
      this.ws.terminate();
      return;
    }
    if (batch.length > 1 && this.canCoalesce) this.ws.send(`[${batch.join(',')}]`);
    else for (const m of batch) this.ws.send(m);
  }

  /** Sends what is queued now, then closes (the auth phase replies before it hangs up). */
  private closeAfter(msg: object): void {
    this.send(msg);
    this.flush();
    this.close();
  }

  close(code = 1000): void {
    if (this.isClosed) return;
    try {
      this.ws.close(code);
    } catch {
      this.ws.terminate();
    }
    this.cleanup();
  }

  private cleanup(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.authTimer);
    for (const unsub of this.subscriptions.values()) unsub();
    this.subscriptions.clear();
    this.host.closed(this);
  }

  /** Messages that arrived while the hub was paused, not handled yet. */
  get heldCount(): number {
    return this.held.length;
  }

  /** Handles what arrived while the hub was paused, and sends what waited. */
  resume(): void {
    const held = this.held;
    this.held = [];
    for (const m of held) this.onMessage(m.data, m.isBinary);
    if (this.queue.length && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.isClosed) return;
    if (this.host.isPaused()) {
      this.held.push({ data, isBinary });
      return;
    }
    if (isBinary) {
      // Binary frames are for handlers registered at run time; with none, the hub logs and
      // ignores them, but drops a connection that sends one before authenticating.
      if (!this.authed || data.length < 1) this.close();
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch {
      // "Received invalid JSON": the hub ends the connection.
      this.close();
      return;
    }
    if (!this.authed) {
      this.authenticate(parsed);
      return;
    }
    if (Array.isArray(parsed)) for (const m of parsed) this.handle(m);
    else this.handle(parsed);
  }

  private authenticate(msg: unknown): void {
    clearTimeout(this.authTimer);
    if (this.host.authenticate) {
      const outcome = this.host.authenticate(msg);
      if (!outcome) this.close();
      else if ('invalid' in outcome) this.closeAfter(authInvalid(outcome.invalid));
      else this.accept(outcome.user);
      return;
    }
    let valid: Record<string, unknown>;
    try {
      valid = authSchema(msg, []) as Record<string, unknown>;
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      this.closeAfter(authInvalid(`Auth message incorrectly formatted: ${humanizeError(msg, err, this.hub.errorStyle)}`));
      return;
    }
    const token = valid.access_token;
    const user = typeof token === 'string' ? this.host.userForToken(token) : undefined;
    if (!user) {
      this.closeAfter(authInvalid('Invalid access token or password'));
      return;
    }
    this.accept(user);
  }

  private accept(user: SimUser): void {
    this.user = user;
    this.authed = true;
    this.send(authOk(this.host.hub.version));
  }

  /** ActiveConnection.async_handle */
  private handle(msg: unknown): void {
    if (!isPlainObject(msg) || typeof msg.id !== 'number' || !Number.isInteger(msg.id) || msg.id === 0 || typeof msg.type !== 'string' || msg.type === '') {
      const id = isPlainObject(msg) ? (msg.id ?? null) : 0;
      this.send(errorMessage(id, HA_ERROR.invalidFormat, 'Message incorrectly formatted.'));
      return;
    }
    const id = msg.id;
    if (id <= this.lastId) {
      this.sendError(id, HA_ERROR.idReuse, 'Identifier values have to increase.');
      return;
    }
    const command = this.host.commands.get(msg.type);
    if (!command) {
      this.sendError(id, HA_ERROR.unknownCommand, 'Unknown command.');
      return;
    }
    try {
      const valid = command.schema(msg, []) as Record<string, unknown> & { id: number; type: string };
      // require_admin wraps the handler, so the schema is checked first.
      if (command.admin && !this.user.isAdmin) throw new UnauthorizedError();
      const pending = command.handle(this, valid);
      if (pending) pending.catch((err: unknown) => this.handleException(msg, err));
    } catch (err) {
      this.handleException(msg, err);
    }
    this.lastId = id;
  }

  /** ActiveConnection.async_handle_exception: what escapes a handler. */
  private handleException(msg: Record<string, unknown>, err: unknown): void {
    const id = msg.id as number;
    if (err instanceof UnauthorizedError) this.sendError(id, HA_ERROR.unauthorized, 'Unauthorized');
    else if (err instanceof Invalid) this.sendError(id, HA_ERROR.invalidFormat, humanizeError(msg, err, this.hub.errorStyle));
    else if (err instanceof HomeAssistantError && err.message) this.sendError(id, HA_ERROR.unknownError, err.message);
    else {
      this.host.hub.log.error(`Error handling message: ${err instanceof Error ? err.stack : String(err)}`);
      this.sendError(id, HA_ERROR.unknownError, 'Unknown error');
    }
  }
}
