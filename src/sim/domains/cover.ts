// Covers and valves travel: a call puts the entity in opening/closing and it settles at its
// target after the simulated travel time (Timing.coverTravelMs); stop leaves it part way.
import { type DomainModule, finish, numeric } from '../domain.js';
import type { Hub } from '../hub.js';
import { all, coerceInt, range, reworded, string } from '../schema.js';
import type { EntityCtx, FieldDef, ServiceDef } from '../services.js';
import { SINCE } from '../version.js';
import { num, sel } from './common.js';

export const COVER_OPEN = 1;
export const COVER_CLOSE = 2;
export const COVER_SET_POSITION = 4;
export const COVER_STOP = 8;
export const COVER_OPEN_TILT = 16;
export const COVER_CLOSE_TILT = 32;
export const COVER_STOP_TILT = 64;
export const COVER_SET_TILT_POSITION = 128;
export const COVER_SET_SPEED = 256;

interface Travel {
  from: number;
  to: number;
  startedAt: number;
  durationMs: number;
  cancel: () => void;
}

const position0to100 = reworded(all(coerceInt, range({ min: 0, max: 100 })), 'expected a percentage between 0 and 100');

const hasPosition = (e: EntityCtx) => (e.features & COVER_SET_POSITION) !== 0 || typeof e.attrs.current_position === 'number';

function currentPosition(e: EntityCtx): number {
  if (typeof e.attrs.current_position === 'number') return e.attrs.current_position;
  return e.state.state === 'closed' ? 0 : 100;
}

/** Where a travel in progress has got to. */
function travelled(t: Travel): number {
  const share = t.durationMs <= 0 ? 1 : Math.min(1, (Date.now() - t.startedAt) / t.durationMs);
  return Math.round(t.from + (t.to - t.from) * share);
}

function settle(hub: Hub, e: EntityCtx, pos: number): void {
  const latest = hub.states.get(e.id);
  const attrs = { ...(latest?.attributes ?? e.attrs) };
  if (hasPosition(e)) attrs.current_position = pos;
  hub.states.set(e.id, pos === 0 ? 'closed' : 'open', attrs, { context: e.call.context });
}

function moveTo(e: EntityCtx, target: number): void {
  const hub = e.hub;
  const running = e.memory.travel as Travel | undefined;
  const from = running ? travelled(running) : currentPosition(e);
  running?.cancel();
  delete e.memory.travel;
  if (target === from) {
    settle(hub, e, target);
    return;
  }
  e.memory.lastDirection = target > from ? 'open' : 'close';
  const attrs = { ...e.attrs };
  if (hasPosition(e)) attrs.current_position = from;
  e.write(target > from ? 'opening' : 'closing', attrs);
  const travel: Travel = { from, to: target, startedAt: Date.now(), durationMs: hub.timing.coverTravelMs, cancel: () => {} };
  e.memory.travel = travel;
  travel.cancel = hub.after(travel.durationMs, () => {
    if (e.memory.travel !== travel) return;
    delete e.memory.travel;
    settle(hub, e, target);
  });
}

function stop(e: EntityCtx): void {
  const running = e.memory.travel as Travel | undefined;
  if (!running) return;
  const pos = travelled(running);
  running.cancel();
  delete e.memory.travel;
  settle(e.hub, e, pos);
}

function toggle(e: EntityCtx): void {
  const s = e.state.state;
  if ((s === 'opening' || s === 'closing') && e.features & COVER_STOP) return stop(e);
  if (s === 'closed') return moveTo(e, 100);
  return moveTo(e, e.memory.lastDirection === 'open' || s === 'open' ? 0 : 100);
}

function setTilt(e: EntityCtx, tilt: number): void {
  e.attrs.current_tilt_position = tilt;
  e.write(e.state.state, e.attrs);
}

function initTravelling(domain: string): DomainModule['init'] {
  return (seed) => {
    const a = seed.attributes;
    // Home files may say `position`; the hub's attribute is current_position.
    if ('position' in a && !('current_position' in a)) {
      a.current_position = a.position;
      delete a.position;
    }
    numeric(a, ['current_position', 'current_tilt_position']);
    const features = num(a.supported_features, COVER_OPEN | COVER_CLOSE | COVER_SET_POSITION | COVER_STOP);
    const state = seed.state ?? 'closed';
    if (features & COVER_SET_POSITION && typeof a.current_position !== 'number') a.current_position = state === 'closed' ? 0 : 100;
    if (domain === 'valve') a.reports_position ??= (features & COVER_SET_POSITION) !== 0;
    return { state, attributes: finish(a, seed.name, features) };
  };
}

