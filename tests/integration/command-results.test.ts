// A command's answer says what happened: each entity acted on by itself, the status and message
// following the outcome (all done 200, some 207, none the failure's own status), what the hub
// shows passed on (verified), and a question about something a room lacks answered as such.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s?.close());

const command = (body: Record<string, unknown>) => s.call('/api/command', 'POST', body);
const hubState = (id: string) => s.app.simulator!.getState(id)!;

describe('one entity failing does not fail the others', () => {
  test('"lock all the doors": the front door needs a code, the others lock; 207 and a message that says which', async () => {
    const r = await command({ command: 'lock all the doors' });
    expect(r.status, JSON.stringify(r.body)).toBe(207);
    expect(r.body.success).toBe(false);
    const by = Object.fromEntries(r.body.actions.map((a: any) => [a.entity_id, a]));
    expect(by['lock.front_door']).toMatchObject({ status: 'failed', error: { code: 'INVALID_PARAMETERS' } });
    expect(by['lock.front_door'].error.message).toMatch(/`code`/);
    expect(by['lock.back_door']).toMatchObject({ status: 'completed', state: 'locked', verified: true });
    expect(by['lock.garden_gate']).toMatchObject({ status: 'completed', state: 'locked' });
    expect(hubState('lock.back_door').state).toBe('locked');
    // The garage side door jams: done, but it does not show locked, and the answer says so.
    expect(by['lock.garage_side_door']).toMatchObject({
      status: 'completed',
      state: 'jammed',
      verified: false,
      expected: { state: 'locked' },
      actual: { state: 'jammed' },
    });
    const message: string = r.body.message;
    expect(message).toMatch(/^Locked [^.]*Back Door/);
    expect(message).not.toMatch(/^Locked [^.]*Front Door/);
    expect(message).toMatch(/I could not lock Front Door: lock.front_door wants a code: give it as `code`/);
    expect(message).toMatch(/Garage Side Door is jammed, not locked\./);
  });

  test('a cover still moving is passed on as pending, not as done-and-verified', async () => {
    const r = await command({ command: 'open the bedroom curtains' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, actions: [{ entity_id: 'cover.bedroom_curtains', status: 'completed', verified: false, pending: true }] });
    expect(r.body.message).toMatch(/Bedroom Curtains is still opening\./);
  });
});

describe('nothing done is not "Done"', () => {
  test('every action failing answers the failure itself, with every action in details', async () => {
    const r = await command({ command: 'lock the front door' });
    expect(r.status).toBe(400);
    // The hub wanted a code: the answer names the field to add.
    expect(r.body).toMatchObject({
      error: true,
      code: 'INVALID_PARAMETERS',
      details: { field: 'code', actions: [{ entity_id: 'lock.front_door', status: 'failed' }] },
    });
    expect(r.body.message).toMatch(/^I could not lock Front Door: /);
  });

  test('the hub down: 503 CONNECTION_ERROR, and nothing claims to be done', async () => {
    const sim = s.app.simulator!;
    await sim.stop();
    try {
      for (let i = 0; i < 250 && s.app.hub.isConnected; i++) await new Promise((r) => setTimeout(r, 20));
      const r = await command({ command: 'toggle the hallway light' });
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ error: true, code: 'CONNECTION_ERROR' });
      expect(r.body.message).not.toMatch(/Done/);
      // A question still answers from the last known states.
      const q = await command({ command: 'is the front door locked?' });
      expect(q.status).toBe(200);
    } finally {
      await sim.start();
      await s.app.hub.ready();
    }
  });
});

describe('questions about what a place lacks', () => {
  test('"what is the temperature in the living room" with no sensor there says so', async () => {
    const r = await command({ command: 'what is the temperature in the living room' });
    // Nothing to answer from: refused (never answered from another sensor), saying why.
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body).toMatchObject({ code: 'NOT_UNDERSTOOD', details: { reason: 'no_such' } });
    expect(r.body.message).toBe('There is no temperature sensor in Living Room.');
    // Where there is one, it answers from it.
    const hall = await command({ command: 'what is the temperature in the hallway' });
    expect(hall.body.message).toMatch(/^Hallway Temperature is /);
    // A word it does not know is still not understood.
    const unknown = await command({ command: 'what is the flibber in the living room' });
    expect(unknown.status).toBe(422);
  });
});
