// Opening a water or gas valve asks for confirmation as opening a garage door does (one rule,
// src/policy/confirmation.ts), asked over every transport; a garden valve of no such class and
// closing the water valve do not ask.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Answer, refusals } from '../helpers/refusals.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const { sim, hub, until, rest, tool, mcp, socket } = refusals(() => s, 'valve-test');

const valveStates = () =>
  sim()
    .states()
    .filter((x) => x.entity_id.startsWith('valve.'))
    .map((x) => `${x.entity_id}=${x.state}`)
    .sort();
const asks = (a: Answer, what: string, valve: string, cls: string) => {
  expect(a.code, `${what}: ${a.message}`).toBe('CONFIRMATION_REQUIRED');
  expect(a.details.needs_confirmation.join(' '), what).toMatch(new RegExp(`open(s|ing) the ${cls} valve ${valve.replace('.', '\\.')}`));
};

beforeAll(async () => {
  s = await startTestServer({ REQUIRE_CONFIRMATION: 'true' });
  // Valve features: open 1, close 2, set position 4.
  const valve = (id: string, name: string, device_class?: string) =>
    hub(
      'POST',
      `/api/states/valve.${id}`,
      { state: 'closed', attributes: { friendly_name: name, supported_features: 7, ...(device_class ? { device_class } : {}) } },
      201,
    );
  await valve('main_water', 'Main water valve', 'water');
  await valve('boiler_gas', 'Boiler gas valve', 'gas');
  await valve('garden', 'Garden valve');
  await until(() => ['valve.main_water', 'valve.boiler_gas', 'valve.garden'].every((id) => s.app.hub.cache.has(id)), 'the valves');
});
afterAll(() => s?.close());

describe('opening a water or gas valve asks, on every transport', () => {
  test('water: REST, /api/v1, the tool route, MCP in both eras, a command, the WebSocket', async () => {
    const before = valveStates();
    const v = 'valve.main_water';
    asks(await rest('POST', '/api/device/control', { entity_id: v, action: 'open' }), 'REST', v, 'water');
    asks(await rest('POST', '/api/v1/device/control', { entity_id: v, action: 'open' }), '/api/v1', v, 'water');
    asks(await tool('control_entity', { entity_id: v, service: 'open_valve' }), 'tool transport', v, 'water');
    asks(await tool('control_entity', { entity_id: v, service: 'set_valve_position', data: { position: 20 } }), 'position', v, 'water');
    asks(await tool('control_entity', { entity_id: v, service: 'toggle' }), 'toggle of a closed valve', v, 'water');
    asks(await mcp('control_entity', { entity_id: v, service: 'open_valve' }, 'legacy'), 'MCP 2025', v, 'water');
    asks(await mcp('control_entity', { entity_id: v, service: 'open_valve' }, 'modern'), 'MCP 2026-07-28', v, 'water');
    asks(await rest('POST', '/api/command', { command: 'open the main water valve' }), 'command', v, 'water');
    asks(await socket('open the main water valve'), 'WebSocket', v, 'water');
    expect(valveStates()).toEqual(before);
  });

  test('gas: the tool route and a German command', async () => {
    const before = valveStates();
    asks(await tool('control_entity', { entity_id: 'valve.boiler_gas', service: 'open_valve' }), 'tool', 'valve.boiler_gas', 'gas');
    asks(await rest('POST', '/api/command', { command: 'öffne das Boiler gas valve', language: 'de' }), 'command (de)', 'valve.boiler_gas', 'gas');
    expect(valveStates()).toEqual(before);
  });

  test('confirmed, the water valve opens; closing it and opening a valve of no such class do not ask', async () => {
    const confirmed = await s.call('/api/tools/call', 'POST', {
      name: 'control_entity',
      arguments: { entity_id: 'valve.main_water', service: 'open_valve', confirm: true },
    });
    expect(confirmed.body.isError, JSON.stringify(confirmed.body)).toBeFalsy();
    const closed = await s.call('/api/tools/call', 'POST', { name: 'control_entity', arguments: { entity_id: 'valve.main_water', service: 'close_valve' } });
    expect(closed.body.isError, JSON.stringify(closed.body)).toBeFalsy();
    const garden = await s.call('/api/tools/call', 'POST', { name: 'control_entity', arguments: { entity_id: 'valve.garden', service: 'open_valve' } });
    expect(garden.body.isError, JSON.stringify(garden.body)).toBeFalsy();
  });
});
