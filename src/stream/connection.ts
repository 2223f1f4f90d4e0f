// One live connection of either transport, as small as it can be: ids and counters, its sink and
// where it takes its events from (an SSE channel, or WebSocket topics). Everything per event lives
// in the channel or topic it shares with every other connection that wants the same events.
import { randomBytes } from 'node:crypto';
import type { CredentialEnd, CredentialEndReason } from '../auth/credentials.js';
import type { Principal } from '../auth/tokens.js';
import type { EventFilter } from '../events/filter.js';
import type { SseChannel } from './channel.js';
import type { Sink, SinkListener } from './sink.js';
import type { Topic } from './topic.js';

export type Transport = 'sse' | 'websocket';

/** Why a connection ended (kept in the connection history). */
export type CloseReason = 'client_closed' | 'buffer_limit' | 'message_too_large' | 'shutdown' | 'auth_timeout' | 'auth_invalid' | CredentialEndReason;

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

export const CLOSE_MESSAGES: Record<CloseReason, string> = {
  client_closed: 'closed by the client',
  buffer_limit: 'the client read too slowly and its unsent data passed the limit; reconnect to resume',
  message_too_large: 'a message was larger than the channel’s limit',
  shutdown: 'the bridge is shutting down; reconnect to resume',
  auth_timeout: 'no auth message came within 10 seconds',
  auth_invalid: 'the token is missing, invalid or expired',
  token_revoked: 'the access token has been revoked',
  password_changed: 'the password changed since the access token was issued; sign in again',
  user_removed: 'the access token’s user no longer exists',
  token_expired: 'the access token has expired; get a new one and reconnect',
};

const WS_CODES: Partial<Record<CloseReason, number>> = {
  buffer_limit: 1013,
  message_too_large: 1009,
  shutdown: 1001,
  auth_timeout: 4408,
  auth_invalid: 4401,
  token_revoked: 4401,
  password_changed: 4401,
  user_removed: 4401,
  token_expired: 4401,
};

// Ids are this run's prefix and a counter: unique across restarts, and only a number per connection.
const RUN = randomBytes(6).toString('hex');
let issued = 0;

// Times are kept as ms since this module loaded: small integers, stored in the object itself.
const START = Date.now();
/** Now, in the connections' clock. */
export const clock = (): number => {
  const t = Date.now() - START;
  // As an int32 it is a small integer V8 keeps in the object, not a boxed double (until day 24).
  return t < 0x7fffffff ? t | 0 : t;
};
/** A time of the connections' clock as ISO 8601. */
export const isoOf = (t: number): string => new Date(START + t).toISOString();

// Addresses and user agents repeat across connections: one string each, shared.
const interned = new Map<string, string>();
function intern(s: string): string {
  const hit = interned.get(s);
  if (hit !== undefined) return hit;
  if (interned.size >= 1024) interned.clear();
  interned.set(s, s);
  return s;
}

/** The counter behind an id of this run, or undefined. */
export function connectionNumber(id: string): number | undefined {
  if (id.length > RUN.length + 12 || !id.startsWith(`${RUN}-`)) return undefined;
  const tail = id.slice(RUN.length + 1);
  const n = parseInt(tail, 36);
  return Number.isSafeInteger(n) && n.toString(36) === tail ? n : undefined;
}

export interface ConnectionOwner {
  /** The transport can take more: write what waits. */
  drained(c: StreamConnection): void;
  /** The connection ended: forget it. */
  closed(c: StreamConnection): void;
}

export abstract class StreamConnection implements SinkListener {
  readonly n = ++issued;
  /** When it opened, and when it was last written an event (-1: never), on the connections' clock. */
  readonly connectedAt = clock();
  lastEventAt = -1;
  eventsSent = 0;
  eventsDropped = 0;
  ended = false;
  closeReason: CloseReason = 'client_closed';
  /** The client's event budget is spent: it takes nothing until its window ends. */
  suspended = false;

  readonly ip: string;
  readonly userAgent: string;

  constructor(
    readonly sink: Sink,
    /** The token's subject; null while a WebSocket has not authenticated. */
    public client: string | null,
    public principal: Principal | undefined,
    ip: string,
    userAgent: string,
    protected readonly owner: ConnectionOwner,
  ) {
    this.ip = intern(ip);
    this.userAgent = intern(userAgent);
    sink.listener = this;
  }

  abstract get transport(): Transport;

  get id(): string {
    return `${RUN}-${this.n.toString(36)}`;
  }

