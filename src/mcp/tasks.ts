// Long tool calls as MCP tasks: the io.modelcontextprotocol/tasks extension (SEP-2663, with MCP
// 2026-07-28), kept here because the pinned SDK dropped tasks. A tool that declares task support
// and says its call will take long (ClientChannel.background) answers a client that negotiated the
// extension with a task at once; the call goes on here, and the client follows it with tasks/get,
// answers its questions with tasks/update and stops it with tasks/cancel. Tasks live in memory
// (a restart of the bridge ends them), belong to the credential's subject that started them, and
// are forgotten ttlMs after they end.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { InputRequest, ToolResult } from '../plugin-sdk/index.js';
import type { Round } from '../plugin-host/asking.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** How long an ended task can still be read; a running one is kept as long as it runs. */
export const TASK_TTL_MS = 60 * 60_000;
/** How often a client is asked to look (tasks/get) while a task runs. */
export const POLL_INTERVAL_MS = 1_000;
/** Tasks one subject may have running at once: a client cannot fill the bridge with them. */
export const MAX_LIVE_TASKS = 32;

/** How a run of a task's call ended. */
export type RunOutcome =
  | { kind: 'result'; result: ToolResult }
  | { kind: 'asks'; questions: Record<string, InputRequest>; answers: Record<string, unknown> }
  | { kind: 'failed'; message: string; data?: unknown };

/**
 * Runs again, with the answers gathered, the call a task stands for; `by` is whoever sent the last
 * answers (the same subject, perhaps with a narrower credential: the run is judged as theirs).
 */
export type TaskRun = (round: Round, signal: AbortSignal, by: unknown) => Promise<RunOutcome>;

/** What a client sees of a task (tasks/get's DetailedTask; CreateTaskResult without result, error and inputRequests). */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  result?: ToolResult;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: Record<string, InputRequest>;
}

interface Task {
  id: string;
  owner: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  updatedAt: number;
  result?: ToolResult;
  error?: TaskView['error'];
  /** The questions still open, by key. */
  open: Record<string, InputRequest>;
  /** Every key asked in the round that parked the task, and the answers it carried. */
  asked: string[];
  answers: Record<string, unknown>;
  /** Answers given with tasks/update so far, for the keys asked. */
  responses: Record<string, unknown>;
  abort: AbortController;
  run: TaskRun;
  /** Stops the task's progress from being heard: when it ends. */
  generation: number;
}

/** Told of every status change (notifications/tasks). */
export type TaskListener = (owner: string, view: TaskView) => void;

const unknownTask = (id: string) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `No task ${String(id).slice(0, 80)}: it never existed here, belongs to another caller, or ended more than ${TASK_TTL_MS / 60_000} minutes ago`,
  );

