// The native parts as installed: the uWebSockets.js binaries against their recorded SHA-256, the
// ELF rewrite that lets them load on a glibc older than 2.38 (scripts/native/elf.mjs), the install
// check that refuses a tampered package (scripts/native/install.mjs), which binary the bridge
// loads on this host, and the Node line the bridge refuses to leave.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { C23_REDIRECTS, compareGlibc, glibcNeeds, readDynamic, redirectC23Imports } from '../../scripts/native/elf.mjs';
import { binary } from '../../src/http/uws.js';
import { nodeMismatch } from '../../src/node-check.js';

const root = new URL('../../', import.meta.url).pathname;
const require = createRequire(join(root, 'package.json'));
const uwsDir = dirname(require.resolve('uWebSockets.js'));
const record = JSON.parse(readFileSync(join(root, 'scripts/native/uws-binaries.json'), 'utf8')) as {
  version: string;
  sha256: Record<string, string>;
  redirectedSha256: Record<string, string>;
};
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const x64 = readFileSync(join(uwsDir, 'uws_linux_x64_137.node'));
const arm64 = readFileSync(join(uwsDir, 'uws_linux_arm64_137.node'));

function hostGlibc(): string {
  (process.report as unknown as { excludeNetwork: boolean }).excludeNetwork = true;
  return (process.report.getReport() as { header: { glibcVersionRuntime: string } }).header.glibcVersionRuntime;
}

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

describe('the installed uWebSockets.js', () => {
  test('is the recorded version, and every binary has its recorded SHA-256', () => {
    expect(JSON.parse(readFileSync(join(uwsDir, 'package.json'), 'utf8')).version).toBe(record.version);
    const present = readdirSync(uwsDir)
      .filter((f) => f.endsWith('.node'))
      .sort();
    expect(present).toEqual(Object.keys(record.sha256).sort());
    for (const f of present) expect(sha256(readFileSync(join(uwsDir, f))), f).toBe(record.sha256[f]);
  });

  test('its Linux binaries need glibc 2.38 for exactly the three C23 imports, and 2.36 for the rest', () => {
    for (const buf of [x64, arm64]) {
      const info = readDynamic(buf);
      expect(glibcNeeds(info)[0]).toBe('GLIBC_2.38');
      const c23 = info.symbols
        .filter((s) => s.undefined && s.version === 'GLIBC_2.38')
        .map((s) => s.name)
        .sort();
      expect(c23.every((n) => n in C23_REDIRECTS)).toBe(true);
      expect(glibcNeeds(info)[1]).toBe('GLIBC_2.36');
    }
  });
});

describe('redirecting the C23 imports', () => {
  test('renames them to their pre-C23 twins at libc base version, marks GLIBC_2.38 weak, and touches nothing else', () => {
    const { output, renamed, weakened } = redirectC23Imports(x64, '2.36');
    expect(renamed).toEqual([
      { from: '__isoc23_sscanf@GLIBC_2.38', to: '__isoc99_sscanf@GLIBC_2.2.5' },
      { from: '__isoc23_strtol@GLIBC_2.38', to: 'strtol@GLIBC_2.2.5' },
      { from: '__isoc23_strtoul@GLIBC_2.38', to: 'strtoul@GLIBC_2.2.5' },
    ]);
    expect(weakened).toEqual(['libc.so.6 GLIBC_2.38']);

    const before = readDynamic(x64);
    const after = readDynamic(output);
    expect(glibcNeeds(after)[0]).toBe('GLIBC_2.36');
    const libc = after.needs.find((n) => n.file === 'libc.so.6')!;
    expect(libc.versions.find((v) => v.name === 'GLIBC_2.38')!.flags & 2).toBe(2);
    expect(libc.versions.filter((v) => v.flags !== 0).map((v) => v.name)).toEqual(['GLIBC_2.38']);
    // Every other symbol keeps its name and version.
    for (const [i, s] of before.symbols.entries()) {
      if (s.name in C23_REDIRECTS) continue;
      expect([after.symbols[i]!.name, after.symbols[i]!.version]).toEqual([s.name, s.version]);
    }
    // The bytes that differ are few, and all inside .dynstr, .gnu.version or .gnu.version_r.
    const changed: number[] = [];
    for (let i = 0; i < x64.length; i++) if (x64[i] !== output[i]) changed.push(i);
    expect(output.length).toBe(x64.length);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(32);
    const inside = (o: number) => o >= before.dynstr.offset && o < before.dynstr.offset + before.dynstr.size;
    const versionTables = new Set([...before.symbols.map((s) => s.versymOffset), ...before.symbols.map((s) => s.versymOffset + 1)]);
    const auxFlags = new Set(before.needs.flatMap((n) => n.versions.flatMap((v) => [v.auxOffset + 4, v.auxOffset + 5])));
    for (const o of changed) expect(inside(o) || versionTables.has(o) || auxFlags.has(o), `byte ${o}`).toBe(true);
  });

  test('gives the recorded SHA-256 for x64 and arm64, the same on 2.36 and 2.37', () => {
    expect(sha256(redirectC23Imports(x64, '2.36').output)).toBe(record.redirectedSha256['uws_linux_x64_137.node']);
    expect(sha256(redirectC23Imports(x64, '2.37').output)).toBe(record.redirectedSha256['uws_linux_x64_137.node']);
    // On aarch64 the base version is GLIBC_2.17, and sscanf was never redirected there.
    const a = redirectC23Imports(arm64, '2.36');
    expect(a.renamed.map((r) => r.to)).toEqual(['strtol@GLIBC_2.17', 'strtoul@GLIBC_2.17']);
    expect(sha256(a.output)).toBe(record.redirectedSha256['uws_linux_arm64_137.node']);
  });

  test('refuses where a copy could not load, or is not needed, or the file is no shared object', () => {
    expect(() => redirectC23Imports(x64, '2.35')).toThrow(/arc4random@GLIBC_2\.36 .*no older equivalent/);
    expect(() => redirectC23Imports(x64, '2.38')).toThrow(/nothing to redirect/);
    expect(() => redirectC23Imports(Buffer.from('#!/bin/sh\n'), '2.36')).toThrow(/not an ELF file/);
    expect(compareGlibc('GLIBC_2.38', '2.36')).toBeGreaterThan(0);
    expect(compareGlibc('2.2.5', 'GLIBC_2.17')).toBeLessThan(0);
    expect(compareGlibc('2.36', 'GLIBC_2.36')).toBe(0);
  });
});

