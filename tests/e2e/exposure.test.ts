// TOOLS_EXPOSED_ONLY against the real Home Assistant: its own exposure choices and default rule
// decide what tools see and control. 2026.11 lists only the exposed entities (2024.3.3 every
// choice): an entity it stops exposing drops out of its list, and must not stay visible (a privacy
// failure the bridge once had).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { per } from './ha-control.js';
import { HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;
let ha: RawClient;
const tool = async (name: string, args: Record<string, unknown>) => (await s.call('/api/tools/call', 'POST', { name, arguments: args })).body;
const found = async (args: Record<string, unknown>) =>
  (((await tool('search_entities', { ...args, limit: 100 })).structuredContent?.entities ?? []) as { entity_id: string }[]).map((e) => e.entity_id);
const expose = (ids: string[], should: boolean) =>
  ha.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ids, should_expose: should });

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

test("Home Assistant's default rule: lights are seen, the weather is not; locks by 2024.3.3's rule, not by 2026.11.0's", async () => {
  expect(await found({ domain: 'light' })).toContain('light.bed_light');
  expect(await found({ domain: 'weather' })).toEqual([]);
  expect((await found({ domain: 'lock' })).includes('lock.front_door')).toBe(per({ '2024.3.3': true, '2026.11.0': false }));
});

test('a light Home Assistant stops exposing is hidden and refused; exposed again, it is back', async () => {
  expect((await expose(['light.bed_light'], false)).success).toBe(true);
  await s.app.services.exposure!.refresh();
  expect(await found({ domain: 'light' })).not.toContain('light.bed_light');
  expect(await tool('control_lights', { entity_id: 'light.bed_light', command: 'on' })).toMatchObject({
    isError: true,
    structuredContent: { error: { code: 'FORBIDDEN' } },
  });
  // Through the whole home as well: no tool lists it, describes it or acts on it.
  expect((await tool('describe_entity', { entity_id: 'light.bed_light' })).isError).toBe(true);
  expect(await tool('control_lights', { area: 'bedroom', command: 'on', dry_run: true })).not.toMatchObject({
    structuredContent: { entities: [{ entity_id: 'light.bed_light' }] },
  });
  await expose(['light.bed_light'], true);
  await s.app.services.exposure!.refresh();
  expect(await found({ domain: 'light' })).toContain('light.bed_light');
});
