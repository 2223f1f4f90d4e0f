// The transport side of live events: an SSE response and a uWS WebSocket as the fan-out's sinks,
// uWS's own publish for its topics, and the WebSocket route's handlers. stream/ sees none of this.
import type { Sink, SinkListener, TopicPublisher } from '../stream/sink.js';
import { MESSAGE_LIMIT, type Authenticate, type SocketChannel } from '../stream/socket-channel.js';
import type { WsConnection } from '../stream/connection.js';
import type { ResponseAdapter } from './adapter.js';
import type { Admit } from './admission.js';
import type { SocketData, SocketHandlers } from './routes.js';
import type { HttpResponse, TemplatedApp, WebSocket } from './uws.js';

const SSE_HEAD = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' };

// One write or end at a time runs inside uWS's cork; these carry its arguments, so a write makes no closure.
let corkRes: HttpResponse;
let corkBytes: Buffer | string;
let corkOk = false;
const corkedWrite = () => {
  corkOk = corkRes.write(corkBytes);
};
// An SSE comment line: clients ignore it; it is written only to make uWS send what it holds.
const FLUSH = ':\n';
const corkedEnd = () => {
  corkRes.end(corkBytes);
};

/**
 * Server-Sent Events on a native response. The first write goes through the adapter (head,
 * security and rate-limit headers); then the response is handed off and the sink writes to uWS
 * itself, keeping nothing of the request.
 */
export class SseSink implements Sink {
  listener?: SinkListener;
  private res?: HttpResponse;
  private gone = false;
  private onWritable?: () => boolean;
  /** Writes made since the response was handed off (to tell whether a drain wrote anything). */
  private writes = 0;

  constructor(private adapter: ResponseAdapter | undefined) {}

  write(bytes: Buffer | string): boolean {
    if (this.gone) return false;
    const res = this.res;
    if (!res) return this.first(bytes);
    corkRes = res;
    corkBytes = bytes;
    res.cork(corkedWrite);
    corkBytes = '';
    this.writes++;
    if (corkOk) return true;
    res.onWritable((this.onWritable ??= this.writable.bind(this)));
    return false;
  }

  /**
   * The socket can take more. While a handler is registered uWS sends what it holds only with the
   * next write, so when the listener writes nothing now (the client has had every event), a comment
   * line carries it out: else the last frames would wait for the next event.
   */
  private writable(): boolean {
    const before = this.writes;
    this.listener?.drained();
    if (this.writes === before && !this.gone && this.res) this.write(FLUSH);
    return true;
  }

  private first(bytes: Buffer | string): boolean {
    const adapter = this.adapter!;
    adapter.writeHead(200, SSE_HEAD);
    const ok = adapter.write(bytes);
    if (adapter.aborted) {
      this.gone = true;
      return false;
    }
    // A bound method, not a closure: no context object per stream.
    this.res = adapter.handOff(this.aborted.bind(this));
    this.adapter = undefined;
    if (!ok) this.res.onWritable((this.onWritable ??= this.writable.bind(this)));
    return ok;
  }

  private aborted(): void {
    this.gone = true;
    this.listener?.gone();
  }

  cork(fn: () => void): void {
    if (this.res && !this.gone) this.res.cork(fn);
    else fn();
  }

  buffered(): number {
    return 0;
  }

  close(last: string): boolean {
    if (this.gone) return true;
    this.gone = true;
    // A plain end: the last frame and the chunked body's end, behind anything unsent. (Asking uWS
    // to close the connection here writes a "Connection: close" header into the body, which
    // breaks the chunked framing, and clients drop the last frame.)
    if (this.res) {
      corkRes = this.res;
      corkBytes = last;
      this.res.cork(corkedEnd);
      corkBytes = '';
    } else this.adapter!.end(last);
    this.listener?.gone();
    return true;
  }
}

const SENT = 1;

/** A uWS WebSocket. `max` is the route's maxBackpressure: beyond it uWS drops what is sent. */
export class WsSink implements Sink {
  listener?: SinkListener;
  open = true;

