// The command planner's inputs for a home, made in process: the simulator's hub (no network) gives
// states, registries and services as the bridge's hub client would see them, and the language gets
// the built-in plugins' words as at start. For unit tests of the parser and planner, and the benchmark.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Registries, type RegistrySnapshot } from '../../src/hub/registries.js';
import { serviceAccepts } from '../../src/hub/service-fields.js';
import type { HubServices, HubState } from '../../src/hub/types.js';
import { buildHome } from '../../src/nlp/home.js';
import { languageWith, type PluginWords } from '../../src/nlp/language.js';
import { languageLexicon } from '../../src/nlp/lexicon.js';
import { plan, type Outcome, type PlanDeps } from '../../src/nlp/plan.js';
import type { Home } from '../../src/sim/home.js';
import { Hub } from '../../src/sim/hub.js';

const PLUGINS = fileURLToPath(new URL('../../plugins/', import.meta.url));

/** Every built-in plugin's English words, read from their data files. */
export function pluginWords(): PluginWords[] {
  return readdirSync(PLUGINS)
    .map((p) => `${PLUGINS}${p}/words/en.json`)
    .filter(existsSync)
    .map((f) => JSON.parse(readFileSync(f, 'utf8')) as PluginWords);
}

export interface Planner {
  hub: Hub;
  deps: PlanDeps;
  plan(command: string, area?: string): Outcome[];
}

export function plannerFor(home: Home): Planner {
  const hub = new Hub({ home, version: '2025.1.0', legacy: false });
  const registries = new Registries();
  const snapshot = {
    areas: hub.registries.listAreas(),
    floors: hub.registries.listFloors(),
    devices: hub.registries.listDevices(),
    entities: hub.registries.listEntities(),
    labels: hub.registries.listLabels(),
    floorsSupported: true,
  } as unknown as RegistrySnapshot;
  registries.replace(snapshot);
  const states = () => hub.states.all().map((s) => s.toJSON() as unknown as HubState);
  const services = hub.services.describe() as unknown as HubServices;
  const lang = languageWith('en', pluginWords())!;
  const vocabulary = languageLexicon(lang);
  const built = buildHome({ states: states(), registries, scenes: [], groups: [] }, lang, vocabulary);
  const byId = new Map(states().map((s) => [s.entity_id, s]));
  const deps: PlanDeps = {
    lang,
    vocabulary,
    home: built,
    state: (id) => byId.get(id),
    supports: (id, service) => {
      const domain = id.slice(0, id.indexOf('.'));
      const desc = services[domain]?.[service];
      return desc !== undefined && serviceAccepts(desc, domain, byId.get(id));
    },
  };
  return { hub, deps, plan: (command, area) => plan({ command, ...(area ? { context: { area } } : {}) }, deps) };
}
