// A load generator: N synthetic sensors whose states change at M per second. A timer ticks
// every few milliseconds and makes as many changes as are due by then, so high rates (10,000/s)
// are reached in batches rather than with one timer per change.
import type { Hub } from './hub.js';

export interface LoadOptions {
  /** How many synthetic entities (sensor.load_0 .. sensor.load_{N-1}). */
  entities: number;
  /** State changes per second across all of them. */
  rate: number;
  /** Object id prefix; default 'load_' (sensor.load_0...). */
  prefix?: string;
  /** Timer period; default 10 ms. */
  tickMs?: number;
}

export interface LoadHandle {
  readonly entityIds: readonly string[];
  /** State changes made so far (each one a state_changed event). */
  readonly fired: number;
  readonly running: boolean;
  /** Stops changing states; with remove, also removes the synthetic entities. */
  stop(opts?: { remove?: boolean }): void;
}

export function startLoad(hub: Hub, opts: LoadOptions): LoadHandle {
  const count = Math.floor(opts.entities);
  if (!(count >= 1)) throw new RangeError('load: entities must be at least 1');
  if (!(opts.rate > 0)) throw new RangeError('load: rate must be above 0');
  const prefix = opts.prefix ?? 'load_';
  const tickMs = Math.max(1, opts.tickMs ?? 10);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const entityId = `sensor.${prefix}${i}`;
    ids.push(entityId);
    if (!hub.states.get(entityId)) {
      hub.addEntity({
        entity_id: entityId,
        name: `Load ${i}`,
        state: '0',
        attributes: { unit_of_measurement: 'W', device_class: 'power', state_class: 'measurement' },
        platform: 'sim_load',
      });
    }
  }
  const values = new Array<number>(count).fill(0);
  const started = performance.now();
  let fired = 0;
  let next = 0;
  let running = true;

  const tick = () => {
    const due = Math.floor(((performance.now() - started) / 1000) * opts.rate) - fired;
    // Never try to catch up more than a second's worth in one tick after a stall.
    const batch = Math.min(due, Math.ceil(opts.rate));
    for (let i = 0; i < batch; i++) {
      const index = next;
      next = (next + 1) % count;
      const entityId = ids[index] as string;
      const current = hub.states.get(entityId);
      if (!current) continue;
      values[index] = (values[index] ?? 0) + 1;
      hub.states.set(entityId, String(values[index]), { ...current.attributes });
      fired++;
    }
  };
  const timer = setInterval(tick, tickMs);
  timer.unref();

  return {
    entityIds: ids,
    get fired() {
      return fired;
    },
    get running() {
      return running;
    },
    stop(stopOpts = {}) {
      if (running) {
        running = false;
        clearInterval(timer);
      }
      if (stopOpts.remove) for (const id of ids) hub.removeEntity(id);
    },
  };
}
