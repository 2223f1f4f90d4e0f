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
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH!, HOME: tmpdir(), AUTH_USERNAME: 'u', AUTH_PASSWORD: 'password1', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

// Plain log lines (the default): time, level, message.
const LISTENING = /^\S+ \S+ INFO {2}listening on [^\n]*uWebSockets/m;

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

describe('stopping with requests in flight', () => {
  const token = async (url: string) => {
    const res = await fetch(`${url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'u', password: 'password1' }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };

  // Writers keep storing scenes over keep-alive connections while the signal arrives: every request
  // is answered (stored, or refused with 503 once the stop began) or never reached the bridge, and
  // every scene the bridge said it stored is there after a restart.
  test.each(['SIGINT', 'SIGTERM'] as const)('%s: in-flight writes finish, later ones get 503, nothing is lost', async (signal) => {
    const dataDir = tempDir();
    const port = String(await freePort());
    const url = `http://127.0.0.1:${port}`;
    const b = bridge({ PORT: port, DATA_DIR: dataDir, RATE_LIMIT_MAX: '0' });
    await b.saw(LISTENING);
    const auth = { authorization: `Bearer ${await token(url)}`, 'content-type': 'application/json' };
    const statuses = new Map<string, number>();
    const stored: string[] = [];
    const lost: string[] = [];
    let gone = false;
    void b.exited.then(() => (gone = true));
    let sent = 0;
    const writer = async (w: number) => {
      for (let i = 0; !gone; i++) {
        const name = `w${w} ${i}`;
        try {
          const res = await fetch(`${url}/api/scene`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ name, actions: [{ entity_id: 'light.kitchen_ceiling', action: 'turn_on' }] }),
          });
          sent++;
          const body = (await res.json()) as { code?: string };
          const key = res.status >= 400 ? `${res.status} ${body.code}` : String(res.status);
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if (res.status === 200) stored.push(name);
        } catch (err) {
          // Refused at connect: the request never reached the bridge.
          const code = (err as { cause?: { code?: string } }).cause?.code ?? String(err);
          statuses.set(code, (statuses.get(code) ?? 0) + 1);
          // A reset is a request the bridge never read (checked below: its scene is not there).
          if (code !== 'ECONNREFUSED') lost.push(name);
          await new Promise((r) => setTimeout(r, 10));
        }
      }
    };
    const writers = Array.from({ length: 12 }, (_, w) => writer(w));
    while (sent < 60) await new Promise((r) => setTimeout(r, 5));
    b.child.kill(signal);
    expect(await b.exited).toBe(0);

    await Promise.all(writers);
    const seen = Object.fromEntries(statuses);
    for (const key of statuses.keys())
      expect(['200', '503 SHUTTING_DOWN', 'ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'], JSON.stringify(seen)).toContain(key);
    expect(b.out()).not.toMatch(/^\S+ \S+ (ERROR|FATAL) /m);

    const again = bridge({ PORT: port, DATA_DIR: dataDir });
    try {
      await again.saw(LISTENING);
      const res = await fetch(`${url}/api/scenes`, { headers: { authorization: `Bearer ${await token(url)}` } });
      const names = new Set(((await res.json()) as { scenes: { name: string }[] }).scenes.map((s) => s.name));
      expect(stored.filter((n) => !names.has(n))).toEqual([]);
      expect(lost.filter((n) => names.has(n))).toEqual([]);
      expect(names.size).toBe(stored.length);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  });
});

describe('first start', () => {
  test('stdio keeps its data in the per-user data folder, not in the folder it was started in', async () => {
    const home = tempDir();
    const cwd = tempDir();
    const run = (env: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [MAIN, 'stdio'], { cwd, env: { PATH: process.env.PATH!, HOME: home, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        child.stdout.on('data', (d) => {
          out += d;
          // Answered: the bridge has started and opened its data; end it by closing its input.
          if (out.includes('"id":1')) child.stdin.end();
        });
        child.on('exit', (code) => (code === 0 ? resolve(err) : reject(new Error(`stdio exited ${code}: ${err.slice(-1000)}`))));
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
        );
      });
    const err = await run({});
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(cwd, 'data'))).toBe(false);
    expect(existsSync(join(home, '.local', 'share', 'home-mcp-bridge', 'bridge.db'))).toBe(true);
    // The generated password is printed on standard error (standard output is MCP's), plainly,
    // with the command that renews stdio's password.
    expect(err).toMatch(/^ *password: \S+$/m);
    expect(err).toContain('Lost it? home-mcp-bridge reset-password --stdio prints a new one.');
    // reset-password --stdio finds the same folder.
    const { execFileSync } = await import('node:child_process');
    const reset = execFileSync(process.execPath, [MAIN, 'reset-password', '--stdio'], { cwd, env: { PATH: process.env.PATH!, HOME: home }, encoding: 'utf8' });
    expect(reset).toContain(join(home, '.local', 'share', 'home-mcp-bridge'));
    const xdg = join(tempDir(), 'xdg');
    await run({ XDG_DATA_HOME: xdg });
    expect(existsSync(join(xdg, 'home-mcp-bridge', 'bridge.db'))).toBe(true);
  });

  test.each(['plain', 'json'])('the generated password is shown in a plain banner and in no log line (LOG_FORMAT=%s), and it signs in', async (format) => {
    const port = String(await freePort());
    const dataDir = tempDir();
    const b = bridge({ PORT: port, DATA_DIR: dataDir, AUTH_USERNAME: '', AUTH_PASSWORD: '', LOG_FORMAT: format });
    try {
      await b.saw(format === 'json' ? /"msg":"listening on [^"]*uWebSockets/ : LISTENING);
      const banner = /^ *user: admin\n *password: (\S+)$/m.exec(b.out());
      expect(banner, b.out().slice(0, 2000)).not.toBeNull();
      expect(b.out()).toContain(`Lost it? DATA_DIR=${dataDir} home-mcp-bridge reset-password prints a new one.`);
      // Every other line is a log line of the format asked for, and none holds the password.
      const logLines = b
        .out()
        .split('\n')
        .filter((l) => l.trim() && !/^ {2}/.test(l));
      expect(logLines.length).toBeGreaterThan(3);
      for (const l of logLines) {
        if (format === 'json') expect(JSON.parse(l), l).toMatchObject({ level: expect.any(Number), msg: expect.any(String) });
        else expect(l).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S/);
        expect(l).not.toContain(banner![1]);
      }
      const res = await fetch(`http://127.0.0.1:${port}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: banner![1] }),
      });
      expect(res.status).toBe(200);
    } finally {
      b.child.kill('SIGTERM');
      await b.exited;
    }
  });
});
