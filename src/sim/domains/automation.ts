// Automations: on/off entities whose actions (config.actions) run on automation.trigger, which
// fires automation_triggered with a context whose parent is the caller's, as the hub does.
import { Context } from '../context.js';
import { type DomainModule, finish } from '../domain.js';
import type { Hub } from '../hub.js';
import { boolean, isType } from '../schema.js';
import type { ServiceDef } from '../services.js';
import { isoFromMicros, nowMicros } from '../time.js';
import { sel } from './common.js';
import { type Run, runSteps, stepsOf } from './runner.js';

async function trigger(hub: Hub, id: string, parent: Context): Promise<void> {
  const memory = hub.memory(id);
  if (memory.run) {
    hub.log.warn(`${id}: Already running`);
    return;
  }
  const context = new Context(null, parent.id);
  const run: Run = { cancelled: false };
  memory.run = run;
  const latest = hub.states.get(id);
  const name = String(latest?.attributes.friendly_name ?? id);
  hub.states.set(id, latest?.state ?? 'on', { ...(latest?.attributes ?? {}), last_triggered: isoFromMicros(nowMicros()), current: 1 }, { context });
  hub.bus.fire('automation_triggered', { name, entity_id: id }, { context });
  try {
    await runSteps(hub, stepsOf(hub.entityConfig(id), 'actions'), context, run);
  } finally {
    delete memory.run;
    const now = hub.states.get(id);
    hub.states.set(id, now?.state ?? 'on', { ...(now?.attributes ?? {}), current: 0 }, { context });
  }
}

function stop(hub: Hub, id: string): void {
  const run = hub.memory(id).run as Run | undefined;
  if (!run) return;
  run.cancelled = true;
  run.wake?.();
}

export const automation: DomainModule = {
  domain: 'automation',
  init(seed) {
    const attrs = { id: seed.objectId, last_triggered: null, mode: 'single', current: 0, ...seed.attributes };
    return { state: seed.state ?? 'on', attributes: finish(attrs, seed.name) };
  },
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('automation', service, def);
    r('trigger', {
      name: 'Trigger',
      description: 'Triggers the actions of an automation.',
      fields: {
        skip_condition: {
          v: boolean,
          default: true,
          name: 'Skip conditions',
          description: 'Defines whether or not the conditions will be skipped.',
          selector: sel.boolean(),
        },
        variables: { v: isType('dict'), default: {}, hidden: true },
      },
      handle: (e) => trigger(e.hub, e.id, e.call.context),
    });
    r('turn_on', { name: 'Turn on', description: 'Enables an automation.', handle: (e) => void e.write('on') });
    r('turn_off', {
      name: 'Turn off',
      description: 'Disables an automation.',
      fields: {
        stop_actions: {
          v: boolean,
          default: true,
          name: 'Stop actions',
          description: 'Stops currently running actions.',
          selector: sel.boolean(),
        },
      },
      handle: (e) => {
        if (e.params.stop_actions) stop(e.hub, e.id);
        e.write('off');
      },
    });
    r('toggle', {
      name: 'Toggle',
      description: 'Toggles (enable / disable) an automation.',
      handle: (e) => void e.write(e.state.state === 'on' ? 'off' : 'on'),
    });
    r('reload', { kind: 'plain', name: 'Reload', description: 'Reloads the automation configuration.', run: () => undefined });
  },
};
