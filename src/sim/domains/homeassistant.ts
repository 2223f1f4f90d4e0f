// The generic homeassistant.turn_on/turn_off/toggle: resolve every referenced entity, group
// them by domain and call that domain's service of the same name, skipping domains without it.
import type { DomainModule } from '../domain.js';
import type { TargetFields } from '../registries.js';
import type { ServiceCall, ServiceDef } from '../services.js';
import { splitEntityId } from '../states.js';
import type { Hub } from '../hub.js';

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
    r('update_entity', {
      name: 'Update entity',
      description: 'Forces one or more entities to update their data.',
      target: { entity: [{}] },
      run: () => undefined,
    });
  },
};
