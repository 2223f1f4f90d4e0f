// The image rehearsal's lanes (scripts/image/rehearse.mjs): one per architecture config.yaml ships
// for, each naming what Debian, Node and qemu call it, and the binfmt_misc lines binfmt.mjs reads
// to run the aarch64 lane under qemu-user. No root needed here: the lanes themselves run in
// `npm run test:image` and `npm run test:image:aarch64`.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { parseEntry, parseRegistration } from '../../scripts/image/binfmt.mjs';
import { archArgument, lane, LANES } from '../../scripts/image/rehearse.mjs';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const record = JSON.parse(read('scripts/native/uws-binaries.json')) as { sha256: Record<string, string> };
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

// Debian's qemu-user-static, /usr/lib/binfmt.d/qemu-aarch64.conf (1:7.2+dfsg-7+deb12u18).
const DEBIAN_AARCH64 =
  ':qemu-aarch64:M::\\x7f\\x45\\x4c\\x46\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00:\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:/usr/libexec/qemu-binfmt/aarch64-binfmt-P:OPF\n';

describe('the lanes', () => {
  test('one per architecture the app ships for, each with its Debian, Node and qemu names', () => {
    const config = parse(read('config.yaml')) as { arch: string[] };
    expect(Object.keys(LANES).sort()).toEqual([...config.arch].sort());
    expect(LANES.aarch64).toEqual({ debian: 'arm64', node: 'arm64', qemu: 'aarch64' });
    expect(LANES.amd64).toEqual({ debian: 'amd64', node: 'x64', qemu: 'x86_64' });
    expect(lane('aarch64').emulated).toBe(process.arch !== 'arm64');
    expect(() => lane('armv7')).toThrow(/no image lane for armv7: the lanes are amd64, aarch64/);
  });

  test('every lane has its uWS binary for the image\u2019s Node ABI recorded, and a command', () => {
    for (const l of Object.values(LANES)) expect(record.sha256[`uws_linux_${l.node}_137.node`], l.node).toMatch(/^[0-9a-f]{64}$/);
    expect(pkg.scripts['test:image:aarch64']).toBe('node tests/image/run.mjs --arch=aarch64');
  });

  test('--arch is taken out of the arguments (the rest go to vitest); amd64 when absent', () => {
    expect(archArgument(['--arch=aarch64', 'tests/image/app.test.ts'])).toEqual({ arch: 'aarch64', rest: ['tests/image/app.test.ts'] });
    expect(archArgument(['-t', 'panel', '--arch', 'aarch64'])).toEqual({ arch: 'aarch64', rest: ['-t', 'panel'] });
    expect(archArgument([])).toEqual({ arch: 'amd64', rest: [] });
    expect(() => archArgument(['--arch'])).toThrow(/no image lane for :/);
    expect(() => archArgument(['--arch=arm64'])).toThrow(/no image lane for arm64/);
  });
});

describe('binfmt_misc lines', () => {
  test('a registration as Debian ships it: its name, interpreter and flags, the line as written', () => {
    const reg = parseRegistration(`# a comment\n${DEBIAN_AARCH64}`);
    expect(reg).toMatchObject({ name: 'qemu-aarch64', interpreter: '/usr/libexec/qemu-binfmt/aarch64-binfmt-P', flags: 'OPF' });
    expect(reg.line).toBe(DEBIAN_AARCH64.trim());
    expect(() => parseRegistration(':qemu-aarch64:M::\\x7f:/usr/bin/x:F\n')).toThrow(/7 fields/);
    expect(() => parseRegistration(':x:Q::::/usr/bin/qemu:F')).toThrow(/not a registration/);
    expect(() => parseRegistration(':x:M::\\x7f::qemu:F')).toThrow(/absolute path/);
    expect(() => parseRegistration('# nothing\n')).toThrow(/no registration line/);
  });

  test('an entry as the kernel shows it: enabled or not, interpreter, flags', () => {
    const text = 'enabled\ninterpreter /usr/libexec/qemu-binfmt/aarch64-binfmt-P\nflags: POF\noffset 0\nmagic 7f454c46\nmask ffffffff\n';
    expect(parseEntry(text)).toEqual({ enabled: true, interpreter: '/usr/libexec/qemu-binfmt/aarch64-binfmt-P', flags: 'POF' });
    expect(parseEntry(text.replace('enabled', 'disabled')).enabled).toBe(false);
    expect(parseEntry(text.replace('flags: POF', 'flags: ')).flags).toBe('');
    expect(() => parseEntry('registered\n')).toThrow(/not a binfmt_misc entry/);
    expect(() => parseEntry('enabled\nflags: F\n')).toThrow(/without an interpreter/);
  });
});
