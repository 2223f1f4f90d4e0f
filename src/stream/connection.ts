// One live connection of either transport. Frames for it are queued during a tick and written
// together at the tick's end (one write for SSE, one corked batch for WebSocket). A client that
// stops reading has its queue capped: past the cap it is closed, never allowed to grow memory.
import { randomUUID } from 'node:crypto';
import type { ResponseAdapter } from '../http/adapter.js';
import type { WebSocket } from '../http/uws.js';
import type { EventFilter } from '../events/filter.js';
import { record } from './histogram.js';
import type { IndexEntry } from './subscription-index.js';

export type Transport = 'sse' | 'websocket';

/** Why a connection ended (kept in the connection history). */
export type CloseReason = 'client_closed' | 'buffer_limit' | 'shutdown' | 'auth_timeout' | 'auth_invalid';

/** A subscription a connection carries: a stored one, a WebSocket's own, or a stream's query filter. */
export interface ConnectionSubscription extends EventFilter {
  id: string | null;
}

export interface ConnectionInfo {
  id: string;
  transport: Transport;
  client_id: string;
  user_id: string;
  connected_at: string;
  last_event_at: string | null;
  events_sent: number;
  events_dropped: number;
  subscriptions: ConnectionSubscription[];
  state: 'active' | 'behind' | 'authenticating';
  ip_address: string;
  user_agent: string;
  queued_bytes: number;
}

/** A frame as queued: bytes, or (WebSocket) a message sent as two fragments: its own head and a tail shared by every client. */
export type Frame = Buffer | readonly [Buffer, Buffer];

const sizeOf = (f: Frame) => (Buffer.isBuffer(f) ? f.length : f[0].length + f[1].length);

export interface ConnectionOwner {
  /** The connection has frames to write at the end of this tick. */
  dirty(c: StreamConnection): void;
  closed(c: StreamConnection): void;
}

export abstract class StreamConnection {
  readonly id = randomUUID();
  readonly connectedAt = new Date().toISOString();
  lastEventAt: string | null = null;
  eventsSent = 0;
  eventsDropped = 0;
  closed = false;
  closeReason: CloseReason = 'client_closed';
  /** The index entries that deliver to this connection (kept by the event hub). */
  entries: IndexEntry<StreamConnection>[] = [];
  protected frames: Frame[] = [];
  /** Arrival time (performance.now) of each queued event, for the latency histogram. */
  protected arrivals: number[] = [];
  protected queued = 0;
  protected behind = false;
  private isDirty = false;

  constructor(
    readonly transport: Transport,
    /** The token's subject; null while a WebSocket has not authenticated. */
    public client: string | null,
    readonly ip: string,
    readonly userAgent: string,
    protected readonly bufferLimit: number,
    protected readonly owner: ConnectionOwner,
  ) {}

  get queuedBytes(): number {
    return this.queued;
  }

  /** Queues a frame; `arrival` marks it as an event (counted and timed when written). */
  push(frame: Frame | string, arrival?: number): void {
    if (this.closed) return;
    const f = typeof frame === 'string' ? Buffer.from(frame) : frame;
    this.frames.push(f);
    this.queued += sizeOf(f);
    if (arrival !== undefined) this.arrivals.push(arrival);
    if (!this.isDirty) {
      this.isDirty = true;
      this.owner.dirty(this);
    }
  }

  /** Events queued and not yet written. */
  get queuedEvents(): number {
    return this.arrivals.length;
  }

  /**
   * Writes what is queued, unless the client is behind; closes it once the queue passes the cap.
   * Returns how many events went out.
   */
  flush(latency: number[]): number {
    this.isDirty = false;
    if (this.closed || this.frames.length === 0) return 0;
    if (!this.writable()) {
      if (this.queued + this.backlog() > this.bufferLimit) this.close('buffer_limit');
      return 0;
    }
    const frames = this.frames;
    const arrivals = this.arrivals;
    this.frames = [];
    this.arrivals = [];
    this.queued = 0;
    this.write(frames);
    const now = performance.now();
    for (const a of arrivals) record(latency, now - a);
    if (arrivals.length) {
      this.eventsSent += arrivals.length;
      this.lastEventAt = new Date().toISOString();
    }
    if (this.backlog() > this.bufferLimit) this.close('buffer_limit');
    return arrivals.length;
  }

  /** Whether to write now, or keep queueing until the transport drains. */
  protected writable(): boolean {
    return !this.behind;
  }

  /** Bytes the transport holds unsent (beyond our own queue). */
  protected abstract backlog(): number;
  protected abstract write(frames: Frame[]): void;
  /** Ends the connection with a last frame that names the reason. */
  abstract close(reason: CloseReason, message?: string): void;

