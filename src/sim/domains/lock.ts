// Locks: lock/unlock/open with the hub's code_format check; a lock declared with
// config.jam_on_lock jams instead of locking (as the hub's demo "Poorly Installed Door" does).
import { type DomainModule, finish } from '../domain.js';
import { ServiceValidationError } from '../errors.js';
import type { EntityCtx, ServiceDef } from '../services.js';
import { codeField, num } from './common.js';

export const LOCK_OPEN = 1;

/** LockEntity.add_default_code: a given (or empty) code must match code_format. */
function checkCode(e: EntityCtx): void {
  const format = e.attrs.code_format;
  if (typeof format !== 'string' || format === '') return;
  const code = typeof e.params.code === 'string' ? e.params.code : '';
  // re.match: anchored at the start only.
  if (new RegExp(`^(?:${format})`).test(code)) return;
  throw new ServiceValidationError(`The code for ${e.id} doesn't match pattern ${format}.`, {
    domain: 'lock',
    key: 'add_default_code',
    placeholders: { entity_id: e.id, code_format: format },
  });
}

/**
 * Moves through the transitional state when the lock has a motor time. The call returns once the
 * lock has settled, as the hub's blocking service call waits for the entity's own lock().
 */
async function operate(e: EntityCtx, moving: string, final: string): Promise<void> {
  const hub = e.hub;
  const ms = hub.timing.lockMs;
  if (ms <= 0) {
    e.write(final);
    return;
  }
  e.write(moving);
  (e.memory.cancel as (() => void) | undefined)?.();
  await new Promise<void>((resolve) => {
    const cancel = hub.after(ms, () => {
      delete e.memory.cancel;
      const latest = hub.states.get(e.id);
      if (latest?.state === moving) hub.states.set(e.id, final, { ...latest.attributes }, { context: e.call.context });
      resolve();
    });
    // A newer operation supersedes this one; this call still returns.
    e.memory.cancel = () => {
      cancel();
      resolve();
    };
  });
}

export const lock: DomainModule = {
  domain: 'lock',
  init(seed) {
    // LockEntity writes code_format and changed_by only when they are not None.
    const out: Record<string, unknown> = { ...seed.attributes };
    for (const k of ['code_format', 'changed_by']) if (out[k] === null) delete out[k];
    return { state: seed.state ?? 'locked', attributes: finish(out, seed.name, num(seed.attributes.supported_features, 0)) };
  },
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('lock', service, def);
    r('lock', {
      name: 'Lock',
      description: 'Locks a lock.',
      fields: { code: codeField },
      handle: (e) => {
        checkCode(e);
        return operate(e, 'locking', e.config.jam_on_lock ? 'jammed' : 'locked');
      },
    });
    r('unlock', {
      name: 'Unlock',
      description: 'Unlocks a lock.',
      fields: { code: codeField },
      handle: (e) => {
        checkCode(e);
        return operate(e, 'unlocking', 'unlocked');
      },
    });
    r('open', {
      name: 'Open',
      description: 'Opens a lock.',
      requiredFeatures: [LOCK_OPEN],
      fields: { code: codeField },
      handle: (e) => {
        checkCode(e);
        // The 'open' lock state exists from 2024.7; before, the demo's open unlocks at once.
        if (e.hub.legacy) return void e.write('unlocked');
        return operate(e, 'opening', 'open');
      },
    });
  },
};