const positionField = (name: string): FieldDef => ({
  v: position0to100,
  required: true,
  name,
  description: 'Target position.',
  selector: sel.number(0, 100, { unit_of_measurement: '%' }),
});

export const cover: DomainModule = {
  domain: 'cover',
  init: initTravelling('cover'),
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('cover', service, def);
    // 2026.11 takes a travel speed for covers that have speeds (supported_speeds); the simulator
    // moves them at one speed all the same.
    const speed: Record<string, FieldDef> = hub.since(SINCE.current)
      ? {
          speed: {
            v: string,
            name: 'Speed',
            description: 'Travel speed.',
            example: 'fast',
            selector: sel.text(),
            currentSelector: { state: { attribute: 'speed', multiple: false } },
            filter: { supported_features: [COVER_SET_SPEED] },
          },
        }
      : {};
    r('open_cover', { name: 'Open', description: 'Opens a cover.', requiredFeatures: [COVER_OPEN], fields: speed, handle: (e) => moveTo(e, 100) });
    r('close_cover', { name: 'Close', description: 'Closes a cover.', requiredFeatures: [COVER_CLOSE], fields: speed, handle: (e) => moveTo(e, 0) });
    r('toggle', { name: 'Toggle', description: 'Toggles a cover open/closed.', requiredFeatures: [COVER_OPEN | COVER_CLOSE], handle: toggle });
    r('set_cover_position', {
      name: 'Set position',
      description: 'Moves a cover to a specific position.',
      requiredFeatures: [COVER_SET_POSITION],
      fields: { position: positionField('Position'), ...speed },
      handle: (e) => moveTo(e, e.params.position as number),
    });
    r('stop_cover', { name: 'Stop', description: 'Stops the cover movement.', requiredFeatures: [COVER_STOP], handle: stop });
    r('open_cover_tilt', { name: 'Open tilt', description: 'Tilts a cover open.', requiredFeatures: [COVER_OPEN_TILT], handle: (e) => setTilt(e, 100) });
    r('close_cover_tilt', { name: 'Close tilt', description: 'Tilts a cover to close.', requiredFeatures: [COVER_CLOSE_TILT], handle: (e) => setTilt(e, 0) });
    r('stop_cover_tilt', { name: 'Stop tilt', description: 'Stops a tilting cover movement.', requiredFeatures: [COVER_STOP_TILT], handle: () => undefined });
    r('set_cover_tilt_position', {
      name: 'Set tilt position',
      description: 'Moves a cover tilt to a specific position.',
      requiredFeatures: [COVER_SET_TILT_POSITION],
      fields: { tilt_position: positionField('Tilt position') },
      handle: (e) => setTilt(e, e.params.tilt_position as number),
    });
    r('toggle_cover_tilt', {
      name: 'Toggle tilt',
      description: 'Toggles a cover tilt open/closed.',
      requiredFeatures: [COVER_OPEN_TILT | COVER_CLOSE_TILT],
      handle: (e) => setTilt(e, num(e.attrs.current_tilt_position, 0) > 0 ? 0 : 100),
    });
  },
};

export const valve: DomainModule = {
  domain: 'valve',
  init: initTravelling('valve'),
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('valve', service, def);
    r('open_valve', { name: 'Open', description: 'Opens a valve.', requiredFeatures: [COVER_OPEN], handle: (e) => moveTo(e, 100) });
    r('close_valve', { name: 'Close', description: 'Closes a valve.', requiredFeatures: [COVER_CLOSE], handle: (e) => moveTo(e, 0) });
    r('set_valve_position', {
      name: 'Set position',
      description: 'Moves a valve to a specific position.',
      requiredFeatures: [COVER_SET_POSITION],
      fields: { position: positionField('Position') },
      handle: (e) => moveTo(e, e.params.position as number),
    });
    r('stop_valve', { name: 'Stop', description: 'Stops the valve movement.', requiredFeatures: [COVER_STOP], handle: stop });
    r('toggle', { name: 'Toggle', description: 'Toggles a valve open/closed.', requiredFeatures: [COVER_OPEN | COVER_CLOSE], handle: toggle });
  },
};
