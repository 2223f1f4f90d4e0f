// The built bridge (dist/src/main.js) as a child process on a free port, for tests of what
// survives it: restarts, SIGKILL, backups. Answers once it is healthy, with a signed-in caller.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');

export interface BridgeProcess {
  child: ChildProcess;
  base: string;
  call(path: string, method?: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Stops it with a signal and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

export async function startBridge(env: Record<string, string>): Promise<BridgeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH!,
      PORT: String(port),
      HOST: '127.0.0.1',
      AUTH_USERNAME: 'keeper',
      AUTH_PASSWORD: 'keeper-password',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if (((await (await fetch(`${base}/health`)).json()) as { status: string }).status === 'healthy') break;
    } catch {
      // not listening yet
    }
    if (i > 300 || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the bridge did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const login = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'keeper', password: 'keeper-password' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  return {
    child,
    base,
    call: async (path, method = 'GET', body) => {
      const r = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, body: (await r.json()) as any };
    },
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/** Runs the bridge's command line (`backup prepare --data DIR`, ...) as the Supervisor would, inside the add-on. */
export async function runCli(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH! } });
  return stdout;
}
