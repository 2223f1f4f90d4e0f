// One listening socket, owned by uWS. The front (src/http/front.ts) mounts the route table on it:
// one catch-all that hands every request to the router (polka's table), and the WebSocket upgrades.
import type { Logger } from '../log.js';
import { keepAddress, loggableUrl, type ResponseAdapter } from './adapter.js';
import { mountFront, type FrontDeps, type Tracker } from './front.js';
import type { RouteTable, SocketData } from './routes.js';
import { createServer } from 'node:net';
import { App, engine, listenExclusive, us_listen_socket_close, us_socket_local_port, type TemplatedApp, type us_listen_socket, type WebSocket } from './uws.js';

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
  /** The uWS app to serve on, made beforehand so parts built earlier can publish on it (default: a new one). */
  app?: TemplatedApp;
}

const GOING_AWAY = 1001;
/** How long kept-alive connections must stay quiet before a stopping server closes them. */
const QUIET_MS = 100;

export function startHttpServer(opts: ServerOptions): Promise<HttpServer> {
  const app = opts.app ?? App();
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  // The last time a request began, ended or was refused: a stopping server waits for quiet.
  let lastActivity = 0;
  const streams = new Set<ResponseAdapter>();
  // Decided once: an access log line per request only when someone reads debug logs.
  const accessLog = opts.log.isLevelEnabled('debug');

  const tracker: Tracker = {
    get closing() {
      return closing;
    },
    refused() {
      lastActivity = Date.now();
    },
    sockets: new Set<WebSocket<SocketData>>(),
    begin(response: ResponseAdapter) {
      lastActivity = response.request!.arrived;
      response.tracked = true;
      if (accessLog) {
        response.request!.started = performance.now();
        // The log line names the address, written after uWS's response has ended.
        keepAddress(response.request!);
      }
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
        opts.log.debug(
          {
            reqId: request.id,
            method: request.method,
            url: loggableUrl(request.originalUrl),
            status: response.statusCode,
            ms,
            aborted: response.aborted || undefined,
            ip: request.ip,
            user: request.user,
          },
          'request',
        );
      }
      // An answer made within uWS's handler call ends when it began (begin read the clock).
      if (closing || !response.inHandler) lastActivity = Date.now();
      if (response.longLived) streams.delete(response);
      else if (--inFlight === 0 && drained) drained();
    },
  };

  mountFront(app, opts.routes, opts, tracker);

  return new Promise((resolve, reject) => {
    listenExclusive(app, opts.host, opts.port, (listenSocket: us_listen_socket | false) => {
      if (!listenSocket) {
        void whyNotListening(opts.host, opts.port).then((why) => reject(new Error(`cannot listen: ${why}`)));
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
          closed ??= new Promise<void>((resolve) => {
            // No new connections; new requests on open ones get 503 (refusedAtDoor).
            closing = true;
            us_listen_socket_close(listenSocket);
            for (const s of [...streams]) s.end();
            for (const ws of [...tracker.sockets]) ws.end(GOING_AWAY, 'server shutting down');
            const giveUp = Date.now() + timeoutMs;
            const done = () => {
              // Drained. A client may still be sending on a connection kept alive from before; it
              // gets its 503 (and the connection closes) until the connections have been quiet for
              // a moment, so no request is cut off unanswered. Then whatever is left is closed.
              const quiet = () => {
                const now = Date.now();
                if (now - lastActivity < QUIET_MS && now < giveUp) return void setTimeout(quiet, QUIET_MS / 4);
                // Once more after the loop has read the sockets (a timer may run first after a stall).
                const seen = lastActivity;
                setImmediate(() => {
                  if (lastActivity !== seen && Date.now() < giveUp) return void setTimeout(quiet, QUIET_MS / 4);
                  (app as { close?: () => void }).close?.();
                  resolve();
                });
              };
              quiet();
            };
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

/** uWS says only that listening failed; the same attempt through node:net says why. */
function whyNotListening(host: string, port: number): Promise<string> {
  const where = `port ${port} on ${host}`;
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve(`${where} is already in use (another bridge, or another program); stop it or set PORT`);
      else if (err.code === 'EACCES') resolve(`${where} is not permitted for this user (ports below 1024 need privileges); set PORT`);
      else if (err.code === 'EADDRNOTAVAIL') resolve(`${host} is not an address of this machine; set HOST`);
      else resolve(`${where}: ${err.code ?? err.message}`);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(`${where} could not be opened`)));
  });
}
