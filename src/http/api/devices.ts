// Device state and control (interface part 4).
import * as v from 'valibot';
import type { ActionExecutor } from '../../actions/executor.js';
import { checkEntityId } from '../../actions/executor.js';
import type { AppContext } from '../../context.js';
import { invalidParameters } from '../../errors.js';
import type { HubClient } from '../../hub/client.js';
import { domainOf } from '../../hub/entity-id.js';
import { toDeviceListing, toDeviceState } from '../../hub/views.js';
import { reply } from '../routes.js';
import { parseInput } from '../validate.js';

export const deviceCommandSchema = v.object({
  entity_id: v.string('must be a string'),
  action: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  parameters: v.optional(
    v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'must be an object'),
  ),
});

/** Reads are served from the cache; while the hub is away they say so in headers. */
function freshness(hub: HubClient): Record<string, string> {
  const status = hub.status();
  return status.connected ? {} : { 'X-Hub-Stale': 'true', 'X-Hub-Disconnected-Since': status.since ?? '' };
}

const one = (q: string | string[] | undefined) => (Array.isArray(q) ? q[0] : q);

export function registerDeviceRoutes(ctx: AppContext, hub: HubClient, actions: ActionExecutor): void {
  ctx.routes.add({
    method: 'GET',
    path: '/api/state',
    summary: 'All entity states (DeviceState items; ?format=devices for the {devices} form; ?domain= and ?area= filter)',
    handler: (req) => {
      const format = one(req.query.format);
      if (format !== undefined && format !== 'states' && format !== 'devices') {
        throw invalidParameters('format: must be states or devices', { field: 'format', value: format });
      }
      const domain = one(req.query.domain);
      const area = one(req.query.area)?.toLowerCase();
      let states = [...hub.cache.all()];
      if (domain) states = states.filter((s) => domainOf(s.entity_id) === domain);
      if (area) {
        states = states.filter((s) => {
          const a = hub.registries.areaOf(s.entity_id);
          return a !== undefined && (a.area_id === area || a.name.toLowerCase() === area);
        });
      }
      states.sort((a, b) => (a.entity_id < b.entity_id ? -1 : 1));
      const body = format === 'devices' ? { devices: states.map(toDeviceListing) } : states.map((s) => toDeviceState(s, hub.registries));
      return reply(200, body, freshness(hub));
    },
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/state/:entity_id',
    summary: 'One entity state',
    handler: (req) => {
      const id = checkEntityId(req.params.entity_id);
      const state = hub.cache.get(id);
      if (!state) throw actions.unknownEntity(id);
      return reply(200, toDeviceState(state, hub.registries), freshness(hub));
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/device/control',
    summary: 'Run a DeviceCommand {entity_id, action, parameters?}; answers with the state after it',
    handler: async (req) => actions.execute(parseInput(deviceCommandSchema, req.body)),
  });
}
