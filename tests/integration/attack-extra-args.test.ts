// ATTACK (issue 37): an argument a tool does not know is refused with the field named, never ignored
// (a misspelt field silently dropped changes what was asked for).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ADMIN_TOOLS: 'true' });
});
afterAll(() => s?.close());

const cases = [
  ['call_service', { operation: 'call', domain: 'light', service: 'turn_on', target: { entity_id: 'light.kitchen' }, bogus_field: 1 }],
  ['admin_system', { operation: 'list_integrations', bogus_field: 1 }],
  ['todo', { operation: 'lists', bogus_field: 1 }],
  ['calendar', { operation: 'list', bogus_field: 1 }],
] as const;

describe('unknown arguments are refused, naming the field', () => {
  for (const [name, args] of cases) {
    test(`${name} over REST`, async () => {
      const r = await s.call('/api/tools/call', 'POST', { name, arguments: args });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.code).toBe('INVALID_PARAMETERS');
      expect(r.body.details.unknown_fields).toEqual(['bogus_field']);
      expect(r.body.message).toContain('bogus_field');
    });
  }
});

test('over MCP (Streamable HTTP) each is an isError result naming the field', async () => {
  const client = new Client({ name: 'extra-args', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  try {
    for (const [name, args] of cases) {
      const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };
      expect(r.isError, `${name}: ${JSON.stringify(r)}`).toBe(true);
      expect(r.structuredContent?.error?.code).toBe('INVALID_PARAMETERS');
      expect(r.structuredContent?.error?.details?.unknown_fields).toEqual(['bogus_field']);
    }
  } finally {
    await client.close();
  }
});
