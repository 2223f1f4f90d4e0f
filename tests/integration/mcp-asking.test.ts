// Asking instead of failing, through the official SDK client in both eras (2026-07-28 stateless
// requests with input-required results; a 2025-11-25 session with elicitation requests), over
// HTTP and stdio: an action that opens the home runs only after the person's explicit yes; "the
// lamp" with three lamps asks which; a client that cannot be asked keeps confirm: true and gets
// AMBIGUOUS; tampered and replayed request state is refused; subscriptions/listen hears the home.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ MCP_RESOURCE_DEBOUNCE: '20' });
});
afterAll(() => s?.close());

const sim = () => s.app.simulator!;
const simHeaders = () => ({ authorization: `Bearer ${sim().token}`, 'content-type': 'application/json' });
const hubState = async (id: string) => ((await (await fetch(`${sim().url}/api/states/${id}`, { headers: simHeaders() })).json()) as { state: string }).state;
const setHub = (id: string, state: string) =>
  fetch(`${sim().url}/api/states/${id}`, { method: 'POST', headers: simHeaders(), body: JSON.stringify({ state }) });

type Era = 'modern' | 'legacy';
type Answer = (req: { message: string; requestedSchema: Record<string, unknown> }) => {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
};

/** A client of one era; with `answer`, it declares elicitation and answers each question with it. */
async function client(era: Era, transport: Transport, answer?: Answer) {
  const asked: string[] = [];
  const c = new Client(
    { name: 'asking-test', version: '1.0.0' },
    { ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}), capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer) {
    c.setRequestHandler('elicitation/create', async (req) => {
      const params = req.params as { message: string; requestedSchema: Record<string, unknown> };
      asked.push(params.message);
      return answer(params) as never;
    });
  }
  await c.connect(transport);
  return { c, asked };
}

const http = () => new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } });
const yes: Answer = () => ({ action: 'accept', content: { confirm: true } });
const no: Answer = () => ({ action: 'accept', content: { confirm: false } });
const text = (r: unknown) => ((r as { content: { text?: string }[] }).content[0]?.text ?? '') as string;
const errorOf = (r: unknown) => (r as { structuredContent?: { error?: { code: string; details: Record<string, any> } } }).structuredContent?.error;

