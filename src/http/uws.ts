// The only module that imports uWebSockets.js. The package silently swaps in a pure-JS copy of
// itself when its native binary does not load, so we load that binary ourselves and compare.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import uws from 'uWebSockets.js';

import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket, WebSocket, us_socket_context_t } from 'uWebSockets.js';

export type Engine = 'native' | 'fallback';

function detectEngine(): Engine {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('uWebSockets.js/package.json'));
  const binary = join(dir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  try {
    // Same path, same module cache entry: identical objects exactly when the native build is in use.
    return require(binary) === uws ? 'native' : 'fallback';
  } catch {
    return 'fallback';
  }
}

export const engine: Engine = detectEngine();
export const { App, us_listen_socket_close, us_socket_local_port } = uws;

/**
 * Listens with the port to ourselves. uSockets otherwise sets SO_REUSEPORT, so a second process
 * on a taken port starts too and the kernel splits the connections between the two.
 */
export function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (socket: us_listen_socket | false) => void): void {
  // The native build takes (host, port, options, cb); the typings only know (port, options, cb).
  const listen = app.listen.bind(app) as unknown as (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => void;
  listen(host, port, (uws as { LIBUS_LISTEN_EXCLUSIVE_PORT?: number }).LIBUS_LISTEN_EXCLUSIVE_PORT ?? 1, cb);
}
