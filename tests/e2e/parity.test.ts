// The parity cases (tests/parity/cases.ts) against the real hub: the proof that each expectation is
// what Home Assistant 2024.3.3 really does. tests/integration/sim-parity.test.ts runs the same
// cases against the simulator.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CASES } from '../parity/cases.js';
import { runCase } from '../parity/runner.js';
import { haLogTail, restartHa } from './ha-control.js';

const url = process.env.HASS_URL ?? '';
const token = process.env.HASS_TOKEN ?? '';
if (!url || !token) throw new Error('HASS_URL and HASS_TOKEN are not set: run this suite with `npm run test:e2e`');

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

describe('parity cases against the real hub', () => {
  for (const c of CASES) it(c.name, () => runCase({ url, token }, c));
});
