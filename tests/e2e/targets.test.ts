// The executor's service calls against the real Home Assistant (each release the suite runs
// against): area and device targets resolved through the registries and passed on as given, a
// service without a target, and floor and label targets (2026.11 takes them; 2024.3.3 does not).
// Effects are read back from Home Assistant itself.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ActionExecutor } from '../../src/actions/executor.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { HA_VERSION, OLDEST } from './ha-control.js';
import { eventually, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

type Body = Record<string, any>;

let s: TestServer;
let actions: ActionExecutor;
let hub: RawClient;
let devices: Body[];
const deviceNamed = (name: string): string => devices.find((d) => d.name === name)!.id;

beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
  actions = s.app.services.actions;
  hub = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
  devices = (await hub.command<Body[]>({ type: 'config/device_registry/list' })).result!;
});
afterAll(async () => {
  await hub?.close();
  await s?.close();
});

describe(`targets on Home Assistant ${HA_VERSION}`, () => {
  test('areas: devices in them; Home Assistant gets the areas, not entity ids', async () => {
    // The demo lights are named after their devices: 2026.11 gives such an entity no area of its
    // own, so both areas come through the devices here (bridge.test.ts covers an entity's own area).
    const ceiling = await haStateOf('light.ceiling_lights');
    const bed = await haStateOf('light.bed_light');
    const sub = await hub.command({ type: 'subscribe_events', event_type: 'call_service' });
    try {
      expect((await hub.command({ type: 'config/device_registry/update', device_id: deviceNamed('Bed Light'), area_id: 'bedroom' })).success).toBe(true);
      expect((await hub.command({ type: 'config/device_registry/update', device_id: deviceNamed('Ceiling Lights'), area_id: 'living_room' })).success).toBe(
        true,
      );
      const registries = s.app.hub.registries;
      await eventually(
        () => [registries.areaIdOf('light.bed_light'), registries.areaIdOf('light.ceiling_lights')],
        (a) => a[0] === 'bedroom' && a[1] === 'living_room',
        'the bridge sees the new areas',
      );

      const out = await actions.callService(
        { domain: 'light', service: 'turn_on', data: { brightness: 150 }, target: { area_id: ['bedroom', 'living_room'] } },
        {},
      );
      expect(out.entities.map((e) => e.entity_id)).toEqual(['light.bed_light', 'light.ceiling_lights']);
      for (const id of ['light.bed_light', 'light.ceiling_lights']) {
        const st = await eventually(
          () => haStateOf(id),
          (x) => x.state === 'on' && x.attributes.brightness === 150,
          `${id} on at 150`,
        );
        expect(out.entities.find((e) => e.entity_id === id)?.state).toMatchObject({ state: 'on', attributes: { brightness: 150 } });
        expect(st.attributes.brightness).toBe(150);
      }
      const seen = await hub.waitForEvent(sub.id, (e) => e.event.data.domain === 'light' && e.event.data.service === 'turn_on');
      expect(seen.event.data.service_data).toEqual({ brightness: 150, area_id: ['bedroom', 'living_room'] });
    } finally {
      await hub.command({ type: 'unsubscribe_events', subscription: sub.id });
      await hub.command({ type: 'config/device_registry/update', device_id: deviceNamed('Bed Light'), area_id: null });
      await hub.command({ type: 'config/device_registry/update', device_id: deviceNamed('Ceiling Lights'), area_id: null });
      if (bed.state === 'off') await hub.callService('light', 'turn_off', {}, { entity_id: 'light.bed_light' });
      await hub.callService('light', 'turn_on', { brightness: ceiling.attributes.brightness }, { entity_id: 'light.ceiling_lights' });
    }
  });

  test("a device: the device's entities of the service's domain", async () => {
    const before = await haStateOf('light.kitchen_lights');
    try {
      const off = await actions.callService({ domain: 'light', service: 'turn_off', target: { device_id: deviceNamed('Kitchen Lights') } }, {});
      expect(off.entities.map((e) => [e.entity_id, e.state?.state])).toEqual([['light.kitchen_lights', 'off']]);
      await eventually(
        () => haStateOf('light.kitchen_lights'),
        (x) => x.state === 'off',
        'kitchen lights off',
      );
      // A device of a climate entity has nothing for a light service to act on.
      const none = await actions.callService({ domain: 'light', service: 'turn_on', target: { device_id: deviceNamed('Hvac') } }, {});
      expect(none.entities).toEqual([]);
    } finally {
      if (before.state === 'on') await hub.callService('light', 'turn_on', {}, { entity_id: 'light.kitchen_lights' });
    }
  });

  test.runIf(OLDEST)('floors and labels: refused before Home Assistant is asked, since 2024.3 does not take them', async () => {
    for (const target of [{ floor_id: 'ground_floor' }, { label_id: 'lighting' }]) {
      const key = Object.keys(target)[0];
      await expect(actions.callService({ domain: 'light', service: 'turn_on', target }, {})).rejects.toMatchObject({
        code: 'INVALID_PARAMETERS',
        status: 400,
        details: { field: `target.${key}`, hub_version: '2024.3.3' },
      });
    }
  });

  test.runIf(!OLDEST)(
    "floors and labels (2024.4 on): a floor reaches its areas' devices, a label its entities; Home Assistant gets them as given",
    async () => {
      const before = { ceiling: await haStateOf('light.ceiling_lights'), kitchen: await haStateOf('light.kitchen_lights') };
      const floor = (await hub.command<Body>({ type: 'config/floor_registry/create', name: 'E2E Floor', level: 1 })).result!;
      const label = (await hub.command<Body>({ type: 'config/label_registry/create', name: 'E2E Label' })).result!;
      try {
        expect((await hub.command({ type: 'config/area_registry/update', area_id: 'living_room', floor_id: floor.floor_id })).success).toBe(true);
        expect((await hub.command({ type: 'config/device_registry/update', device_id: deviceNamed('Ceiling Lights'), area_id: 'living_room' })).success).toBe(
          true,
        );
        expect((await hub.command({ type: 'config/entity_registry/update', entity_id: 'light.kitchen_lights', labels: [label.label_id] })).success).toBe(true);
        const registries = s.app.hub.registries;
        await eventually(
          () => [registries.areaIdOf('light.ceiling_lights'), registries.entities.get('light.kitchen_lights')?.labels],
          (a) => a[0] === 'living_room' && String(a[1]) === label.label_id,
          'the bridge sees the floor and the label',
        );
        const byFloor = await actions.callService({ domain: 'light', service: 'turn_on', data: { brightness: 110 }, target: { floor_id: floor.floor_id } }, {});
        expect(byFloor.entities.map((e) => e.entity_id)).toEqual(['light.ceiling_lights']);
        await eventually(
          () => haStateOf('light.ceiling_lights'),
          (x) => x.attributes.brightness === 110,
          'ceiling lights at 110 by their floor',
        );
        const byLabel = await actions.callService({ domain: 'light', service: 'turn_on', data: { brightness: 120 }, target: { label_id: label.label_id } }, {});
        expect(byLabel.entities.map((e) => e.entity_id)).toEqual(['light.kitchen_lights']);
        await eventually(
          () => haStateOf('light.kitchen_lights'),
          (x) => x.attributes.brightness === 120,
          'kitchen lights at 120 by their label',
        );
      } finally {
        await hub.command({ type: 'config/entity_registry/update', entity_id: 'light.kitchen_lights', labels: [] });
        await hub.command({ type: 'config/device_registry/update', device_id: deviceNamed('Ceiling Lights'), area_id: null });
        await hub.command({ type: 'config/area_registry/update', area_id: 'living_room', floor_id: null });
        await hub.command({ type: 'config/label_registry/delete', label_id: label.label_id });
        await hub.command({ type: 'config/floor_registry/delete', floor_id: floor.floor_id });
        await hub.callService('light', 'turn_on', { brightness: before.ceiling.attributes.brightness }, { entity_id: 'light.ceiling_lights' });
        await hub.callService('light', 'turn_on', { brightness: before.kitchen.attributes.brightness }, { entity_id: 'light.kitchen_lights' });
      }
    },
  );

  test('an unknown area is refused with the areas there are', async () => {
    await expect(actions.callService({ domain: 'light', service: 'turn_on', target: { area_id: 'bed_room' } }, {})).rejects.toMatchObject({
      code: 'INVALID_ENTITY',
      status: 404,
      details: { area_id: 'bed_room', available_areas: expect.arrayContaining(['bedroom', 'kitchen', 'living_room']) },
    });
  });
});

