// bench/events's load clients (forked by run.mjs, several processes): many SSE or WebSocket
// connections over raw TCP, parsed cheaply: events are counted by the `"time_fired":"` each event
// message carries, found in the raw bytes (SSE text, or unmasked WebSocket frames from a server);
// on every k-th connection the time is read and the latency from the hub's time_fired kept.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

const MARK = Buffer.from('"time_fired":"');
const KEEP = MARK.length - 1;
const EMPTY = Buffer.alloc(0);
let count = 0;
let latencies = [];
let connected = 0;
let failed = 0;
/** Streams that answered and were cut later (by the server, since the bench never closes one before the end). */
let ended = 0;
const sockets = [];

/** A masked WebSocket text frame (clients must mask). */
function maskedText(text) {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
  const body = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) body[i] = payload[i] ^ mask[i & 3];
  return Buffer.concat([head, mask, body]);
}

function open(o, index) {
  const sample = index % o.sampleEvery === 0;
  const s = connect(o.port, o.host);
  sockets.push(s);
  let headDone = false;
  let carry = Buffer.alloc(0);
  s.setNoDelay(true);
  s.on('connect', () => {
    const auth = o.token ? `Authorization: Bearer ${o.token}\r\n` : '';
    if (o.transport === 'sse') s.write(`GET ${o.path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n${auth}\r\n`);
    else
      s.write(
        `GET ${o.path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n${auth}\r\n`,
      );
  });
  s.on('data', (chunk) => {
    if (!headDone) {
      const end = chunk.indexOf('\r\n\r\n');
      if (end === -1) return;
      const status = chunk.subarray(0, 16).toString();
      if (!/^HTTP\/1\.1 (200|101)\b/.test(status)) {
        s.refusedCounted = true;
        failed++;
        s.destroy();
        return report();
      }
      headDone = true;
      connected++;
      if (o.transport === 'ws' && o.subscribe) s.write(maskedText(o.subscribe));
      report();
      chunk = chunk.subarray(end + 4);
    }
    // A mark split between two reads: the last bytes of the one before, joined with the start of
    // this one (a few bytes copied, not the whole chunk, which would copy every byte read once more).
    if (carry.length && chunk.length < 64) {
      chunk = Buffer.concat([carry, chunk]);
      carry = EMPTY;
    }
    if (carry.length) {
      const joint = Buffer.concat([carry, chunk.subarray(0, KEEP)]);
      if (joint.indexOf(MARK) !== -1) count++;
    }
    let from = 0;
    for (;;) {
      const at = chunk.indexOf(MARK, from);
      if (at === -1) break;
      count++;
      if (sample) {
        const t0 = at + MARK.length;
        const t1 = chunk.indexOf(34, t0);
        if (t1 !== -1) latencies.push(performance.timeOrigin + performance.now() - Date.parse(chunk.toString('latin1', t0, t1)));
      }
      from = at + MARK.length;
    }
    carry = Buffer.from(chunk.subarray(Math.max(from, chunk.length - KEEP)));
  });
  // Refused or cut before its answer (the server out of descriptors, say): counted, once.
  const refused = () => {
    if (headDone && !s.endedCounted) {
      s.endedCounted = true;
      ended++;
    }
    if (headDone || s.refusedCounted) return;
    s.refusedCounted = true;
    failed++;
    report();
  };
  s.on('error', refused);
  s.on('close', refused);
}

let reportTimer;
function report() {
  clearTimeout(reportTimer);
  reportTimer = setTimeout(() => process.send({ connected, failed }), 20);
}

process.on('message', (m) => {
  if (m.cmd === 'open') {
    let i = 0;
    // Open in small steps so the server's accept queue never overflows.
    const step = () => {
      for (let k = 0; k < 100 && i < m.count; k++, i++) open(m, m.offset + i);
      if (i < m.count) setTimeout(step, 5);
    };
    step();
  } else if (m.cmd === 'take') {
    process.send({ id: m.id, count, latencies, ended });
    count = 0;
    latencies = [];
  } else if (m.cmd === 'close') {
    for (const s of sockets) s.destroy();
    process.send({ id: m.id, closed: true });
  }
});
