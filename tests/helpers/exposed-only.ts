// Entities hidden from Assist: a bridge started with TOOLS_EXPOSED_ONLY over the simulator sees only
// what Home Assistant exposes to its own assistant. exposeOnly() exposes the given entities as a
// person would in Home Assistant (over the simulator's own WebSocket: the bridge's hub only reads),
// changes the entity registry (a new script) so the bridge reads exposure again, and resolves when
// the bridge sees them and still not the front door lock (never exposed in the demo home).
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { expect } from 'vitest';
import type { TestServer } from './server.js';

const NEVER_EXPOSED = 'lock.front_door';

export async function exposeOnly(server: TestServer, entityIds: string[]): Promise<void> {
  const sim = server.app.simulator!;
  const { policy, exposure } = server.app.services;
  const ready = () => entityIds.every((id) => policy.maySee(id)) && !policy.maySee(NEVER_EXPOSED);
  // Heard before anything changes, so the refresh the registry change causes cannot be missed.
  const seen = new Promise<void>((resolve) => {
    const off = exposure!.onChange(() => {
      if (ready()) {
        off();
        resolve();
      }
    });
  });
  const raw = await RawClient.connect(sim.wsUrl, sim.token);
  try {
    const r = await raw.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: entityIds, should_expose: true });
    expect(r.success, JSON.stringify(r)).toBe(true);
  } finally {
    await raw.close();
  }
  const made = await fetch(`${sim.url}/api/config/script/config/nothing`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ alias: 'Nothing', sequence: [] }),
  });
  expect(made.status).toBe(200);
  if (!ready()) await seen;
}
