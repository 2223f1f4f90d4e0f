// The ingress path a browser uses, /api/hassio_ingress/<token>/<path>: in a real install Home
// Assistant (hassio/ingress.py) hands it to the Supervisor (supervisor/api/ingress.py), which
// checks the `ingress_session` cookie and forwards to the add-on. Both hops are folded into one
// here, with the headers both set and strip and the answers both give: 401 without a valid
// session, 503 for a token no add-on has, 502 when the add-on cannot be reached (not started).
// Bodies stream both ways; WebSocket upgrades are bridged message by message, as aiohttp does.
import { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse, request as httpRequest } from 'node:http';
import type { Duplex } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { WebSocket, type WebSocketServer } from 'ws';
import type { Addon, SimSupervisor } from './supervisor.js';

export const INGRESS_PREFIX = '/api/hassio_ingress/';

/** What neither hop passes on: framing, encodings, the client's WebSocket handshake, tokens, forged user headers, hop-by-hop. */
const DROP_REQUEST = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'accept-encoding', // Home Assistant compresses at the border itself
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'sec-websocket-version',
  'sec-websocket-key',
  'x-supervisor-token',
  'x-hassio-key',
  'x-remote-user-id',
  'x-remote-user-name',
  'x-remote-user-display-name',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]);
/** Dropped from the add-on's answer; content-type comes back without its parameters. */
const DROP_RESPONSE = new Set(['transfer-encoding', 'content-length', 'content-type', 'content-encoding', 'connection', 'keep-alive']);
/** Below this, both hops answer with a plain response of known length; above, they stream. */
const MAX_SIMPLE_RESPONSE = 4_194_000;

const PLAIN = { 400: '400: Bad Request', 401: '401: Unauthorized', 404: '404: Not Found', 502: '502: Bad Gateway', 503: '503: Service Unavailable' } as const;
type PlainStatus = keyof typeof PLAIN;

interface Target {
  token: string;
  /** The path under the add-on's root, with its query. */
  path: string;
}

/** Splits /api/hassio_ingress/<token>/<path>; 404 without the slash after the token, 400 if the path climbs out. */
function parseTarget(rawUrl: string): Target | PlainStatus {
  const q = rawUrl.indexOf('?');
  const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const search = q < 0 ? '' : rawUrl.slice(q);
  const rest = pathname.slice(INGRESS_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return 404;
  const token = rest.slice(0, slash);
  const base = `/ingress/${token}/`;
  let resolved: string;
  try {
    resolved = new URL(base + rest.slice(slash + 1), 'http://supervisor').pathname;
  } catch {
    return 400;
  }
  if (!resolved.startsWith(base)) return 400;
  return { token, path: `/${resolved.slice(base.length)}${search}` };
}

function cookie(req: IncomingMessage, name: string): string {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return '';
}

const ip = (addr: string | undefined) => (addr ?? '').replace(/^::ffff:/, '');

/** The session check, then the add-on: what both hops answer before anything reaches it. */
function admit(sup: SimSupervisor, req: IncomingMessage): { target: Target; addon: Addon; session: string } | PlainStatus {
  const target = parseTarget(req.url ?? '/');
  if (typeof target === 'number') return target;
  const session = cookie(req, 'ingress_session');
  if (!sup.validateSession(session)) return 401;
  const addon = sup.addonForIngressToken(target.token);
  if (!addon) return 503;
  // A stopped add-on's container does not answer: the connection fails, HTTPBadGateway.
  if (addon.state !== 'started') return 502;
  return { target, addon, session };
}

/** _init_header of both hops: the client's headers less the dropped ones, plus who and where. */
function upstreamHeaders(sup: SimSupervisor, req: IncomingMessage, token: string, session: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const key = name.toLowerCase();
    if (DROP_REQUEST.has(key)) continue;
    const prev = out[key];
    out[key] = prev === undefined ? raw[i + 1]! : [...(Array.isArray(prev) ? prev : [String(prev)]), raw[i + 1]!];
  }
  const user = sup.sessionUser(session);
  if (user) {
    out['x-remote-user-id'] = user.id;
    if (user.username !== null) out['x-remote-user-name'] = user.username;
    if (user.displayName !== null) out['x-remote-user-display-name'] = user.displayName;
  }
  const h: IncomingHttpHeaders = req.headers;
  out['x-hass-source'] = 'core.ingress';
  out['x-ingress-path'] = `/api/hassio_ingress/${token}`;
  // Home Assistant adds the browser's address, the Supervisor then Home Assistant's.
  const xff = typeof h['x-forwarded-for'] === 'string' && h['x-forwarded-for'] ? `${h['x-forwarded-for']}, ` : '';
  out['x-forwarded-for'] = `${xff}${ip(req.socket.remoteAddress)}, ${ip(req.socket.localAddress)}`;
  out['x-forwarded-host'] = h['x-forwarded-host'] || h.host || '';
  out['x-forwarded-proto'] = h['x-forwarded-proto'] || 'http';
  return out;
}

