// Builds with TypeScript when dist/ is missing or older than any source file (src/ and plugins/), so `npm start` always runs current code;
// `--clean` builds in any case (`npm run build`). Then the simulator's demo entry is bundled into its
// package (src/sim/dist/index.js, what `@home-mcp-bridge/sim` and the product's `#sim` mean at run
// time): one file holding only what demo mode reaches, which is all of the simulator the add-on image carries.
// A build takes a while (about 20 s on an idle 2-core machine), so it says what it does, how long the last
// one took, and how far it is: the compiler's API checks file by file, which gives the count.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'src', 'main.js');
// tsc rewrites its build-info file on every build that changed anything; it is the build's time stamp.
const stamp = join(root, 'dist', '.tsbuildinfo');

const simBundle = join(root, 'src', 'sim', 'dist');
// How long the last build took, for the next one's estimate.
const timing = join(root, 'node_modules', '.cache', 'home-mcp-bridge', 'build.json');

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (p === simBundle) continue;
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const clean = process.argv.includes('--clean');
const stale =
  clean ||
  !existsSync(out) ||
  !existsSync(stamp) ||
  !existsSync(join(simBundle, 'index.js')) ||
  Math.max(newest(join(root, 'src')), newest(join(root, 'plugins')), statSync(join(root, 'tsconfig.json')).mtimeMs) > statSync(stamp).mtimeMs;
if (stale) {
  const started = Date.now();
  const last = lastBuildSeconds();
  say(
    `building dist/ from the TypeScript sources (${existsSync(out) ? 'sources changed since the last build' : 'no build yet'}${clean ? ', --clean' : ''}); ${last ? `the last build here took ${last} s` : 'about 20 s on an idle 2-core machine'}`,
  );
  // A fresh dist/ each time: a plugin or module that was removed from the source must not linger in the build.
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  compile(started);
  say("bundling the simulator's demo entry (src/sim/dist/index.js)");
  await bundleSimulator();
  const seconds = Math.round((Date.now() - started) / 1000);
  recordBuildSeconds(seconds);
  say(`built in ${seconds} s`);
}

function say(line) {
  process.stderr.write(`home-mcp-bridge: ${line}\n`);
}

/** tsc -p tsconfig.json, through the compiler's API so that it can count: type-checks each file, then writes dist/. */
function compile(started) {
  const ts = createRequire(import.meta.url)(join(root, 'node_modules', 'typescript'));
  const configFile = join(root, 'tsconfig.json');
  const problems = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(d) });
  if (!parsed) fail(problems);
  const program = ts.createIncrementalProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    host: ts.createIncrementalCompilerHost(parsed.options),
  });
  problems.push(
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
  );
  const files = program.getSourceFiles().filter((f) => !f.isDeclarationFile && !relative(root, f.fileName).startsWith('node_modules'));
  const progress = meter('type-checking', files.length, started);
  for (const [i, file] of files.entries()) {
    problems.push(...program.getSemanticDiagnostics(file));
    progress(i + 1);
  }
  say(`writing dist/ (${files.length} files and their declarations)`);
  const emitted = program.emit();
  problems.push(...emitted.diagnostics);
  if (problems.some((d) => d.category === ts.DiagnosticCategory.Error)) fail(problems);

  function fail(diagnostics) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    process.stderr.write(process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host));
    say(`the build failed: ${diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length} error(s) above`);
    // Without its time stamp the next start builds again rather than run what failed to check.
    rmSync(stamp, { force: true });
    process.exit(1);
  }
}

/** Progress on standard error: one line rewritten in place on a terminal, else a line at each quarter. */
function meter(what, total, started) {
  const tty = process.stderr.isTTY;
  let shown = -1;
  return (done) => {
    const quarter = Math.floor((done / total) * 4);
    const line = `${what} ${done}/${total} files (${Math.floor((done / total) * 100)}%, ${Math.round((Date.now() - started) / 1000)} s)`;
    if (tty) process.stderr.write(`\rhome-mcp-bridge: ${line}${done === total ? '\n' : ''}`);
    else if (quarter > shown && (quarter > 0 || done === total)) {
      shown = quarter;
      say(line);
    }
  };
}

function lastBuildSeconds() {
  try {
    return JSON.parse(readFileSync(timing, 'utf8')).seconds;
  } catch {
    return undefined;
  }
}

function recordBuildSeconds(seconds) {
  try {
    mkdirSync(join(timing, '..'), { recursive: true });
    writeFileSync(timing, `${JSON.stringify({ seconds })}\n`);
  } catch {
    // Only the next build's estimate is lost.
  }
}

/** The simulator's demo entry as tsc compiled it, and what it imports in the package, as one module; dependencies stay imports. */
async function bundleSimulator() {
  const { rolldown } = await import('rolldown');
  rmSync(simBundle, { recursive: true, force: true });
  const bundle = await rolldown({
    input: join(root, 'dist', 'src', 'sim', 'index.js'),
    platform: 'node',
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    logLevel: 'warn',
  });
  await bundle.write({
    file: join(simBundle, 'index.js'),
    format: 'esm',
    banner: "// Built by scripts/build-if-needed.mjs from src/sim/index.ts: the simulator's demo entry. Do not edit.",
  });
  await bundle.close();
}
