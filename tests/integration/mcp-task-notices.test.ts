// Task status notifications (SEP-2663): a 2026-07-28 client declaring the tasks extension names
// its tasks in a subscriptions/listen request over real HTTP and hears notifications/tasks at each
// status change; another caller (another token subject) naming the same task is not agreed to and
// hears nothing of it; a request without the extension is refused (-32021).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const PLUGINS_DIR = join(import.meta.dirname, '..', 'fixtures', 'conformance-plugin');
const NEIGHBOUR = { username: 'neighbour', password: 'another horse battery' };
type Answer = Record<string, any>;

let s: TestServer;
let neighbourToken: string;
const configDir = mkdtempSync(join(tmpdir(), 'hmb-task-notices-'));
beforeAll(async () => {
  const configFile = join(configDir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ users: [NEIGHBOUR] }));
  s = await startTestServer({ PLUGINS_DIR, CONFIG_FILE: configFile });
  const res = await fetch(`${s.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(NEIGHBOUR) });
  neighbourToken = ((await res.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await s?.close();
  rmSync(configDir, { recursive: true, force: true });
});

let id = 0;
const post = (token: string, method: string, params: Record<string, unknown>, extension = true, name?: string) =>
  fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'task-notices-test', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': extension ? { extensions: { [TASKS]: {} } } : {},
        },
      },
    }),
  });

const rpc = async (method: string, params: Record<string, unknown>, name?: string): Promise<Answer> => {
  const body = (await (await post(s.token, method, params, true, name)).json()) as { result?: Answer; error?: Answer };
  if (body.error) throw body.error;
  return body.result!;
};

/** An open listen stream: its messages as they come, and a wait for the next one matching. */
async function listen(token: string, notifications: Record<string, unknown>) {
  const res = await post(token, 'subscriptions/listen', { notifications });
  const listenId = id;
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const messages: Answer[] = [];
  let pending = '';
  let ended = false;
  const read = async () => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return;
    }
    pending += decoder.decode(value, { stream: true });
    const frames = pending.split('\n\n');
    pending = frames.pop() ?? '';
    for (const f of frames) {
      const data = /^data: (.*)$/m.exec(f)?.[1];
      if (data) messages.push(JSON.parse(data));
    }
  };
  let seen = 0;
  return {
    listenId,
    messages,
    /** The next message (after those already taken) that matches; fails when the stream ends first. */
    async next(match: (m: Answer) => boolean): Promise<Answer> {
      for (;;) {
        while (seen < messages.length) {
          const m = messages[seen++]!;
          if (match(m)) return m;
        }
        if (ended) throw new Error(`the listen stream ended; it sent ${JSON.stringify(messages)}`);
        await read();
      }
    },
    async toEnd() {
      while (!ended) await read();
      return messages;
    },
    close: () => reader.cancel().catch(() => undefined),
  };
}

const isAck = (m: Answer) => m.method === 'notifications/subscriptions/acknowledged';
const isTask = (m: Answer) => m.method === 'notifications/tasks';

const hub = async (entity: string) => {
  const sim = s.app.simulator!;
  return ((await (await fetch(`${sim.url}/api/states/${entity}`, { headers: { authorization: `Bearer ${sim.token}` } })).json()) as { state: string }).state;
};

describe('notifications/tasks on a subscriptions/listen stream', () => {
  test("a cover's travel: working, then completed with its result; another caller naming the task is not agreed to", async () => {
    await s.call('/api/tools/call', 'POST', { name: 'control_covers', arguments: { entity_id: 'cover.living_room_blinds', command: 'close' } });
    while ((await hub('cover.living_room_blinds')) !== 'closed') await new Promise((r) => setTimeout(r, 50));
    const created = await rpc(
      'tools/call',
      { name: 'control_covers', arguments: { entity_id: 'cover.living_room_blinds', command: 'open' } },
      'control_covers',
    );
    expect(created.resultType).toBe('task');

    // The neighbour names the task too: nothing agreed, so its stream acknowledges nothing and ends.
    const theirs = await listen(neighbourToken, { taskIds: [created.taskId] });
    const mine = await listen(s.token, { taskIds: [created.taskId, 'no-such-task'] });
    expect((await mine.next(isAck)).params.notifications).toEqual({ taskIds: [created.taskId] });
    const working = await mine.next(isTask);
    expect(working.params).toMatchObject({ taskId: created.taskId, status: 'working', createdAt: created.createdAt, ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(working.params._meta[SUBSCRIPTION_ID]).toBe(mine.listenId);
    const done = await mine.next((m) => isTask(m) && m.params.status !== 'working');
    expect(done.params).toMatchObject({
      taskId: created.taskId,
      status: 'completed',
      result: { content: [{ text: 'Arrived: cover.living_room_blinds open at 100%' }] },
    });
    // Identical to what tasks/get answers now.
    const { resultType: _, _meta: ___, ...got } = await rpc('tasks/get', { taskId: created.taskId }, created.taskId);
    const { _meta: __, ...sent } = done.params;
    expect(sent).toEqual(got);
    // Only what the client asked for: the tool-list changes the stream is kept open with are not passed on.
    expect(mine.messages.every((m) => isAck(m) || isTask(m))).toBe(true);
    await mine.close();

    const heard = await theirs.toEnd();
    expect(heard.find(isAck)?.params.notifications).toEqual({});
    expect(heard.some(isTask)).toBe(false);
  });

  test('cancelling sends cancelled; the stream carries what else it asked for beside', async () => {
    const long = await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 300 } }, 'slow_compute');
    const mine = await listen(s.token, { taskIds: [long.taskId], resourcesListChanged: true });
    expect((await mine.next(isAck)).params.notifications).toEqual({ resourcesListChanged: true, taskIds: [long.taskId] });
    expect((await mine.next(isTask)).params.status).toBe('working');
    await rpc('tasks/cancel', { taskId: long.taskId }, long.taskId);
    expect((await mine.next(isTask)).params).toMatchObject({ taskId: long.taskId, status: 'cancelled', statusMessage: 'Cancelled by the client' });
    await mine.close();
  });

  test('a listen naming tasks without the extension is refused with -32021', async () => {
    const res = await post(s.token, 'subscriptions/listen', { notifications: { taskIds: ['any'] } }, false);
    expect(((await res.json()) as Answer).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
  });
});

describe('over stdio (a child process)', () => {
  test('a listen for a task hears working, then cancelled; without the extension -32021', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hmb-stdio-task-notices-'));
    const child = spawn(process.execPath, ['dist/src/main.js', 'stdio'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PLUGINS_DIR, LOG_LEVEL: 'silent', AUTH_USERNAME: 'x', AUTH_PASSWORD: 'stdio test password' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const messages: Answer[] = [];
    let waiting: (() => void) | undefined;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      messages.push(JSON.parse(line));
      waiting?.();
    });
    let seen = 0;
    const next = async (match: (m: Answer) => boolean): Promise<Answer> => {
      for (;;) {
        while (seen < messages.length) {
          const m = messages[seen++]!;
          if (match(m)) return m;
        }
        await new Promise<void>((r) => {
          waiting = r;
        });
      }
    };
    let n = 0;
    const send = (method: string, params: Record<string, unknown>, extension = true) => {
      const reqId = ++n;
      const caps = extension ? { extensions: { [TASKS]: {} } } : {};
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'task-notices-test', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': caps,
      };
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: reqId, method, params: { ...params, _meta: meta } })}\n`);
      return reqId;
    };
    try {
      const call = send('tools/call', { name: 'slow_compute', arguments: { seconds: 300 } });
      const created = (await next((m) => m.id === call)).result;
      expect(created.resultType).toBe('task');
      const listenId = send('subscriptions/listen', { notifications: { taskIds: [created.taskId] } });
      const ack = await next((m) => isAck(m));
      expect(ack.params.notifications).toEqual({ taskIds: [created.taskId] });
      expect(ack.params._meta[SUBSCRIPTION_ID]).toBe(listenId);
      expect((await next(isTask)).params).toMatchObject({ taskId: created.taskId, status: 'working' });
      send('tasks/cancel', { taskId: created.taskId });
      expect((await next(isTask)).params).toMatchObject({ taskId: created.taskId, status: 'cancelled', _meta: { [SUBSCRIPTION_ID]: listenId } });
      const refused = send('subscriptions/listen', { notifications: { taskIds: [created.taskId] } }, false);
      expect((await next((m) => m.id === refused)).error).toMatchObject({ code: -32021 });
    } finally {
      child.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
