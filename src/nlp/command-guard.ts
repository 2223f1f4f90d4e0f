// A command's whole plan passes the checkpoint before any of it runs (through the executor, all of
// it or none); a dry run marks what needs confirmation instead of asking, but still refuses what
// may not be touched. The checkpoint's refusal is said in the request's language.
import type { ActionExecutor, PlannedAction, PlannedCall } from '../actions/executor.js';
import type { Caller, Policy } from '../policy/policy.js';
import type { CommandParts } from './command-parts.js';
import type { CommandWords } from './command-words.js';

/** Whether a planned action needs the person's confirmation, as a command action marks it. */
export type Needs = (plan: PlannedAction | PlannedCall) => { needs_confirmation?: true };

export async function guard(
  deps: { actions: ActionExecutor; policy: Policy },
  caller: Caller,
  planned: CommandParts,
  dry: boolean,
  words: CommandWords,
): Promise<Needs> {
  const { actions, policy } = deps;
  try {
    await actions.check(caller, planned.plans, { planOnly: dry });
  } catch (err) {
    throw words.policyRefusal(err, planned.parts, actions.guarded(planned.plans));
  }
  return (plan) => (actions.guarded([plan]).some((g) => policy.confirmationOf(g) !== undefined) ? { needs_confirmation: true } : {});
}
