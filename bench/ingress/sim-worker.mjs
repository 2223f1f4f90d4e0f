// The simulator with its Supervisor in a process of its own (so its work is not the client's):
// prints {url, token} as one JSON line, then installs the add-on whose URL arrives on stdin.
import { createInterface } from 'node:readline';
// The Supervisor is in the simulator's testing entry, which has no bundle: the build's tsc output of it.
import { startSimulator } from '../../dist/src/sim/testing.js';

const sim = await startSimulator({ supervisor: { ingressSourceAddress: process.env.INGRESS_FROM ?? '127.0.0.2' } });
process.stdout.write(`${JSON.stringify({ url: sim.url, token: sim.token })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  sim.supervisor.installAddon({ slug: 'local_home_mcp_bridge', name: 'Home MCP Bridge', url: line.trim() });
  process.stdout.write('installed\n');
}
