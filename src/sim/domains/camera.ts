// Cameras, as Home Assistant 2026.11 shows them: idle, streaming or recording; the attributes
// access_token (rotated by the hub, a credential for the proxy), brand, model_name and
// motion_detection; entity_picture, a proxy URL that carries that token. Turned off, a camera
// keeps its state (idle) but its proxy answers 503.
import { randomBytes } from 'node:crypto';
import { type DomainModule, finish } from '../domain.js';
import type { Hub } from '../hub.js';

const off = new WeakMap<Hub, Set<string>>();

/** Whether a camera answers its proxy (HA's camera.is_on). */
export const cameraIsOn = (hub: Hub, entityId: string): boolean => !off.get(hub)?.has(entityId);

const token = () => randomBytes(32).toString('hex');

export const camera: DomainModule = {
  domain: 'camera',
  init(seed) {
    const access_token = token();
    const attrs = { access_token, ...seed.attributes, entity_picture: `/api/camera_proxy/${seed.entityId}?token=${access_token}` };
    return { state: seed.state ?? 'idle', attributes: finish(attrs, seed.name, Number(seed.attributes.supported_features ?? 3)) };
  },
  setup(hub) {
    const turned = (on: boolean) => (e: { id: string; write(state: string): unknown; state: { state: string } }) => {
      const set = off.get(hub) ?? new Set<string>();
      off.set(hub, set);
      if (on) set.delete(e.id);
      else set.add(e.id);
      e.write(on ? 'streaming' : 'idle');
    };
    hub.services.register('camera', 'turn_on', { name: 'Turn on', description: 'Turns on the camera.', requiredFeatures: [1], handle: turned(true) });
    hub.services.register('camera', 'turn_off', { name: 'Turn off', description: 'Turns off the camera.', requiredFeatures: [1], handle: turned(false) });
  },
};