describe('which binary the bridge loads', () => {
  test('the checked copy exactly where glibc is older than 2.38, the untouched binary elsewhere', () => {
    const old = compareGlibc(hostGlibc(), '2.38') < 0;
    expect(binary.redirected).toBe(old);
    if (old) {
      expect(binary.file).toMatch(/node_modules\/\.home-mcp-bridge\/uws_linux_x64_137\.node$/);
      expect(sha256(readFileSync(binary.file))).toBe(record.redirectedSha256['uws_linux_x64_137.node']);
    } else {
      expect(binary.file).toBe(join(uwsDir, `uws_linux_x64_${process.versions.modules}.node`));
    }
  });
});

describe('the install check (scripts/native/install.mjs)', () => {
  /** A copy of the installation's layout: package.json, better-sqlite3 and uWS, one binary possibly altered. */
  function layout(tamper?: { file: string; bytes: (original: Buffer) => Buffer }): string {
    const dir = mkdtempSync(join(tmpdir(), 'hmb-native-'));
    temps.push(dir);
    cpSync(join(root, 'package.json'), join(dir, 'package.json'));
    const nm = join(dir, 'node_modules');
    const uws = join(nm, 'uWebSockets.js');
    mkdirSync(uws, { recursive: true });
    // The 20 binaries (120 MB) are linked, not copied, unless the test alters one.
    for (const f of readdirSync(uwsDir)) {
      if (!f.endsWith('.node')) cpSync(join(uwsDir, f), join(uws, f));
      else if (tamper?.file === f) writeFileSync(join(uws, f), tamper.bytes(readFileSync(join(uwsDir, f))));
      else symlinkSync(join(uwsDir, f), join(uws, f));
    }
    for (const dep of ['better-sqlite3', 'node-addon-api']) symlinkSync(dirname(require.resolve(`${dep}/package.json`)), join(nm, dep));
    return dir;
  }
  const install = (dir: string) => spawnSync(process.execPath, [join(root, 'scripts/native/install.mjs'), dir], { encoding: 'utf8', timeout: 60_000 });

  test('accepts the recorded package and records which binary this host loads', () => {
    const dir = layout();
    const r = install(dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const native = JSON.parse(readFileSync(join(dir, 'node_modules/.home-mcp-bridge/native.json'), 'utf8'));
    expect(native).toMatchObject({
      node: process.version,
      abi: process.versions.modules,
      glibc: hostGlibc(),
      uws: { version: record.version, needsGlibc: 'GLIBC_2.38' },
    });
    expect(native.uws.copy !== null).toBe(compareGlibc(hostGlibc(), '2.38') < 0);
    expect(r.stdout).toMatch(/better-sqlite3 opens SQLite \d+\.\d+/);
  });

  test('refuses a binary whose bytes differ from the record, naming it', () => {
    const dir = layout({ file: 'uws_win32_x64_141.node', bytes: (b) => Buffer.concat([b, Buffer.from([0])]) });
    const r = install(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('uws_win32_x64_141.node: SHA-256 differs from the record');
  });

  test('refuses a package with a binary nobody recorded', () => {
    const dir = layout();
    writeFileSync(join(dir, 'node_modules/uWebSockets.js/uws_linux_x64_999.node'), 'x');
    const r = install(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('uws_linux_x64_999.node: not in the record');
  });
});

describe('the Node line', () => {
  test('only the major that package.json engines names runs the bridge', () => {
    const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node as string;
    expect(engines).toBe('24.x');
    expect(nodeMismatch('v24.21.0', engines)).toBeUndefined();
    expect(nodeMismatch(process.version, engines)).toBeUndefined();
    expect(nodeMismatch('v20.20.2', engines)).toMatch(/this is Node v20\.20\.2; the bridge runs on Node 24/);
    expect(nodeMismatch('v25.0.0', engines)).toMatch(/runs on Node 24/);
  });

  test('npm scripts run on that Node: npm ci put it in node_modules/.bin, which npm puts first on PATH', () => {
    // Whatever Node runs npm itself (here the machine's own, found on a PATH without node_modules/.bin).
    const outer = (process.env.PATH ?? '')
      .split(':')
      .filter((p) => !p.includes('node_modules'))
      .join(':');
    const env = execFileSync('npm', ['run', '--silent', 'env'], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH: outer } });
    const path = /^PATH=(.*)$/m.exec(env)?.[1] ?? '';
    expect(path.split(':')[0]).toBe(join(root, 'node_modules/.bin'));
    expect(execFileSync('node', ['-p', 'process.version'], { encoding: 'utf8', env: { PATH: path } }).trim()).toBe('v24.21.0');
  });
});