describe.each(['modern', 'legacy'] as const)('over HTTP, %s era', (era) => {
  beforeEach(async () => {
    // Through the bridge's own tools, so the entities keep their attributes (features, colour modes).
    await s.call('/api/tools/call', 'POST', { name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'lock' } });
    await s.call('/api/tools/call', 'POST', {
      name: 'control_lights',
      arguments: { entity_id: ['light.bedroom_lamp', 'light.living_room_lamp', 'light.office_desk'], command: 'off' },
    });
  });

  test('the client negotiated its era', async () => {
    const { c } = await client(era, http());
    expect(c.getProtocolEra()).toBe(era);
    await c.close();
  });

  test('unlocking asks the person and waits: no keeps it locked, yes unlocks', async () => {
    const declined = await client(era, http(), no);
    const r1 = await declined.c.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock' } });
    expect(declined.asked).toEqual([expect.stringContaining('lock.back_door')]);
    expect(r1.isError).toBe(true);
    expect(errorOf(r1)).toMatchObject({ code: 'CONFIRMATION_REQUIRED', details: { declined: true } });
    expect(await hubState('lock.back_door')).toBe('locked');
    await declined.c.close();

    const allowed = await client(era, http(), yes);
    const r2 = await allowed.c.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock' } });
    expect(allowed.asked).toHaveLength(1);
    expect(r2.isError).toBeFalsy();
    expect(await hubState('lock.back_door')).toBe('unlocked');
    await allowed.c.close();
  });

  test('a client that cannot be asked keeps confirm: true and the error', async () => {
    const { c } = await client(era, http());
    const r = await c.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock' } });
    expect(errorOf(r)).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    expect(await hubState('lock.back_door')).toBe('locked');
    const ok = await c.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock', confirm: true } });
    expect(ok.isError).toBeFalsy();
    expect(await hubState('lock.back_door')).toBe('unlocked');
    await c.close();
  });

  test('"turn on the lamp" with three lamps asks which, and turns on only that one', async () => {
    let offered: string[] = [];
    const { c } = await client(era, http(), (req) => {
      const choice = (req.requestedSchema.properties as { choice: { oneOf: { const: string }[] } }).choice;
      offered = choice.oneOf.map((o) => o.const);
      return { action: 'accept', content: { choice: 'light.office_desk' } };
    });
    const r = await c.callTool({ name: 'command', arguments: { command: 'turn on the lamp' } });
    expect(offered.sort()).toEqual(['light.bedroom_lamp', 'light.living_room_lamp', 'light.office_desk']);
    expect(r.isError).toBeFalsy();
    expect(await hubState('light.office_desk')).toBe('on');
    expect(await hubState('light.bedroom_lamp')).toBe('off');
    expect(await hubState('light.living_room_lamp')).toBe('off');
    await c.close();
  });

  test('ambiguity without a way to ask: AMBIGUOUS, the candidates of the right domain, nothing done', async () => {
    const { c } = await client(era, http());
    const r = await c.callTool({ name: 'command', arguments: { command: 'turn on the lamp' } });
    expect(r.isError).toBe(true);
    const error = errorOf(r)!;
    expect(error.code).toBe('AMBIGUOUS');
    expect(error.details.candidates.map((x: { entity_id: string }) => x.entity_id).sort()).toEqual([
      'light.bedroom_lamp',
      'light.living_room_lamp',
      'light.office_desk',
    ]);
    for (const id of ['light.bedroom_lamp', 'light.living_room_lamp', 'light.office_desk']) expect(await hubState(id)).toBe('off');
    await c.close();
  });
});

test('a yes cannot open what the checkpoint refuses: a denied lock is FORBIDDEN and nobody is asked', async () => {
  const denied = await startTestServer({ TOOLS_DENY: 'lock.back_door' });
  try {
    const transport = new StreamableHTTPClientTransport(new URL(`${denied.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${denied.token}` } },
    });
    const { c, asked } = await client('modern', transport, yes);
    const r = await c.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock' } });
    expect(errorOf(r)).toMatchObject({ code: 'FORBIDDEN' });
    expect(asked).toEqual([]);
    await c.close();
  } finally {
    await denied.close();
  }
});

describe('request state (2026-07-28, raw HTTP)', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  };
  let id = 0;
  const call = async (params: Record<string, unknown>) => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${s.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'control_locks',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'control_locks', ...params, _meta: meta } }),
    });
    return (await res.json()) as { result?: Record<string, any>; error?: { code: number; message: string } };
  };
  const unlock = { arguments: { entity_id: 'lock.back_door', command: 'unlock' } };
  const yesAnswer = { confirm: { action: 'accept', content: { confirm: true } } };

  const lock = () => s.call('/api/tools/call', 'POST', { name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'lock' } });

  test('changed, foreign, unasked and replayed state is refused; the lock opens once, on the real answer', async () => {
    await lock();
    const first = await call(unlock);
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    const state = first.result!.requestState as string;

    // A yes nobody asked for (no state) is asked again, not taken.
    const unasked = await call({ ...unlock, inputResponses: yesAnswer });
    expect(unasked.result?.resultType).toBe('input_required');
    // Changed state, or state for other arguments, is refused.
    expect((await call({ ...unlock, inputResponses: yesAnswer, requestState: `${state}x` })).error?.code).toBe(-32602);
    expect((await call({ arguments: { entity_id: 'lock.garden_gate', command: 'unlock' }, inputResponses: yesAnswer, requestState: state })).error?.code).toBe(
      -32602,
    );
    expect(await hubState('lock.back_door')).toBe('locked');

    const done = await call({ ...unlock, inputResponses: yesAnswer, requestState: state });
    expect(done.result?.isError).toBeFalsy();
    expect(await hubState('lock.back_door')).toBe('unlocked');

    // The same answer again does not unlock again.
    await lock();
    const replay = await call({ ...unlock, inputResponses: yesAnswer, requestState: state });
    expect(replay.error).toMatchObject({ code: -32602, message: expect.stringMatching(/used already/) });
    expect(await hubState('lock.back_door')).toBe('locked');
  });
});

