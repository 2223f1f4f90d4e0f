// Runs the action list of a script or automation declared in a home: service calls
// ({action|service, target, data}), delays ({delay: seconds | {milliseconds, seconds}}), events
// ({event, event_data}) and conditions ({condition: ...}, which end the run when false). A run can
// be cancelled between and during steps. With a trace, each step is recorded as Home Assistant
// records it ("action/0": what was called, or the error that ended the run).
import { checkCondition, ConditionError } from '../config/conditions.js';
import type { TraceRun } from '../config/traces.js';
import { Context } from '../context.js';
import { ServiceNotFoundError } from '../errors.js';
import type { Hub } from '../hub.js';
import { isPlainObject } from '../schema.js';

export interface Run {
  cancelled: boolean;
  /** Ends a delay in progress. */
  wake?: () => void;
  /** Set when a condition step ended the run. */
  stopped?: boolean;
}

/** Where a run's steps are recorded: the trace and the path prefix of its steps ("action", "sequence"). */
export interface StepTrace {
  run: TraceRun;
  prefix: string;
}

/** An action that failed: the run ends here, and its trace says why. */
export class StepError extends Error {
  override name = 'StepError';
}

function delayMs(d: unknown): number {
  if (typeof d === 'number') return d * 1000;
  if (isPlainObject(d)) {
    return (Number(d.hours ?? 0) * 3600 + Number(d.minutes ?? 0) * 60 + Number(d.seconds ?? 0)) * 1000 + Number(d.milliseconds ?? 0);
  }
  return 0;
}

export function stepsOf(config: Record<string, unknown>, key: 'sequence' | 'actions'): unknown[] {
  const steps = config[key] ?? (key === 'actions' ? config.action : undefined);
  return Array.isArray(steps) ? steps : steps === undefined || steps === null ? [] : [steps];
}

/** An error as Home Assistant words it in a trace. */
export function errorText(err: unknown): string {
  if (err instanceof ServiceNotFoundError) return `Action ${err.domain}.${err.service} not found`;
  const e = err as { render?: (style: string) => string; text?: string; message?: string };
  if (typeof e.render === 'function') return e.render('probatio');
  return e.text ?? e.message ?? String(err);
}

const asIds = (x: unknown): string[] => (x === undefined ? [] : (Array.isArray(x) ? x : String(x).split(',')).map((s) => String(s).trim()));

export async function runSteps(hub: Hub, steps: unknown[], context: Context, run: Run, trace?: StepTrace): Promise<void> {
  for (const [i, step] of steps.entries()) {
    if (run.cancelled || run.stopped) return;
    if (!isPlainObject(step)) continue;
    const path = trace ? `${trace.prefix}/${i}` : '';
    const action = step.action ?? step.service;
    if (typeof action === 'string' && action.includes('.')) {
      const [domain = '', service = ''] = action.split('.', 2);
      const data = { ...(isPlainObject(step.data) ? step.data : {}) };
      if (step.entity_id !== undefined) data.entity_id = step.entity_id;
      const target = isPlainObject(step.target) ? step.target : undefined;
      const stepContext = trace ? new Context(null, context.id) : context;
      const params = {
        domain,
        service,
        service_data: isPlainObject(step.data) ? step.data : {},
        target: Object.fromEntries(
          Object.entries(target ?? (step.entity_id !== undefined ? { entity_id: step.entity_id } : {})).map(([k, v]) => [k, asIds(v)]),
        ),
      };
      try {
        await hub.services.call(domain, service, data, { context: stepContext, ...(target ? { target } : {}) });
        trace?.run.step(path, { changed_variables: { context: stepContext }, result: { params, running_script: false } });
      } catch (err) {
        if (!trace) throw err;
        const error = errorText(err);
        trace.run.step(path, { changed_variables: { context: stepContext }, error, result: { params, running_script: false } });
        // The caller sees the hub's own error (a script called as an action answers with it).
        throw err;
      }
    } else if ('delay' in step) {
      const ms = delayMs(step.delay);
      trace?.run.step(path, { result: { delay: ms / 1000, done: true } });
      await new Promise<void>((resolve) => {
        const cancel = hub.after(ms, resolve);
        run.wake = () => {
          cancel();
          resolve();
        };
      });
      run.wake = undefined;
    } else if (typeof step.event === 'string') {
      const data = isPlainObject(step.event_data) ? step.event_data : {};
      hub.bus.fire(step.event, data, { context });
      trace?.run.step(path, { result: { event: step.event, event_data: data } });
    } else if (typeof step.condition === 'string') {
      let ok: boolean;
      try {
        ok = checkCondition(hub, step, trace ? { run: trace.run, path } : undefined);
      } catch (err) {
        if (!(err instanceof ConditionError) || !trace) throw err;
        trace.run.step(path, { error: err.message });
        throw new StepError(err.message);
      }
      if (!ok) run.stopped = true;
    }
  }
}
