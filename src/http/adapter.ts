// Turns a uWS request into the request/response pair the router and the routes see. uWS invalidates its request
// object when the handler returns, so everything needed later is copied first; the response is only
// touched while valid (never after onAborted) and always inside cork().
import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import { LINK_PREFIX } from '../auth/discovery-link.js';
import type { HeaderSet } from './security-headers.js';
import type { HttpRequest, HttpResponse } from './uws.js';

export type HeaderValue = string | number | readonly string[];

/** The request as the router and the routes see it. */
export interface BridgeRequest {
  method: string;
  url: string;
  originalUrl: string;
  headers: Record<string, string>;
  /** The peer's address. Read from uWS while its response is valid (see `HeadRequest`). */
  readonly ip: string;
  id: string;
  /** Present when the request announces a body (content-length > 0 or chunked). */
  body?: BodyStream;
  aborted: boolean;
  /** Who was admitted (for the access log): a bridge user, a token's subject, or ha:<name> through ingress. */
  user?: string;
  /** performance.now() at arrival, when the access log is on. */
  started?: number;
  /** Date.now() as the request's head was read: the one clock read admission and the server's books share. */
  readonly arrived: number;
  // Filled in by the router (router.ts), which also takes the /api/v1 alias off `url`:
  path: string;
  query: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
}

/** The request body as a stream: uWS is paused while the consumer is behind. */
export class BodyStream extends Readable {
  private paused = false;
  constructor(
    private readonly res: HttpResponse,
    private readonly state: { aborted: boolean },
  ) {
    super();
  }
  /** Called with each chunk uWS hands over; pauses the socket while the consumer is behind. */
  feed(chunk: Buffer): void {
    // Destroyed: the response is already out (e.g. 413) and uWS must not be touched any more.
    if (this.destroyed) return;
    if (!this.push(chunk) && !this.paused) {
      this.paused = true;
      this.res.pause();
    }
  }
  override _read(): void {
    // Resuming a socket that was never paused upsets uWS's keep-alive handling.
    if (this.paused && !this.state.aborted && !this.destroyed && !this.readableEnded) {
      this.paused = false;
      this.res.resume();
    }
  }
}

const BOOT = randomBytes(4).toString('hex');
let sequence = 0;
const CLIENT_ID = /^[\w.:-]{1,64}$/;

function requestId(given: string | undefined): string {
  return given && CLIENT_ID.test(given) ? given : `${BOOT}-${(++sequence).toString(36)}`;
}

/**
 * A URL as logs may show it: the value of any query parameter whose name, once decoded, is a token
 * or another secret is hidden, and so is the key of the link announced to Home Assistant (/mcp/ha/<key>).
 */
export function loggableUrl(url: string): string {
  const path = url.replace(LINK_KEY, '$1…');
  const q = path.indexOf('?');
  if (q === -1) return path;
  const parts = path
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part;
      let name = part.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A name that does not decode is hidden too: it may be a mangled token.
        return `${part.slice(0, eq)}=***`;
      }
      return SECRET_PARAMS.test(name.trim()) ? `${part.slice(0, eq)}=***` : part;
    });
  return `${path.slice(0, q)}?${parts.join('&')}`;
}

const SECRET_PARAMS = /^(token|access_token|refresh_token|code|code_verifier|password|client_secret)$/i;
// The router matches paths whatever their case, so the key is hidden whatever the prefix's case.
const LINK_KEY = new RegExp(`^(${LINK_PREFIX.replace(/[/.]/g, '\\$&')})[^/?#]*`, 'i');

// The usual methods as one shared string each, instead of a new upper-cased copy per request.
const METHODS = new Map(
  ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].flatMap(
    (m) =>
      [
        [m, m],
        [m.toLowerCase(), m],
      ] as [string, string][],
  ),
);
// Most requests are GETs: compared first, without hashing the fresh string uWS hands over.
const methodName = (m: string): string => (m === 'GET' ? 'GET' : (METHODS.get(m) ?? m.toUpperCase()));

// uWS calls this once per header; it fills the object of the request being read (no closure per request).
let reading: Record<string, string> = {};
const addHeader = (k: string, v: string) => {
  reading[k] = reading[k] === undefined ? v : `${reading[k]}, ${v}`;
};

/**
 * A request's head as copied from uWS. The peer's address alone is read when first asked: uWS
 * hands it over in a new ArrayBuffer, and most requests (those with a token) never look at it. It
 * can only be read while uWS's response is valid, so the front asks for it before uWS's handler
 * returns whenever the answer is still to come, the response is a stream or a socket, or the
 * access log is on (`keepAddress`).
 */
class HeadRequest implements BridgeRequest {
  readonly #res: HttpResponse;
  #ip?: string;
  url: string;
  readonly originalUrl: string;
  readonly id: string;
  body?: BodyStream;
  aborted = false;
  user?: string;
  started?: number;
  readonly arrived = Date.now();
  path = '';
  query: Record<string, string | string[] | undefined> = {};
  params: Record<string, string> = {};

