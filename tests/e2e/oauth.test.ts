// OAuth against the real Home Assistant: a hosted assistant (the official SDK client's OAuth
// support) is authorized on the consent page and turns a light on in Home Assistant (read back
// from Home Assistant itself); a read grant cannot.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { authorizedClient, HostedAssistant } from '../helpers/oauth-client.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';
import { eventually, haCall, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
});
afterAll(() => s?.close());

test('an OAuth grant with control turns a light on in Home Assistant; a read grant is refused', async () => {
  await haCall('light', 'turn_off', { entity_id: 'light.ceiling_lights' });
  await eventually(
    () => haStateOf('light.ceiling_lights'),
    (x) => x.state === 'off',
    'ceiling lights off',
  );

  const reader = await authorizedClient(s.url, TEST_USER, new HostedAssistant('read'), ['read']);
  const refused = await reader.callTool({ name: 'control_lights', arguments: { entity_id: 'light.ceiling_lights', command: 'on' } });
  expect(refused.isError).toBe(true);
  expect((await haStateOf('light.ceiling_lights')).state).toBe('off');
  await reader.close();

  const controller = await authorizedClient(s.url, TEST_USER, new HostedAssistant());
  const result = await controller.callTool({ name: 'control_lights', arguments: { entity_id: 'light.ceiling_lights', command: 'on' } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  await eventually(
    () => haStateOf('light.ceiling_lights'),
    (x) => x.state === 'on',
    'ceiling lights on in Home Assistant',
  );
  await controller.close();
});
