// A bare client of the hub WebSocket protocol: messages as they arrive (coalesced arrays
// unpacked), results awaited by id. For the simulator's tests and load benchmarks, where the
// wire itself is what is being looked at.
import { WebSocket } from 'ws';

/** A protocol message; results that failed carry HA's error object. */
export type Message = Record<string, unknown> & { id?: number; type: string; success?: boolean; error?: { code: string; message: string; [k: string]: unknown } };

export class RawClient {
  readonly messages: Message[] = [];
  /** WebSocket frames received (a coalesced array counts once). */
  frames = 0;
  readonly closed: Promise<{ code: number; reason: string }>;
  private nextId = 1;
  private waiters: Array<{ test: (m: Message) => boolean; resolve: (m: Message) => void }> = [];

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data) => {
      this.frames++;
      const parsed = JSON.parse(data.toString()) as Message | Message[];
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
        this.messages.push(m);
        this.waiters = this.waiters.filter((w) => {
          if (!w.test(m)) return true;
          w.resolve(m);
          return false;
        });
      }
    });
  }

  /** Opens a socket; with a token, completes the auth phase (throws on auth_invalid). */
  static async connect(wsUrl: string, token?: string): Promise<RawClient> {
    const ws = new WebSocket(wsUrl);
    const client = new RawClient(ws);
    const first = client.waitFor((m) => m.type === 'auth_required');
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await first;
    if (token !== undefined) {
      const reply = await client.sendAndWait({ type: 'auth', access_token: token }, (m) => m.type === 'auth_ok' || m.type === 'auth_invalid');
      if (reply.type !== 'auth_ok') throw new Error(`auth failed: ${String(reply.message)}`);
    }
    return client;
  }

  /** Resolves with the first message (already received or coming) that passes the test. */
  waitFor(test: (m: Message) => boolean, timeoutMs = 3000, fromIndex = 0): Promise<Message> {
    const seen = this.messages.slice(fromIndex).find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('RawClient: timed out waiting for a message')), timeoutMs);
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
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

  private sendAndWait(msg: Record<string, unknown>, test: (m: Message) => boolean): Promise<Message> {
    const from = this.messages.length;
    this.ws.send(JSON.stringify(msg));
    return this.waitFor(test, 3000, from);
  }

  /** Sends a command and resolves with its result (or pong) message. */
  async command(msg: Record<string, unknown>): Promise<Message> {
    const from = this.messages.length;
    const id = this.send(msg);
    return this.waitFor((m) => m.id === id && (m.type === 'result' || m.type === 'pong'), 3000, from);
  }

  /** The `event` bodies received so far for one subscription id. */
  events(id: number): Array<Record<string, unknown>> {
    return this.messages.filter((m) => m.type === 'event' && m.id === id).map((m) => m.event as Record<string, unknown>);
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close();
    return this.closed;
  }
}
