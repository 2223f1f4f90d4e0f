// The baseline: uWebSockets.js alone, answering GET /health with a small JSON body. No router,
// no adapter, no auth, so the gap to the bridge is what our layers cost.
// Usage: PORT=<port> [HOST=127.0.0.1] node bench/http/bare-uws.mjs
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import uws from 'uWebSockets.js';

// The package falls back to a pure-JS copy when its binary does not load; a fallback baseline would
// make every percentage meaningless, so say which engine runs.
function engine() {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('uWebSockets.js/package.json'));
  try {
    return require(join(dir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`)) === uws ? 'native' : 'fallback';
  } catch {
    return 'fallback';
  }
}

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 0);
const body = JSON.stringify({ status: 'healthy', version: 'bare-uws' });

uws
  .App()
  .get('/health', (res) => {
    res.writeHeader('Content-Type', 'application/json; charset=utf-8').end(body);
  })
  .any('/*', (res) => {
    res.writeStatus('404 Not Found').end();
  })
  .listen(host, port, (socket) => {
    if (!socket) {
      process.stderr.write(`bare-uws: cannot listen on ${host}:${port}\n`);
      process.exit(1);
    }
    process.stdout.write(`${JSON.stringify({ listening: uws.us_socket_local_port(socket), engine: engine() })}\n`);
  });

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
