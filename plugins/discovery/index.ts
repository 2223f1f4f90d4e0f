// Discovery: find entities by what a person calls them, by domain and by area. Names and areas
// come from the hub; nothing about a home is written here.
import * as v from 'valibot';
import { definePlugin, text, toolsWith } from '../../src/plugins/api.js';

const needs = ['hub'] as const;
const tool = toolsWith(needs);

const search = tool({
  name: 'search_entities',
  title: 'Search entities',
  description:
    'Find entities by part of their name or id, by domain (light, climate, ...) and by area (its name or id). Answers each entity with its id, name, state and area; use the id with the control tools.',
  input: v.object({
    query: v.optional(v.pipe(v.string(), v.maxLength(100))),
    domain: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9_]+$/, 'must be a domain in lower case, such as light'))),
    area: v.optional(v.pipe(v.string(), v.maxLength(100))),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
  }),
  output: v.object({
    entities: v.array(v.object({ entity_id: v.string(), name: v.string(), state: v.string(), area: v.nullable(v.string()) })),
    total: v.number(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, { services: { hub } }) => {
    const query = args.query?.trim().toLowerCase();
    const area = args.area?.trim().toLowerCase();
    const found = [];
    for (const s of hub.cache.all()) {
      if (args.domain && !s.entity_id.startsWith(`${args.domain}.`)) continue;
      const name = typeof s.attributes.friendly_name === 'string' ? s.attributes.friendly_name : s.entity_id;
      const where = hub.registries.areaOf(s.entity_id);
      if (area && !(where && (where.area_id === area || where.name.toLowerCase() === area))) continue;
      if (query && !name.toLowerCase().includes(query) && !s.entity_id.includes(query)) continue;
      found.push({ entity_id: s.entity_id, name, state: s.state, area: where?.name ?? null });
    }
    found.sort((a, b) => (a.entity_id < b.entity_id ? -1 : 1));
    const entities = found.slice(0, args.limit);
    if (!found.length) return text('No entity matches; try a shorter query, or leave out the domain or area.', true);
    const lines = entities.map((e) => `${e.entity_id} (${e.name}${e.area ? `, ${e.area}` : ''}): ${e.state}`);
    const more = found.length > entities.length ? `\n${found.length - entities.length} more; raise limit or narrow the search.` : '';
    return { content: [{ type: 'text', text: `${lines.join('\n')}${more}` }], structuredContent: { entities, total: found.length } };
  },
});

export default definePlugin({
  name: 'discovery',
  version: '0.1.0',
  description: 'Find entities by name, domain and area.',
  needs,
  tools: [search],
});
