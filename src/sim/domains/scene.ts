// Scenes: turning one on stamps its state with the activation time (as the hub's scenes are
// stateful) and brings each member (config.entities) to its wanted state via services.
import { type DomainModule, finish } from '../domain.js';
import { all, clamp, coerceFloat, isPlainObject, isType } from '../schema.js';
import type { ServiceDef } from '../services.js';
import { isoFromMicros, nowMicros } from '../time.js';
import { sel } from './common.js';
import { type Wanted, reproduce } from './reproduce.js';
import { configOf } from '../config/index.js';

const members = (config: Record<string, unknown>): Record<string, Wanted> => (isPlainObject(config.entities) ? config.entities : {}) as Record<string, Wanted>;

const transition = {
  v: all(coerceFloat, clamp({ min: 0, max: 6553 })),
  name: 'Transition',
  description: 'Time it takes the devices to transition into the states defined in the scene.',
  selector: { number: { min: 0, max: 300, unit_of_measurement: 'seconds' } },
};

export const scene: DomainModule = {
  domain: 'scene',
  init(seed) {
    const attrs = { entity_id: Object.keys(members(seed.config)), id: seed.objectId, ...seed.attributes };
    return { state: seed.state ?? 'unknown', attributes: finish(attrs, seed.name) };
  },
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('scene', service, def);
    r('turn_on', {
      name: 'Activate',
      description: 'Activates a scene.',
      fields: { transition },
      handle: async (e) => {
        e.write(isoFromMicros(nowMicros()));
        for (const [id, wanted] of Object.entries(members(e.config))) await reproduce(e.hub, id, wanted, e.call.context);
      },
    });
    r('apply', {
      kind: 'plain',
      name: 'Apply',
      description: 'Activates a scene with configuration.',
      fields: {
        entities: {
          v: isType('dict'),
          required: true,
          name: 'Entities state',
          description: 'List of entities and their target state.',
          example: { 'light.kitchen': 'on' },
          selector: sel.object(),
        },
        transition,
      },
      run: async (call, h) => {
        for (const [id, wanted] of Object.entries(call.data.entities as Record<string, Wanted>)) {
          await reproduce(h, id, wanted, call.context);
        }
      },
    });
    r('reload', {
      kind: 'plain',
      name: 'Reload',
      description: 'Reloads the scenes from the YAML-configuration.',
      run: (_call, h) => configOf(h).scenes.reload(),
    });
  },
};
