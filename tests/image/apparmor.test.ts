// apparmor.txt, the profile the Supervisor loads for the app: AppArmor's own parser compiles it
// (apparmor_parser -QT: parse and compile, load nothing), and, since compiling says nothing about
// what it allows, a check of its own: the app runs in the rehearsed image, everything it writes
// there is collected, and each path must match a rule with write permission of the profile the
// service runs under (`node`, entered from the s6 profile by `cx`).
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Container } from '../../scripts/image/container.mjs';
import type { Simulator } from '@home-mcp-bridge/sim/testing';
import { appUrl, dataFolder, rehearsal, removeData, startApp, startHomeAssistant } from './setup.js';

const profileText = readFileSync(new URL('../../apparmor.txt', import.meta.url), 'utf8');

// ---- the profile's file rules ---------------------------------------------------------------

/** The variables the profile uses, as apparmor's tunables/global defines them. */
const VARIABLES: Record<string, string> = {
  '@{PROC}': '/proc/',
  '@{sys}': '/sys/',
  '@{pid}':
    '{[1-9],[1-9][0-9],[1-9][0-9][0-9],[1-9][0-9][0-9][0-9],[1-9][0-9][0-9][0-9][0-9],[1-9][0-9][0-9][0-9][0-9][0-9],[1-9][0-9][0-9][0-9][0-9][0-9][0-9]}',
};

/** AppArmor's path glob as a regular expression: `**` crosses /, `*` and `?` do not, {a,b} and [..] as in the shell. */
function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*';
      i++;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',') out += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i);
      out += glob
        .slice(i, end + 1)
        .replace(/^\[\^/, '[^')
        .replace(/^\[!/, '[^');
      i = end;
    } else out += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  // AppArmor folds repeated slashes, which variable expansion (@{PROC}/...) leaves behind.
  return new RegExp(`^${out.replace(/\/\/+/g, '/')}$`);
}

interface Rule {
  glob: string;
  perms: string;
  owner: boolean;
  re: RegExp;
}

/** The file rules of one profile (by name) of the policy, nested profiles left out. */
function fileRules(text: string, profile: string): Rule[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^\\s*profile ${profile}\\b.*\\{\\s*$`).test(l));
  if (start < 0) throw new Error(`no profile ${profile}`);
  const rules: Rule[] = [];
  let depth = 0;
  for (const raw of lines.slice(start)) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line.endsWith('{')) {
      depth++;
      continue;
    }
    if (line === '}') {
      if (--depth === 0) break;
      continue;
    }
    if (depth !== 1) continue;
    const m = /^(owner\s+)?((?:\/|@\{)\S*)\s+([rwaklmixPUCp]+),$/.exec(line);
    if (!m) continue;
    let glob = m[2]!;
    for (const [k, v] of Object.entries(VARIABLES)) glob = glob.split(k).join(v);
    rules.push({ glob: m[2]!, perms: m[3]!, owner: Boolean(m[1]), re: globToRegExp(glob) });
  }
  return rules;
}

/** The rule that lets the profile write `path`, if any. */
function writeRule(rules: Rule[], path: string): Rule | undefined {
  return rules.find((r) => /[wa]/.test(r.perms) && r.re.test(path));
}

// ---- what the app writes --------------------------------------------------------------------

const SKIP = new Set(['proc', 'dev', 'sys', 'data']);

/** Every file and folder under the root (the container's paths) with its change time; /data from its own folder. */
function snapshot(root: string, dataDir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string, shown: string) => {
    for (const name of readdirSync(dir)) {
      if (shown === '' && SKIP.has(name)) continue;
      const full = join(dir, name);
      const st = lstatSync(full);
      const path = `${shown}/${name}`;
      out.set(path, st.mtimeMs + st.ctimeMs);
      if (st.isDirectory()) walk(full, path);
    }
  };
  walk(root, '');
  walk(dataDir, '/data');
  return out;
}

let sim: Simulator;
let dataDir: string;
let app: Container | undefined;
let written: string[] = [];

beforeAll(async () => {
  ({ sim } = await startHomeAssistant());
  dataDir = dataFolder({ auth_username: 'owner', auth_password: 'a long owner password' });
  // Docker writes the container's /etc/hosts before anything in it starts (startApp() does here).
  writeFileSync(join(rehearsal.root, 'etc/hosts'), '');
  const before = snapshot(rehearsal.root, dataDir);
  app = await startApp(dataDir);
  // What the app keeps: users, tokens, a scene, a subscription, events in the history, a restart.
  const token = (
    (await (
      await fetch(`${appUrl}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'owner', password: 'a long owner password' }),
      })
    ).json()) as { access_token: string }
  ).access_token;
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  expect((await fetch(`${appUrl}/api/tokens`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'profile check' }) })).status).toBe(201);
  expect(
    (
      await fetch(`${appUrl}/api/scene`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'Profile', actions: [{ entity_id: 'light.kitchen_ceiling', action: 'turn_on' }] }),
      })
    ).status,
  ).toBeLessThan(300);
  expect((await fetch(`${appUrl}/api/events/subscribe`, { method: 'POST', headers: auth, body: JSON.stringify({ domain: 'light' }) })).status).toBe(200);
  expect(
    (
      await fetch(`${appUrl}/api/device/control`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ entity_id: 'light.kitchen_ceiling', action: 'turn_on' }),
      })
    ).status,
  ).toBe(200);
  const during = snapshot(rehearsal.root, dataDir);
  await app.stop('SIGTERM');
  app = await startApp(dataDir);
  await app.stop('SIGTERM');
  const after = snapshot(rehearsal.root, dataDir);
  const changed = new Set<string>();
  for (const snap of [during, after]) for (const [path, t] of snap) if (before.get(path) !== t) changed.add(path);
  changed.delete('/etc/hosts');
  written = [...changed].sort();
});

