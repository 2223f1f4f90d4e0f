// Task status notifications (SEP-2663, "Task Status Notifications"): a 2026-07-28 client that
// declared the tasks extension names `taskIds` in a subscriptions/listen request and hears
// `notifications/tasks` (the task as tasks/get shows it at that moment) at each status change of
// those that are its own (same token subject; another caller's ids are not agreed to, like unknown
// ones). The SDK's listen stream knows no taskIds: the request goes on to it without them, and its
// stream is passed through with the agreed ids added to its acknowledgement and the task
// notifications woven in, stamped with the listen's subscription id like its own.
import type { McpTasks, TaskView } from './tasks.js';
import { TASKS_EXTENSION } from './tasks.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** Task ids one listen request may name (a client has at most 32 running; ended ones stay readable). */
export const MAX_LISTEN_TASKS = 100;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a listen request asks of tasks. */
export interface TaskListen {
  id: string | number;
  /** The tasks agreed to (the caller's own, still known), as they are now. */
  agreed: Map<string, TaskView>;
  /** Whether the request declared the tasks extension in its client capabilities. */
  declared: boolean;
  /** The request as the SDK should see it (no taskIds; see `dropTools`). */
  forSdk: string;
  /**
   * The SDK ends a listen stream at once when nothing else in its filter is honored, so a listen for
   * tasks alone asks it for tool-list changes too, which are then not passed on.
   */
  dropTools: boolean;
}

/** The listen request's task part, or undefined when it names no taskIds (the SDK serves it as it is). */
export function taskListenOf(body: unknown, tasks: McpTasks, owner: string): TaskListen | undefined {
  if (!isObject(body) || !isObject(body.params) || !isObject(body.params.notifications)) return undefined;
  const { taskIds, ...others } = body.params.notifications;
  if (taskIds === undefined) return undefined;
  if (typeof body.id !== 'string' && typeof body.id !== 'number') return undefined;
  const ids = Array.isArray(taskIds) ? [...new Set(taskIds.filter((t): t is string => typeof t === 'string' && t.length <= 200))] : [];
  const meta = isObject(body.params._meta) ? body.params._meta : {};
  const caps = isObject(meta[CLIENT_CAPABILITIES]) ? meta[CLIENT_CAPABILITIES] : {};
  const ext = isObject(caps.extensions) ? caps.extensions : {};
  const keepsOpen =
    others.toolsListChanged === true ||
    others.promptsListChanged === true ||
    others.resourcesListChanged === true ||
    (Array.isArray(others.resourceSubscriptions) && others.resourceSubscriptions.length > 0);
  const agreed = new Map<string, TaskView>();
  for (const taskId of ids.slice(0, MAX_LISTEN_TASKS)) {
    try {
      agreed.set(taskId, tasks.get(owner, taskId));
    } catch {
      // Unknown, ended long ago, or another caller's: not agreed to.
    }
  }
  const dropTools = !keepsOpen && agreed.size > 0;
  const notifications = dropTools ? { ...others, toolsListChanged: true } : others;
  return {
    id: body.id,
    agreed,
    declared: isObject(ext[TASKS_EXTENSION]),
    forSdk: JSON.stringify({ ...body, params: { ...body.params, notifications } }),
    dropTools,
  };
}

/** The answer to a listen asking for tasks without the extension (the SEP: MUST be -32021). */
const missingExtensionError = (id: string | number): Json => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -32021,
    message: `Task notifications need the ${TASKS_EXTENSION} extension, which this subscriptions/listen request did not declare`,
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  },
});

export const missingTasksExtension = (id: string | number): Response => Response.json(missingExtensionError(id));

const notice = (subscriptionId: string | number, view: TaskView): Json => ({
  jsonrpc: '2.0',
  method: 'notifications/tasks',
  params: { ...view, _meta: { [SUBSCRIPTION_ID]: subscriptionId } },
});

const encoder = new TextEncoder();
const frame = (message: Json) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

/**
 * The SDK's listen stream (`source`) with the notifications of the tasks agreed to (`owner`'s)
 * woven in. Right after the acknowledgement each agreed task's current state is
 * sent, so a task that changed before the stream opened is not missed.
 */
