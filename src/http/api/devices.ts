// Device state and control: reads through the HomeView, control through the action executor.
import * as v from 'valibot';
import { entityForDevice } from '../../actions/by-device.js';
import { checkEntityId } from '../../actions/executor.js';
import { AppError, invalidParameters } from '../../errors.js';
import type { HubReader } from '../../hub/reader.js';
import { toDeviceListing, toDeviceState } from '../../hub/views.js';
import { requireHubReached } from '../../hub/reached.js';
import type { Services } from '../../services.js';
import { choice, text } from '../query.js';
import { anyObject } from '../../validation.js';
import { jsonRoute, reply, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';

export const deviceCommandSchema = v.object({
  /** The entity to act on; or device_id, for the device's one entity that takes the action. */
  entity_id: v.optional(v.string('must be a string')),
  device_id: v.optional(v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(128, 'must be at most 128 characters'))),
  action: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  parameters: v.optional(anyObject),
  /** The person confirmed an action that opens the home (unlock, disarm, open a garage door). */
  confirm: v.optional(v.boolean('must be true or false')),
});

const stateQuery = v.object({
  format: choice(['states', 'devices'], 'must be states or devices'),
  domain: text(),
  area: text(),
});

/** Reads are served from the cache; while the hub is away they say so in headers. */
function freshness(hub: HubReader): Record<string, string> {
  const status = hub.status();
  return status.connected ? {} : { 'X-Hub-Stale': 'true', 'X-Hub-Disconnected-Since': status.since ?? '' };
}

export function registerDeviceRoutes(routes: RouteTable, { hub, home, actions }: Services): void {
  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/state',
      summary: 'All entity states (DeviceState items; ?format=devices for the {devices} form; ?domain= and ?area= filter)',
      query: stateQuery,
      responses: {
        200: { description: 'DeviceState items, or {devices} with ?format=devices', schema: v.union([v.array(shape.deviceState), shape.deviceListing]) },
        503: { description: 'The hub has not been reached yet' },
      },
      handler: (req) => {
        requireHubReached(hub);
        const { format, domain, area } = req.query;
        let states = home.states(domain);
        if (area !== undefined) {
          const areaId = home.areaIdFor(area);
          states = states.filter((s) => areaId !== undefined && home.areaOf(s.entity_id)?.area_id === areaId);
        }
        states.sort((a, b) => (a.entity_id < b.entity_id ? -1 : 1));
        const body = format === 'devices' ? { devices: states.map(toDeviceListing) } : states.map((s) => toDeviceState(s, hub.registries));
        return reply(200, body, freshness(hub));
      },
    }),
  );

  routes.add({
    method: 'GET',
    path: '/api/state/:entity_id',
    summary: 'One entity state',
    responses: {
      200: { description: 'The DeviceState', schema: shape.deviceState },
      404: { description: 'INVALID_ENTITY: no such entity; details.available_entities lists the closest' },
      503: { description: 'The hub has not been reached yet' },
    },
    handler: (req) => {
      const id = checkEntityId(req.params.entity_id);
      requireHubReached(hub);
      const state = home.state(id);
      if (!state) throw actions.unknownEntity(id);
      return reply(200, toDeviceState(state, hub.registries), freshness(hub));
    },
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/device/control',
      summary:
        "Run a DeviceCommand {entity_id, action, parameters?}; answers with the state after it. {device_id, action, ...} instead acts through the device's one entity that takes the action",
      body: v.pipe(
        deviceCommandSchema,
        v.examples([
          { entity_id: 'light.living_room_lamp', action: 'turn_on', parameters: { brightness_pct: 40 } },
          { device_id: 'kitchen_light_strip', action: 'turn_off' },
        ]),
      ),
      responses: {
        200: { description: 'Done, with the state after it and whether it shows what was asked', schema: shape.actionOutcome },
        400: {
          description:
            'INVALID_ACTION: the entity (or no entity of the device) takes the action; INVALID_PARAMETERS: neither or both of entity_id and device_id',
        },
        404: { description: 'INVALID_ENTITY: no such entity; DEVICE_NOT_FOUND: no such device (details.device_id)' },
        403: {
          description: 'FORBIDDEN: read-only mode, a denied or hidden entity, or a caller without control; HUB_ERROR: the hub says the call is not allowed',
        },
        409: {
          description:
            'CONFIRMATION_REQUIRED: the action would open the home; send confirm: true once the person agreed; AMBIGUOUS: several entities of the device take the action (details.candidates)',
        },
        503: { description: 'CONNECTION_ERROR: the hub is not connected' },
      },
      handler: (req) => {
        const { entity_id, device_id, action, parameters, confirm } = req.body;
        if (entity_id === undefined && device_id === undefined)
          throw invalidParameters('entity_id: is required (or device_id, to act on a device)', { field: 'entity_id' });
        if (entity_id !== undefined && device_id !== undefined)
          throw invalidParameters('device_id: give entity_id or device_id, not both', { field: 'device_id' });
        if (device_id !== undefined) requireHubReached(hub);
        const target = entity_id ?? entityForDevice(home, actions, device_id!, action);
        return actions
          .execute({ entity_id: target, action, ...(parameters ? { parameters } : {}) }, { principal: req.principal, confirm })
          .catch((err: unknown) => {
            // A lock's code goes in parameters here: name the field as this body has it.
            if (err instanceof AppError && err.details.field === 'code')
              throw new AppError(err.code, err.status, err.message.replace('`code`', '`parameters.code`'), { ...err.details, field: 'parameters.code' });
            throw err;
          });
      },
    }),
  );
}
