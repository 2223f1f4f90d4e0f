// One checkpoint on every transport. With read-only mode on, no route, tool, WebSocket message,
// MCP call or command changes anything (the hub's states, the stored scenes and groups); with a
// deny rule, none of them touches the denied entity. Every refusal carries the same code, and the
// denied entity in its details, whichever way it came.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server.js';

const DESK = 'light.office_desk';
const dataDir = mkdtempSync(join(tmpdir(), 'hmb-policy-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A refusal as any transport gives it: its code and the entities it names. */
interface Refusal {
  code: string;
  entity_ids?: string[];
}

/** REST: the core error body. */
async function rest(s: TestServer, method: string, path: string, json?: unknown): Promise<Refusal> {
  const r = await s.call(path, method, json);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(403);
  expect(r.body).toMatchObject({ error: true, code: expect.any(String), message: expect.any(String), details: expect.any(Object) });
  return { code: r.body.code, entity_ids: r.body.details.entity_ids };
}

/** A tool over REST: an isError result carrying the error. */
async function tool(s: TestServer, name: string, args: Record<string, unknown>): Promise<Refusal> {
  const r = await s.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.status, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r.body)}`).toBe(200);
  expect(r.body.isError, `${name}: ${JSON.stringify(r.body)}`).toBe(true);
  const error = r.body.structuredContent?.error ?? {};
  return { code: error.code, entity_ids: error.details?.entity_ids };
}

/**
 * A tool over MCP (Streamable HTTP, the official client): a 2025-era session, or a 2026-07-28
 * client that could be asked (it declares elicitation and would say yes): a refusal is not a question.
 */
async function mcp(s: TestServer, name: string, args: Record<string, unknown>, era: 'legacy' | 'modern' = 'legacy'): Promise<Refusal> {
  const client = new Client(
    { name: 'policy-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } } : {},
  );
  if (era === 'modern') client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  try {
    const r = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: { error?: { code: string; details?: { entity_ids?: string[] } } };
    };
    expect(r.isError, `${name}: ${JSON.stringify(r)}`).toBe(true);
    return { code: r.structuredContent?.error?.code ?? '', entity_ids: r.structuredContent?.error?.details?.entity_ids };
  } finally {
    await client.close();
  }
}

/** The WebSocket `command` message. */
async function socketCommand(s: TestServer, command: string): Promise<Refusal> {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
  const answer = new Promise<any>((resolve) =>
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.id === 1) resolve(m);
    }),
  );
  await new Promise((r) => ws.on('open', r));
  ws.send(JSON.stringify({ type: 'command', id: 1, payload: { command } }));
  const m = await answer;
  ws.close();
  expect(m, JSON.stringify(m)).toMatchObject({ type: 'error', id: 1 });
  return { code: m.error.code, entity_ids: m.error.details?.entity_ids };
}

/** Everything that could have changed: each entity's state and attributes, and what is stored. */
async function snapshot(s: TestServer) {
  const states = Object.fromEntries(s.app.simulator!.states().map((x) => [x.entity_id, JSON.stringify([x.state, x.attributes])]));
  return { states, scenes: (await s.call('/api/scenes')).body, groups: (await s.call('/api/groups')).body };
}

beforeAll(async () => {
  // A scene and a group that touch the desk lamp, stored before the rules are turned on.
  const seed = await startTestServer({ DATA_DIR: dataDir });
  try {
    expect((await seed.call('/api/scene', 'POST', { name: 'Desk on', actions: [{ entity_id: DESK, action: 'turn_on' }] })).status).toBe(200);
    expect((await seed.call('/api/group', 'POST', { name: 'Desk', entities: [DESK] })).status).toBe(200);
  } finally {
    await seed.close();
  }
});

/** Every way there is to turn the desk lamp on. */
const touchDesk: [string, (s: TestServer) => Promise<Refusal>][] = [
  ['REST device control', (s) => rest(s, 'POST', '/api/device/control', { entity_id: DESK, action: 'turn_on' })],
  ['REST device control, versioned path', (s) => rest(s, 'POST', '/api/v1/device/control', { entity_id: DESK, action: 'toggle' })],
  ['REST scene activation by path', (s) => rest(s, 'POST', '/api/scene/desk_on/activate')],
  ['REST scene activation by name', (s) => rest(s, 'POST', '/api/scene/activate', { name: 'Desk on' })],
  ['REST group control', (s) => rest(s, 'POST', '/api/group/desk/control', { action: 'turn_on' })],
  ['REST command', (s) => rest(s, 'POST', '/api/command', { command: 'turn on the office desk lamp' })],
  ['REST command, versioned path', (s) => rest(s, 'POST', '/api/v1/command', { command: 'switch on the office desk lamp' })],
  ['tool control_lights by id', (s) => tool(s, 'control_lights', { entity_id: DESK, command: 'on' })],
  ['tool control_lights by area', (s) => tool(s, 'control_lights', { area: 'Office', command: 'on' })],
  ['tool bridge_scenes activate_scene', (s) => tool(s, 'bridge_scenes', { command: 'activate_scene', name: 'Desk on' })],
  ['tool bridge_scenes control_group', (s) => tool(s, 'bridge_scenes', { command: 'control_group', name: 'Desk', action: 'turn_on' })],
  ['tool command', (s) => tool(s, 'command', { command: 'turn on the office desk lamp' })],
  ['MCP control_lights', (s) => mcp(s, 'control_lights', { entity_id: DESK, command: 'on' })],
  ['MCP command', (s) => mcp(s, 'command', { command: 'turn on the office desk lamp' })],
  ['MCP 2026-07-28 control_lights', (s) => mcp(s, 'control_lights', { entity_id: DESK, command: 'on' }, 'modern')],
  ['MCP 2026-07-28 command', (s) => mcp(s, 'command', { command: 'turn on the office desk lamp' }, 'modern')],
  ['WebSocket command', (s) => socketCommand(s, 'turn on the office desk lamp')],
];

/** What else changes the home or what the bridge keeps: refused in read-only mode. */
const changeAnything: [string, (s: TestServer) => Promise<Refusal>][] = [
  ['REST store a scene', (s) => rest(s, 'POST', '/api/scene', { name: 'Another', actions: [{ entity_id: 'switch.coffee_maker', action: 'turn_on' }] })],
  ['REST replace a scene', (s) => rest(s, 'PUT', '/api/scene/desk_on', { actions: [{ entity_id: 'switch.coffee_maker', action: 'turn_on' }] })],
  ['REST delete a scene', (s) => rest(s, 'DELETE', '/api/scene/desk_on')],
  ['REST capture a scene', (s) => rest(s, 'POST', '/api/scene/capture', { name: 'Snap', entities: ['switch.coffee_maker'] })],
  ['REST store a group', (s) => rest(s, 'POST', '/api/group', { name: 'Others', entities: ['switch.coffee_maker'] })],
  ['REST replace a group', (s) => rest(s, 'PUT', '/api/group/desk', { entities: ['switch.coffee_maker'] })],
  ['REST delete a group', (s) => rest(s, 'DELETE', '/api/group/desk')],
  ['REST unlock, confirmed', (s) => rest(s, 'POST', '/api/device/control', { entity_id: 'lock.front_door', action: 'unlock', confirm: true })],
  ['tool control_climate', (s) => tool(s, 'control_climate', { entity_id: 'climate.bedroom', temperature: 25 })],
  ['tool control_covers', (s) => tool(s, 'control_covers', { entity_id: 'cover.living_room_blinds', command: 'close' })],
  ['tool control_fans', (s) => tool(s, 'control_fans', { entity_id: 'fan.bedroom_fan', command: 'on' })],
  ['tool control_locks', (s) => tool(s, 'control_locks', { entity_id: 'lock.front_door', command: 'unlock', confirm: true })],
  ['tool control_media', (s) => tool(s, 'control_media', { entity_id: 'media_player.kitchen_speaker', command: 'volume_set', volume_level: 0.9 })],
  ['tool control_vacuums', (s) => tool(s, 'control_vacuums', { entity_id: 'vacuum.robot_vacuum', command: 'start' })],
  ['tool control_alarm', (s) => tool(s, 'control_alarm', { entity_id: 'alarm_control_panel.security', command: 'arm_away', code: '1234' })],
  ['tool run_automation', (s) => tool(s, 'run_automation', { entity_id: 'script.goodnight' })],
  ['tool send_notification', (s) => tool(s, 'send_notification', { message: 'hello', persistent: true })],
  ['tool bridge_scenes capture_scene', (s) => tool(s, 'bridge_scenes', { command: 'capture_scene', name: 'Snap', entities: ['switch.coffee_maker'] })],
];

describe('read-only mode', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ DATA_DIR: dataDir, TOOLS_READ_ONLY: 'true' });
  });
  afterAll(() => s?.close());

  test('no route, tool, WebSocket message, MCP call or command changes anything, and each says FORBIDDEN', async () => {
    const before = await snapshot(s);
    for (const [what, attempt] of [...touchDesk, ...changeAnything]) {
      expect((await attempt(s)).code, what).toBe('FORBIDDEN');
    }
    expect(await snapshot(s)).toEqual(before);
  });

  test('reading and questions still work; a dry run of an action is refused as the action would be', async () => {
    expect((await s.call(`/api/state/${DESK}`)).status).toBe(200);
    expect((await s.call('/api/tools/call', 'POST', { name: 'search_entities', arguments: { query: 'desk' } })).body.isError).toBeUndefined();
    expect((await s.call('/api/command', 'POST', { command: 'is the office desk lamp on?' })).status).toBe(200);
    const dry = await s.call('/api/command', 'POST', { command: 'turn off the office desk lamp', dry_run: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(403);
    expect(dry.body).toMatchObject({ code: 'FORBIDDEN', details: { read_only: true } });
  });
});

describe('a deny rule', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ DATA_DIR: dataDir, TOOLS_DENY: DESK });
  });
  afterAll(() => s?.close());

  test('no way of acting touches the denied entity; each refusal names it with the same code', async () => {
    const before = await snapshot(s);
    for (const [what, attempt] of touchDesk) {
      expect(await attempt(s), what).toEqual({ code: 'FORBIDDEN', entity_ids: [DESK] });
    }
    expect((await snapshot(s)).states[DESK]).toBe(before.states[DESK]);
  });

  test('everything else still acts', async () => {
    const r = await s.call('/api/device/control', 'POST', { entity_id: 'light.kitchen_strip', action: 'turn_on' });
    expect(r.status).toBe(200);
  });
});
