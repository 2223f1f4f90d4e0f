// `home-mcp-bridge connect URL`: the official SDK client over stdio, through the proxy, to a
// bridge's /mcp; the bridge restarts and the proxy carries on with a new session unnoticed.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, test } from 'vitest';
import { startTestServer } from '../helpers/server.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

test('connect bridges stdio to /mcp and survives a restart of the bridge', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hmb-connect-'));
  const port = String(await freePort());
  let s = await startTestServer({ DATA_DIR: dataDir, PORT: port });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['dist/src/main.js', 'connect', `${s.url}/mcp`],
    env: { PATH: process.env.PATH ?? '', BRIDGE_TOKEN: s.token },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'connect-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'home-mcp-bridge' });
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    await s.app.close();
    s = await startTestServer({ DATA_DIR: dataDir, PORT: port });
    const areas = await client.callTool({ name: 'list_areas', arguments: {} });
    expect(areas.isError).toBeFalsy();
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
  } finally {
    await client.close();
    await s.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('connect relays a 2026-07-28 client too: stateless requests, a question and its answer, a listen stream', async () => {
  const s = await startTestServer({ MCP_RESOURCE_DEBOUNCE: '20' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['dist/src/main.js', 'connect', `${s.url}/mcp`],
    env: { PATH: process.env.PATH ?? '', BRIDGE_TOKEN: s.token },
    stderr: 'pipe',
  });
  const client = new Client(
    { name: 'connect-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }) as never);
  try {
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('control_locks');
    const unlocked = await client.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock' } });
    expect(unlocked.isError).toBeFalsy();
    const heard = new Promise<string>((resolve) => client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)));
    const sub = await client.listen({ resourceSubscriptions: ['home://entity/lock.back_door'] });
    await client.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'lock' } });
    expect(await heard).toBe('home://entity/lock.back_door');
    await sub.close();
  } finally {
    await client.close();
    await s.close();
  }
});

test('connect refuses to start without a URL or a token, saying why', async () => {
  const { spawnSync } = await import('node:child_process');
  const noUrl = spawnSync(process.execPath, ['dist/src/main.js', 'connect'], { env: { PATH: process.env.PATH ?? '', BRIDGE_TOKEN: 'x' }, encoding: 'utf8' });
  expect(noUrl.status).toBe(1);
  expect(noUrl.stderr).toMatch(/usage:\s+home-mcp-bridge connect --home-assistant URL[\s\S]*home-mcp-bridge connect URL/);
  const noToken = spawnSync(process.execPath, ['dist/src/main.js', 'connect', 'http://127.0.0.1:1/mcp'], {
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
  });
  expect(noToken.status).toBe(1);
  expect(noToken.stderr).toMatch(/BRIDGE_TOKEN/);
});
