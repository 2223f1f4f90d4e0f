// ATTACK (issue 37): opening a water valve without the person's confirmation by ways other than
// open_valve: a toggle, the generic homeassistant.turn_on, a position, a scene applied, a script
// that opens it, a batch, a command in English and German. Each must ask (or be refused) and the
// valve stays closed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Answer, refusals } from '../helpers/refusals.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const { sim, hub, until, rest, tool } = refusals(() => s, 'valve-attack');
const held = (a: Answer, what: string) => expect(['CONFIRMATION_REQUIRED', 'FORBIDDEN'], `${what}: ${a.code} ${a.message}`).toContain(a.code);

beforeAll(async () => {
  s = await startTestServer({ REQUIRE_CONFIRMATION: 'true' });
  await hub(
    'POST',
    '/api/states/valve.main_water',
    { state: 'closed', attributes: { friendly_name: 'Main water valve', supported_features: 7, device_class: 'water' } },
    201,
  );
  await hub('POST', '/api/config/script/config/water_on', {
    alias: 'Water on',
    sequence: [{ action: 'valve.open_valve', target: { entity_id: 'valve.main_water' } }],
  });
  await until(() => s.app.hub.cache.has('valve.main_water') && s.app.hub.cache.has('script.water_on'), 'the valve and the script');
});
afterAll(() => s?.close());

const closed = () =>
  expect(
    sim()
      .states()
      .find((x) => x.entity_id === 'valve.main_water')?.state,
  ).toBe('closed');

describe('a water valve is not opened unconfirmed', () => {
  test('toggle, the generic turn_on, a position (as text too), through REST and call_service', async () => {
    for (const [action, parameters] of [
      ['toggle', {}],
      ['turn_on', {}],
      ['open', {}],
      ['set_valve_position', { position: '50' }],
      ['set_value', { value: 100 }],
    ] as const) {
      held(await rest('POST', '/api/device/control', { entity_id: 'valve.main_water', action, parameters }), action);
      closed();
    }
    // Home Assistant's generic services call the target domain's service of the same name, skipping a
    // domain without it (handle_turn_service): valves have no turn_on, so homeassistant.turn_on does
    // nothing; they do have toggle, so homeassistant.toggle opens a closed valve and must ask.
    await s.call('/api/tools/call', 'POST', {
      name: 'call_service',
      arguments: { operation: 'call', domain: 'homeassistant', service: 'turn_on', target: { entity_id: 'valve.main_water' } },
    });
    closed();
    held(
      await tool('call_service', { operation: 'call', domain: 'homeassistant', service: 'toggle', target: { entity_id: 'valve.main_water' } }),
      'homeassistant.toggle',
    );
    closed();
    for (const [domain, service, data] of [
      ['valve', 'toggle', {}],
      ['valve', 'set_valve_position', { position: 1 }],
    ] as const) {
      held(await tool('call_service', { operation: 'call', domain, service, target: { entity_id: 'valve.main_water' }, data }), `${domain}.${service}`);
      closed();
    }
  });

  test('a scene applied, a script run, a batch', async () => {
    held(
      await tool('call_service', { operation: 'call', domain: 'scene', service: 'apply', data: { entities: { 'valve.main_water': 'open' } } }),
      'scene.apply',
    );
    held(await tool('call_service', { operation: 'call', domain: 'script', service: 'turn_on', target: { entity_id: 'script.water_on' } }), 'script.turn_on');
    const batch = await s.call('/api/batch', 'POST', {
      commands: [
        { entity_id: 'light.hallway', action: 'turn_on' },
        { entity_id: 'valve.main_water', action: 'toggle' },
      ],
    });
    expect(JSON.stringify(batch.body)).toMatch(/CONFIRMATION_REQUIRED|needs confirmation|not found|NOT_FOUND/i);
    closed();
  });

  test('a command, English and German', async () => {
    for (const [command, language] of [
      ['open the main water valve', 'en'],
      ['turn on the main water valve', 'en'],
      ['öffne das Main water valve', 'de'],
      ['schalte Main water valve ein', 'de'],
    ]) {
      const r = await s.call('/api/command', 'POST', { command, language });
      expect(
        r.body.success === true && r.body.actions?.some((a: { status: string }) => a.status === 'completed'),
        `${command}: ${JSON.stringify(r.body)}`,
      ).not.toBe(true);
      closed();
    }
  });
});