  drained(): void {
    if (!this.ended) this.owner.drained(this);
  }

  gone(): void {
    this.end(this.closeReason);
  }

  /** Ends the connection with a last frame that names the reason. */
  abstract close(reason: CloseReason, message?: string): void;

  /** Bytes held for this client and not yet taken. */
  abstract queuedBytes(): number;

  /** Whether the client is behind (the transport holds bytes for it). */
  abstract behind(): boolean;

  /** Its credential ended (revoked, password changed, user removed, expired). */
  credentialEnded(end: CredentialEnd): void {
    this.close(end.reason, end.message);
  }

  protected end(reason: CloseReason): void {
    if (this.ended) return;
    this.ended = true;
    this.closeReason = reason;
    this.owner.closed(this);
  }

  info(subscriptions: ConnectionSubscription[], sent: number, dropped: number, lastEventAt: number): ConnectionInfo {
    return {
      id: this.id,
      transport: this.transport,
      client_id: this.client ?? '',
      user_id: this.client ?? '',
      connected_at: isoOf(this.connectedAt),
      last_event_at: lastEventAt >= 0 ? isoOf(lastEventAt) : null,
      events_sent: sent,
      events_dropped: dropped,
      subscriptions,
      state: this.client === null ? 'authenticating' : this.behind() ? 'behind' : 'active',
      ip_address: this.ip,
      user_agent: this.userAgent,
      queued_bytes: this.queuedBytes(),
    };
  }
}

/** Server-Sent Events: one channel, read from a position of its own. */
export class SseConnection extends StreamConnection {
  /** The next position of the channel's log to write, and its slot among the channel's members. */
  cursor = 0;
  slot = -1;
  /** The transport holds bytes the client has not taken: wait for `drained`. */
  waiting = false;
  /** The channel's position when the budget ran out (events from there on are dropped). */
  suspendedAt = 0;

  constructor(
    sink: Sink,
    client: string,
    principal: Principal | undefined,
    ip: string,
    userAgent: string,
    owner: ConnectionOwner,
    public channel: SseChannel<SseConnection>,
  ) {
    super(sink, client, principal, ip, userAgent, owner);
  }

  get transport(): Transport {
    return 'sse';
  }

  queuedBytes(): number {
    return this.channel.bytesFrom(this.cursor);
  }

  behind(): boolean {
    return this.waiting;
  }

  close(reason: CloseReason, message = CLOSE_MESSAGES[reason]): void {
    if (this.ended) return;
    this.closeReason = reason;
    // Behind what the client has not read: a slow client still gets it, a dead one is timed out.
    this.sink.close(`event: close\ndata: ${JSON.stringify({ reason, message })}\n\n`, 0, '');
    this.end(reason);
  }
}

/** One subscription of a WebSocket: its topic, the topic's count of messages when it was last settled, when it was made (connections' clock). */
export interface WsSub {
  topic: Topic;
  mark: number;
  made: number;
}

/** A WebSocket: its subscriptions are topics the transport delivers to itself. */
export class WsConnection extends StreamConnection {
  /** Its subscriptions (an array of exactly their number: most sockets hold one). */
  subs?: WsSub[];
  /** A close waiting for the client to take some of what is held, so the last frame fits. */
  closing?: CloseReason;

  constructor(sink: Sink, client: string | null, principal: Principal | undefined, ip: string, userAgent: string, owner: ConnectionOwner) {
    super(sink, client, principal, ip, userAgent, owner);
  }

  get transport(): Transport {
    return 'websocket';
  }

  queuedBytes(): number {
    return this.ended && !this.closing ? 0 : this.sink.buffered();
  }

  behind(): boolean {
    return this.queuedBytes() > 0;
  }

  /** Sends one message now (replies to requests, notices). */
  send(message: string): void {
    if (!this.ended) this.sink.write(message);
  }

  /** Ends delivery at once; the last frame goes as soon as it fits in what the transport may hold for the client. */
  close(reason: CloseReason, message = CLOSE_MESSAGES[reason]): void {
    if (this.ended && !this.closing) return;
    this.closeReason = reason;
    this.end(reason);
    const done = this.sink.close(JSON.stringify({ type: 'closing', reason, message }), WS_CODES[reason] ?? 1000, message.slice(0, 120));
    this.closing = done ? undefined : reason;
  }

  override drained(): void {
    if (this.closing) this.close(this.closing);
    else super.drained();
  }

  override gone(): void {
    this.closing = undefined;
    super.gone();
  }
}
