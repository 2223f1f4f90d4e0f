// The baseline: uWebSockets.js alone, answering GET /health with a small JSON body. No router,
// no adapter, no auth, so the gap to the bridge is what our layers cost.
// Usage: PORT=<port> [HOST=127.0.0.1] node bench/http/bare-uws.mjs
// uWS is loaded through the bridge's own loader (dist/, built first), so the baseline runs the very
// binary the bridge runs (on glibc < 2.38, the checked copy) and says which engine that is.
import * as uws from '../../dist/src/http/uws.js';

const engine = () => uws.engine;

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