  constructor(
    private readonly ws: WebSocket<SocketData>,
    private readonly max: number,
  ) {}

  write(bytes: Buffer | string): boolean {
    return this.open && this.ws.send(bytes, false, false) === SENT;
  }

  cork(fn: () => void): void {
    if (this.open) this.ws.cork(fn);
  }

  buffered(): number {
    return this.open ? this.ws.getBufferedAmount() : 0;
  }

  close(last: string, code: number, reason: string): boolean {
    if (!this.open) return true;
    // Past the maximum uWS would drop the last frame too: wait until the client takes some.
    if (this.ws.getBufferedAmount() > this.max) return false;
    this.ws.cork(() => {
      this.ws.send(last, false, false);
      this.ws.end(code, reason);
    });
    return true;
  }

  subscribe(topic: string): void {
    if (this.open) this.ws.subscribe(topic);
  }

  unsubscribe(topic: string): void {
    if (this.open) this.ws.unsubscribe(topic);
  }
}

/** uWS's publish: the same bytes to every socket on the topic, written in uWS's own loop. */
export const topicPublisher = (app: TemplatedApp): TopicPublisher => ({
  publish: (topic, message) => {
    app.publish(topic, message, false, false);
  },
});

/** A token sent as a WebSocket message, through the one admission. */
export const messageAuthenticator =
  (admit: Admit): Authenticate =>
  (token, ip) => {
    const admitted = admit({ headers: { authorization: `Bearer ${token}` }, ip }, { rateLimited: false });
    return admitted instanceof Promise ? admitted.then((a) => a.principal) : admitted.principal;
  };

/**
 * What uWS reads of one message before it gives up. uWS drops a socket whose message passes its
 * maxPayloadLength without a close frame (the client sees 1006), so it is given more room than
 * the channel's limit: a message between the two is read and refused in words (a PAYLOAD_TOO_LARGE
 * error, then close 1009). Only past this ceiling does uWS cut the socket at the frame's header.
 */
export const RECEIVE_CEILING = 16 * MESSAGE_LIMIT;

const overLimit = (sockets: SocketChannel, c: WsConnection) => sockets.overLimit(c);

const connectionOf = (ws: WebSocket<SocketData>) => (ws.getUserData().state as WsSink | undefined)?.listener as WsConnection | undefined;

/**
 * The WebSocket route's handlers over the channel. `maxBackpressure` is what uWS may hold for one
 * socket: the stream buffer limit, so a client that never reads cannot grow memory past it.
 */
export function socketHandlers(sockets: SocketChannel, maxBackpressure: number): SocketHandlers {
  return {
    open: (ws) => {
      const data = ws.getUserData();
      const sink = new WsSink(ws, maxBackpressure);
      const request = data.request!;
      const principal = data.principal;
      // The socket lives on; its upgrade's headers (a token among them) need not.
      data.request = undefined;
      data.principal = undefined;
      data.state = sink;
      sockets.open(sink, { principal, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
    },
    message: (ws, raw, isBinary) => {
      const c = connectionOf(ws);
      if (!c) return;
      if (raw.byteLength > MESSAGE_LIMIT) sockets.tooLarge(c, raw.byteLength);
      else sockets.message(c, isBinary ? undefined : Buffer.from(raw).toString('utf8'));
    },
    drain: (ws) => connectionOf(ws)?.drained(),
    // uWS calls this from inside a send or a publish, walking the topic's sockets: closing here would
    // leave topics under that walk (a crash), so the socket is closed once the walk is over.
    dropped: (ws) => {
      const c = connectionOf(ws);
      if (c) setImmediate(overLimit, sockets, c);
    },
    close: (ws) => {
      const sink = ws.getUserData().state as WsSink | undefined;
      if (!sink) return;
      sink.open = false;
      const c = sink.listener as WsConnection | undefined;
      if (!c) return;
      sockets.closed(c);
      c.gone();
    },
    maxPayloadLength: RECEIVE_CEILING,
    idleTimeout: 120,
    maxBackpressure,
  };
}