describe('subscriptions/listen (2026-07-28)', () => {
  test('hears a change made in the hub to a resource it follows, and the resource list when an entity appears', async () => {
    const { c } = await client('modern', http());
    const updated: string[] = [];
    let listChanged = 0;
    const heard = new Promise<void>((resolve) => {
      c.setNotificationHandler('notifications/resources/updated', (n) => {
        updated.push(n.params.uri);
        resolve();
      });
    });
    const listed = new Promise<void>((resolve) =>
      c.setNotificationHandler('notifications/resources/list_changed', () => {
        listChanged++;
        resolve();
      }),
    );
    const sub = await c.listen({ resourceSubscriptions: ['home://entity/light.hallway'], resourcesListChanged: true });
    expect(sub.honoredFilter).toMatchObject({ resourceSubscriptions: ['home://entity/light.hallway'], resourcesListChanged: true });
    await setHub('light.hallway', (await hubState('light.hallway')) === 'on' ? 'off' : 'on');
    await heard;
    expect(updated).toEqual(['home://entity/light.hallway']);
    await setHub('sensor.listen_test_new', '1');
    await listed;
    expect(listChanged).toBeGreaterThan(0);
    await sub.close();
    await c.close();
  });
});

describe('over stdio (a child process), both eras', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'hmb-stdio-asking-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const stdio = () =>
    new StdioClientTransport({
      command: process.execPath,
      args: ['dist/src/main.js', 'stdio'],
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        HASS_URL: sim().url,
        HASS_TOKEN: sim().token,
        LOG_LEVEL: 'silent',
        AUTH_USERNAME: 'x',
        AUTH_PASSWORD: 'stdio test password',
        MCP_RESOURCE_DEBOUNCE: '20',
      },
      stderr: 'ignore',
    });

  test.each(['modern', 'legacy'] as const)('%s: unlocking waits for the yes; the lamp is asked for', async (era) => {
    await s.call('/api/tools/call', 'POST', { name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'lock' } });
    await s.call('/api/tools/call', 'POST', {
      name: 'control_lights',
      arguments: { entity_id: ['light.bedroom_lamp', 'light.living_room_lamp', 'light.office_desk'], command: 'off' },
    });
    let question = '';
    const { c } = await client(era, stdio(), (req) => {
      question = req.message;
      if ((req.requestedSchema.properties as Record<string, unknown>).choice) return { action: 'accept', content: { choice: 'light.bedroom_lamp' } };
      return { action: 'accept', content: { confirm: true } };
    });
    expect(c.getProtocolEra()).toBe(era);
    const unlocked = await c.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.back_door', command: 'unlock' } });
    expect(question).toContain('lock.back_door');
    expect(text(unlocked)).toContain('lock.back_door: unlocked');
    const lamp = await c.callTool({ name: 'command', arguments: { command: 'turn on the lamp' } });
    expect(lamp.isError).toBeFalsy();
    expect(JSON.stringify(lamp.structuredContent)).toContain('light.bedroom_lamp');
    await c.close();
  });

  test('modern: subscriptions/listen hears a change made in the hub', async () => {
    const { c } = await client('modern', stdio());
    const heard = new Promise<string>((resolve) => c.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)));
    const sub = await c.listen({ resourceSubscriptions: ['home://entity/light.bedroom_lamp'] });
    await setHub('light.bedroom_lamp', (await hubState('light.bedroom_lamp')) === 'on' ? 'off' : 'on');
    expect(await heard).toBe('home://entity/light.bedroom_lamp');
    await sub.close();
    await c.close();
  });
});
