// The one bare client of Home Assistant's WebSocket protocol, for the simulator's tests, the parity
// runner, the end-to-end suite and the load benchmarks, where the wire itself is what is looked
// at: every message kept as it arrived (coalesced arrays unpacked), results awaited by id.
import { WebSocket } from 'ws';

/** A protocol message as the hub sent it; results that failed carry HA's error object. */
export type Message = Record<string, any> & { id?: number; type: string; success?: boolean; error?: { code: string; message: string; [k: string]: unknown } };

/** A `result` (or `pong`) message; `result` typed as the caller expects. */
export type Result<T = any> = Message & { id: number; result?: T };

/** An `event` message of a subscription. */
export type EventMessage<T = any> = Message & { id: number; type: 'event'; event: T };

export interface ConnectOptions {
  /** How long the handshake may take (default 10 s). */
  timeoutMs?: number;
  /** Resolve on auth_invalid too (see authReply) instead of throwing. */
  allowInvalid?: boolean;
}

export class RawClient {
  readonly messages: Message[] = [];
  /** WebSocket frames received (a coalesced array counts once). */
  frames = 0;
  /** The hub's first message (`auth_required`) and its answer to our `auth`. */
  hello: Message = { type: '' };
  authReply: Message = { type: '' };
  readonly closed: Promise<{ code: number; reason: string }>;
  private nextId = 1;
  private waiters = new Set<() => void>();

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data) => {
      this.frames++;
      const parsed = JSON.parse(data.toString()) as Message | Message[];
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) this.messages.push(m);
      for (const w of [...this.waiters]) w();
    });
  }

  /** Opens a socket and sends nothing (handshake tests drive the auth phase themselves). */
  static async open(wsUrl: string): Promise<RawClient> {
    const ws = new WebSocket(wsUrl);
    const client = new RawClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  /** Opens a socket and, with a token, completes the auth phase (throws on auth_invalid unless allowed). */
  static async connect(wsUrl: string, token?: string, opts: ConnectOptions = {}): Promise<RawClient> {
    const client = await RawClient.open(wsUrl);
    const timeoutMs = opts.timeoutMs ?? 10_000;
    if (token === undefined) {
      client.hello = await client.waitFor((m) => m.type === 'auth_required', timeoutMs);
      return client;
    }
    const reply = await client.authenticate(token, timeoutMs);
    if (reply.type !== 'auth_ok' && !opts.allowInvalid) {
      await client.close();
      throw new Error(`auth failed: ${String(reply.message)}`);
    }
    return client;
  }

  /** Waits for auth_required, sends the token, and resolves with the hub's answer (auth_ok or auth_invalid). */
  async authenticate(token: string, timeoutMs = 10_000): Promise<Message> {
    this.hello = await this.waitFor((m) => m.type === 'auth_required', timeoutMs);
    const from = this.messages.length;
    this.sendRaw(JSON.stringify({ type: 'auth', access_token: token }));
    this.authReply = await this.waitFor((m) => m.type === 'auth_ok' || m.type === 'auth_invalid', timeoutMs, from);
    return this.authReply;
  }

  /** The first message at or after `from` (already received or coming) that passes the test, and its index. */
  find(test: (m: Message) => boolean, from = 0, timeoutMs = 15_000): Promise<{ message: Message; index: number }> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (let i = from; i < this.messages.length; i++) {
          const m = this.messages[i]!;
          if (test(m)) {
            done();
            resolve({ message: m, index: i });
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`RawClient: no matching message within ${timeoutMs} ms; last: ${JSON.stringify(this.messages.slice(-3)).slice(0, 600)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves with the first message (already received or coming) that passes the test. */
  async waitFor(test: (m: Message) => boolean, timeoutMs = 3000, fromIndex = 0): Promise<Message> {
    return (await this.find(test, fromIndex, timeoutMs)).message;
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }

  /** Sends a message, giving it the next id unless it has one. Returns the id. */
  send(msg: Record<string, unknown>): number {
    const id = typeof msg.id === 'number' ? msg.id : this.nextId;
    this.nextId = Math.max(this.nextId, id) + 1;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  /** Sends a command and resolves with its result (or pong) message. */
  async command<T = any>(msg: Record<string, unknown>, timeoutMs = 15_000): Promise<Result<T>> {
    const from = this.messages.length;
    const id = this.send(msg);
    return (await this.waitFor((m) => m.id === id && (m.type === 'result' || m.type === 'pong'), timeoutMs, from)) as Result<T>;
  }

  /** Shorthand for `call_service`. */
  callService(domain: string, service: string, serviceData: Record<string, unknown> = {}, target?: Record<string, unknown>): Promise<Result> {
    return this.command({ type: 'call_service', domain, service, service_data: serviceData, ...(target ? { target } : {}) });
  }

  /** The `event` messages received so far for one subscription id. */
  eventMessages<T = any>(id: number): EventMessage<T>[] {
    return this.messages.filter((m): m is EventMessage<T> => m.type === 'event' && m.id === id);
  }

  /** The `event` bodies received so far for one subscription id. */
  events(id: number): Array<Record<string, unknown>> {
    return this.eventMessages(id).map((m) => m.event as Record<string, unknown>);
  }

  /** The first event of subscription `id`, counting from its `from`-th event, that `match` accepts. */
  async waitForEvent<T = any>(
    id: number,
    match: (e: EventMessage<T>) => boolean = () => true,
    { from = 0, timeoutMs = 10_000 } = {},
  ): Promise<EventMessage<T>> {
    const { message } = await this.find(
      (m) => m.type === 'event' && m.id === id && this.eventMessages(id).indexOf(m as EventMessage) >= from && match(m as EventMessage<T>),
      0,
      timeoutMs,
    );
    return message as EventMessage<T>;
  }

  close(): Promise<{ code: number; reason: string }> {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close();
    return this.closed;
  }
}
