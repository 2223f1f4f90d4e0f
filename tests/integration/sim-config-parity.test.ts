// The config parity cases (tests/parity/config-cases.ts) against the simulator, loaded with the demo
// fixture and the YAML dashboard the end-to-end Home Assistant has. tests/e2e/config-parity.test.ts
// runs the same cases against the real Home Assistant 2026.11.0.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { loadHome, type Simulator, startSimulator } from '@home-mcp-bridge/sim/testing';
import { CONFIG_CASES } from '../parity/config-cases.js';
import { runCase } from '../parity/runner.js';

// Home Assistant 2026.11's demo as a fixture where the tree has one per release, else the one demo fixture.
const PER_RELEASE = fileURLToPath(new URL('../fixtures/ha-demo-home-2026.11.0.yaml', import.meta.url));
const FIXTURE = existsSync(PER_RELEASE) ? PER_RELEASE : fileURLToPath(new URL('../fixtures/ha-demo-home.yaml', import.meta.url));

describe('config parity cases against the simulator', () => {
  let sim: Simulator;
  beforeAll(async () => {
    const home = {
      ...loadHome(FIXTURE),
      dashboards: [
        {
          url_path: 'yaml-board',
          title: 'YAML board',
          mode: 'yaml' as const,
          filename: 'yaml-board.yaml',
          config: { title: 'YAML board', views: [{ title: 'Home', cards: [] }] },
        },
      ],
    };
    sim = await startSimulator({ home, version: '2026.11.0' });
  });
  afterAll(() => sim?.stop());

  for (const c of CONFIG_CASES) it(c.name, () => runCase({ url: sim.url, token: sim.token }, c));
});
