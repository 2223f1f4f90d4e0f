// A list of device commands (a scene's actions, a group's members) run as one batch of the action
// executor (ActionExecutor.runBatch: the checkpoint for all, entities in parallel, every action
// answered on its own), and the status rule scenes and groups answer with.
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

/**
 * Plans every command (one that cannot be planned fails alone), then runs the planned ones as one
 * batch of the executor (all of them pass the checkpoint or none runs).
 */
export async function runBatch(executor: ActionExecutor, connected: boolean, commands: readonly DeviceCommand[], caller: Caller): Promise<BatchResult> {
  if (!connected) throw hubUnavailable();
  const results: ActionResult[] = new Array(commands.length);
  const errors: (AppError | undefined)[] = new Array(commands.length);
  const fail = (i: number, cmd: DeviceCommand, e: AppError) => {
    errors[i] = e;
    results[i] = { entity_id: cmd.entity_id, action: cmd.action, status: 'failed', error: { code: e.code, message: e.message } };
  };
  const planned: { index: number; plan: PlannedAction }[] = [];
  commands.forEach((cmd, index) => {
    try {
      planned.push({ index, plan: executor.plan(cmd) });
    } catch (err) {
      fail(index, cmd, toAppError(err));
    }
  });
  const ran = await executor.runBatch(
    planned.map((p) => p.plan),
    caller,
    { settle: false },
  );
  ran.forEach((r, k) => {
    const i = planned[k]!.index;
    if (r.status === 'completed')
      results[i] = { entity_id: r.plan.entity_id, action: r.plan.action, status: 'completed', state: r.outcome?.state?.state ?? null };
    else fail(i, commands[i]!, r.error!);
  });
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
