// The parity cases (tests/parity/cases.ts) against the simulator, once per release the cases know:
// the default simulator (it reports the current release, 2026.11.0) and its 2024.3.3 mode
// (`legacy`), each loaded with that release's demo fixture. tests/e2e/parity.test.ts runs the same
// cases against the real Home Assistant of each release, so a case that passes on all of them says
// the simulator answers as the real hub does.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type Simulator, startSimulator } from '@home-mcp-bridge/sim/testing';
import { fixtureOf, PARITY_RELEASES, parityCases, type Release } from '../parity/cases.js';
import { runCase } from '../parity/runner.js';

// Shorter than the demo's own delays (5 s arming, 2 s locks), long enough to be seen.
const timing = { alarmArmingMs: 300, lockMs: 100, coverTravelMs: 100 };

for (const release of PARITY_RELEASES) {
  describe(`parity cases against the simulator as Home Assistant ${release}`, () => {
    let sim: Simulator;
    beforeAll(async () => {
      sim = await startSimulator(
        release === '2024.3.3' ? { home: fixtureOf(release), legacy: true, version: release, timing } : { home: fixtureOf(release), timing },
      );
    });
    afterAll(() => sim?.stop());

    it(`reports ${release}`, ({ expect }) => {
      expect(sim.version).toBe(release);
    });
    for (const c of parityCases(release as Release)) it(c.name, () => runCase({ url: sim.url, token: sim.token }, c));
  });
}
