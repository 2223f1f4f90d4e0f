// The planner over an in-process simulated hub (no network, no bridge): the home's states,
// registries, services and units as the hub client would hold them. For the benchmark and the
// parser's unit tests; the service itself plans against the live hub client.
import { type Home, snapshotHome } from '#sim';
import { Registries } from '../hub/registries.js';
import { serviceAccepts } from '../hub/service-fields.js';
import type { HubServices, HubState } from '../hub/types.js';
import { buildHome } from './home.js';
import { BUILT_IN_LANGUAGES, languageWith, readLanguages, type PluginWords } from './language.js';
import { languageLexicon } from './lexicon.js';
import { plan, type Outcome, type PlanDeps } from './plan.js';

export interface OfflinePlanner {
  deps: PlanDeps;
  plan(command: string, area?: string): Outcome[];
}

/** Plugins' words by language, as the loader reads them ({en: {...}, de: {...}} per plugin). */
export type WordsByLanguage = Record<string, PluginWords>;

export function offlinePlanner(
  home: Home,
  words: readonly WordsByLanguage[],
  language = 'en',
  languageDirs: readonly string[] = [BUILT_IN_LANGUAGES],
): OfflinePlanner {
  // The home as the hub client would hold it, read from the simulator's answers.
  const snapshot = snapshotHome(home);
  const registries = new Registries();
  const { areas, floors, devices, entities, labels } = snapshot;
  registries.replace({ areas, floors, devices, entities, labels, floorsSupported: true });
  const states: HubState[] = snapshot.states;
  const services: HubServices = snapshot.services;
  const base = readLanguages(languageDirs).get(language);
  if (!base) throw new Error(`no language ${language}`);
  const lang = languageWith(
    base,
    words.map((w) => w[language] ?? {}),
  );
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
    units: { temperature: snapshot.temperatureUnit },
  };
  return { deps, plan: (command, area) => plan({ command, ...(area ? { context: { area } } : {}) }, deps) };
}
