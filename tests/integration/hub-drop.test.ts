// The hub goes away while a command is on its way to it: the caller is told the connection was
// lost (503 CONNECTION_ERROR), on every entrance, not that the hub refused the action.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s.close());

/** Sends a request while the hub hangs, drops the hub under it, then brings the hub back. */
async function droppedUnder(path: string, json: unknown) {
  const sim = s.app.simulator!;
  sim.pauseResponses(true);
  try {
    let answered = false;
    const pending = s.api(path, { method: 'POST', json }).finally(() => (answered = true));
    // The call has reached the hub (it hangs there) before the hub goes.
    while (sim.heldMessages === 0 && !answered) await new Promise((r) => setTimeout(r, 10));
    await sim.stop();
    const res = await pending;
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  } finally {
    sim.pauseResponses(false);
    if (!sim.running) await sim.start();
    await s.app.hub.ready();
  }
}

test.each([
  ['/api/device/control', { entity_id: 'light.hallway', action: 'toggle' }],
  ['/api/tools/call', { name: 'control_lights', arguments: { entity_id: 'light.hallway', command: 'toggle' } }],
])('%s: the hub dropping mid-command is 503 CONNECTION_ERROR', async (path, json) => {
  const r = await droppedUnder(path, json);
  if (path === '/api/tools/call') {
    // A tool answers with a result; what went wrong is in it.
    expect(r.status).toBe(200);
    expect(r.body.isError).toBe(true);
    expect(r.body.structuredContent?.error ?? r.body.structuredContent).toMatchObject({ code: 'CONNECTION_ERROR' });
    return;
  }
  expect(r, JSON.stringify(r.body)).toMatchObject({ status: 503, body: { error: true, code: 'CONNECTION_ERROR' } });
  expect(r.body.message).toMatch(/lost/);
});
