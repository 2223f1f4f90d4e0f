// One listening socket, owned by uWS. Streaming routes register native handlers through `native`;
// every other request goes through the adapter into the polka router.
import type { Logger } from '../log.js';
import { readRequest, ResponseAdapter } from './adapter.js';
import type { Router } from './routes.js';
import { API_HEADERS, encodeHeaders } from './security-headers.js';
import { App, engine, us_listen_socket_close, us_socket_local_port, type TemplatedApp, type us_listen_socket } from './uws.js';

export interface HttpServer {
  readonly port: number;
  readonly app: TemplatedApp;
  readonly inFlight: number;
  /** Stops accepting, waits for in-flight requests up to `timeoutMs`, and resolves. */
  close(timeoutMs: number): Promise<void>;
}

export interface ServerOptions {
  host: string;
  port: number;
  router: Router;
  log: Logger;
  /** Registers native uWS handlers (SSE, WebSocket) before the catch-all. */
  native?: (app: TemplatedApp, server: { readonly closing: boolean }) => void;
}

export function startHttpServer(opts: ServerOptions): Promise<HttpServer> {
  const app = App();
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const state = {
    get closing() {
      return closing;
    },
  };

  opts.native?.(app, state);
  const apiHeaders = encodeHeaders(API_HEADERS);
  // Decided once: an access log line per request only when someone reads debug logs.
  const accessLog = opts.log.isLevelEnabled('debug');

  app.any('/*', (res, req) => {
    const request = readRequest(res, req);
    const started = accessLog ? performance.now() : 0;
    inFlight++;
    const response = new ResponseAdapter(res, apiHeaders, state, () => {
      // A body still arriving after the answer is dropped, not fed to a finished response.
      if (request.body && !request.body.readableEnded) request.body.destroy();
      if (accessLog) {
        const ms = Math.round((performance.now() - started) * 100) / 100;
        opts.log.debug({ reqId: request.id, method: request.method, url: request.originalUrl, status: response.statusCode, ms, aborted: response.aborted || undefined, ip: request.ip }, 'request');
      }
      if (--inFlight === 0 && drained) drained();
    });
    response.setHeader('X-Request-Id', request.id);
    res.onAborted(() => {
      request.aborted = true;
      request.body?.destroy();
      response.abort();
    });
    response.inHandler = true;
    try {
      opts.router.handler(request, response);
    } finally {
      response.inHandler = false;
    }
  });

  return new Promise((resolve, reject) => {
    app.listen(opts.host, opts.port, (listenSocket: us_listen_socket | false) => {
      if (!listenSocket) {
        reject(new Error(`cannot listen on ${opts.host}:${opts.port} (in use or not permitted)`));
        return;
      }
      const port = us_socket_local_port(listenSocket);
      opts.log.info({ host: opts.host, port, engine }, `listening on ${opts.host}:${port} (uWebSockets.js ${engine} engine)`);
      let closed: Promise<void> | undefined;
      resolve({
        port,
        app,
        get inFlight() {
          return inFlight;
        },
        close(timeoutMs: number) {
          closed ??= new Promise<void>((done) => {
            closing = true;
            us_listen_socket_close(listenSocket);
            if (inFlight === 0) return done();
            const timer = setTimeout(() => {
              opts.log.warn({ inFlight }, 'shutdown: gave up waiting for in-flight requests');
              done();
            }, timeoutMs);
            drained = () => {
              clearTimeout(timer);
              done();
            };
          });
          return closed;
        },
      });
    });
  });
}