export class McpTasks {
  private readonly tasks = new Map<string, Task>();
  private readonly listeners = new Set<TaskListener>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly ttlMs = TASK_TTL_MS) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, ttlMs));
    this.sweeper.unref();
  }

  /** Follows every task's status changes; the answer stops following. */
  on(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A task for a call already under way (`running`, the call's first run), answered at once: the
   * task exists before the client hears of it, so an immediate tasks/get finds it.
   */
  start(owner: string, running: Promise<RunOutcome>, run: TaskRun, abort: AbortController): TaskView {
    const live = [...this.tasks.values()].filter((t) => t.owner === owner && !TERMINAL.has(t.status)).length;
    if (live >= MAX_LIVE_TASKS) {
      abort.abort();
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Too many tasks running: one caller may have ${MAX_LIVE_TASKS} at once; wait for one to end or cancel one`,
      );
    }
    const now = Date.now();
    const task: Task = {
      id: randomUUID(),
      owner,
      status: 'working',
      createdAt: now,
      updatedAt: now,
      open: {},
      asked: [],
      answers: {},
      responses: {},
      abort,
      run,
      generation: 0,
    };
    this.tasks.set(task.id, task);
    this.follow(task, running);
    return this.view(task, false);
  }

  /** A task's progress, as its status message (a task's call has no request left to report progress on). */
  progress(taskId: string, message: string): void {
    const task = this.tasks.get(taskId);
    if (!task || TERMINAL.has(task.status)) return;
    task.statusMessage = message.slice(0, 500);
    task.updatedAt = Date.now();
  }

  get(owner: string, taskId: string): TaskView {
    return this.view(this.find(owner, taskId), true);
  }

  /**
   * Answers to a parked task's questions. Answers to keys it did not ask are ignored; the task
   * runs again once every open question has its answer, and stays input_required until then.
   */
  update(owner: string, taskId: string, responses: Record<string, unknown>, by?: unknown): void {
    const task = this.find(owner, taskId);
    if (task.status !== 'input_required') return;
    for (const [key, answer] of Object.entries(responses)) {
      if (!(key in task.open)) continue;
      task.responses[key] = answer;
      delete task.open[key];
    }
    task.updatedAt = Date.now();
    if (Object.keys(task.open).length) return;
    const round: Round = { answers: task.answers, asked: task.asked, responses: task.responses };
    this.set(task, 'working');
    this.follow(task, task.run(round, task.abort.signal, by));
  }

  /** Stops a task: idempotent; the call is told through its signal (a tool stops what Home Assistant can stop). */
  cancel(owner: string, taskId: string): void {
    const task = this.find(owner, taskId);
    if (TERMINAL.has(task.status)) return;
    task.open = {};
    this.set(task, 'cancelled', 'Cancelled by the client');
    task.abort.abort();
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const task of this.tasks.values()) task.abort.abort();
    this.tasks.clear();
    this.listeners.clear();
  }

  private find(owner: string, taskId: string): Task {
    const task = this.tasks.get(taskId);
    // Another caller's task is answered like one that does not exist.
    if (!task || task.owner !== owner) throw unknownTask(taskId);
    return task;
  }

  private follow(task: Task, running: Promise<RunOutcome>): void {
    const generation = ++task.generation;
    running.then(
      (outcome) => this.settle(task, generation, outcome),
      (err: unknown) => this.settle(task, generation, { kind: 'failed', message: err instanceof Error ? err.message : String(err) }),
    );
  }

  private settle(task: Task, generation: number, outcome: RunOutcome): void {
    // A cancelled task stays cancelled whatever its call does after; a superseded run is not heard.
    if (task.status === 'cancelled' || generation !== task.generation) return;
    if (outcome.kind === 'result') {
      const { _meta: _, ...result } = outcome.result as ToolResult & { _meta?: unknown };
      task.result = result;
      this.set(task, 'completed');
    } else if (outcome.kind === 'failed') {
      task.error = { code: ProtocolErrorCode.InternalError, message: outcome.message, ...(outcome.data !== undefined ? { data: outcome.data } : {}) };
      this.set(task, 'failed');
    } else {
      task.open = { ...outcome.questions };
      task.asked = Object.keys(outcome.questions);
      task.answers = outcome.answers;
      task.responses = {};
      this.set(task, 'input_required');
    }
  }

  private set(task: Task, status: TaskStatus, message?: string): void {
    task.status = status;
    if (message !== undefined) task.statusMessage = message;
    task.updatedAt = Date.now();
    const view = this.view(task, true);
    for (const l of this.listeners) l(task.owner, view);
  }

  private view(task: Task, detailed: boolean): TaskView {
    return {
      taskId: task.id,
      status: task.status,
      ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
      createdAt: new Date(task.createdAt).toISOString(),
      lastUpdatedAt: new Date(task.updatedAt).toISOString(),
      ttlMs: this.ttlMs,
      pollIntervalMs: POLL_INTERVAL_MS,
      ...(detailed && task.status === 'completed' && task.result ? { result: task.result } : {}),
      ...(detailed && task.status === 'failed' && task.error ? { error: task.error } : {}),
      ...(detailed && task.status === 'input_required' ? { inputRequests: { ...task.open } } : {}),
    };
  }

  private sweep(now = Date.now()): void {
    for (const [id, task] of this.tasks) if (TERMINAL.has(task.status) && now - task.updatedAt >= this.ttlMs) this.tasks.delete(id);
  }
}