afterAll(async () => {
  await app?.stop('SIGKILL', 0);
  await sim?.stop();
  if (dataDir) removeData(dataDir);
});

describe('apparmor.txt', () => {
  test('compiles with apparmor_parser (-Q: no kernel load, -T: no cache); a broken copy does not', () => {
    const ok = spawnSync('apparmor_parser', ['-QT', 'apparmor.txt'], { cwd: new URL('../..', import.meta.url).pathname, encoding: 'utf8' });
    expect(ok.stderr.split('\n').filter((l) => l && !/^Cache read\/write disabled/.test(l))).toEqual([]);
    expect(ok.status).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'hmb-apparmor-'));
    try {
      writeFileSync(join(dir, 'broken.txt'), profileText.replace('/data/** rwk,', '/data/** rwk'));
      const broken = spawnSync('apparmor_parser', ['-QT', join(dir, 'broken.txt')], { encoding: 'utf8' });
      expect(broken.status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('allows every path the app wrote in the image, and the check itself tells allowed from not', () => {
    const rules = fileRules(profileText, 'node');
    expect(written).toEqual(expect.arrayContaining(['/data/bridge.db', '/data/jwt-secret', '/data/users.json']));
    const refused = written.filter((p) => !writeRule(rules, p));
    expect(refused, `written, and not writable under the profile: ${refused.join(', ')}`).toEqual([]);
    // The matcher is not vacuous: the app's own files and the system stay read-only.
    for (const p of ['/opt/home-mcp-bridge/dist/src/main.js', '/usr/local/bin/node', '/etc/passwd', '/data']) expect(writeRule(rules, p), p).toBeUndefined();
    expect(writeRule(rules, '/data/bridge.db-wal')?.glob).toBe('/data/**');
    expect(writeRule(rules, '/tmp/x/y')?.glob).toBe('/tmp/**');
    // The user's plugins (the add-on's config folder, tests/image/plugins.test.ts) are read, never written.
    expect(rules.find((r) => r.perms.includes('r') && r.re.test('/config/plugins/good-night/index.ts'))?.glob).toBe('/config/{,**}');
    expect(writeRule(rules, '/config/plugins/good-night/index.ts')).toBeUndefined();
    expect(relative('/', '/data/bridge.db')).toBe('data/bridge.db');
    expect(existsSync(join(dataDir, 'bridge.db'))).toBe(true);
  });
});
