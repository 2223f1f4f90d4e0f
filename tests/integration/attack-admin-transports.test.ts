// ATTACK A1 on every transport: with the admin tools off (the default), restarting, stopping or
// reloading Home Assistant as a plain service call is refused by the one checkpoint, whether it
// comes as a REST tool call, an MCP call over Streamable HTTP (both eras), an MCP call over stdio,
// or a sentence over REST or the WebSocket. The simulated hub counts the restarts it was asked for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let restarts = 0;
const dataDir = mkdtempSync(join(tmpdir(), 'hmb-attack-a1-'));

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
  { operation: 'call', domain: 'HOMEASSISTANT', service: 'reload_all', confirm: true },
];

type ToolResult = { isError?: boolean; structuredContent?: { error?: { code?: string } } };

async function overMcp(transport: StreamableHTTPClientTransport | StdioClientTransport, modern: boolean): Promise<ToolResult[]> {
  const client = new Client(
    { name: 'attack-a1', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } } : {},
  );
  // A client that would say yes if asked: a refusal must not become a question.
  if (modern) client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }) as never);
  await client.connect(transport);
  try {
    const out: ToolResult[] = [];
    for (const args of calls) out.push((await client.callTool({ name: 'call_service', arguments: args })) as ToolResult);
    return out;
  } finally {
    await client.close();
  }
}

const http = () => new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } });

test('a REST tool call, MCP over HTTP in both eras and MCP over stdio are each refused, and the hub is not restarted', async () => {
  const results: [string, ToolResult][] = [];
  for (const args of calls) {
    const r = await s.call('/api/tools/call', 'POST', { name: 'call_service', arguments: args });
    expect(r.status).toBe(200);
    results.push([`REST ${args.service}`, r.body as ToolResult]);
  }
  for (const r of await overMcp(http(), false)) results.push(['MCP 2025-11-25', r]);
  for (const r of await overMcp(http(), true)) results.push(['MCP 2026-07-28', r]);
  const sim = s.app.simulator!;
  const stdio = new StdioClientTransport({
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
  });
  for (const r of await overMcp(stdio, false)) results.push(['MCP stdio', r]);
  expect(results.filter(([, r]) => r.structuredContent?.error?.code === 'FORBIDDEN')).toHaveLength(results.length - 4);
  for (const [what, r] of results) {
    expect(r.isError, `${what}: ${JSON.stringify(r)}`).toBe(true);
    // The upper-case domain is not a domain the hub lists (INVALID_ACTION); the others are judged (FORBIDDEN).
    expect(['FORBIDDEN', 'INVALID_ACTION'], `${what}: ${JSON.stringify(r)}`).toContain(r.structuredContent?.error?.code);
  }
  expect(restarts).toBe(0);
  expect(s.app.hub.status().connected).toBe(true);
});

test('a sentence asking for a restart, over REST and the WebSocket, in English and German, does not restart', async () => {
  for (const command of ['restart home assistant', 'reboot homeassistant now', 'Home Assistant neu starten']) {
    const r = await s.call('/api/command', 'POST', { command });
    expect(JSON.stringify(r.body), command).not.toMatch(/"success":true/);
  }
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
  const answer = new Promise<any>((resolve) =>
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.id === 1) resolve(m);
    }),
  );
  await new Promise((r) => ws.on('open', r));
  ws.send(JSON.stringify({ type: 'command', id: 1, payload: { command: 'restart home assistant' } }));
  const m = await answer;
  ws.close();
  expect(JSON.stringify(m)).not.toMatch(/"success":true/);
  expect(restarts).toBe(0);
});
