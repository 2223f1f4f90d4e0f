// Asking instead of failing, and live state, against the real Home Assistant, through the official
// SDK client in both eras (2026-07-28 stateless; a 2025-11-25 session): unlocking a lock asks the
// person and runs only on their yes (read back from Home Assistant), "turn on the light" with the
// demo's several lights asks which one and turns on only that, and a 2026-07-28 listen stream hears
// a change made in Home Assistant itself. The harness picks the release (HASS_URL, HASS_TOKEN).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, haCall, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN, MCP_RESOURCE_DEBOUNCE: '50' });
  await s.app.hub.ready(30_000);
});
afterAll(() => s?.close());

type Answer = (params: { message: string; requestedSchema: { properties: Record<string, { oneOf?: { const: string }[] }> } }) => {
  action: 'accept' | 'decline';
  content?: Record<string, unknown>;
};

async function connect(era: 'modern' | 'legacy', answer?: Answer) {
  const client = new Client(
    { name: 'e2e-asking', version: '1.0.0' },
    { ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}), capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer) client.setRequestHandler('elicitation/create', async (req) => answer(req.params as never) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

describe.each(['modern', 'legacy'] as const)('%s era', (era) => {
  test('unlocking asks, and the lock opens in Home Assistant only after the yes', async () => {
    await haCall('lock', 'lock', { entity_id: 'lock.kitchen_door' });
    await eventually(
      () => haStateOf('lock.kitchen_door'),
      (x) => x.state === 'locked',
      'kitchen door locked',
    );
    const refusing = await connect(era, () => ({ action: 'decline' }));
    const no = await refusing.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.kitchen_door', command: 'unlock' } });
    expect(no.isError).toBe(true);
    expect((await haStateOf('lock.kitchen_door')).state).toBe('locked');
    await refusing.close();

    const questions: string[] = [];
    const allowing = await connect(era, (p) => {
      questions.push(p.message);
      return { action: 'accept', content: { confirm: true } };
    });
    const yes = await allowing.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.kitchen_door', command: 'unlock' } });
    expect(yes.isError, JSON.stringify(yes.content)).toBeFalsy();
    expect(questions).toEqual([expect.stringContaining('lock.kitchen_door')]);
    await eventually(
      () => haStateOf('lock.kitchen_door'),
      (x) => x.state === 'unlocked',
      'kitchen door unlocked in Home Assistant',
    );
    await allowing.close();
  });

  test('"turn on the light" asks which of the lights, and only that one goes on in Home Assistant', async () => {
    await haCall('light', 'turn_off', { entity_id: ['light.bed_light', 'light.ceiling_lights', 'light.kitchen_lights'] });
    await eventually(
      () => haStateOf('light.bed_light'),
      (x) => x.state === 'off',
      'bed light off',
    );
    let offered: string[] = [];
    const client = await connect(era, (p) => {
      offered = (p.requestedSchema.properties.choice?.oneOf ?? []).map((o) => o.const);
      return { action: 'accept', content: { choice: 'light.bed_light' } };
    });
    const r = await client.callTool({ name: 'command', arguments: { command: 'turn on the light' } });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(offered).toContain('light.bed_light');
    expect(offered.every((id) => id.startsWith('light.'))).toBe(true);
    await eventually(
      () => haStateOf('light.bed_light'),
      (x) => x.state === 'on',
      'bed light on in Home Assistant',
    );
    expect((await haStateOf('light.ceiling_lights')).state).toBe('off');
    await client.close();
  });
});

test('2026-07-28: subscriptions/listen hears a change made in Home Assistant', async () => {
  const client = await connect('modern');
  const uri = 'home://entity/light.bed_light';
  const heard = new Promise<string>((resolve) => client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)));
  const sub = await client.listen({ resourceSubscriptions: [uri] });
  const before = (await haStateOf('light.bed_light')).state;
  await haCall('light', before === 'on' ? 'turn_off' : 'turn_on', { entity_id: 'light.bed_light' });
  expect(await heard).toBe(uri);
  await sub.close();
  await client.close();
});
