// A command's plan as the executor runs it: each act step one service call per entity (one that
// refuses, such as a lock that wants a code, fails alone), each scene and group its device actions.
// Everything is planned before anything runs, so a refusal acts on nothing.
import type { ActionExecutor, PlannedAction, PlannedCall } from '../actions/executor.js';
import type { GroupService } from '../groups/service.js';
import type { SceneService } from '../scenes/service.js';
import type { Outcome, Step } from './plan.js';

/** Domains whose services take the code the request carries. */
const CODED = new Set(['lock', 'alarm_control_panel']);

/** One part of a command: a step of calls, a bridge scene, or a bridge group's action. */
export type Part =
  | { step: Step; call: PlannedCall; each: PlannedCall[] }
  | { scene: string; name: string; list: PlannedAction[] }
  | { group: string; name: string; action: string; parameters: Record<string, unknown>; list: PlannedAction[] };

export type Query = Extract<Outcome, { kind: 'query' }>;

export interface CommandParts {
  parts: Part[];
  queries: Query[];
  /** Every planned action of every part, as the checkpoint judges them together. */
  plans: (PlannedAction | PlannedCall)[];
}

/** Plans the parser's outcomes (none of them not understood or ambiguous) through the executor. */
export function planParts(
  outcomes: readonly Outcome[],
  code: string | undefined,
  deps: { actions: ActionExecutor; scenes: SceneService; groups: GroupService },
): CommandParts {
  const { actions, scenes, groups } = deps;
  const parts: Part[] = [];
  const queries: Query[] = [];
  for (const o of outcomes) {
    if (o.kind === 'query') queries.push(o);
    else if (o.kind === 'act') {
      for (const step of o.steps) {
        const data = code !== undefined && CODED.has(step.domain) && !('code' in step.data) ? { ...step.data, code } : step.data;
        const call = actions.planCall({ domain: step.domain, service: step.service, data, target: { entity_id: step.entity_ids } });
        parts.push({ step, call, each: step.entity_ids.map((id) => ({ ...call, target: { entity_id: [id] }, entity_ids: [id] })) });
      }
    } else if (o.kind === 'scene') {
      const scene = scenes.get(o.key, 'command');
      const list = scene.actions.map((a) => actions.plan({ entity_id: a.entity_id, action: a.action, parameters: a.parameters }, { allowUnknownEntity: true }));
      parts.push({ scene: o.key, name: o.name, list });
    } else if (o.kind === 'group') {
      const list = groups.view(o.key).expanded_entities.map((entity_id) => actions.plan({ entity_id, action: o.action, parameters: o.parameters }));
      parts.push({ group: o.key, name: o.name, action: o.action, parameters: o.parameters, list });
    }
  }
  return { parts, queries, plans: parts.flatMap((p): (PlannedAction | PlannedCall)[] => ('each' in p ? p.each : p.list)) };
}
