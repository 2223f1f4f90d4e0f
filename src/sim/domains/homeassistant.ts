// The generic homeassistant.turn_on/turn_off/toggle: resolve every referenced entity, group
// them by domain and call that domain's service of the same name, skipping domains without it.
import { adminOf } from '../admin.js';
import type { DomainModule } from '../domain.js';
import type { TargetFields } from '../registries.js';
import { all, dict, hasAtLeastOneKey, isType } from '../schema.js';
import { type ServiceCall, type ServiceDef, targetFields } from '../services.js';
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
    // reload_config_entry (an admin service): the entry named by entry_id and those of the entities
    // and devices targeted, each unloaded and set up again; none found is a ValueError.
    r('reload_config_entry', {
      kind: 'plain',
      name: 'Reload config entry',
      description: 'Reloads the specified config entry.',
      fields: {
        entry_id: { v: isType('str'), name: 'Config entry ID', advanced: true, selector: { config_entry: {} }, example: '8955375327824e14ba89e4b29cc3ec9a' },
      },
      allowExtra: true,
      // Home Assistant 2026.11 describes no target for it (its schema still takes one).
      before: all(
        hasAtLeastOneKey('entry_id', ...Object.keys(targetFields(hub.legacy))),
        dict({ entry_id: { v: isType('str') }, ...targetFields(hub.legacy) }),
      ),
      run: (call, hub) => {
        const ids = new Set<string>();
        if (typeof call.data.entry_id === 'string') ids.add(call.data.entry_id);
        const resolved = hub.registries.resolveTarget(call.data as TargetFields);
        for (const id of [...resolved.explicit, ...resolved.indirect]) {
          const entry = hub.registries.entities.get(id)?.config_entry_id;
          if (entry) ids.add(entry);
        }
        const admin = adminOf(hub);
        // A targeted device's own entry (the simulator's devices hold one no integration lists: skipped).
        for (const d of [call.data.device_id ?? []].flat()) {
          const entry = hub.registries.devices.get(String(d))?.config_entry_id;
          if (entry && admin.entries.has(entry)) ids.add(entry);
        }
        if (!ids.size) throw new Error('There were no matching config entries to reload');
        for (const id of ids) {
          const e = admin.entries.get(id);
          if (!e) throw new HomeAssistantError(id);
          admin.reloads.push(id);
          if (!e.disabled_by && e.domain !== 'met') e.state = 'loaded';
        }
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
