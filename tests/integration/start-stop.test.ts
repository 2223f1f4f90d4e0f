// Starting and stopping the built service as a person runs it (`node dist/src/main.js`): a port
// that is taken, a data folder that cannot be used, a stop with requests in flight.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');
const made: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hmb-startstop-'));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

interface Bridge {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
  /** Resolves when standard output matches, rejects if the process ends first. */
  saw(re: RegExp): Promise<void>;
}

function bridge(env: Record<string, string>): Bridge {
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH!, HOME: tmpdir(), AUTH_USERNAME: 'u', AUTH_PASSWORD: 'password1', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (d) => {
    out += d;
    for (const w of waiters) w();
  });
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    saw: (re) =>
      new Promise<void>((resolve, reject) => {
        const look = () => re.test(out) && resolve();
        waiters.push(look);
        look();
        void exited.then((code) => reject(new Error(`the bridge exited (${code}) before printing ${re}: ${err.slice(0, 500)}`)));
      }),
  };
}

const LISTENING = /"msg":"listening on [^"]*uWebSockets/;

describe('one bridge per port', () => {
  test('a second bridge on a port in use refuses to start, says why, and exits non-zero; the first keeps serving', async () => {
    const port = String(await freePort());
    const first = bridge({ PORT: port, DATA_DIR: tempDir() });
    try {
      await first.saw(LISTENING);
      const second = bridge({ PORT: port, DATA_DIR: tempDir() });
      // It must end by itself; listening alongside the first is the failure this guards against.
      const outcome = await Promise.race([second.exited.then((code) => ({ code })), second.saw(LISTENING).then(() => 'listening' as const)]);
      if (outcome === 'listening') {
        second.child.kill('SIGKILL');
        throw new Error('the second bridge listened on a port already in use');
      }
      expect(outcome.code).not.toBe(0);
      expect(second.err()).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });
});

describe('a data folder that cannot be used', () => {
  // /proc/x cannot be made (Node's recursive mkdir used to loop on it forever); a file is no folder.
  test.each([
    ['a folder that cannot be created', () => '/proc/home-mcp-bridge-test', /DATA_DIR \/proc\/home-mcp-bridge-test cannot be used: cannot create/],
    ['a file', () => join(tempDir(), 'a-file'), /DATA_DIR \S+a-file cannot be used: it is a file, not a folder/],
  ])('%s: the start stops at once with the reason and exit code 1', async (_what, path, message) => {
    const dataDir = path();
    if (dataDir.endsWith('a-file')) (await import('node:fs')).writeFileSync(dataDir, 'x');
    const b = bridge({ PORT: '0', DATA_DIR: dataDir });
    const timer = setTimeout(() => b.child.kill('SIGKILL'), 10_000);
    const code = await b.exited;
    clearTimeout(timer);
    expect(b.child.signalCode).toBeNull();
    expect(code).toBe(1);
    expect(b.err().trim().split('\n')).toHaveLength(1);
    expect(b.err()).toMatch(message);
    expect(b.out()).not.toMatch(LISTENING);
  });
});