describe('no target', () => {
  test.runIf(OLDEST)('notify.notify (2024.3.3): the demo fires a notify event with the message', async () => {
    const sub = await hub.command({ type: 'subscribe_events', event_type: 'notify' });
    try {
      const out = await actions.callService({ domain: 'notify', service: 'notify', data: { message: 'From the bridge', title: 'E2E' } }, {});
      expect(out).toEqual({ success: true, service: 'notify.notify', target: null, parameters: { message: 'From the bridge', title: 'E2E' }, entities: [] });
      const event = await hub.waitForEvent(sub.id);
      expect(event.event.data).toMatchObject({ message: 'From the bridge', title: 'E2E' });
    } finally {
      await hub.command({ type: 'unsubscribe_events', subscription: sub.id });
    }
  });

  test.runIf(!OLDEST)("notify.send_message (2026.11: no notify.notify): the demo's notify entity fires a notify event with the message", async () => {
    const sub = await hub.command({ type: 'subscribe_events', event_type: 'notify' });
    try {
      const out = await actions.callService(
        { domain: 'notify', service: 'send_message', data: { message: 'From the bridge', title: 'E2E' }, target: { entity_id: 'notify.notifier' } },
        {},
      );
      expect(out).toMatchObject({
        success: true,
        service: 'notify.send_message',
        target: { entity_id: 'notify.notifier' },
        entities: [{ entity_id: 'notify.notifier' }],
      });
      const event = await hub.waitForEvent(sub.id);
      expect(event.event.data).toEqual({ message: 'From the bridge', title: 'E2E' });
      await expect(actions.callService({ domain: 'notify', service: 'notify', data: { message: 'x' } }, {})).rejects.toMatchObject({
        code: 'INVALID_ACTION',
        details: { available_services: expect.arrayContaining(['send_message', 'persistent_notification']) },
      });
    } finally {
      await hub.command({ type: 'unsubscribe_events', subscription: sub.id });
    }
  });

  test('persistent_notification.create: Home Assistant lists the notification', async () => {
    await actions.callService(
      { domain: 'persistent_notification', service: 'create', data: { message: 'Made by the bridge', title: 'E2E', notification_id: 'bridge_e2e' } },
      {},
    );
    try {
      const list = (await hub.command<Body[]>({ type: 'persistent_notification/get' })).result!;
      expect(list).toEqual(expect.arrayContaining([expect.objectContaining({ notification_id: 'bridge_e2e', message: 'Made by the bridge', title: 'E2E' })]));
    } finally {
      await hub.callService('persistent_notification', 'dismiss', { notification_id: 'bridge_e2e' });
    }
  });

  test('a target on a service that takes none is refused; a missing message too', async () => {
    await expect(
      actions.callService({ domain: 'persistent_notification', service: 'create', data: { message: 'x' }, target: { entity_id: 'light.bed_light' } }, {}),
    ).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { field: 'target' },
    });
    const [service, target] = OLDEST ? ['notify', undefined] : ['send_message', { entity_id: 'notify.notifier' }];
    await expect(actions.callService({ domain: 'notify', service: service!, data: {}, ...(target ? { target } : {}) }, {})).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { field: 'message' },
    });
  });
});
