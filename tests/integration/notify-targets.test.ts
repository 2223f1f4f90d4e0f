// send_notification's choice of target on the hubs the bridge supports: 2026.11 has notify entities
// (notify.send_message) and no notify.notify unless a legacy platform makes one; 2024.3.3 has only
// legacy notify services. With nothing named, the tool takes only a target the hub leaves no doubt
// about, and asks otherwise.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Simulator, startSimulator } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';

const HOME = `
name: Notify Home
time_zone: Europe/Amsterdam
notify: [pager]
entities:
  - {entity_id: notify.kitchen_display, name: Kitchen Display, attributes: {supported_features: 1}}
  - {entity_id: notify.hall_speaker, name: Hall Speaker, attributes: {supported_features: 0}}
`;
const LEGACY_HOME = `
name: Old Home
time_zone: Europe/Amsterdam
notify: [notify, pager]
entities:
  - {entity_id: light.porch, name: Porch}
`;

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };
const tool = async (s: TestServer, args: Record<string, unknown>) =>
  (await s.call('/api/tools/call', 'POST', { name: 'send_notification', arguments: args })).body as Result;

function homeFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'hmb-notify-')), 'home.yaml');
  writeFileSync(file, text);
  return file;
}

describe('Home Assistant 2026.11: two notify entities, no notify.notify', () => {
  let sim: Simulator;
  let s: TestServer;
  beforeAll(async () => {
    sim = await startSimulator({ home: homeFile(HOME) });
    s = await startTestServer({ HASS_URL: sim.url, HASS_TOKEN: sim.token });
    await s.app.hub.ready(10_000);
  });
  afterAll(async () => {
    await s?.close();
    await sim?.stop();
  });

  test('with nothing named, a caller that cannot be asked gets AMBIGUOUS with the candidates and the legacy services; nothing is sent', async () => {
    const r = await tool(s, { message: 'Dinner' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toBe(
      'Which one should get the message? notify entities: notify.hall_speaker, notify.kitchen_display; notify services: pager. Name entity_id (or service).',
    );
    expect(r.structuredContent!.error).toMatchObject({
      code: 'AMBIGUOUS',
      details: {
        field: 'entity_id',
        entities: ['notify.hall_speaker', 'notify.kitchen_display'],
        services: ['pager'],
        candidates: [
          { entity_id: 'notify.hall_speaker', name: 'Hall Speaker', area: null },
          { entity_id: 'notify.kitchen_display', name: 'Kitchen Display', area: null },
        ],
      },
    });
    expect(sim.notifyMessages).toEqual([]);
  });

  test('an MCP client that can be asked is asked which, and the one chosen gets it', async () => {
    const client = new Client({ name: 'notify-asker', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let asked = '';
    client.setRequestHandler('elicitation/create', async (req) => {
      asked = req.params.message;
      const [key, prop] = Object.entries(
        (req.params as { requestedSchema: { properties: Record<string, { enum?: string[]; oneOf?: { const: string }[] }> } }).requestedSchema.properties,
      )[0]!;
      expect(prop.enum ?? prop.oneOf?.map((o) => o.const)).toEqual(['notify.hall_speaker', 'notify.kitchen_display']);
      return { action: 'accept', content: { [key]: 'notify.kitchen_display' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      const before = sim.notifyMessages.length;
      const r = await client.callTool({ name: 'send_notification', arguments: { message: 'Dinner is ready' } });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(asked).toMatch(/^Which one should get the message\?/);
      expect(sim.notifyMessages.slice(before)).toEqual([
        expect.objectContaining({ service: 'send_message', target: 'notify.kitchen_display', message: 'Dinner is ready' }),
      ]);
    } finally {
      await client.close();
    }
  });

  test('a named entity gets it; a title only where the entity takes one', async () => {
    const before = sim.notifyMessages.length;
    expect((await tool(s, { message: 'Dinner', title: 'Kitchen', entity_id: 'notify.kitchen_display' })).content[0]!.text).toBe(
      'Sent through notify.send_message to notify.kitchen_display.',
    );
    const untitled = await tool(s, { message: 'Dinner', title: 'Hall', entity_id: 'notify.hall_speaker' });
    expect(untitled.structuredContent!.error).toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: 'notify.hall_speaker takes no title; send the message without one.',
      details: { field: 'title' },
    });
    expect((await tool(s, { message: 'Dinner', entity_id: 'notify.hall_speaker' })).isError).toBeUndefined();
    expect(sim.notifyMessages.slice(before).map((m) => [m.service, m.target, m.title])).toEqual([
      ['send_message', 'notify.kitchen_display', 'Kitchen'],
      ['send_message', 'notify.hall_speaker', null],
    ]);
  });
});

describe('Home Assistant 2024.3.3: legacy notify services only', () => {
  let sim: Simulator;
  let s: TestServer;
  beforeAll(async () => {
    sim = await startSimulator({ home: homeFile(LEGACY_HOME), legacy: true });
    s = await startTestServer({ HASS_URL: sim.url, HASS_TOKEN: sim.token });
    await s.app.hub.ready(10_000);
  });
  afterAll(async () => {
    await s?.close();
    await sim?.stop();
  });

  test('with nothing named, notify.notify; a notify entity cannot be named', async () => {
    expect((await tool(s, { message: 'Dinner', title: 'Kitchen' })).content[0]!.text).toBe('Sent through notify.notify.');
    expect(sim.notifyMessages.at(-1)).toMatchObject({ service: 'notify', message: 'Dinner', title: 'Kitchen' });
    const entity = await tool(s, { message: 'x', entity_id: 'notify.kitchen_display' });
    expect(entity.structuredContent!.error).toMatchObject({ code: 'INVALID_ACTION', details: { field: 'entity_id', services: ['notify', 'pager'] } });
    expect(entity.content[0]!.text).toBe('This Home Assistant has no notify entities (notify.send_message came in 2024.5); notify services: notify, pager');
  });
});
