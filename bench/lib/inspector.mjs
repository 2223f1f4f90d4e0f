// The V8 heap of a child Node process, through its inspector (the child runs with
// --inspect=127.0.0.1:<port>): collect garbage, then read what is still used. RSS swings with the
// collector; the heap after a collection is what a workload really left behind.
import WebSocket from 'ws';

export async function inspectorOf(port) {
  let targets;
  for (let i = 0; i < 50 && !targets; i++) {
    targets = await fetch(`http://127.0.0.1:${port}/json/list`).then(
      (r) => r.json(),
      () => undefined,
    );
    if (!targets) await new Promise((r) => setTimeout(r, 100));
  }
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let id = 0;
  const pending = new Map();
  socket.on('message', (raw) => {
    const msg = JSON.parse(String(raw));
    if (msg.id !== undefined) pending.get(msg.id)?.(msg);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      pending.set(n, (msg) => {
        pending.delete(n);
        if (msg.error) reject(new Error(msg.error.message));
        else resolve(msg.result);
      });
      socket.send(JSON.stringify({ id: n, method, params }));
    });
  return {
    /** Bytes of V8 heap in use after a full collection. */
    async heapAfterGc() {
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const { usedSize } = await send('Runtime.getHeapUsage');
      return usedSize;
    },
    /** V8 heap bytes used and reserved now, without a collection first. */
    async heapUsage() {
      return send('Runtime.getHeapUsage');
    },
    close: () => socket.close(),
  };
}
