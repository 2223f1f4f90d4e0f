// The generic homeassistant.turn_on/turn_off/toggle: resolve every referenced entity, group
// them by domain and call that domain's service of the same name, skipping domains without it.
import type { DomainModule } from '../domain.js';
import type { TargetFields } from '../registries.js';
import type { ServiceCall, ServiceDef } from '../services.js';
import { splitEntityId } from '../states.js';
import type { Hub } from '../hub.js';
import { HomeAssistantError } from '../errors.js';

async function generic(call: ServiceCall, hub: Hub): Promise<void> {
  const resolved = hub.registries.resolveTarget(call.data as TargetFields);
  const all = [...new Set([...resolved.explicit, ...resolved.indirect])].sort();
  if (all.length === 0) {
    hub.log.error(`The service homeassistant.${call.service} cannot be called without a target`);
    return;
  }
  const byDomain = new Map<string, string[]>();
  for (const id of all) {
    const [domain] = splitEntityId(id);
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), id]);
  }
  const unsupported: string[] = [];
  const calls: Promise<unknown>[] = [];
  for (const [domain, ids] of byDomain) {
    if (domain === 'homeassistant') continue;
    if (!hub.services.has(domain, call.service)) {
      unsupported.push(...ids.filter((id) => resolved.explicit.has(id)));
      continue;
    }
    calls.push(hub.services.call(domain, call.service, { ...call.data, entity_id: ids }, { context: call.context }));
  }
  if (unsupported.length) hub.log.warn(`The service homeassistant.${call.service} does not support entities ${unsupported.join(', ')}`);
  await Promise.all(calls);
}

export const homeassistant: DomainModule = {
  domain: 'homeassistant',
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('homeassistant', service, def);
    r('turn_on', {
      name: 'Generic turn on',
      description: 'Generic action to turn devices on under any domain.',
      allowExtra: true,
      target: { entity: [{}] },
      run: generic,
    });
    r('turn_off', {
      name: 'Generic turn off',
      description: 'Generic action to turn devices off under any domain.',
      allowExtra: true,
      target: { entity: [{}] },
      run: generic,
    });
    r('toggle', {
      name: 'Generic toggle',
      description: 'Generic action to toggle devices on/off under any domain.',
      allowExtra: true,
      target: { entity: [{}] },
      run: generic,
    });
    // The core's own services (homeassistant/__init__.py): a restart answers, then the hub goes away
    // and comes back; reload_all calls every integration's reload, then reloads the core config.
    r('restart', {
      kind: 'plain',
      name: 'Restart',
      description: 'Restarts Home Assistant.',
      run: (_call, hub) => {
        if (!hub.restartRequested) throw new HomeAssistantError('This simulator cannot restart');
        setTimeout(hub.restartRequested, 0);
      },
    });
    r('reload_core_config', {
      kind: 'plain',
      name: 'Reload core configuration',
      description: 'Reloads the core configuration from the YAML-configuration.',
      run: () => undefined,
    });
    r('reload_all', {
      kind: 'plain',
      name: 'Reload all',
      description: 'Reloads all YAML configuration that can be reloaded without restarting Home Assistant.',
      run: async (call, hub) => {
        const reloads = hub.services
          .domains()
          .filter((d) => d !== 'homeassistant' && hub.services.has(d, 'reload'))
          .map((d) => hub.services.call(d, 'reload', {}, { context: call.context }));
        await Promise.all(reloads);
        await hub.services.call('homeassistant', 'reload_core_config', {}, { context: call.context });
      },
    });
    r('update_entity', {
      name: 'Update entity',
      description: 'Forces one or more entities to update their data.',
      target: { entity: [{}] },
      run: () => undefined,
    });
  },
};
