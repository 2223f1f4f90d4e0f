// The command planner for a home, in process, with the built-in plugins' words as at start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PluginWords } from '../../src/nlp/language.js';
import { offlinePlanner, type OfflinePlanner } from '../../src/nlp/offline.js';
import type { Home } from '../../src/sim/home.js';

const PLUGINS = fileURLToPath(new URL('../../plugins/', import.meta.url));

/** Every built-in plugin's English words, read from their data files. */
export function pluginWords(): PluginWords[] {
  return readdirSync(PLUGINS)
    .map((p) => `${PLUGINS}${p}/words/en.json`)
    .filter(existsSync)
    .map((f) => JSON.parse(readFileSync(f, 'utf8')) as PluginWords);
}

export const plannerFor = (home: Home): OfflinePlanner => offlinePlanner(home, pluginWords());
