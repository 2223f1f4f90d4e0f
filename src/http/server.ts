// One listening socket, owned by uWS. The front (src/http/front.ts) mounts the route table on it:
// native handlers for streams and WebSockets, polka behind the catch-all for everything else.
import type { Logger } from '../log.js';
import { loggableUrl, readRequest, type ResponseAdapter, type BridgeRequest } from './adapter.js';
import { accept, awaitAnswer, jsonRouter, mountNative, type FrontDeps, type Tracker } from './front.js';
import type { RouteTable, SocketData } from './routes.js';
import { App, engine, us_listen_socket_close, us_socket_local_port, type TemplatedApp, type us_listen_socket, type WebSocket } from './uws.js';

export interface HttpServer {
  readonly port: number;
  readonly app: TemplatedApp;
  readonly inFlight: number;
  /** Stops accepting, ends open streams and sockets, waits for in-flight requests up to `timeoutMs`. */
  close(timeoutMs: number): Promise<void>;
}

export interface ServerOptions extends FrontDeps {
  host: string;
  port: number;
  routes: RouteTable;
  log: Logger;
}

const GOING_AWAY = 1001;

export function startHttpServer(opts: ServerOptions): Promise<HttpServer> {
  const app = App();
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const streams = new Set<ResponseAdapter>();
  // Decided once: an access log line per request only when someone reads debug logs.
  const accessLog = opts.log.isLevelEnabled('debug');

  const tracker: Tracker = {
    get closing() {
      return closing;
    },
    sockets: new Set<WebSocket<SocketData>>(),
    begin(response: ResponseAdapter) {
      response.tracked = true;
      if (accessLog) response.request!.started = performance.now();
      // Streams stay open until the client leaves; a shutdown ends them rather than waiting.
      if (response.longLived) streams.add(response);
      else inFlight++;
    },
    finished(response: ResponseAdapter) {
      const request = response.request!;
      // A body still arriving after the answer is dropped, not fed to a finished response.
      if (request.body && !request.body.readableEnded) request.body.destroy();
      if (accessLog) {
        const ms = Math.round((performance.now() - request.started!) * 100) / 100;
        opts.log.debug({ reqId: request.id, method: request.method, url: loggableUrl(request.originalUrl), status: response.statusCode, ms, aborted: response.aborted || undefined, ip: request.ip, user: request.user }, 'request');
      }
      if (response.longLived) streams.delete(response);
      else if (--inFlight === 0 && drained) drained();
    },
  };

  mountNative(app, opts.routes, opts, tracker);
  const router = jsonRouter(opts.routes, opts);

  app.any('/*', (res, req) => {
    const request = readRequest(res, req);
    const response = accept(res, request, tracker, false);
    response.inHandler = true;
    try {
      router.handler(request, response);
    } finally {
      response.inHandler = false;
      awaitAnswer(res, response);
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
            for (const s of [...streams]) s.end();
            for (const ws of [...tracker.sockets]) ws.end(GOING_AWAY, 'server shutting down');
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
