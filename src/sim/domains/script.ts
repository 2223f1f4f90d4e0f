// Scripts: each one is also a service script.<name> (which waits for the run to end), and an
// entity that is 'on' while running. script.turn_on starts a run without waiting; mode single
// ignores a start while running, as the hub does (with a warning).
import type { Context } from '../context.js';
import { type DomainModule, finish } from '../domain.js';
import type { Hub } from '../hub.js';
import { isPlainObject, isType } from '../schema.js';
import type { FieldDef, ServiceDef } from '../services.js';
import { isoFromMicros, nowMicros } from '../time.js';
import { sel } from './common.js';
import { errorText, type Run, runSteps, stepsOf } from './runner.js';
import { configOf } from '../config/index.js';

function writeState(hub: Hub, id: string, state: string, changes: Record<string, unknown>, context: Context): void {
  const latest = hub.states.get(id);
  hub.states.set(id, state, { ...(latest?.attributes ?? {}), ...changes }, { context });
}

/** Runs a script to its end; resolves at once if it is already running. */
export async function runScript(hub: Hub, id: string, context: Context): Promise<unknown> {
  const memory = hub.memory(id);
  if (memory.run) {
    hub.log.warn(`${id}: Already running`);
    return null;
  }
  const run: Run = { cancelled: false };
  memory.run = run;
  const name = String(hub.states.get(id)?.attributes.friendly_name ?? id);
  writeState(hub, id, 'on', { last_triggered: isoFromMicros(nowMicros()), current: 1 }, context);
  hub.bus.fire('script_started', { name, entity_id: id }, { context });
  const trace = configOf(hub).scripted.scriptTrace(id.slice('script.'.length), context);
  try {
    await runSteps(hub, stepsOf(hub.entityConfig(id), 'sequence'), context, run, { run: trace, prefix: 'sequence' });
    trace.end(run.cancelled ? 'cancelled' : 'finished');
  } catch (err) {
    trace.end('error', errorText(err));
    throw err;
  } finally {
    delete memory.run;
    writeState(hub, id, 'off', { current: 0 }, context);
  }
  return null;
}

export function stopScript(hub: Hub, id: string): void {
  const run = hub.memory(id).run as Run | undefined;
  if (!run) return;
  run.cancelled = true;
  run.wake?.();
}

/** Fields a script declares (config.fields) become its service's fields, passed as variables. */
function declaredFields(config: Record<string, unknown>): Record<string, FieldDef> {
  const out: Record<string, FieldDef> = {};
  if (!isPlainObject(config.fields)) return out;
  for (const [key, raw] of Object.entries(config.fields)) {
    const f = isPlainObject(raw) ? raw : {};
    out[key] = {
      v: (x) => x,
      required: f.required === true,
      name: typeof f.name === 'string' ? f.name : key,
      description: typeof f.description === 'string' ? f.description : '',
      selector: isPlainObject(f.selector) ? f.selector : sel.text(),
    };
  }
  return out;
}

export const script: DomainModule = {
  domain: 'script',
  init(seed, hub) {
    const attrs = { last_triggered: null, mode: 'single', current: 0, ...seed.attributes };
    hub.services.register('script', seed.objectId, {
      kind: 'plain',
      name: seed.name,
      description: typeof seed.config.description === 'string' ? seed.config.description : '',
      fields: declaredFields(seed.config),
      allowExtra: true,
      response: 'optional',
      run: (call, h) => runScript(h, seed.entityId, call.context),
    });
    return { state: 'off', attributes: finish(attrs, seed.name) };
  },
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('script', service, def);
    const variables: FieldDef = {
      v: isType('dict'),
      name: 'Variables',
      description: 'Variables passed to the script.',
      selector: sel.object(),
    };
    r('turn_on', {
      name: 'Turn on',
      description: 'Runs the sequence of actions defined in a script.',
      fields: { variables },
      handle: (e) => {
        void runScript(e.hub, e.id, e.call.context).catch((err) => e.hub.log.warn(`${e.id} failed: ${(err as Error).message}`));
      },
    });
    r('turn_off', { name: 'Turn off', description: 'Stops a running script.', handle: (e) => stopScript(e.hub, e.id) });
    r('toggle', {
      name: 'Toggle',
      description: 'Starts a script if it is not running, stops it otherwise.',
      handle: (e) => {
        if (e.state.state === 'on') stopScript(e.hub, e.id);
        else void runScript(e.hub, e.id, e.call.context).catch((err) => e.hub.log.warn(`${e.id} failed: ${(err as Error).message}`));
      },
    });
    r('reload', { kind: 'plain', name: 'Reload', description: 'Reloads all the available scripts.', run: (_call, h) => configOf(h).scripted.reloadScripts() });
  },
};
