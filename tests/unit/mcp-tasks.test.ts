// The task store (src/mcp/tasks.ts): who may see a task, answers in parts, cancel, and forgetting.
import { describe, expect, test } from 'vitest';
import { MAX_LIVE_TASKS, McpTasks, type RunOutcome } from '../../src/mcp/tasks.js';

const never = new Promise<RunOutcome>(() => undefined);
const ask = (keys: string[]): RunOutcome => ({
  kind: 'asks',
  questions: Object.fromEntries(keys.map((k) => [k, { method: 'elicitation/create', params: { message: k, requestedSchema: {} } }])) as never,
  answers: { earlier: 1 },
});
const tick = () => new Promise((r) => setImmediate(r));

describe('McpTasks', () => {
  test("a task is its owner's: anyone else, like an unknown id, gets -32602", () => {
    const tasks = new McpTasks();
    const { taskId } = tasks.start('alice', never, () => never, new AbortController());
    expect(tasks.get('alice', taskId).status).toBe('working');
    for (const act of [() => tasks.get('bob', taskId), () => tasks.cancel('bob', taskId), () => tasks.update('bob', taskId, {})])
      expect(act).toThrow(expect.objectContaining({ code: -32602 }));
    tasks.close();
  });

  test('answers in parts: runs again only once every open question has an answer, with the earlier answers carried', async () => {
    const tasks = new McpTasks();
    const rounds: unknown[] = [];
    const { taskId } = tasks.start(
      'a',
      Promise.resolve(ask(['x', 'y'])),
      async (round) => {
        rounds.push(round);
        return { kind: 'result', result: { content: [{ type: 'text', text: 'ok' }], _meta: { 'io.modelcontextprotocol/related-task': {} } } as never };
      },
      new AbortController(),
    );
    await tick();
    expect(Object.keys(tasks.get('a', taskId).inputRequests ?? {})).toEqual(['x', 'y']);
    tasks.update('a', taskId, { x: 1, stray: 2 });
    expect(tasks.get('a', taskId)).toMatchObject({ status: 'input_required', inputRequests: { y: expect.anything() } });
    expect(rounds).toEqual([]);
    tasks.update('a', taskId, { y: 3 });
    await tick();
    expect(rounds).toEqual([{ answers: { earlier: 1 }, asked: ['x', 'y'], responses: { x: 1, y: 3 } }]);
    const done = tasks.get('a', taskId);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'ok' }] } });
    expect(done.result).not.toHaveProperty('_meta');
    tasks.close();
  });

  test('cancel aborts the call once and stays cancelled whatever the call answers after; listeners hear each change', async () => {
    const tasks = new McpTasks();
    const heard: string[] = [];
    tasks.on((owner, view) => heard.push(`${owner}:${view.status}`));
    let finish!: (o: RunOutcome) => void;
    const abort = new AbortController();
    const { taskId } = tasks.start('a', new Promise((r) => (finish = r)), () => never, abort);
    tasks.cancel('a', taskId);
    tasks.cancel('a', taskId);
    expect(abort.signal.aborted).toBe(true);
    finish({ kind: 'result', result: { content: [] } });
    await tick();
    expect(tasks.get('a', taskId).status).toBe('cancelled');
    expect(heard).toEqual(['a:cancelled']);
    tasks.close();
  });

  test('one caller may run only so many at once', () => {
    const tasks = new McpTasks();
    for (let i = 0; i < MAX_LIVE_TASKS; i++) tasks.start('a', never, () => never, new AbortController());
    const abort = new AbortController();
    expect(() => tasks.start('a', never, () => never, abort)).toThrow(/Too many tasks/);
    expect(abort.signal.aborted).toBe(true);
    expect(() => tasks.start('b', never, () => never, new AbortController())).not.toThrow();
    tasks.close();
  });
});
