// A user's own plugin in the rehearsed image: the add-on's config folder (config.yaml's
// `addon_config` map) mounted at /config as the Supervisor mounts it, read-only, with the example
// plugin placed in its plugins folder as the user would; the options as the Supervisor writes them
// (config.yaml's defaults, plugins_dir among them). The plugin loads, and its tool answers through
// ingress over MCP, as an assistant connected through Home Assistant calls it.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Container } from '../../scripts/image/container.mjs';
import { Mounts } from '../../scripts/image/mounts.mjs';
import type { Simulator } from '@home-mcp-bridge/sim/testing';
import { config, dataFolder, rehearsal, removeData, startApp, startHomeAssistant } from './setup.js';

const EXAMPLE = new URL('../../examples/good-night/', import.meta.url).pathname;

let sim: Simulator;
let ingressToken: string;
let dataDir: string;
let configDir: string;
let app: Container | undefined;
const mounts = new Mounts();

beforeAll(async () => {
  ({ sim, ingressToken } = await startHomeAssistant());
  configDir = mkdtempSync(join(tmpdir(), 'hmb-image-addon-config-'));
  mkdirSync(join(configDir, 'plugins'));
  cpSync(EXAMPLE, join(configDir, 'plugins', 'good-night'), { recursive: true });
  const map = (config.map as { type: string; read_only?: boolean; path?: string }[]).find((m) => m.type === 'addon_config')!;
  mounts.bind(configDir, join(rehearsal.root, map.path ?? 'config'), { readOnly: map.read_only !== false });
  dataDir = dataFolder({ auth_username: 'owner', auth_password: 'a long owner password' });
  app = await startApp(dataDir);
});

afterAll(async () => {
  await app?.stop('SIGKILL', 0);
  mounts.release();
  await sim?.stop();
  if (dataDir) removeData(dataDir);
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

describe('a plugin in the add-on’s config folder', () => {
  test('config.yaml maps the add-on’s own config folder, read-only, and plugins_dir points into it', () => {
    expect(config.map).toEqual([{ type: 'addon_config', read_only: true }]);
    expect(config.options.plugins_dir).toBe('/config/plugins');
    expect(JSON.parse(readFileSync(join(dataDir, 'options.json'), 'utf8')).plugins_dir).toBe('/config/plugins');
  });

  test('loads, and its tool answers through ingress', async () => {
    const session = sim.supervisor!.createSession(sim.hub.user.id);
    const ingress = (path: string) => `${sim.url}/api/hassio_ingress/${ingressToken}/${path}`;
    const headers = { cookie: `ingress_session=${session}` };
    const health = (await (await fetch(ingress('api/health'), { headers })).json()) as {
      plugins: { loaded: { name: string; source: string; path: string; tools: string[] }[]; failed: unknown[] };
    };
    expect(health.plugins.failed).toEqual([]);
    expect(health.plugins.loaded.find((p) => p.name === 'good_night')).toMatchObject({ source: 'user', path: 'good-night/index.ts', tools: ['good_night'] });

    const client = new Client({ name: 'image-plugin-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(ingress('mcp')), { requestInit: { headers } }));
    try {
      // Past the tool list's budget a user's tool is found (find_tools) rather than listed.
      const found = (await client.callTool({ name: 'find_tools', arguments: { names: ['good_night'] } })) as {
        structuredContent: { tools: { name: string }[] };
      };
      expect(found.structuredContent.tools.map((t) => t.name)).toEqual(['good_night']);
      const r = (await client.callTool({ name: 'good_night', arguments: { dry_run: true } })) as {
        isError?: boolean;
        structuredContent?: { dry_run: boolean; locked: { entity_id: string }[] };
      };
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ dry_run: true, locked: [{ entity_id: 'lock.back_door' }] });
    } finally {
      await client.close();
    }
  });
});