  /** The transport drained: write what waited. */
  protected drained(): void {
    this.behind = false;
    if (this.frames.length && !this.isDirty) {
      this.isDirty = true;
      this.owner.dirty(this);
    }
  }

  protected ended(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.frames = [];
    this.arrivals = [];
    this.queued = 0;
    this.owner.closed(this);
  }

  info(subscriptions: ConnectionSubscription[]): ConnectionInfo {
    return {
      id: this.id,
      transport: this.transport,
      client_id: this.client ?? '',
      user_id: this.client ?? '',
      connected_at: this.connectedAt,
      last_event_at: this.lastEventAt,
      events_sent: this.eventsSent,
      events_dropped: this.eventsDropped,
      subscriptions,
      state: this.client === null ? 'authenticating' : this.behind ? 'behind' : 'active',
      ip_address: this.ip,
      user_agent: this.userAgent,
      queued_bytes: this.queued,
    };
  }
}

const CLOSE_MESSAGES: Record<CloseReason, string> = {
  client_closed: 'closed by the client',
  buffer_limit: 'the client read too slowly and its unsent data passed the limit; reconnect to resume',
  shutdown: 'the bridge is shutting down; reconnect to resume',
  auth_timeout: 'no auth message came within 10 seconds',
  auth_invalid: 'the token is missing, invalid or expired',
};

/** Server-Sent Events on a native uWS response. */
export class SseConnection extends StreamConnection {
  constructor(
    private readonly res: ResponseAdapter,
    client: string,
    ip: string,
    userAgent: string,
    bufferLimit: number,
    owner: ConnectionOwner,
  ) {
    super('sse', client, ip, userAgent, bufferLimit, owner);
    res.onClose(() => this.ended(this.closeReason));
  }

  protected backlog(): number {
    return 0;
  }

  protected write(frames: Frame[]): void {
    // One write per tick; a lone frame is the very buffer every client shares.
    if (!this.res.write(frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames as Buffer[]))) {
      this.behind = true;
      this.res.onDrain(() => this.drained());
    }
  }

  close(reason: CloseReason, message = CLOSE_MESSAGES[reason]): void {
    if (this.closed) return;
    this.closeReason = reason;
    const last = `event: close\ndata: ${JSON.stringify({ reason, message })}\n\n`;
    // Queued behind what the client has not read: a slow client still gets it, a dead one is timed out by uWS.
    this.res.closeConnection();
    this.res.end(last);
    this.ended(reason);
  }
}

/** What each bridge WebSocket carries (uWS user data). */
export interface SocketState {
  connection?: WsConnection;
}

/** A WebSocket on uWS; each frame is one message. */
export class WsConnection extends StreamConnection {
  constructor(
    private readonly ws: WebSocket<unknown>,
    client: string | null,
    ip: string,
    userAgent: string,
    bufferLimit: number,
    owner: ConnectionOwner,
  ) {
    super('websocket', client, ip, userAgent, bufferLimit, owner);
  }

  protected backlog(): number {
    return this.closed ? 0 : this.ws.getBufferedAmount();
  }

  /** uWS keeps what the socket cannot take yet and says how much: write on up to the cap, checked after each write. */
  protected override writable(): boolean {
    return true;
  }

  protected write(frames: Frame[]): void {
    this.ws.cork(() => {
      for (const f of frames) {
        if (Buffer.isBuffer(f)) this.ws.send(f, false, false);
        else {
          this.ws.sendFirstFragment(f[0], false, false);
          this.ws.sendLastFragment(f[1], false);
        }
      }
    });
    if (this.ws.getBufferedAmount() > 0) this.behind = true;
  }

  /** uWS says the socket drained (its drain handler). */
  onDrain(): void {
    if (this.ws.getBufferedAmount() === 0) this.drained();
  }

  /** Sends one message now, outside the tick's batch (replies to requests). */
  sendNow(message: string): void {
    if (this.closed) return;
    this.ws.send(message, false, false);
  }

  close(reason: CloseReason, message = CLOSE_MESSAGES[reason]): void {
    if (this.closed) return;
    this.closeReason = reason;
    const code = reason === 'buffer_limit' ? 1013 : reason === 'shutdown' ? 1001 : reason === 'auth_timeout' ? 4408 : reason === 'auth_invalid' ? 4401 : 1000;
    this.ended(reason);
    this.ws.cork(() => {
      this.ws.send(JSON.stringify({ type: 'closing', reason, message }), false, false);
      // The close frame's reason is limited to 123 bytes.
      this.ws.end(code, message.slice(0, 120));
    });
  }

  /** uWS reports the socket closed (by the client or after end()). */
  onClosed(): void {
    this.ended(this.closed ? this.closeReason : 'client_closed');
  }
}
