// The executor's service calls as Home Assistant takes them: targets of entities, devices, areas,
// floors and labels (checked against the registries, passed on as given), and services that take
// no target at all. Against the simulator's demo home, through the running app's executor.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serviceCallSchema, serviceTargetSchema, type ActionExecutor, type CallOutcome } from '../../src/actions/executor.js';
import type { HubEvent } from '../../src/hub/types.js';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import { jsonSchemaOf } from '../../src/validation.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let sim: Simulator;
let actions: ActionExecutor;
/** What the bridge saw of the hub's own call_service events: each call as the hub received it. */
const hubCalls: Record<string, any>[] = [];

beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
  sim = s.app.simulator!;
  actions = s.app.services.actions;
  s.app.bus.on('event', (e: HubEvent) => {
    if (e.event_type === 'call_service') hubCalls.push(e.data);
  });
});
afterAll(() => s?.close());

const ids = (out: CallOutcome) => out.entities.map((e) => e.entity_id);
const stateOf = (out: CallOutcome, id: string) => out.entities.find((e) => e.entity_id === id)?.state;
async function refused(p: Promise<unknown>): Promise<{ code: string; status: number; message: string; details: Record<string, any> }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the call should have been refused').toBeDefined();
  return err as never;
}
async function until(cond: () => boolean, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
/** The hub's call_service event for a call made after `from` calls were seen. */
async function hubCallOf(from: number, domain: string, service: string): Promise<Record<string, any>> {
  const end = Date.now() + 5000;
  for (;;) {
    const found = hubCalls.slice(from).find((c) => c.domain === domain && c.service === service);
    if (found) return found;
    if (Date.now() > end) throw new Error(`no call_service event for ${domain}.${service}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('targets', () => {
  test('an area: its own entities and those of its devices that have no area of their own; passed on as given', async () => {
    const from = hubCalls.length;
    const out = await actions.callService({ domain: 'light', service: 'turn_on', data: { brightness_pct: 40 }, target: { area_id: 'kitchen' } }, {});
    expect(out).toMatchObject({ success: true, service: 'light.turn_on', target: { area_id: 'kitchen' }, parameters: { brightness_pct: 40 } });
    expect(ids(out)).toEqual(['light.kitchen_ceiling', 'light.kitchen_strip']);
    for (const id of ids(out)) {
      expect(stateOf(out, id)).toMatchObject({ entity_id: id, state: 'on', attributes: { brightness: 102 }, area_id: 'kitchen', area: 'Kitchen' });
      expect(sim.getState(id)).toMatchObject({ state: 'on', attributes: { brightness: 102 } });
    }
    // The hub got the area, not a list of entities (its call_service event shows targets as lists).
    expect((await hubCallOf(from, 'light', 'turn_on')).service_data).toEqual({ brightness_pct: 40, area_id: ['kitchen'] });
  });

  test('a floor: the entities of its areas', async () => {
    expect(sim.getState('light.bedroom_lamp')?.state).toBe('off');
    const from = hubCalls.length;
    const out = await actions.callService({ domain: 'light', service: 'turn_on', target: { floor_id: 'first_floor' } }, {});
    expect(ids(out)).toEqual(['light.bedroom_lamp', 'light.office_desk']);
    for (const id of ids(out)) {
      expect(stateOf(out, id)?.state).toBe('on');
      expect(sim.getState(id)?.state).toBe('on');
    }
    expect((await hubCallOf(from, 'light', 'turn_on')).service_data).toEqual({ floor_id: ['first_floor'] });
  });

  test("a device: its entities of the service's domain", async () => {
    const from = hubCalls.length;
    const out = await actions.callService(
      { domain: 'climate', service: 'set_temperature', data: { temperature: 22.5 }, target: { device_id: ['hallway_thermostat'] } },
      {},
    );
    expect(ids(out)).toEqual(['climate.hallway']);
    expect(stateOf(out, 'climate.hallway')?.attributes.temperature).toBe(22.5);
    expect(sim.getState('climate.hallway')?.attributes.temperature).toBe(22.5);
    expect((await hubCallOf(from, 'climate', 'set_temperature')).service_data).toEqual({ temperature: 22.5, device_id: ['hallway_thermostat'] });
  });

  test('a label: labelled entities, and the entities of labelled areas', async () => {
    const energy = await actions.callService({ domain: 'switch', service: 'turn_on', target: { label_id: 'energy' } }, {});
    expect(ids(energy)).toEqual(['switch.coffee_maker', 'switch.office_heater']);
    for (const id of ids(energy)) expect(sim.getState(id)?.state).toBe('on');
    // The hallway area carries the security label.
    const security = await actions.callService({ domain: 'light', service: 'turn_on', target: { label_id: 'security' } }, {});
    expect(ids(security)).toEqual(['light.hallway']);
    expect(sim.getState('light.hallway')?.state).toBe('on');
    await actions.callService({ domain: 'switch', service: 'turn_off', target: { label_id: 'energy' } }, {});
  });

  test('several kinds at once, and homeassistant.* across domains', async () => {
    const out = await actions.callService(
      { domain: 'homeassistant', service: 'turn_off', target: { entity_id: 'light.garden_lights', area_id: 'office' } },
      {},
    );
    expect(ids(out)).toEqual(['light.garden_lights', 'light.office_desk', 'switch.office_heater']);
    for (const id of ids(out)) expect(sim.getState(id)?.state).toBe('off');
  });

  test('entity ids as a list or one comma-separated string', async () => {
    const out = await actions.callService({ domain: 'light', service: 'turn_off', target: { entity_id: 'light.bedroom_lamp, light.hallway' } }, {});
    expect(ids(out)).toEqual(['light.bedroom_lamp', 'light.hallway']);
    for (const id of ids(out)) expect(stateOf(out, id)?.state).toBe('off');
  });

  test('unknown ids are refused with the closest known ones', async () => {
    const area = await refused(actions.callService({ domain: 'light', service: 'turn_on', target: { area_id: 'livingroom' } }, {}));
    expect(area).toMatchObject({
      code: 'INVALID_ENTITY',
      status: 404,
      message: 'Area livingroom not found',
      details: { field: 'target.area_id', area_id: 'livingroom' },
    });
    expect(area.details.available_areas[0]).toBe('living_room');

    const device = await refused(actions.callService({ domain: 'light', service: 'turn_on', target: { device_id: 'kitchen_light_strp' } }, {}));
    expect(device).toMatchObject({ code: 'DEVICE_NOT_FOUND', status: 404, details: { field: 'target.device_id', device_id: 'kitchen_light_strp' } });
    expect(device.details.available_devices[0]).toBe('kitchen_light_strip');

    const floor = await refused(actions.callService({ domain: 'light', service: 'turn_on', target: { floor_id: ['ground_floor', 'upstairs_floor'] } }, {}));
    expect(floor).toMatchObject({ code: 'INVALID_ENTITY', status: 404, details: { floor_id: 'upstairs_floor' } });
    expect(floor.details.available_floors).toEqual(expect.arrayContaining(['ground_floor', 'first_floor']));

    const label = await refused(actions.callService({ domain: 'light', service: 'turn_on', target: { label_id: 'secuirty' } }, {}));
    expect(label).toMatchObject({ code: 'INVALID_ENTITY', status: 404, details: { label_id: 'secuirty' } });
    expect(label.details.available_labels[0]).toBe('security');

    const entity = await refused(actions.callService({ domain: 'light', service: 'turn_on', target: { entity_id: 'light.kitchen_celing' } }, {}));
    expect(entity).toMatchObject({ code: 'INVALID_ENTITY', status: 404, details: { entity_id: 'light.kitchen_celing' } });
    expect(entity.details.available_entities[0]).toBe('light.kitchen_ceiling');
  });

  test('an entity the service does not act on is refused, with what it supports', async () => {
    const err = await refused(
      actions.callService({ domain: 'light', service: 'turn_on', target: { entity_id: ['light.hallway', 'switch.coffee_maker'] } }, {}),
    );
    expect(err).toMatchObject({ code: 'INVALID_ACTION', status: 400, details: { entity_id: 'switch.coffee_maker', service: 'light.turn_on' } });
    expect(err.details.supported_actions).toEqual(expect.arrayContaining(['turn_on', 'turn_off', 'toggle']));
  });
});

describe('services without a target', () => {
  test('a legacy notify service: the message reaches the hub, no entity is involved', async () => {
    const before = sim.notifyMessages.length;
    const out = await actions.callService({ domain: 'notify', service: 'mobile_app_phone', data: { message: 'Dinner is ready', title: 'Kitchen' } }, {});
    expect(out).toEqual({
      success: true,
      service: 'notify.mobile_app_phone',
      target: null,
      parameters: { message: 'Dinner is ready', title: 'Kitchen' },
      entities: [],
    });
    expect(sim.notifyMessages.slice(before)).toEqual([expect.objectContaining({ service: 'mobile_app_phone', message: 'Dinner is ready', title: 'Kitchen' })]);
  });

  test('notify.send_message takes the notify entity as its target (2024.5 on)', async () => {
    const before = sim.notifyMessages.length;
    const out = await actions.callService(
      { domain: 'notify', service: 'send_message', data: { message: 'Dinner is ready' }, target: { entity_id: 'notify.kitchen_display' } },
      {},
    );
    expect(out).toMatchObject({ success: true, service: 'notify.send_message', entities: [{ entity_id: 'notify.kitchen_display' }] });
    expect(sim.notifyMessages.slice(before)).toEqual([
      expect.objectContaining({ service: 'send_message', target: 'notify.kitchen_display', message: 'Dinner is ready' }),
    ]);
  });

  test("a script's own service runs it, and reports the script's state", async () => {
    const before = sim.notifyMessages.length;
    const out = await actions.callService({ domain: 'script', service: 'welcome_home' }, {});
    expect(ids(out)).toEqual(['script.welcome_home']);
    expect(sim.getState('light.hallway')?.state).toBe('on');
    expect(sim.notifyMessages.slice(before)).toEqual([expect.objectContaining({ message: 'Welcome home!' })]);
    await actions.callService({ domain: 'light', service: 'turn_off', target: { entity_id: 'light.hallway' } }, {});
  });

  test('script.turn_on, automation.trigger and homeassistant.update_entity take their entities as targets', async () => {
    const updated = await actions.callService(
      { domain: 'homeassistant', service: 'update_entity', target: { entity_id: 'sensor.outdoor_temperature' } },
      {},
      { settle: false },
    );
    expect(updated).toMatchObject({ success: true, service: 'homeassistant.update_entity', entities: [{ entity_id: 'sensor.outdoor_temperature' }] });
    const trigger = await actions.callService({ domain: 'automation', service: 'trigger', target: { entity_id: 'automation.hallway_motion_light' } }, {});
    expect(ids(trigger)).toEqual(['automation.hallway_motion_light']);
    expect(sim.getState('light.hallway')?.state).toBe('on');
    await actions.callService({ domain: 'light', service: 'turn_off', target: { entity_id: 'light.hallway' } }, {});

    // script.turn_on starts the script without waiting for it to end.
    const before = sim.notifyMessages.length;
    const started = await actions.callService({ domain: 'script', service: 'turn_on', target: { entity_id: 'script.welcome_home' } }, {});
    expect(ids(started)).toEqual(['script.welcome_home']);
    await until(() => sim.notifyMessages.length > before, 'the script to run to its end');
    expect(sim.getState('light.hallway')?.state).toBe('on');
    await actions.callService({ domain: 'light', service: 'turn_off', target: { entity_id: 'light.hallway' } }, {});
  });

  test('a described field is checked, a target is refused, an unknown service lists what the domain has', async () => {
    const missing = await refused(actions.callService({ domain: 'notify', service: 'mobile_app_phone', data: { title: 'no message' } }, {}));
    expect(missing).toMatchObject({ code: 'INVALID_PARAMETERS', status: 400, details: { field: 'message' } });
    const targeted = await refused(
      actions.callService({ domain: 'notify', service: 'mobile_app_phone', data: { message: 'x' }, target: { entity_id: 'light.hallway' } }, {}),
    );
    expect(targeted).toMatchObject({ code: 'INVALID_PARAMETERS', message: 'target: notify.mobile_app_phone takes no target', details: { field: 'target' } });
    const unknown = await refused(actions.callService({ domain: 'notify', service: 'shout', data: { message: 'x' } }, {}));
    expect(unknown).toMatchObject({ code: 'INVALID_ACTION', status: 400, details: { domain: 'notify', service: 'shout' } });
    expect(unknown.details.available_services).toEqual(expect.arrayContaining(['mobile_app_phone', 'send_message', 'persistent_notification']));
    const noDomain = await refused(actions.callService({ domain: 'teleport', service: 'start' }, {}));
    expect(noDomain).toMatchObject({ code: 'INVALID_ACTION', details: { available_services: [] } });
  });
});

describe('the shape of a call', () => {
  test('is checked in plain words before anything else', async () => {
    const typo = await refused(actions.callService({ domain: 'light', service: 'turn_on', targets: { area_id: 'kitchen' } } as never, {}));
    expect(typo).toMatchObject({ code: 'INVALID_PARAMETERS', status: 400, message: 'targets: unknown field' });
    const badId = await refused(actions.callService({ domain: 'light', service: 'turn_on', target: { area_id: 3 } } as never, {}));
    expect(badId).toMatchObject({ code: 'INVALID_PARAMETERS', message: 'target.area_id: must be an id or a list of ids' });
    const badEntity = await refused(actions.callService({ domain: 'light', service: 'turn_on', target: { entity_id: 'light hallway' } }, {}));
    expect(badEntity).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'target.entity_id' } });
    // Home Assistant lower-cases ids and splits comma lists: so does the bridge, before judging.
    expect(actions.planCall({ domain: 'LIGHT', service: 'Turn_On', target: { entity_id: ' Light.Hallway , light.garden_lights' } })).toMatchObject({
      domain: 'light',
      service: 'turn_on',
      target: { entity_id: ['light.hallway', 'light.garden_lights'] },
      entity_ids: ['light.hallway', 'light.garden_lights'],
    });
    const inData = await refused(actions.callService({ domain: 'light', service: 'turn_on', data: { entity_id: 'light.hallway' } }, {}));
    expect(inData).toMatchObject({ code: 'INVALID_PARAMETERS', message: 'data.entity_id: give entity_id in target, not in data' });
    const response = await refused(
      actions.callService({ domain: 'light', service: 'turn_on', target: { entity_id: 'light.hallway' }, return_response: true }, {}),
    );
    expect(response).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'return_response' } });
  });

  test('planCall checks without calling; the schemas publish as JSON Schema', () => {
    const before = hubCalls.length;
    const planned = actions.planCall({ domain: 'light', service: 'turn_off', target: { area_id: ['garden', 'garage'] } });
    expect(planned).toEqual({
      domain: 'light',
      service: 'turn_off',
      data: {},
      target: { area_id: ['garden', 'garage'] },
      entity_ids: ['light.garden_lights'],
      return_response: false,
    });
    expect(hubCalls.length).toBe(before);
    expect(jsonSchemaOf(serviceCallSchema)).toMatchObject({ type: 'object', required: ['domain', 'service'] });
    expect(jsonSchemaOf(serviceTargetSchema)).toMatchObject({ type: 'object' });
  });
});

describe('an older hub (2024.3.3)', () => {
  let legacySim: Simulator;
  let old: TestServer;
  beforeAll(async () => {
    legacySim = await startSimulator({ legacy: true, logger: pino({ level: 'silent' }) });
    old = await startTestServer({ HASS_URL: legacySim.url, HASS_TOKEN: legacySim.token });
    await old.app.hub.ready();
  });
  afterAll(async () => {
    await old?.close();
    await legacySim?.stop();
  });

  test('takes area and device targets; floors and labels are refused before the hub is asked', async () => {
    const out = await old.app.services.actions.callService(
      { domain: 'light', service: 'turn_on', target: { area_id: 'office', device_id: 'kitchen_light_strip' } },
      {},
    );
    expect(ids(out)).toEqual(['light.kitchen_strip', 'light.office_desk']);
    expect(legacySim.getState('light.office_desk')?.state).toBe('on');
    for (const key of ['floor_id', 'label_id'] as const) {
      const err = await refused(old.app.services.actions.callService({ domain: 'light', service: 'turn_on', target: { [key]: 'x' } }, {}));
      expect(err).toMatchObject({ code: 'INVALID_PARAMETERS', status: 400, details: { field: `target.${key}`, hub_version: '2024.3.3' } });
    }
  });

  test('while the hub is away a call fails at once with 503', async () => {
    await legacySim.stop();
    try {
      await until(() => !old.app.hub.isConnected, 'the drop');
      const err = await refused(old.app.services.actions.callService({ domain: 'notify', service: 'mobile_app_phone', data: { message: 'x' } }, {}));
      expect(err).toMatchObject({ code: 'CONNECTION_ERROR', status: 503 });
    } finally {
      await legacySim.start();
    }
  });
});
