// MCP over Streamable HTTP against the real Home Assistant: a tools/call turns on a light in Home
// Assistant (read back from Home Assistant itself), and a resource subscription is notified of a
// change made in Home Assistant.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, haCall, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;
let client: Client;

beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN, MCP_RESOURCE_DEBOUNCE: '50' });
  await s.app.hub.ready(30_000);
  client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
});
afterAll(async () => {
  await client?.close();
  await s?.close();
});

test('tools/call turns a light on in Home Assistant, and says it was verified', async () => {
  await haCall('light', 'turn_off', { entity_id: 'light.kitchen_lights' });
  await eventually(
    () => haStateOf('light.kitchen_lights'),
    (x) => x.state === 'off',
    'kitchen lights off',
  );
  const result = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.kitchen_lights', command: 'on', brightness_pct: 40 } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const state = await eventually(
    () => haStateOf('light.kitchen_lights'),
    (x) => x.state === 'on',
    'kitchen lights on in Home Assistant',
  );
  expect(Math.round((state.attributes.brightness / 255) * 100)).toBe(40);
});

test('a resource subscription is notified of a change made in Home Assistant', async () => {
  const uri = 'home://entity/light.bed_light';
  const notified = new Promise<string>((resolve) => client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)));
  await client.subscribeResource({ uri });
  const before = (await haStateOf('light.bed_light')).state;
  await haCall('light', before === 'on' ? 'turn_off' : 'turn_on', { entity_id: 'light.bed_light' });
  expect(await notified).toBe(uri);
  const read = await client.readResource({ uri });
  expect((read.contents[0] as { text: string }).text).toContain(before === 'on' ? '"off"' : '"on"');
});

test('connect --home-assistant against a Home Assistant without a Supervisor says so, without hanging', async () => {
  const { Client: StdioClient } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const proxy = new StdioClient({ name: 'e2e-ingress', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['dist/src/main.js', 'connect', '--home-assistant', HASS_URL],
    env: { PATH: process.env.PATH ?? '', HASS_TOKEN },
    stderr: 'pipe',
  });
  const err = await proxy.connect(transport).then(
    () => new Error('connected'),
    (e: Error) => e,
  );
  await proxy.close().catch(() => undefined);
  expect(err.message).toMatch(/has no Supervisor/);
});
