// The baselines the bridge is measured against, fed by the same hub: `uws` is a bare
// uWebSockets.js broadcast (SSE responses written in a loop, WebSocket through publish), `peer` is
// what peer bridges write (node:http SSE and the `ws` package). Both take every hub event, turn it
// into JSON once and send it to every client; no history, no filters, no limits.
// usage: node baseline-server.mjs uws|peer PORT [HUB_URL HUB_TOKEN]
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const WebSocket = require('ws');
const [kind, portArg, hubUrl, hubToken] = process.argv.slice(2);
const port = Number(portArg);

let broadcast;
if (kind === 'uws') {
  // Through the bridge's own loader (dist/, built first): the very binary the bridge runs.
  const uws = await import(join(root, 'dist', 'src', 'http', 'uws.js'));
  const app = uws.App();
  const streams = new Set();
  app.get('/sse', (res) => {
    res.onAborted(() => streams.delete(res));
    res.cork(() => {
      res.writeStatus('200 OK').writeHeader('Content-Type', 'text/event-stream').writeHeader('Cache-Control', 'no-cache');
      res.write(': open\n\n');
    });
    streams.add(res);
  });
  app.ws('/ws', { idleTimeout: 120, maxBackpressure: 64 * 1024 * 1024, open: (ws) => ws.subscribe('all') });
  app.listen('127.0.0.1', port, (ok) => {
    if (!ok) process.exit(3);
  });
  broadcast = (json) => {
    const frame = `data: ${json}\n\n`;
    for (const res of streams) res.cork(() => res.write(frame));
    app.publish('all', json, false, false);
  };
} else {
  const streams = new Set();
  const server = createServer((req, res) => {
    if (!req.url.startsWith('/sse')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.write(': open\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
  });
  const wss = new WebSocket.WebSocketServer({ server, path: '/ws', perMessageDeflate: false });
  server.listen(port, '127.0.0.1');
  broadcast = (json) => {
    const frame = `data: ${json}\n\n`;
    for (const res of streams) res.write(frame);
    for (const ws of wss.clients) ws.send(json);
  };
}

// The hub: Home Assistant's WebSocket API, all events (none for an idle run).
if (!hubUrl) setTimeout(() => process.send?.({ ready: true }), 200);
const hub = hubUrl ? new WebSocket(`${hubUrl.replace(/^http/, 'ws')}/api/websocket`) : undefined;
hub?.on('message', (raw) => {
  const m = JSON.parse(raw.toString());
  if (m.type === 'auth_required') hub?.send(JSON.stringify({ type: 'auth', access_token: hubToken }));
  else if (m.type === 'auth_ok') hub?.send(JSON.stringify({ id: 1, type: 'subscribe_events' }));
  else if (m.type === 'result' && m.id === 1) process.send?.({ ready: true });
  else if (m.type === 'event') broadcast(JSON.stringify(m.event));
});