export function weaveTaskNotices(source: ReadableStream<Uint8Array>, tasks: McpTasks, owner: string, listen: TaskListen): ReadableStream<Uint8Array> {
  const { agreed } = listen;
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let acknowledged = false;
  let stop: (() => void) | undefined;
  let out!: ReadableStreamDefaultController<Uint8Array>;
  const send = (bytes: Uint8Array) => {
    try {
      out.enqueue(bytes);
    } catch {
      // The stream closed meanwhile.
    }
  };

  /** One SSE frame of the SDK's stream, as it goes on (or not). */
  const pass = (text: string) => {
    const data = /^data: (.*)$/m.exec(text)?.[1];
    let message: Json | undefined;
    try {
      message = data ? (JSON.parse(data) as Json) : undefined;
    } catch {
      message = undefined;
    }
    if (message?.method === 'notifications/tools/list_changed' && listen.dropTools) return;
    if (message?.method === 'notifications/subscriptions/acknowledged' && isObject(message.params) && !acknowledged) {
      const { toolsListChanged, ...honored } = isObject(message.params.notifications) ? message.params.notifications : {};
      const notifications = {
        ...honored,
        ...(toolsListChanged && !listen.dropTools ? { toolsListChanged } : {}),
        ...(agreed.size ? { taskIds: [...agreed.keys()] } : {}),
      };
      send(frame({ ...message, params: { ...message.params, notifications } }));
      acknowledged = true;
      for (const view of agreed.values()) send(frame(notice(listen.id, view)));
      return;
    }
    send(encoder.encode(`${text}\n\n`));
  };

  return new ReadableStream<Uint8Array>({
    start(c) {
      out = c;
      if (agreed.size)
        stop = tasks.on((taskOwner, view) => {
          if (acknowledged && taskOwner === owner && agreed.has(view.taskId)) send(frame(notice(listen.id, view)));
        });
    },
    async pull(c) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          stop?.();
          if (pending) pass(pending);
          c.close();
          return;
        }
        pending += decoder.decode(value, { stream: true });
        const frames = pending.split('\n\n');
        pending = frames.pop() ?? '';
        for (const f of frames) pass(f);
      } catch (err) {
        stop?.();
        c.error(err);
      }
    },
    async cancel(reason) {
      stop?.();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}

/**
 * The same over stdio, where the SDK keeps a listen open whatever it honored: the connection's
 * listens for tasks, the acknowledgement completed on its way out, and the notifications sent.
 */
export class StdioTaskNotices {
  private readonly listens = new Map<string | number, Set<string>>();
  private readonly stop: () => void;

  constructor(
    private readonly tasks: McpTasks,
    private readonly owner: string,
    send: (message: Json) => void,
  ) {
    this.stop = tasks.on((taskOwner, view) => {
      if (taskOwner !== owner) return;
      for (const [id, ids] of this.listens) if (ids.has(view.taskId)) send(notice(id, view));
    });
  }

  /** An incoming listen request: the refusal to send instead of passing it on, if any. */
  listen(message: unknown): Json | undefined {
    const asked = taskListenOf(message, this.tasks, this.owner);
    if (!asked) return undefined;
    if (!asked.declared) return missingExtensionError(asked.id);
    this.pendingAck.set(asked.id, asked.agreed);
    return undefined;
  }

  private readonly pendingAck = new Map<string | number, Map<string, TaskView>>();

  /** An outgoing message, completed when it is the acknowledgement of a listen for tasks; then the tasks' current states. */
  outgoing(message: Json): Json[] {
    const params = isObject(message.params) ? message.params : undefined;
    const meta = params && isObject(params._meta) ? params._meta : undefined;
    const id = meta?.[SUBSCRIPTION_ID] as string | number | undefined;
    const agreed = id !== undefined ? this.pendingAck.get(id) : undefined;
    if (message.method !== 'notifications/subscriptions/acknowledged' || !params || id === undefined || !agreed) return [message];
    this.pendingAck.delete(id);
    if (!agreed.size) return [message];
    this.listens.set(id, new Set(agreed.keys()));
    const notifications = { ...(isObject(params.notifications) ? params.notifications : {}), taskIds: [...agreed.keys()] };
    return [{ ...message, params: { ...params, notifications } }, ...[...agreed.values()].map((view) => notice(id, view))];
  }

  /** The listen was cancelled (notifications/cancelled). */
  cancel(id: string | number): void {
    this.listens.delete(id);
    this.pendingAck.delete(id);
  }

  close(): void {
    this.stop();
    this.listens.clear();
  }
}
