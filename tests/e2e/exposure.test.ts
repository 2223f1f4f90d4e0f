// TOOLS_EXPOSED_ONLY against the real Home Assistant: its own exposure choices and default rule
// decide what tools see and control.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { RawClient } from '../../src/sim/raw-client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;
let ha: RawClient;
const tool = async (name: string, args: Record<string, unknown>) => (await s.call('/api/tools/call', 'POST', { name, arguments: args })).body;
const found = async (args: Record<string, unknown>) => (((await tool('search_entities', { ...args, limit: 100 })).structuredContent?.entities ?? []) as { entity_id: string }[]).map((e) => e.entity_id);
const expose = (ids: string[], should: boolean) => ha.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ids, should_expose: should });

beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN, TOOLS_EXPOSED_ONLY: 'true' });
  await s.app.hub.ready(30_000);
  ha = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
  await s.app.services.exposure!.refresh();
});
afterAll(async () => {
  // Other files see the demo as Home Assistant made it.
  await ha?.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ['light.bed_light'], should_expose: true });
  await ha?.close();
  await s?.close();
});

test("Home Assistant's default rule: lights are seen, the weather is not", async () => {
  expect(await found({ domain: 'light' })).toContain('light.bed_light');
  expect(await found({ domain: 'weather' })).toEqual([]);
});

test('a light Home Assistant stops exposing is hidden and refused; exposed again, it is back', async () => {
  expect((await expose(['light.bed_light'], false)).success).toBe(true);
  await s.app.services.exposure!.refresh();
  expect(await found({ domain: 'light' })).not.toContain('light.bed_light');
  expect(await tool('control_lights', { entity_id: 'light.bed_light', command: 'on' })).toMatchObject({ isError: true, structuredContent: { error: { code: 'FORBIDDEN' } } });
  await expose(['light.bed_light'], true);
  await s.app.services.exposure!.refresh();
  expect(await found({ domain: 'light' })).toContain('light.bed_light');
});
