// Opens an authenticated WebSocket to the hub for home-assistant-js-websocket. It uses `ws` rather
// than Node's global WebSocket for a handshake timeout, a payload cap (a large home's first
// get_states is tens of MB) and terminate() on a stuck connection. The library calls `createSocket` on every reconnect; ours
// retries by itself with backoff, so the library never gives up (it would after a wrong token).
import WebSocket from 'ws';
import type { Logger } from '../log.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import { MSG } from './protocol.js';

export type HubSocket = WebSocket & { haVersion: string };

export class InvalidAuthError extends Error {
  override name = 'InvalidAuthError';
}

/** Turns http(s)://host into ws(s)://host/api/websocket; ws(s):// URLs are used as they are. */
export function websocketUrl(base: string): string {
  if (/^wss?:\/\//i.test(base)) return base;
  return `${base.replace(/^http/i, 'ws').replace(/\/+$/, '')}/api/websocket`;
}

/** One attempt: connect, authenticate, ask for coalesced messages. */
export function connectOnce(url: string, token: string, timeoutMs: number): Promise<HubSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: 256 * 1024 * 1024 }) as HubSocket;
    let done = false;
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
      reject(err);
    };
    const timer = setTimeout(() => fail(new Error(`no answer from ${url} within ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', (err) => fail(err));
    socket.on('close', (code) => fail(new Error(`connection closed during authentication (code ${code})`)));
    socket.on('message', (raw) => {
      let msg: { type?: string; ha_version?: string; message?: string };
      try {
        msg = JSON.parse(String(raw));
      } catch {
        fail(new Error('the hub sent something that is not JSON'));
        return;
      }
      if (msg.type === MSG.authRequired) {
        socket.send(JSON.stringify({ type: MSG.auth, access_token: token }));
      } else if (msg.type === MSG.authInvalid) {
        fail(new InvalidAuthError(msg.message ?? 'invalid access token'));
      } else if (msg.type === MSG.authOk) {
        done = true;
        clearTimeout(timer);
        socket.removeAllListeners();
        socket.haVersion = msg.ha_version ?? 'unknown';
        // Id 1 is reserved by the library for this message.
        socket.send(JSON.stringify({ type: MSG.supportedFeatures, id: 1, features: { coalesce_messages: 1 } }));
        resolve(socket);
      }
    });
  });
}

export interface SocketFactoryOptions {
  url: string;
  token: string;
  log: Logger;
  connectTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** Delay between attempts after a refused token: the token will not fix itself quickly. */
  authRetryMs?: number;
  /**
   * Called when an attempt fails, with the attempts since the last connection (1: the first) and
   * whether the last failed attempt had the same kind of problem.
   */
  onAttemptFailed?: (err: Error, attempt: number, repeated: boolean) => void;
  /** Called when an attempt succeeds, with the attempts it took (1: the first try). */
  onConnected?: (attempts: number) => void;
  /** Aborted when the client closes: stops the retry loop, also mid-wait. */
  signal: AbortSignal;
}

/** The library's `createSocket`, which also tells how many attempts are under way. */
export interface SocketFactory {
  (): Promise<HubSocket>;
  /** Connection attempts since the last connection, the one under way included (0 while connected). */
  readonly attempts: number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/** Returns the `createSocket` for the library: resolves once connected, retrying until closed. */
export function socketFactory(opts: SocketFactoryOptions): SocketFactory {
  const timeout = opts.connectTimeoutMs ?? 10_000;
  const authRetry = opts.authRetryMs ?? 60_000;
  let lastProblem = '';
  let attempts = 0;
  const create = async () => {
    for (;;) {
      if (opts.signal.aborted) throw new Error('hub client closed');
      attempts++;
      try {
        const socket = await connectOnce(opts.url, opts.token, timeout);
        const took = attempts;
        lastProblem = '';
        attempts = 0;
        opts.onConnected?.(took);
        return socket;
      } catch (err) {
        const e = err as Error;
        const auth = e instanceof InvalidAuthError;
        const problem = auth ? 'auth' : e.message;
        const repeated = problem === lastProblem;
        // One line per kind of problem, not one per attempt.
        if (!repeated) {
          if (auth) opts.log.error(`hub refused the access token (${e.message}); check HASS_TOKEN. Retrying every ${Math.round(authRetry / 1000)} s`);
          else opts.log.warn({ url: opts.url }, `hub not reachable: ${e.message}; retrying with backoff`);
          lastProblem = problem;
        }
        opts.onAttemptFailed?.(e, attempts, repeated);
        const delay = auth ? authRetry : backoffDelay(attempts - 1, opts.backoff ?? DEFAULT_BACKOFF);
        await sleep(delay, opts.signal);
      }
    }
  };
  return Object.defineProperty(create, 'attempts', { get: () => attempts, enumerable: true }) as SocketFactory;
}
