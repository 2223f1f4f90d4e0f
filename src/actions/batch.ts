// Runs a list of commands (a scene's actions, a group's members) through the action executor:
// entities in parallel, one entity's actions in their given order, every action answered on its
// own so one failure does not hide the others.
import { AppError, hubUnavailable, toAppError } from '../errors.js';
import type { Caller } from '../policy/policy.js';
import type { ActionExecutor, DeviceCommand, PlannedAction } from './executor.js';

export interface ActionResult {
  entity_id: string;
  action: string;
  status: 'completed' | 'failed';
  /** The entity's state when the hub answered, when the action completed. */
  state?: string | null;
  error?: { code: string; message: string };
}

export interface BatchResult {
  results: ActionResult[];
  /** The first failure, in the order the actions were given. */
  firstError?: AppError;
}

/** Entities whose actions run at the same time; more would only queue up at the hub. */
const PARALLEL_ENTITIES = 16;

/**
 * Plans every command, then holds the whole batch to the policy checkpoint (all of it or none runs),
 * then runs it.
 */
export async function runBatch(executor: ActionExecutor, connected: boolean, commands: readonly DeviceCommand[], caller: Caller): Promise<BatchResult> {
  if (!connected) throw hubUnavailable();
  const results: ActionResult[] = new Array(commands.length);
  const errors: (AppError | undefined)[] = new Array(commands.length);
  const fail = (i: number, cmd: DeviceCommand, err: unknown) => {
    const e = toAppError(err);
    errors[i] = e;
    results[i] = { entity_id: cmd.entity_id, action: cmd.action, status: 'failed', error: { code: e.code, message: e.message } };
  };

  // Planned in the given order; an action that cannot be planned fails alone.
  const chains = new Map<string, { index: number; planned: PlannedAction }[]>();
  commands.forEach((cmd, i) => {
    try {
      const planned = executor.plan(cmd);
      let chain = chains.get(planned.entity_id);
      if (!chain) chains.set(planned.entity_id, (chain = []));
      chain.push({ index: i, planned });
    } catch (err) {
      fail(i, cmd, err);
    }
  });

  const all = [...chains.values()].flatMap((chain) => chain.map((c) => c.planned));
  await executor.prepare(all);
  executor.authorize(caller, all);
  const queue = [...chains.values()];
  const worker = async () => {
    for (let chain = queue.shift(); chain; chain = queue.shift()) {
      for (const { index, planned } of chain) {
        try {
          const out = await executor.run(planned, caller, { settle: false });
          results[index] = { entity_id: out.entity_id, action: out.action, status: 'completed', state: out.state?.state ?? null };
        } catch (err) {
          fail(index, commands[index]!, err);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_ENTITIES, queue.length) }, worker));
  return { results, firstError: errors.find((e) => e !== undefined) };
}

/**
 * The status rule shared by scenes and groups: 200 when every action completed, 207 when some
 * failed, and when none completed the first failure becomes the answer (its code and status),
 * with every action's result in details.results.
 */
export function batchStatus(batch: BatchResult, what: string): 200 | 207 {
  const ok = batch.results.filter((r) => r.status === 'completed').length;
  if (ok === batch.results.length) return 200;
  if (ok > 0) return 207;
  const first = batch.firstError!;
  throw new AppError(first.code, first.status, `No action of ${what} succeeded; the first failure: ${first.message}`, {
    ...first.details,
    results: batch.results,
  });
}
