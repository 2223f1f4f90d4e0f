// Prompts and resources of the plugins over the REST tool transport, filled from the live hub.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

describe('resources', () => {
  test('the list has the static resources and what each template stands for now', async () => {
    const r = await s.call('/api/resources/list');
    expect(r.status).toBe(200);
    const uris = (r.body.resources as { uri: string }[]).map((x) => x.uri);
    for (const uri of ['home://dashboard', 'home://areas', 'home://automations', 'home://scenes', 'home://devices/light', 'home://area/kitchen'])
      expect(uris).toContain(uri);
    expect((r.body.resourceTemplates as { uriTemplate: string }[]).map((t) => t.uriTemplate).sort()).toEqual([
      'home://area/{area_id}',
      'home://devices/{domain}',
      'home://entity/{entity_id}',
    ]);
  });

  test('reading one answers its contents from the hub and the entities it shows', async () => {
    const r = await s.call(`/api/resources/read?uri=${encodeURIComponent('home://devices/lock')}`);
    expect(r.status).toBe(200);
    const data = JSON.parse(r.body.contents[0].text) as { entities: { entity_id: string; state: string }[] };
    expect(data.entities.find((e) => e.entity_id === 'lock.front_door')).toMatchObject({ state: s.app.simulator!.getState('lock.front_door')!.state });
    expect(r.body.entities).toContain('lock.front_door');
    expect(r.body.entities.every((id: string) => id.startsWith('lock.'))).toBe(true);
    const one = await s.call(`/api/resources/read?uri=${encodeURIComponent('home://entity/light.kitchen_ceiling')}`);
    expect(JSON.parse(one.body.contents[0].text)).toMatchObject({ entity_id: 'light.kitchen_ceiling', area: 'Kitchen' });
    expect(one.body.entities).toEqual(['light.kitchen_ceiling']);
    const dash = JSON.parse((await s.call('/api/resources/read?uri=home://dashboard')).body.contents[0].text);
    expect(dash.entities.light).toBeGreaterThan(0);
  });

  test('an unknown resource, area or entity is a 404; a missing uri a 400', async () => {
    expect((await s.call('/api/resources/read?uri=home://nothing')).status).toBe(404);
    expect((await s.call('/api/resources/read?uri=home://area/attic')).status).toBe(404);
    expect((await s.call('/api/resources/read?uri=home://entity/light.ghost')).body.code).toBe('INVALID_ENTITY');
    expect((await s.call('/api/resources/read')).body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'uri' } });
  });
});

describe('prompts', () => {
  test('seven routines with their arguments', async () => {
    const r = await s.call('/api/prompts');
    expect((r.body.prompts as { name: string }[]).map((p) => p.name).sort()).toEqual([
      'climate_optimisation',
      'energy_saving',
      'evening_routine',
      'media_control',
      'morning_routine',
      'security_setup',
      'troubleshooting',
    ]);
  });

  test('a prompt is filled from live hub data', async () => {
    await s.call('/api/device/control', 'POST', { entity_id: 'lock.back_door', action: 'unlock' });
    const r = await s.call('/api/prompts/get', 'POST', { name: 'evening_routine' });
    expect(r.status).toBe(200);
    expect(r.body.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
    expect(r.body.messages[0].content.text).toMatch(/Unlocked: [^.]*lock\.back_door/);
  });

  test('a required argument is named when missing; an unknown prompt is a 404', async () => {
    const missing = await s.call('/api/prompts/get', 'POST', { name: 'troubleshooting', arguments: {} });
    expect(missing).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', details: { field: 'arguments.entity_id' } } });
    expect(
      (await s.call('/api/prompts/get', 'POST', { name: 'troubleshooting', arguments: { entity_id: 'light.kitchen_ceiling' } })).body.messages[0].content.text,
    ).toMatch(/^light\.kitchen_ceiling is on/);
    expect((await s.call('/api/prompts/get', 'POST', { name: 'nope' })).status).toBe(404);
  });
});