  constructor(
    res: HttpResponse,
    readonly method: string,
    url: string,
    public headers: Record<string, string>,
  ) {
    this.#res = res;
    this.url = this.originalUrl = url;
    this.id = requestId(headers['x-request-id']);
  }

  get ip(): string {
    return (this.#ip ??= Buffer.from(this.#res.getRemoteAddressAsText()).toString());
  }
}

/** Reads the peer's address now, while uWS's response is still valid (it is kept for later). */
export function keepAddress(request: BridgeRequest): void {
  void request.ip;
}

/**
 * Copies what the router and the routes need of a request's head (its line and headers); the
 * body, if one is announced, is taken in by `readBody` once the request is let in.
 */
export function readHead(res: HttpResponse, req: HttpRequest): BridgeRequest {
  const headers: Record<string, string> = (reading = {});
  req.forEach(addHeader);
  const query = req.getQuery();
  return new HeadRequest(res, methodName(req.getCaseSensitiveMethod()), req.getUrl() + (query ? `?${query}` : ''), headers);
}

/** Starts taking in the body a request announces (content-length > 0 or chunked), as `request.body`. */
export function takeBody(res: HttpResponse, out: BridgeRequest): void {
  const length = out.headers['content-length'];
  if ((length !== undefined && length !== '0') || out.headers['transfer-encoding'] !== undefined) {
    const body = new BodyStream(res, out);
    res.onData((chunk, isLast) => {
      // uWS reuses the chunk's memory after this callback, so it is copied.
      if (chunk.byteLength) body.feed(Buffer.from(chunk.slice(0)));
      if (isLast && !body.destroyed) body.push(null);
    });
    out.body = body;
  }
}

/** Reads a whole body, failing with `tooLarge` once more than `limit` bytes arrive. */
export function readBody(body: BodyStream, limit: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    body.on('error', reject);
    body.on('close', () => reject(new Error('request aborted')));
  });
}

const statusLines = new Map<number, string>();
function statusLine(code: number): string {
  let line = statusLines.get(code);
  if (!line) statusLines.set(code, (line = `${code} ${STATUS_CODES[code] ?? 'Unknown'}`));
  return line;
}

// The same few names are set on every answer (the rate limit's, Cache-Control): each keeps one
// lower-case copy, so no new string is made and hashed for them per request.
const lowerNames = new Map<string, string>();
function lowerName(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerNames.size < 512) lowerNames.set(name, lower);
  }
  return lower;
}

/** uWS computes these itself; writing them as well would send them twice. */
const MANAGED = new Set(['content-length', 'transfer-encoding', 'connection', 'date']);

/** What the server keeps of the requests in flight: told once when each response it began is over. */
export interface Books {
  readonly closing: boolean;
  finished?(response: ResponseAdapter): void;
}

export class ResponseAdapter {
  statusCode = 200;
  /** Counted by the server's books (set when it began this response). */
  tracked = false;
  finished = false;
  headersSent = false;
  aborted = false;
  /** True while uWS's own handler runs: uWS has corked the socket already, so no cork() is needed. */
  inHandler = false;
  /** The answer to a HEAD request: its head, with the length the body would have had, and no body. */
  headOnly = false;
  /**
   * Headers set so far, four slots each: lower-case name, name, value, and whether it is one of the
   * front's own (never uWS's nor a policy's, so written without looking). Few per answer: a list beats a map.
   */
  private headers: (string | HeaderValue | boolean)[] = [];
  private closeAfter = false;
  private closers?: (() => void)[];

  constructor(
    private readonly res: HttpResponse,
    /** The security headers of the route's policy; set before the head is written. */
    public baseHeaders: HeaderSet,
    private readonly server: Books,
    /** The request it answers, for the books (absent for answers no request is tracked for). */
    readonly request?: BridgeRequest,
    /** A stream that stays open until the client leaves: a shutdown ends it rather than waiting. */
    readonly longLived = false,
  ) {}

  private find(lower: string): number {
    const h = this.headers;
    for (let i = 0; i < h.length; i += 4) if (h[i] === lower) return i;
    return -1;
  }

  setHeader(name: string, value: HeaderValue): this {
    return this.put(lowerName(name), name, value, false);
  }
  /**
   * `setHeader` for the headers the front sets on answers (request id, content type, rate limit):
   * the caller holds the lower-case name, and the name is neither one uWS writes itself nor a policy's.
   */
  setOwnHeader(lower: string, name: string, value: string): this {
    return this.put(lower, name, value, true);
  }
  private put(lower: string, name: string, value: HeaderValue, own: boolean): this {
    const i = this.find(lower);
    if (i === -1) this.headers.push(lower, name, value, own);
    else {
      this.headers[i + 1] = name;
      this.headers[i + 2] = value;
      this.headers[i + 3] = own;
    }
    return this;
  }
  getHeader(name: string): HeaderValue | undefined {
    const i = this.find(name.toLowerCase());
    return i === -1 ? undefined : (this.headers[i + 2] as HeaderValue);
  }
  hasHeader(name: string): boolean {
    return this.find(name.toLowerCase()) !== -1;
  }
  removeHeader(name: string): void {
    const i = this.find(name.toLowerCase());
    if (i !== -1) this.headers.splice(i, 4);
  }
  /** Ask uWS to close the connection after this response (used when a body was refused unread). */
  closeConnection(): void {
    this.closeAfter = true;
  }

