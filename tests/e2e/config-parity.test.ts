// The config parity cases (tests/parity/config-cases.ts) against the real Home Assistant 2026.11.0:
// the proof that what the simulator answers for the config API, traces, helpers and dashboards is
// what Home Assistant answers (tests/integration/sim-config-parity.test.ts runs them against the
// simulator). The 2024.3.3 run skips them: they are written in 2026.11's shapes.
import { describe, it } from 'vitest';
import { CONFIG_CASES } from '../parity/config-cases.js';
import { runCase } from '../parity/runner.js';
import { HA_VERSION } from './ha-control.js';

const url = process.env.HASS_URL ?? '';
const token = process.env.HASS_TOKEN ?? '';
if (!url || !token) throw new Error('HASS_URL and HASS_TOKEN are not set: run this suite with `npm run test:e2e`');

describe.skipIf(HA_VERSION !== '2026.11.0')('config parity cases against the real Home Assistant', () => {
  for (const c of CONFIG_CASES) it(c.name, () => runCase({ url, token }, c));
});
