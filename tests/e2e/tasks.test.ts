// MCP tasks (io.modelcontextprotocol/tasks, MCP 2026-07-28) against the real Home Assistant: a demo
// cover's travel is a task that ends when Home Assistant says the cover arrived, followed with
// tasks/get as a 2026-07-28 client does. The demo's living room window moves 10 % a second.
// 2024.3.3's demo cover says it moves only at its first step, a second after the call, so the bridge
// sees no travel when it answers and answers at once: that run skips this, saying so.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { modernRpc, untilTaskLeaves } from '../helpers/mcp-tasks.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { OLDEST } from './ha-control.js';
import { eventually, haCall, HASS_TOKEN, HASS_URL, haStateOf } from './ha-rest.js';

const COVER = 'cover.living_room_window';
let s: TestServer;
let before: number;
beforeAll(async () => {
  if (OLDEST) return;
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
  before = (await haStateOf(COVER)).attributes.current_position;
});
afterAll(async () => {
  if (OLDEST) return;
  // Other files see the demo's cover where it was.
  await haCall('cover', 'set_cover_position', { entity_id: COVER, position: before });
  await eventually(
    () => haStateOf(COVER),
    (st) => st.attributes.current_position === before && st.state === 'open',
    `${COVER} back at ${before}%`,
  );
  await s?.close();
});

describe.skipIf(OLDEST)("a cover's travel as a task (2024.3.3: skipped, its demo cover reports moving only a second after the call)", () => {
  test('set_position is a task that completes when Home Assistant reports the cover there', async () => {
    const rpc = modernRpc(s, true);
    const target = before >= 50 ? before - 40 : before + 40;
    const created = await rpc('tools/call', { name: 'control_covers', arguments: { entity_id: COVER, command: 'set_position', position: target } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await untilTaskLeaves(rpc, created.taskId, ['working']);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: `Arrived: ${COVER} open at ${target}%` }] } });
    const st = await haStateOf(COVER);
    expect([st.state, st.attributes.current_position]).toEqual(['open', target]);
  });
});
