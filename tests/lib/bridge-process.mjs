// What the test runners that start the built bridge as a process share: a free port, and waiting
// until the bridge says it is healthy.
import { createServer } from 'node:net';

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export async function waitHealthy(url, child) {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`the bridge exited with ${child.exitCode}`);
    try {
      const body = await (await fetch(`${url}/health`)).json();
      if (body.status === 'healthy') return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the bridge did not become healthy within 20 s');
}
