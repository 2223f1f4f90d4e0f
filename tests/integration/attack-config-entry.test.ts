// ATTACK (issue 37): configuration reloaded as plain service calls (homeassistant.reload_all,
// reload_core_config; reload_config_entry is tried in attack-integration-disable.test.ts) with the admin tools off are refused by the checkpoint, over REST
// and MCP; homeassistant.update_entity (a fresh reading) is harmless and allowed.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s?.close());

const refused = [{ service: 'reload_all' }, { service: 'reload_core_config' }];

test('reloading config entries is refused over REST and MCP', async () => {
  const client = new Client({ name: 'config-entry', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  try {
    for (const c of refused) {
      const args = { operation: 'call', domain: 'homeassistant', ...c };
      const r = await s.call('/api/tools/call', 'POST', { name: 'call_service', arguments: args });
      expect(r.body.isError, `REST ${c.service}: ${JSON.stringify(r.body)}`).toBe(true);
      expect(r.body.structuredContent?.error?.code, `REST ${c.service}`).toBe('FORBIDDEN');
      const m = (await client.callTool({ name: 'call_service', arguments: args })) as { isError?: boolean; structuredContent?: any };
      expect(m.isError, `MCP ${c.service}: ${JSON.stringify(m)}`).toBe(true);
      expect(m.structuredContent?.error?.code, `MCP ${c.service}`).toBe('FORBIDDEN');
    }
  } finally {
    await client.close();
  }
});

test('homeassistant.update_entity is allowed', async () => {
  const r = await s.call('/api/tools/call', 'POST', {
    name: 'call_service',
    arguments: { operation: 'call', domain: 'homeassistant', service: 'update_entity', target: { entity_id: 'light.kitchen_ceiling' } },
  });
  expect(r.body.isError, JSON.stringify(r.body)).not.toBe(true);
});
