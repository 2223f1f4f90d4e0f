// ATTACK A1 on every transport: with the admin tools off (the default), restarting or reloading Home
// Assistant as a plain service call is refused by the one checkpoint, whether it comes as a REST tool
// call, an MCP call over Streamable HTTP (both eras), an MCP call over stdio, or a sentence over REST
// or the WebSocket. The simulated hub counts the restarts it was asked for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { refusals } from '../helpers/refusals.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let restarts = 0;
const dataDir = mkdtempSync(join(tmpdir(), 'hmb-attack-a1-'));
const probe = refusals(() => s, 'attack-a1');

beforeAll(async () => {
  s = await startTestServer();
  const hub = s.app.simulator!.hub;
  const restart = hub.restartRequested;
  hub.restartRequested = () => {
    restarts++;
    restart?.();
  };
});
afterAll(async () => {
  await s?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const calls = [
  { operation: 'call', domain: 'homeassistant', service: 'restart', confirm: true },
  { operation: 'call', domain: 'homeassistant', service: 'reload_core_config' },
  { operation: 'call', domain: 'homeassistant', service: 'reload_all', confirm: true },
];

test('a REST tool call, MCP over HTTP in both eras and MCP over stdio are each refused, and the hub is not restarted', async () => {
  const codes: [string, string][] = [];
  for (const args of calls) {
    codes.push([`REST ${args.service}`, (await probe.tool('call_service', args)).code]);
    codes.push([`MCP 2025-11-25 ${args.service}`, (await probe.mcp('call_service', args)).code]);
    codes.push([`MCP 2026-07-28 ${args.service}`, (await probe.mcp('call_service', args, 'modern')).code]);
  }
  const sim = s.app.simulator!;
  const stdio = new Client({ name: 'attack-a1', version: '1.0.0' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['dist/src/main.js', 'stdio'],
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        HASS_URL: sim.url,
        HASS_TOKEN: sim.token,
        LOG_LEVEL: 'silent',
        AUTH_USERNAME: 'x',
        AUTH_PASSWORD: 'stdio test password',
      },
    }),
  );
  try {
    for (const args of calls) {
      const r = (await stdio.callTool({ name: 'call_service', arguments: args })) as { structuredContent?: { error?: { code?: string } } };
      codes.push([`MCP stdio ${args.service}`, r.structuredContent?.error?.code ?? JSON.stringify(r)]);
    }
  } finally {
    await stdio.close();
  }
  for (const [what, code] of codes) expect(code, what).toBe('FORBIDDEN');
  expect(restarts).toBe(0);
});

test('a sentence asking for a restart, over REST and the WebSocket, in English and German, does not restart', async () => {
  for (const command of ['restart home assistant', 'reboot homeassistant now', 'Home Assistant neu starten']) {
    const r = await s.call('/api/command', 'POST', { command });
    expect(JSON.stringify(r.body), command).not.toMatch(/"success":true/);
  }
  expect((await probe.socket('restart home assistant')).code).not.toBe('');
  expect(restarts).toBe(0);
});
