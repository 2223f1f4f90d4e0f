// Runs the action list of a script or automation declared in a home: service calls
// ({action|service, target, data}), delays ({delay: seconds | {milliseconds, seconds}}) and
// events ({event, event_data}). A run can be cancelled between and during steps.
import type { Context } from '../context.js';
import type { Hub } from '../hub.js';
import { isPlainObject } from '../schema.js';

export interface Run {
  cancelled: boolean;
  /** Ends a delay in progress. */
  wake?: () => void;
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
  return Array.isArray(steps) ? steps : [];
}

export async function runSteps(hub: Hub, steps: unknown[], context: Context, run: Run): Promise<void> {
  for (const step of steps) {
    if (run.cancelled) return;
    if (!isPlainObject(step)) continue;
    const action = step.action ?? step.service;
    if (typeof action === 'string' && action.includes('.')) {
      const [domain = '', service = ''] = action.split('.', 2);
      const data = { ...(isPlainObject(step.data) ? step.data : {}) };
      if (step.entity_id !== undefined) data.entity_id = step.entity_id;
      const target = isPlainObject(step.target) ? step.target : undefined;
      await hub.services.call(domain, service, data, { context, ...(target ? { target } : {}) });
    } else if ('delay' in step) {
      const ms = delayMs(step.delay);
      await new Promise<void>((resolve) => {
        const cancel = hub.after(ms, resolve);
        run.wake = () => {
          cancel();
          resolve();
        };
      });
      run.wake = undefined;
    } else if (typeof step.event === 'string') {
      hub.bus.fire(step.event, isPlainObject(step.event_data) ? step.event_data : {}, { context });
    }
  }
}
