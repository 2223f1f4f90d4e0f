// The parity cases (tests/parity/cases.ts) against the real hub of this run: the proof that each
// expectation is what that Home Assistant release really does. tests/integration/sim-parity.test.ts
// runs the same cases against the simulator in each release's mode.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { isRelease, parityCases, type Release } from '../parity/cases.js';
import { runCase } from '../parity/runner.js';
import { HA_VERSION, haLogTail, restartHa } from './ha-control.js';

const url = process.env.HASS_URL ?? '';
const token = process.env.HASS_TOKEN ?? '';
if (!url || !token) throw new Error('HASS_URL and HASS_TOKEN are not set: run this suite with `npm run test:e2e`');
if (!isRelease(HA_VERSION)) throw new Error(`the parity cases know no answers of Home Assistant ${HA_VERSION}`);

async function restart(): Promise<void> {
  await restartHa().catch((e: Error) => {
    throw new Error(`${e.message}\n${haLogTail(40)}`);
  });
}

// A fresh start, so the demo entities are as the fixture describes them whatever ran before.
// Every case puts back what it changed; the demo also keeps things no state shows (the bed
// light's last brightness), so the files after this one get a fresh start too.
beforeAll(restart);
afterAll(restart);

describe(`parity cases against the real Home Assistant ${HA_VERSION}`, () => {
  for (const c of parityCases(HA_VERSION as Release)) it(c.name, () => runCase({ url, token }, c));
});
