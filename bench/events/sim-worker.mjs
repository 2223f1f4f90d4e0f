// bench/events's hub (forked by run.mjs): the simulator in its own process, so the servers'
// CPU is measured without it. Over IPC: {cmd: 'load', rate} starts state changes at a fixed rate,
// {cmd: 'stop'} stops them and answers how many were fired.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { startSimulator } = await import(join(root, 'dist', 'src', 'sim', 'index.js'));
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const sim = await startSimulator({ home: 'demo', host: '127.0.0.1', port: 0, logger: quiet });
let load;
process.on('message', (m) => {
  if (m.cmd === 'load') {
    load?.stop();
    load = sim.startLoad({ entities: 50, rate: m.rate, prefix: 'bench_' });
    process.send({ id: m.id, ok: true });
  } else if (m.cmd === 'stop') {
    const fired = load?.fired ?? 0;
    load?.stop();
    load = undefined;
    process.send({ id: m.id, ok: true, fired });
  }
});
process.send({ ready: true, url: sim.url, token: sim.token });
