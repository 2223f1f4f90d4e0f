// The command planner for a home, in process, with the built-in plugins' words as at start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { offlinePlanner, type OfflinePlanner, type WordsByLanguage } from '../../src/nlp/offline.js';
import type { Step } from '../../src/nlp/plan.js';
import type { Home } from '@home-mcp-bridge/sim/testing';

const PLUGINS = fileURLToPath(new URL('../../plugins/', import.meta.url));

/** Every built-in plugin's words, by language, read from their data files. */
export function pluginWords(): WordsByLanguage[] {
  return readdirSync(PLUGINS)
    .map((p) => `${PLUGINS}${p}/words`)
    .filter(existsSync)
    .map(
      (dir) =>
        Object.fromEntries(
          readdirSync(dir)
            .filter((f) => f.endsWith('.json'))
            .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'))]),
        ) as WordsByLanguage,
    );
}

export const plannerFor = (home: Home, language = 'en'): OfflinePlanner => offlinePlanner(home, pluginWords(), language);

/** A planned step's calls, one per entity, as "entity service data" (data only when there is some). */
export const stepCalls = (s: Step): string[] => s.entity_ids.map((id) => `${id} ${s.service}${Object.keys(s.data).length ? ` ${JSON.stringify(s.data)}` : ''}`);

/** Each call a command plans, as "entity service data", sorted; throws on anything but actions. */
export function plannedCalls(p: OfflinePlanner, command: string, area?: string): string[] {
  return p
    .plan(command, area)
    .flatMap((o) => {
      if (o.kind !== 'act') throw new Error(`${command}: ${JSON.stringify(o)}`);
      return o.steps.flatMap(stepCalls);
    })
    .sort();
}