function sendPlain(res: ServerResponse, status: PlainStatus): void {
  const body = PLAIN[status];
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function decoder(encoding: string | undefined) {
  if (encoding === 'gzip' || encoding === 'x-gzip') return createGunzip();
  if (encoding === 'deflate') return createInflate();
  if (encoding === 'br') return createBrotliDecompress();
  return undefined;
}

export function handleIngressRequest(sup: SimSupervisor, req: IncomingMessage, res: ServerResponse): void {
  const admitted = admit(sup, req);
  if (typeof admitted === 'number') {
    req.resume();
    return sendPlain(res, admitted);
  }
  const { target, addon, session } = admitted;
  const method = req.method ?? 'GET';
  const headers = upstreamHeaders(sup, req, target.token, session);
  // The Supervisor reads the body first unless the add-on asked for POSTs to stream (ingress_stream).
  const stream = method === 'POST' && addon.ingressStream;

  const up = httpRequest({
    host: addon.url.hostname,
    port: addon.url.port || 80,
    method,
    path: target.path,
    headers,
    agent: false,
    ...(sup.ingressSourceAddress ? { localAddress: sup.ingressSourceAddress } : {}),
  });
  let answered = false;
  up.on('error', () => {
    if (!answered && !res.headersSent) sendPlain(res, 502);
    else res.destroy();
  });
  // A browser that goes away takes the add-on's request with it.
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  up.on('response', (upRes) => {
    answered = true;
    const status = upRes.statusCode ?? 502;
    const out: string[] = [];
    const raw = upRes.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (!DROP_RESPONSE.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
    const rawType = upRes.headers['content-type'];
    const type = rawType ? rawType.split(';')[0]!.trim() : 'application/octet-stream';
    if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) {
      if (rawType) out.push('Content-Type', type);
      res.writeHead(status, out);
      res.end();
      upRes.resume();
      return;
    }
    out.push('Content-Type', type);
    const decode = decoder(upRes.headers['content-encoding']);
    const length = upRes.headers['content-length'];
    if (length !== undefined && Number(length) < MAX_SIMPLE_RESPONSE && !decode) out.push('Content-Length', length);
    else out.push('X-Accel-Buffering', 'no');
    res.writeHead(status, out);
    res.flushHeaders();
    const body = decode ? upRes.pipe(decode) : upRes;
    if (decode) decode.on('error', () => res.destroy());
    upRes.on('error', () => res.destroy());
    body.pipe(res);
  });

  if (method === 'GET') {
    req.resume();
    up.end();
  } else if (stream) {
    req.pipe(up);
  } else {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      up.setHeader('content-length', body.length);
      up.end(body);
    });
  }
}

/** aiohttp's WebSocketResponse picks the first protocol the client offers from its (same) list. */
export const firstProtocol = (protocols: Set<string>): string | false => protocols.values().next().value ?? false;

const CLOSABLE = (code: number) => (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);

/**
 * A WebSocket under the ingress path: the browser's handshake is answered first (as the
 * Supervisor prepares its side before dialling the add-on), then messages, pings and the close
 * pass between the two sockets.
 */
export function handleIngressUpgrade(sup: SimSupervisor, wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const admitted = admit(sup, req);
  if (typeof admitted === 'number') {
    const body = PLAIN[admitted];
    socket.end(
      `HTTP/1.1 ${admitted} ${body.slice(5)}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    return;
  }
  const { target, addon, session } = admitted;
  const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  wss.handleUpgrade(req, socket, head, (client) => {
    const url = `ws://${addon.url.host}${target.path}`;
    const upstream = new WebSocket(url, protocols, {
      headers: upstreamHeaders(sup, req, target.token, session) as Record<string, string>,
      perMessageDeflate: false,
      ...(sup.ingressSourceAddress ? { localAddress: sup.ingressSourceAddress } : {}),
    });
    const pending: Array<{ data: Buffer; isBinary: boolean }> = [];
    client.on('message', (data, isBinary) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data as Buffer, { binary: isBinary });
      else pending.push({ data: data as Buffer, isBinary });
    });
    upstream.on('open', () => {
      for (const m of pending.splice(0)) upstream.send(m.data, { binary: m.isBinary });
    });
    upstream.on('message', (data, isBinary) => {
      if (client.readyState === WebSocket.OPEN) client.send(data as Buffer, { binary: isBinary });
    });
    client.on('ping', (d) => upstream.readyState === WebSocket.OPEN && upstream.ping(d));
    upstream.on('ping', (d) => client.readyState === WebSocket.OPEN && client.ping(d));
    const closeOther = (other: WebSocket) => (code: number, reason: Buffer) => {
      if (other.readyState === WebSocket.OPEN) other.close(CLOSABLE(code) ? code : 1000, reason);
      else if (other.readyState === WebSocket.CONNECTING) other.terminate();
    };
    client.on('close', closeOther(upstream));
    upstream.on('close', closeOther(client));
    // The add-on refused or vanished: the browser's socket goes too.
    upstream.on('error', () => client.readyState === WebSocket.OPEN && client.close(1011));
    client.on('error', () => upstream.terminate());
  });
}
