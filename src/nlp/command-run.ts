// Runs a command's planned parts, in order: a step's per-entity calls as one batch of the executor,
// a scene or group through its own service (its events and status rules), and answers each action
// with its status, the state the hub shows and whether that is what was asked, and the sentences
// that say so. A dry run answers each action as planned.
import type { ActionResult } from '../actions/batch.js';
import type { ActionExecutor, PlannedCall } from '../actions/executor.js';
import type { Verification } from '../actions/verify.js';
import { type AppError, toAppError } from '../errors.js';
import type { GroupService } from '../groups/service.js';
import type { Caller } from '../policy/policy.js';
import type { SceneService } from '../scenes/service.js';
import type { Needs } from './command-guard.js';
import type { Part } from './command-parts.js';
import type { CommandWords } from './command-words.js';

export interface CommandAction {
  entity_id: string;
  /** The hub's service in the entity's domain. */
  action: string;
  parameters: Record<string, unknown>;
  status: 'planned' | 'completed' | 'failed';
  needs_confirmation?: boolean;
  state?: string | null;
  /** Whether the entity shows what was asked (see the action executor); expected and actual when it does not. */
  verified?: boolean;
  pending?: boolean;
  expected?: Record<string, unknown>;
  actual?: Record<string, unknown>;
  error?: { code: string; message: string };
}

export interface PartsRun {
  actions: CommandAction[];
  /** Every failure, in the order met; the first is the answer when nothing was done. */
  errors: AppError[];
  /** What was done, what could not be and why, what the hub shows where it differs from what was asked. */
  sentences: string[];
}

export async function runParts(
  parts: readonly Part[],
  deps: { actions: ActionExecutor; scenes: SceneService; groups: GroupService },
  how: { caller: Caller; dry: boolean; needs: Needs; words: CommandWords },
): Promise<PartsRun> {
  const { actions, scenes, groups } = deps;
  const { caller, dry, needs, words } = how;
  const run: PartsRun = { actions: [], errors: [], sentences: [] };
  const failedRow = (row: CommandAction, err: unknown): CommandAction => {
    const e = toAppError(err);
    run.errors.push(e);
    return { ...row, status: 'failed', error: { code: e.code, message: e.message } };
  };
  for (const p of parts) {
    if ('call' in p) {
      const { step, call, each } = p;
      const row = (plan: PlannedCall): CommandAction => ({
        entity_id: plan.entity_ids[0]!,
        action: step.service,
        parameters: call.data,
        status: 'planned',
        ...needs(plan),
      });
      if (dry) {
        run.actions.push(...each.map(row));
        continue;
      }
      const ran = await actions.runBatch(each, caller, { settle: each.length === 1 }).catch((err: unknown) => each.map((plan) => ({ plan, error: err })));
      const rows = ran.map((r): CommandAction => {
        if (!('status' in r) || r.status !== 'completed') return failedRow(row(r.plan), r.error);
        const e = r.outcome?.entities.find((x) => x.entity_id === r.plan.entity_ids[0]);
        return { ...row(r.plan), status: 'completed', state: e?.state?.state ?? null, ...verification(e) };
      });
      run.actions.push(...rows);
      const ok = rows.filter((r) => r.status === 'completed');
      if (ok.length)
        run.sentences.push(
          words.step(
            'done',
            step.service,
            call.data,
            ok.map((r) => r.entity_id),
          ),
        );
      run.sentences.push(
        ...words.notDone(
          step.service,
          call.data,
          rows.filter((r) => r.status === 'failed'),
        ),
      );
      for (const r of ok) if (r.verified === false) run.sentences.push(words.unverified(r));
      continue;
    }
    if (dry) {
      run.actions.push(...p.list.map((a) => ({ entity_id: a.entity_id, action: a.service, parameters: a.data, status: 'planned' as const, ...needs(a) })));
      continue;
    }
    let results: ActionResult[];
    try {
      results = ('scene' in p ? await scenes.activate(p.scene, caller) : await groups.control(p.group, { action: p.action, parameters: p.parameters }, caller))
        .results;
    } catch (err) {
      // None of its actions succeeded: each one's result is in the error's details.
      const e = toAppError(err);
      const given = (e.details as { results?: ActionResult[] }).results;
      results =
        given ?? p.list.map((a) => ({ entity_id: a.entity_id, action: a.service, status: 'failed' as const, error: { code: e.code, message: e.message } }));
      run.errors.push(e);
    }
    results.forEach((x, i) => {
      const a = p.list[i]!;
      run.actions.push({
        entity_id: x.entity_id,
        action: a.service,
        parameters: a.data,
        status: x.status,
        ...(x.state !== undefined ? { state: x.state } : {}),
        ...(x.error ? { error: x.error } : {}),
      });
    });
    const failures = results.filter((x) => x.status === 'failed');
    if (failures.length < results.length) run.sentences.push(words.partDone(p));
    if (failures.length) run.sentences.push(words.partFailed(p, failures));
  }
  return run;
}

/** The executor's verdict as a command action carries it: expected and actual only when it differs. */
function verification(e: Partial<Verification> | undefined): Partial<CommandAction> {
  if (e?.verified === undefined) return {};
  if (e.verified) return { verified: true };
  return { verified: false, ...(e.pending ? { pending: true } : {}), expected: e.expected, actual: e.actual };
}
