// The planner over an in-process simulated hub (no network, no bridge): the home's states,
// registries, services and units as the hub client would hold them. For the benchmark and the
// parser's unit tests; the service itself plans against the live hub client.
import { Registries, type RegistrySnapshot } from '../hub/registries.js';
import { serviceAccepts } from '../hub/service-fields.js';
import type { HubServices, HubState } from '../hub/types.js';
import type { Home as SimHome } from '../sim/home.js';
import { Hub } from '../sim/hub.js';
import { CURRENT_VERSION } from '../sim/version.js';
import { buildHome } from './home.js';
import { BUILT_IN_LANGUAGES, languageWith, readLanguages, type PluginWords } from './language.js';
import { languageLexicon } from './lexicon.js';
import { plan, type Outcome, type PlanDeps } from './plan.js';

export interface OfflinePlanner {
  hub: Hub;
  deps: PlanDeps;
  plan(command: string, area?: string): Outcome[];
}

/** Plugins' words by language, as the loader reads them ({en: {...}, de: {...}} per plugin). */
export type WordsByLanguage = Record<string, PluginWords>;

export function offlinePlanner(home: SimHome, words: readonly WordsByLanguage[], language = 'en', languageDirs: readonly string[] = [BUILT_IN_LANGUAGES]): OfflinePlanner {
  const hub = new Hub({ home, version: CURRENT_VERSION, legacy: false });
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
  const states = hub.states.all().map((s) => s.toJSON() as unknown as HubState);
  const services = hub.services.describe() as unknown as HubServices;
  const base = readLanguages(languageDirs).get(language);
  if (!base) throw new Error(`no language ${language}`);
  const lang = languageWith(base, words.map((w) => w[language] ?? {}));
  const vocabulary = languageLexicon(lang);
  const byId = new Map(states.map((s) => [s.entity_id, s]));
  const deps: PlanDeps = {
    lang,
    vocabulary,
    home: buildHome({ states, registries, scenes: [], groups: [] }, lang, vocabulary),
    state: (id) => byId.get(id),
    supports: (id, service) => {
      const domain = id.slice(0, id.indexOf('.'));
      const desc = services[domain]?.[service];
      return desc !== undefined && serviceAccepts(desc, domain, byId.get(id));
    },
    units: { temperature: hub.temperatureUnit },
  };
  return { hub, deps, plan: (command, area) => plan({ command, ...(area ? { context: { area } } : {}) }, deps) };
}
