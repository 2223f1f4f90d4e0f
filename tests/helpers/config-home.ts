// A small home for the config-editing tests: lights, an input_boolean to trigger with, a lock and
// a script that unlocks it, and a YAML-mode dashboard; written to a file for SIM_HOME.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Home } from '@home-mcp-bridge/sim/testing';

export const CONFIG_HOME: Home = {
  name: 'Config home',
  areas: [{ id: 'bedroom', name: 'Bedroom' }],
  entities: [
    { entity_id: 'light.bed', name: 'Bed light', area: 'bedroom', state: 'off', attributes: { supported_color_modes: ['brightness'] } },
    { entity_id: 'light.desk', name: 'Desk light', state: 'off', attributes: { supported_color_modes: ['brightness'] } },
    { entity_id: 'input_boolean.bedtime', name: 'Bedtime', state: 'off' },
    { entity_id: 'lock.front_door', name: 'Front door', state: 'locked' },
    { entity_id: 'script.open_up', name: 'Open up', config: { sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }] } },
  ],
  dashboards: [{ url_path: 'wall-panel', title: 'Wall panel', mode: 'yaml', filename: 'wall-panel.yaml', config: { views: [{ title: 'Wall', cards: [] }] } }],
};

/** The home above as a file for SIM_HOME. */
export function configHomeFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'hmb-config-home-')), 'home.yaml');
  writeFileSync(file, stringify(CONFIG_HOME));
  return file;
}
