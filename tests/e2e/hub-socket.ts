// A deliberately small client of Home Assistant's WebSocket API for the end-to-end tests, on the
// `ws` package directly, so a test sees every message exactly as the hub sends it.
import WebSocket from 'ws';

export interface HubError {
  code: string;
  message: string;
  [key: string]: unknown;
}

export interface HubResult<T = unknown> {
  id: number;
  /** `pong` answers `ping`, with no success field. */
  type: 'result' | 'pong';
  success: boolean;
  result?: T;
  error?: HubError;
}

export interface HubEvent<T = any> {
  id: number;
  type: 'event';
  event: T;
}

type Message = Record<string, any>;

export class HubSocket {
  /** The first message the hub sent (`auth_required`) and its answer to our `auth`. */
  hello: Message = {};
  authReply: Message = {};
  private nextId = 1;
  private readonly pending = new Map<number, (m: HubResult) => void>();
  private readonly events = new Map<number, HubEvent[]>();
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly ws: WebSocket) {}

  /** Connects and authenticates; resolves even on `auth_invalid` (see `authReply`). */
  static connect(wsUrl: string, token: string, timeoutMs = 10_000): Promise<HubSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      const hub = new HubSocket(ws);
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`no auth answer from ${wsUrl} within ${timeoutMs} ms`));
      }, timeoutMs);
      ws.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      ws.on('message', (buf) => {
        const msg = JSON.parse(buf.toString()) as Message;
        if (msg.type === 'auth_required') {
          hub.hello = msg;
          ws.send(JSON.stringify({ type: 'auth', access_token: token }));
        } else if (msg.type === 'auth_ok' || msg.type === 'auth_invalid') {
          hub.authReply = msg;
          clearTimeout(timer);
          resolve(hub);
        } else if (msg.type === 'result' || msg.type === 'pong') {
          hub.pending.get(msg.id)?.(msg as HubResult);
          hub.pending.delete(msg.id);
        } else if (msg.type === 'event') {
          const list = hub.events.get(msg.id) ?? [];
          list.push(msg as HubEvent);
          hub.events.set(msg.id, list);
          for (const w of hub.waiters) w();
        }
      });
    });
  }

  /** Sends one command with the next id and resolves with its `result` (or `pong`) message. */
  send<T = unknown>(command: Message, timeoutMs = 15_000): Promise<HubResult<T>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no result for ${command.type} (id ${id}) within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m as HubResult<T>);
      });
      this.ws.send(JSON.stringify({ id, ...command }));
    });
  }

  /** Shorthand for `call_service`. */
  callService(domain: string, service: string, serviceData: Message = {}, target?: Message) {
    return this.send({ type: 'call_service', domain, service, service_data: serviceData, ...(target ? { target } : {}) });
  }

  /** Events received so far for subscription `id` (the id of the subscribe command's result). */
  eventsFor(id: number): HubEvent[] {
    return this.events.get(id) ?? [];
  }

  /** Waits for the first event of subscription `id`, at or after index `from`, that `match` accepts. */
  waitForEvent(id: number, match: (e: HubEvent) => boolean = () => true, { from = 0, timeoutMs = 10_000 } = {}): Promise<HubEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.eventsFor(id).slice(from).find(match);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching event for subscription ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = () => void check();
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      this.waiters.add(waiter);
      check();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }

  /** Resolves with the close code when the hub closes the connection. */
  closed(): Promise<number> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) return resolve(-1);
      this.ws.once('close', (code) => resolve(code));
    });
  }
}
