// Automations: on/off entities whose actions run on their triggers (src/sim/config/automations.ts)
// and on automation.trigger, which fires automation_triggered with a context whose parent is the
// caller's, as the hub does; every run leaves a trace.
import type { Context } from '../context.js';
import { configOf } from '../config/index.js';
import { type DomainModule, finish } from '../domain.js';
import type { Hub } from '../hub.js';
import { boolean, isType } from '../schema.js';
import type { ServiceDef } from '../services.js';
import { sel } from './common.js';
import type { Run } from './runner.js';

/** automation.trigger: one run of its actions (conditions checked unless skip_condition), traced. */
function trigger(hub: Hub, id: string, parent: Context, skipCondition: boolean): Promise<void> {
  return configOf(hub).scripted.runAutomation(id, { variables: {}, context: parent }, { skipCondition });
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
      handle: (e) => trigger(e.hub, e.id, e.call.context, e.params.skip_condition !== false),
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
    r('reload', {
      kind: 'plain',
      name: 'Reload',
      description: 'Reloads the automation configuration.',
      fields: { id: { v: isType('str'), hidden: true } },
      run: (call, h) => {
        const scripted = configOf(h).scripted;
        const ids =
          typeof call.data.id === 'string'
            ? [call.data.id]
            : [...new Set([...scripted.automations.map((a) => String(a.id)), ...h.states.all('automation').map((s) => String(s.attributes.id))])];
        for (const id of ids) scripted.reloadAutomation(id);
      },
    });
  },
};
