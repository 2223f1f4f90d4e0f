// Long calls as MCP tasks (io.modelcontextprotocol/tasks, MCP 2026-07-28): over raw HTTP as a
// 2026-07-28 client declaring the extension per request (the SDK client has no tasks), and through
// the SDK client as a 2025-11-25 session, which keeps today's answer. The fixtures are the
// conformance suite's (tests/fixtures/conformance-plugin).
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { modernRpc, type Rpc, TASKS, untilTaskLeaves } from '../helpers/mcp-tasks.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PLUGINS_DIR = join(import.meta.dirname, '..', 'fixtures', 'conformance-plugin');

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ PLUGINS_DIR });
});
afterAll(() => s?.close());

const modern = (extension: boolean): Rpc => modernRpc(s, extension);

describe('2026-07-28 with the extension', () => {
  test('a long call is a task, followed with tasks/get to its result', async () => {
    const rpc = modern(true);
    const created = await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 0.3, label: 'x' } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(created).not.toHaveProperty('result');
    const done = await untilTaskLeaves(rpc, created.taskId, ['working']);
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed', result: { content: [{ type: 'text', text: 'Computed x after 0.3 s' }] } });
    // A call that ends before it says it takes long is answered as before.
    expect(await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } })).toMatchObject({ content: [{ text: 'Computed it after 0 s' }] });
  });

  test('questions after background() are asked on the task; partial answers keep it waiting', async () => {
    const rpc = modern(true);
    const parked = await rpc('tools/call', { name: 'multi_input', arguments: {} });
    const waiting = await untilTaskLeaves(rpc, parked.taskId, ['working']);
    expect(waiting.status).toBe('input_required');
    expect(Object.keys(waiting.inputRequests).sort()).toEqual(['first', 'second']);
    expect(await rpc('tasks/update', { taskId: parked.taskId, inputResponses: { first: { action: 'accept', content: { name: 'Ada' } }, nobody: {} } })).toEqual(
      expect.objectContaining({ resultType: 'complete' }),
    );
    expect(Object.keys((await rpc('tasks/get', { taskId: parked.taskId })).inputRequests)).toEqual(['second']);
    await rpc('tasks/update', { taskId: parked.taskId, inputResponses: { second: { action: 'accept', content: { confirm: true } } } });
    const answered = await untilTaskLeaves(rpc, parked.taskId, ['working', 'input_required']);
    expect(answered.result.content[0].text).toBe('Got Ada and true');
  });

  test('cancelled stays cancelled (idempotent); a failure inside the bridge is a failed task; unknown ids are -32602', async () => {
    const rpc = modern(true);
    const long = await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 300 } });
    const ack = await rpc('tasks/cancel', { taskId: long.taskId });
    expect(ack).not.toHaveProperty('status');
    expect((await rpc('tasks/get', { taskId: long.taskId })).status).toBe('cancelled');
    await rpc('tasks/cancel', { taskId: long.taskId });

    const broken = await rpc('tools/call', { name: 'protocol_error_job', arguments: {} });
    const failed = await untilTaskLeaves(rpc, broken.taskId, ['working']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'The job broke inside the bridge' } });
    expect(failed).not.toHaveProperty('result');
    await expect(rpc('tasks/get', { taskId: 'no-such-task' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("the home's long operations", () => {
  // The simulated hub's own answer, not the bridge's.
  const hub = async (id: string) => {
    const sim = s.app.simulator!;
    return ((await (await fetch(`${sim.url}/api/states/${id}`, { headers: { authorization: `Bearer ${sim.token}` } })).json()) as { state: string }).state;
  };
  const untilHub = async (id: string, state: string) => {
    while ((await hub(id)) !== state) await new Promise((r) => setTimeout(r, 50));
  };

  test("a cover's travel is a task that ends when it arrived; a REST caller is answered once it moves, as before", async () => {
    const rpc = modern(true);
    await s.call('/api/tools/call', 'POST', { name: 'control_covers', arguments: { entity_id: 'cover.living_room_blinds', command: 'close' } });
    await untilHub('cover.living_room_blinds', 'closed');
    const created = await rpc('tools/call', { name: 'control_covers', arguments: { entity_id: 'cover.living_room_blinds', command: 'open' } });
    expect(created.resultType).toBe('task');
    const done = await untilTaskLeaves(rpc, created.taskId, ['working']);
    expect(done.status).toBe('completed');
    expect(done.result.content[0].text).toBe('Arrived: cover.living_room_blinds open at 100%');
    expect(await hub('cover.living_room_blinds')).toBe('open');

    const rest = await s.call('/api/tools/call', 'POST', { name: 'control_covers', arguments: { entity_id: 'cover.living_room_blinds', command: 'close' } });
    expect(rest.body.structuredContent.entities[0].state).toBe('closing');
  });

  test("cancelling a vacuum's run sends it home (what Home Assistant can do to stop one)", async () => {
    const rpc = modern(true);
    await untilHub('vacuum.robot_vacuum', 'docked');
    const run = await rpc('tools/call', { name: 'control_vacuums', arguments: { entity_id: 'vacuum.robot_vacuum', command: 'start' } });
    expect(run.resultType).toBe('task');
    expect(await hub('vacuum.robot_vacuum')).toBe('cleaning');
    expect((await rpc('tasks/get', { taskId: run.taskId })).status).toBe('working');
    await rpc('tasks/cancel', { taskId: run.taskId });
    await untilHub('vacuum.robot_vacuum', 'docked');
    expect((await rpc('tasks/get', { taskId: run.taskId })).status).toBe('cancelled');
  });
});

describe('without the extension', () => {
  test('2026-07-28: the same call answers with its result; task methods and required-task tools are refused (-32021)', async () => {
    const rpc = modern(false);
    const r = await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 0.2 } });
    expect(r).not.toHaveProperty('taskId');
    expect(r.content[0].text).toBe('Computed it after 0.2 s');
    await expect(rpc('tasks/get', { taskId: 'x' })).rejects.toMatchObject({ code: -32021 });
    await expect(rpc('tools/call', { name: 'failing_job', arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });

  test('a 2025-11-25 session keeps progress, then the result, even declaring the extension', async () => {
    const c = new Client({ name: 'tasks-test', version: '1.0.0' }, { capabilities: { extensions: { [TASKS]: {} } } as never });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      expect(c.getServerCapabilities()?.extensions).not.toHaveProperty(TASKS);
      const r = await c.request({ method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0.2 } } } as never, v.looseObject({}));
      expect(r).not.toHaveProperty('taskId');
      expect(JSON.stringify(r)).toContain('Computed it after 0.2 s');
    } finally {
      await c.close();
    }
  });

  test("REST /api/tools/call keeps today's answer; the tool list says which tools may be tasks", async () => {
    const r = await s.call('/api/tools/call', 'POST', { name: 'slow_compute', arguments: { seconds: 0.2 } });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).toContain('Computed it after 0.2 s');
    const list = (await s.call('/api/tools')).body.tools as { name: string; execution?: unknown }[];
    expect(list.find((t) => t.name === 'slow_compute')?.execution).toEqual({ taskSupport: 'optional' });
    expect(list.find((t) => t.name === 'greet')).not.toHaveProperty('execution');
  });
});
