// Plain on/off entities: switch and input_boolean.
import { type DomainModule, finish } from '../domain.js';
import { onOffServices } from './common.js';

export const switchDomain: DomainModule = {
  domain: 'switch',
  init(seed) {
    return { state: seed.state ?? 'off', attributes: finish(seed.attributes, seed.name) };
  },
  setup(hub) {
    for (const [service, def] of Object.entries(onOffServices('switch'))) hub.services.register('switch', service, def);
  },
};

export const inputBoolean: DomainModule = {
  domain: 'input_boolean',
  init(seed) {
    return { state: seed.state ?? 'off', attributes: finish({ editable: true, ...seed.attributes }, seed.name) };
  },
  setup(hub) {
    for (const [service, def] of Object.entries(onOffServices('toggle helper'))) hub.services.register('input_boolean', service, def);
    hub.services.register('input_boolean', 'reload', {
      kind: 'plain',
      name: 'Reload',
      description: 'Reloads helpers from the YAML-configuration.',
      run: () => undefined,
    });
  },
};