  writeHead(status: number, headers?: Record<string, HeaderValue>): this {
    this.statusCode = status;
    if (headers) for (const k in headers) this.setHeader(k, headers[k]!);
    return this;
  }

  private flushHead(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    const res = this.res;
    // uWS writes "200 OK" itself when no status is written.
    if (this.statusCode !== 200) res.writeStatus(statusLine(this.statusCode));
    const base = this.baseHeaders;
    const h = this.headers;
    let replaced = false;
    for (let i = 0; i < h.length; i += 4) if (h[i + 3] !== true && base.names.has(h[i] as string)) replaced = true;
    if (!replaced) {
      // The policy's headers and this answer's in one call: uWS writes `name: value\r\n`, so the
      // lines after the first ride in its value (each call into uWS costs more than the join).
      let block = base.blockText;
      for (let i = 0; i < h.length; i += 4) {
        if (h[i + 3] !== true && MANAGED.has(h[i] as string)) continue;
        const value = h[i + 2] as HeaderValue;
        if (Array.isArray(value)) for (const one of value) block += `\r\n${h[i + 1]}: ${one}`;
        else block += `\r\n${h[i + 1]}: ${value}`;
      }
      res.writeHeader(base.blockName, block);
    } else {
      for (const b of base.headers) if (this.find(b.lower) === -1) res.writeHeader(b.name, b.value);
      for (let i = 0; i < h.length; i += 4) {
        if (h[i + 3] !== true && MANAGED.has(h[i] as string)) continue;
        const name = h[i + 1] as string;
        const value = h[i + 2] as HeaderValue;
        if (Array.isArray(value)) for (const one of value) res.writeHeader(name, one);
        else res.writeHeader(name, String(value));
      }
    }
    // Sent: a long-lived response (an event stream) need not keep them.
    if (this.longLived) this.headers = [];
  }

  /** Streams a chunk; false means the client is behind and `onDrain` will say when to go on. */
  write(chunk: string | Buffer): boolean {
    if (this.aborted || this.finished) return false;
    let ok = true;
    this.res.cork(() => {
      this.flushHead();
      if (!this.headOnly) ok = this.res.write(chunk);
    });
    return ok;
  }

  onDrain(cb: () => void): void {
    this.res.onWritable(() => {
      cb();
      return true;
    });
  }

  /** Runs once the response is over, whether it ended or the client went away (streams use it). */
  onClose(cb: () => void): void {
    if (this.finished) cb();
    else (this.closers ??= []).push(cb);
  }

  end(chunk?: string | Buffer): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.aborted) {
      if (this.inHandler) this.send(chunk);
      else this.res.cork(() => this.send(chunk));
    }
    this.finish();
  }

  private finish(): void {
    if (this.tracked) this.server.finished?.(this);
    // Most answers have no one waiting for their end: no list is made for them.
    if (this.closers) for (const cb of this.closers.splice(0)) cb();
  }

  private send(chunk: string | Buffer | undefined): void {
    // uWS closes the connection by adding a Connection header; once a streamed body has begun
    // (its head and chunks sent) that header would land inside the body and break its framing, so
    // a stream just ends (its last chunk, then the terminating one) and the connection with it later.
    const streamed = this.headersSent;
    // While the server shuts down, keep-alive connections are closed as their last response goes out.
    const close = !streamed && (this.closeAfter || this.server.closing);
    if (this.headOnly) {
      // A body would be read as the start of the next response on a kept-alive connection.
      const declared = Number(this.getHeader('content-length'));
      const length = chunk !== undefined && chunk.length > 0 ? Buffer.byteLength(chunk) : Number.isInteger(declared) ? declared : 0;
      this.flushHead();
      this.res.endWithoutBody(length, close);
      return;
    }
    this.flushHead();
    this.res.end(chunk ?? '', close);
  }

  /**
   * A long-lived stream leaves the adapter once its head is out: the caller writes to uWS itself
   * from here on, with `aborted` as uWS's abort handler (replacing the adapter's, and with it the
   * request). The request is over for the server's books; the stream's owner ends it at shutdown.
   */
  handOff(aborted: () => void): HttpResponse {
    if (this.aborted) throw new Error('the response is aborted');
    this.res.onAborted(aborted);
    this.finished = true;
    this.finish();
    return this.res;
  }

  /** uWS's abort handler for a tracked request (bound once per response: no closure over the request). */
  clientLeft(): void {
    const r = this.request;
    if (r) {
      r.aborted = true;
      r.body?.destroy();
    }
    this.abort();
  }

  /** Called from onAborted: the uWS response must not be used any more. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    if (!this.finished) {
      this.finished = true;
      this.finish();
    }
  }
}
