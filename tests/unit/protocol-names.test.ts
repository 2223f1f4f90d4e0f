// The bridge (src/hub/protocol.ts) and the simulator (src/sim/names.ts) each keep Home Assistant's
// WebSocket names, one as its client and one playing it; wherever both name a thing, they spell it alike.
import { HA_ERROR as SIM_ERROR, MSG as SIM_MSG } from '@home-mcp-bridge/sim/testing';
import { describe, expect, test } from 'vitest';
import { HA_ERROR, MSG } from '../../src/hub/protocol.js';

function disagreements(a: Record<string, string>, b: Record<string, string>): string[] {
  return Object.keys(a)
    .filter((k) => k in b && a[k] !== b[k])
    .map((k) => `${k}: ${a[k]} / ${b[k]}`);
}

describe("Home Assistant's names", () => {
  test('message types', () => {
    expect(Object.keys(SIM_MSG).filter((k) => k in MSG).length).toBeGreaterThan(20);
    expect(disagreements(MSG, SIM_MSG)).toEqual([]);
  });

  test('error codes', () => {
    expect(Object.keys(SIM_ERROR).filter((k) => k in HA_ERROR).length).toBeGreaterThan(5);
    expect(disagreements(HA_ERROR, SIM_ERROR)).toEqual([]);
  });

  test('the check sees a name spelled two ways', () => {
    expect(disagreements({ ping: 'ping' }, { ping: 'pong' })).toEqual(['ping: ping / pong']);
  });
});
