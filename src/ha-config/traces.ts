// "Why didn't it run?", answered from Home Assistant's traces (trace/list, trace/get): per run,
// when, what triggered it, and how it ended: the condition that failed (with the state found and
// the one wanted) or the step that errored. Compact, never the raw trace. Pure.

export interface TraceSummary {
  run_id: string;
  state: string;
  script_execution: string | null;
  last_step: string | null;
  timestamp: { start: string; finish: string | null };
  trigger?: string | null;
  error?: string;
}

export interface TraceStep {
  path: string;
  result?: Record<string, unknown>;
  error?: string;
}

export interface RunExplained {
  run_id: string;
  started: string;
  trigger: string | null;
  /** finished, failed_conditions, error, failed_single, running, ... as Home Assistant says it. */
  outcome: string;
  /** One sentence. */
  detail: string;
}

export interface Explanation {
  entity_id: string | null;
  state: string | null;
  last_triggered: string | null;
  /** One or two sentences: the answer to "why (not)?". */
  why: string;
  runs: RunExplained[];
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The part of the config a trace path points at (condition/0/entity_id/0 → the condition's entity). */
function at(config: unknown, path: string): unknown {
  let cur: unknown = config;
  const keys = path.split('/');
  // Home Assistant's trace paths name the plural keys in the singular.
  const rename: Record<string, string[]> = {
    condition: ['conditions', 'condition'],
    action: ['actions', 'action'],
    trigger: ['triggers', 'trigger'],
    sequence: ['sequence'],
  };
  for (const [i, k] of keys.entries()) {
    if (Array.isArray(cur) && /^\d+$/.test(k)) cur = cur[Number(k)];
    else if (isObject(cur)) {
      const names = i === 0 ? (rename[k] ?? [k]) : [k];
      const obj: Record<string, unknown> = cur;
      const found = names.find((n) => n in obj);
      cur = found === undefined ? undefined : obj[found];
    } else return undefined;
    if (typeof cur === 'string' && i < keys.length - 1 && keys[i + 1] === '0') return cur;
  }
  return cur;
}

/** Words for a step of the config: "action 1 (light.turn_on)". */
function stepWords(config: unknown, path: string): string {
  const [kind, index] = path.split('/');
  const n = index === undefined ? '' : ` ${Number(index) + 1}`;
  const step = index === undefined ? undefined : at(config, `${kind}/${index}`);
  const name = isObject(step)
    ? (step.alias ?? step.action ?? step.service ?? step.condition ?? step.event ?? ('delay' in step ? 'delay' : undefined))
    : undefined;
  const noun = kind === 'sequence' ? 'step' : kind;
  return `${noun}${n}${typeof name === 'string' ? ` (${name})` : ''}`;
}

/** Why a run stopped at its conditions: the deepest condition that was false, with the states. */
function failedCondition(trace: Record<string, TraceStep[]>, config: unknown): string {
  const failed = Object.entries(trace)
    .filter(([path, steps]) => path.startsWith('condition/') && steps.some((s) => s.result?.result === false))
    .sort((a, b) => b[0].split('/').length - a[0].split('/').length);
  const [path, steps] = failed[0] ?? [];
  if (!path || !steps) return 'a condition was not met';
  const top = path.split('/').slice(0, 2).join('/');
  const result = steps.find((s) => s.result?.result === false)?.result ?? {};
  const entity = /\/entity_id\/\d+$/.test(path) ? at(config, path) : undefined;
  const found = 'state' in result ? ` was ${JSON.stringify(result.state)}` : '';
  const wanted =
    'wanted_state' in result
      ? `, wanted ${JSON.stringify(result.wanted_state)}`
      : 'wanted_state_above' in result || 'wanted_state_below' in result
        ? `, wanted ${['wanted_state_above' in result ? `above ${String(result.wanted_state_above)}` : '', 'wanted_state_below' in result ? `below ${String(result.wanted_state_below)}` : ''].filter(Boolean).join(' and ')}`
        : '';
  return `${stepWords(config, top)} was not met${typeof entity === 'string' ? `: ${entity}${found}${wanted}` : found ? `:${found}${wanted}` : ''}`;
}

/** One run in a sentence; `full` (trace/get) adds which condition or step. */
export function explainRun(summary: TraceSummary, full?: { trace?: Record<string, TraceStep[]>; config?: unknown }): RunExplained {
  const outcome = summary.state === 'running' ? 'running' : (summary.script_execution ?? summary.state);
  const trace = full?.trace ?? {};
  const config = full?.config;
  let detail: string;
  switch (outcome) {
    case 'finished': {
      const done = Object.keys(trace).filter((p) => /^(action|sequence)\/\d+$/.test(p)).length;
      detail = full ? `ran to the end (${done} ${done === 1 ? 'step' : 'steps'})` : 'ran to the end';
      break;
    }
    case 'failed_conditions':
      detail = full ? `stopped: ${failedCondition(trace, config)}` : 'stopped: a condition was not met';
      break;
    case 'error': {
      const where = summary.last_step ? stepWords(config, summary.last_step.split('/').slice(0, 2).join('/')) : 'a step';
      detail = `failed at ${where}: ${summary.error ?? 'an error'}`;
      break;
    }
    case 'failed_single':
      detail = 'did not start: it was still running and its mode is single';
      break;
    case 'running':
      detail = `is still running (at ${summary.last_step ?? 'its start'})`;
      break;
    default:
      detail = `ended: ${outcome}${summary.error ? ` (${summary.error})` : ''}`;
  }
  return { run_id: summary.run_id, started: summary.timestamp.start, trigger: summary.trigger ?? null, outcome, detail };
}

/** Words for an automation's triggers: "state of input_boolean.x to on". */
export function triggerWords(config: unknown): string[] {
  const list = isObject(config) ? (config.triggers ?? config.trigger) : undefined;
  const items = Array.isArray(list) ? list : list === undefined ? [] : [list];
  return items.map((t) => {
    if (!isObject(t)) return String(t);
    const kind = t.trigger ?? t.platform;
    if (kind === 'state')
      return `state of ${[t.entity_id].flat().join(', ')}${t.from !== undefined ? ` from ${JSON.stringify(t.from)}` : ''}${t.to !== undefined ? ` to ${JSON.stringify(t.to)}` : ''}`;
    if (kind === 'event') return `event ${JSON.stringify(t.event_type)}`;
    if (kind === 'time') return `time ${JSON.stringify(t.at)}`;
    return String(kind);
  });
}

/** The answer for one automation or script from its state, config and runs (newest last, as trace/list gives them). */
export function explain(
  kind: 'automation' | 'script',
  entity: { entity_id: string; state: string; attributes: Record<string, unknown> } | undefined,
  config: unknown,
  runs: RunExplained[],
): Explanation {
  const newest = runs.at(-1);
  let why: string;
  if (!entity)
    why = `Home Assistant has no ${kind} entity for it: it is not loaded (a config that failed to load shows as unavailable, one without an id cannot be edited).`;
  else if (entity.state === 'unavailable') why = `Home Assistant could not load it (it is unavailable): its config is not valid; read it and fix it.`;
  else if (kind === 'automation' && entity.state === 'off') why = 'It is turned off, so its triggers are ignored; turn it on (run_automation with enable).';
  else if (!newest) {
    const waits = kind === 'automation' ? triggerWords(config) : [];
    why =
      kind === 'automation'
        ? `No run since Home Assistant last started: its trigger has not fired${waits.length ? ` (it waits for ${waits.join(' or ')})` : ''}. Home Assistant keeps the last few runs only, and none across a restart.`
        : 'No run since Home Assistant last started: nothing has run it.';
  } else {
    why = `Its last run, at ${newest.started}${newest.trigger ? ` on ${newest.trigger}` : ''}, ${newest.detail}.`;
  }
  return {
    entity_id: entity?.entity_id ?? null,
    state: entity?.state ?? null,
    last_triggered: (entity?.attributes.last_triggered as string | null | undefined) ?? null,
    why,
    runs: [...runs].reverse(),
  };
}
