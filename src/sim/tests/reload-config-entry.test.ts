// homeassistant.reload_config_entry as Home Assistant has it (homeassistant/__init__.py): the entry
// named by entry_id and the entries of the entities and devices targeted are reloaded; a call that
// names none is refused by the schema, and one whose target has no entry is a ValueError.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { adminOf } from '../admin.js';
import { RawClient, type Simulator, startSimulator } from '../testing.js';

let sim: Simulator;
let c: RawClient;
beforeAll(async () => {
  sim = await startSimulator();
  c = await RawClient.connect(sim.wsUrl, sim.token);
});
afterAll(async () => {
  await c.close();
  await sim.stop();
});

const call = (service_data: Record<string, unknown>, target?: Record<string, unknown>) =>
  c.command({ type: 'call_service', domain: 'homeassistant', service: 'reload_config_entry', service_data, ...(target ? { target } : {}) });

test('reloads the entry by id, and by an entity or device it provides; refuses a call naming nothing', async () => {
  const admin = adminOf(sim.hub);
  const lock = sim.hub.registries.entities.get('lock.front_door')!;
  const entry = lock.config_entry_id!;
  const byId = await call({ entry_id: entry });
  expect(byId.success, JSON.stringify(byId)).toBe(true);
  expect((await call({}, { entity_id: 'lock.front_door' })).success).toBe(true);
  expect((await call({}, { device_id: lock.device_id })).success).toBe(true);
  expect(admin.reloads).toEqual([entry, entry, entry]);
  const none = await call({});
  expect(none.success).toBe(false);
  expect(none.error?.message).toMatch(/at least one of \['entry_id', 'entity_id'/);
  const unknown = await call({ entry_id: 'NOPE' });
  expect(unknown.success).toBe(false);
  expect(admin.reloads).toHaveLength(3);
});
