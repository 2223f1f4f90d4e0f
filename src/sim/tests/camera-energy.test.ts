// The simulator's camera proxy and energy preferences, answered as Home Assistant 2026.11 answers
// them (camera/__init__.py CameraImageView, energy/websocket_api.py).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient, type Simulator, startSimulator } from '../testing.js';

let sim: Simulator;
let admin: RawClient;
beforeAll(async () => {
  sim = await startSimulator({ userToken: 'user-token' });
  admin = await RawClient.connect(sim.wsUrl, sim.token);
});
afterAll(async () => {
  await admin?.close();
  await sim?.stop();
});

const proxy = (path: string, token = sim.token) => fetch(`${sim.url}/api/camera_proxy/${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('the camera proxy', () => {
  test('a camera’s picture: a JPEG with its content type', async () => {
    const res = await proxy('camera.front_door');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const body = Buffer.from(await res.arrayBuffer());
    expect([...body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...body.subarray(-2)]).toEqual([0xff, 0xd9]);
    // width and height are asked of a hub without libturbojpeg: the picture comes back as it is.
    const scaled = Buffer.from(await (await proxy('camera.front_door?width=80&height=60')).arrayBuffer());
    expect(scaled.equals(body)).toBe(true);
  });

  test('no token, an unknown entity, a camera turned off, a width that is no number', async () => {
    expect((await proxy('camera.front_door', '')).status).toBe(401);
    const unknown = await proxy('camera.nope');
    expect([unknown.status, await unknown.text()]).toEqual([404, '404: Not Found']);
    expect((await proxy('light.kitchen_ceiling')).status).toBe(404);
    expect((await proxy('camera.front_door?width=wide&height=60')).status).toBe(500);
    const off = await admin.command({ type: 'call_service', domain: 'camera', service: 'turn_off', target: { entity_id: 'camera.garden' } });
    expect(off.success).toBe(true);
    const res = await proxy('camera.garden');
    expect([res.status, await res.text()]).toEqual([503, '503: Service Unavailable']);
    await admin.command({ type: 'call_service', domain: 'camera', service: 'turn_on', target: { entity_id: 'camera.garden' } });
    expect((await proxy('camera.garden')).status).toBe(200);
  });

  test('a camera’s state carries its access token and a proxy URL with it, as the hub’s does', async () => {
    const states = await admin.command<{ entity_id: string; state: string; attributes: Record<string, unknown> }[]>({ type: 'get_states' });
    const front = states.result!.find((s) => s.entity_id === 'camera.front_door')!;
    expect(front.state).toBe('streaming');
    expect(front.attributes).toMatchObject({ access_token: expect.stringMatching(/^[0-9a-f]{64}$/), brand: 'Simvision', supported_features: 3 });
    expect(front.attributes.entity_picture).toBe(`/api/camera_proxy/camera.front_door?token=${front.attributes.access_token}`);
  });
});

describe('energy preferences', () => {
  test('get_prefs answers the saved preferences; save_prefs replaces the lists it is given (admins only)', async () => {
    const got = await admin.command<Record<string, any>>({ type: 'energy/get_prefs' });
    expect(got.result!.energy_sources.map((s: { type: string }) => s.type)).toEqual(['grid', 'solar', 'gas']);
    const saved = await admin.command<Record<string, any>>({
      type: 'energy/save_prefs',
      device_consumption: [{ stat_consumption: 'sensor.power_consumption' }],
    });
    expect(saved.result).toMatchObject({ energy_sources: got.result!.energy_sources, device_consumption: [{ stat_consumption: 'sensor.power_consumption' }] });
    const bad = await admin.command({ type: 'energy/save_prefs', energy_sources: [{ type: 'wind' }] });
    expect(bad.error?.code).toBe('invalid_format');
    const user = await RawClient.connect(sim.wsUrl, 'user-token');
    try {
      expect((await user.command({ type: 'energy/save_prefs', device_consumption: [] })).error?.code).toBe('unauthorized');
      expect((await user.command({ type: 'energy/get_prefs' })).success).toBe(true);
    } finally {
      await user.close();
    }
  });

  test('a home that saved none: not_found "No prefs"', async () => {
    const bare = await startSimulator({ home: { name: 'Bare', entities: [] } });
    const c = await RawClient.connect(bare.wsUrl, bare.token);
    try {
      expect((await c.command({ type: 'energy/get_prefs' })).error).toEqual({ code: 'not_found', message: 'No prefs' });
    } finally {
      await c.close();
      await bare.stop();
    }
  });
});
