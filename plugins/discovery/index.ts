// Discovery: find entities by what a person calls them, by domain and by area. Names and areas
// come from the hub; nothing about a home is written here.
import * as v from 'valibot';
import { AppError, definePlugin, resourcesWith, text, toolsWith } from '../../src/plugins/api.js';
import type { ResourceContents } from '../../src/plugins/api.js';

const needs = ['hub'] as const;
const tool = toolsWith(needs);
const resource = resourcesWith(needs);

type Hub = Parameters<Parameters<typeof resource>[0]['read']>[1]['services']['hub'];
const nameOf = (hub: Hub, id: string) => {
  const s = hub.cache.get(id);
  return typeof s?.attributes.friendly_name === 'string' ? s.attributes.friendly_name : id;
};
const line = (hub: Hub, id: string) => ({ entity_id: id, name: nameOf(hub, id), state: hub.cache.get(id)?.state ?? 'unknown', area: hub.registries.areaOf(id)?.name ?? null });
const json = (uri: string, data: unknown, entities: string[]): ResourceContents => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }], entities });
const domains = (hub: Hub) => [...new Set([...hub.cache.ids()].map((id) => id.slice(0, id.indexOf('.'))))].sort();

const resources = [
  resource({
    uri: 'home://dashboard',
    name: 'Dashboard summary',
    description: 'What is on, open, unlocked or running right now, and how many entities of each kind there are.',
    mimeType: 'application/json',
    read: (_p, { services: { hub } }) => {
      const all = [...hub.cache.all()];
      const count = Object.fromEntries(domains(hub).map((d) => [d, all.filter((s) => s.entity_id.startsWith(`${d}.`)).length]));
      const pick = (domain: string, states: string[]) => all.filter((s) => s.entity_id.startsWith(`${domain}.`) && states.includes(s.state)).map((s) => s.entity_id);
      const data = {
        entities: count,
        lights_on: pick('light', ['on']),
        switches_on: pick('switch', ['on']),
        open_covers: pick('cover', ['open', 'opening']),
        unlocked: pick('lock', ['unlocked', 'open', 'jammed']),
        alarm: all.filter((s) => s.entity_id.startsWith('alarm_control_panel.')).map((s) => ({ entity_id: s.entity_id, state: s.state })),
        playing: pick('media_player', ['playing']),
        climate: all.filter((s) => s.entity_id.startsWith('climate.')).map((s) => ({ entity_id: s.entity_id, mode: s.state, current: s.attributes.current_temperature ?? null, target: s.attributes.temperature ?? null })),
        unavailable: all.filter((s) => s.state === 'unavailable').map((s) => s.entity_id),
      };
      return json('home://dashboard', data, all.map((s) => s.entity_id));
    },
  }),
  resource({
    uri: 'home://areas',
    name: 'Areas and floors',
    description: 'Every area with its floor and the entities in it.',
    mimeType: 'application/json',
    read: (_p, { services: { hub } }) => {
      const byArea = new Map<string, string[]>();
      for (const id of hub.cache.ids()) {
        const a = hub.registries.areaOf(id);
        if (a) byArea.set(a.area_id, [...(byArea.get(a.area_id) ?? []), id]);
      }
      const floors = hub.registries.floors;
      const areas = [...hub.registries.areas.values()].map((a) => ({ area_id: a.area_id, name: a.name, floor: a.floor_id ? (floors.get(a.floor_id)?.name ?? a.floor_id) : null, entities: (byArea.get(a.area_id) ?? []).sort() }));
      return json('home://areas', { areas }, areas.flatMap((a) => a.entities));
    },
  }),
  resource({
    uri: 'home://area/{area_id}',
    name: 'One area',
    description: 'The entities of one area with their states.',
    mimeType: 'application/json',
    list: ({ services: { hub } }) => [...hub.registries.areas.values()].map((a) => ({ uri: `home://area/${a.area_id}`, name: a.name })),
    read: ({ area_id }, { services: { hub } }) => {
      const area = hub.registries.areas.get(area_id!);
      if (!area) throw new AppError('NOT_FOUND', 404, `No area ${area_id}`, { area_id });
      const ids = [...hub.cache.ids()].filter((id) => hub.registries.areaOf(id)?.area_id === area.area_id).sort();
      return json(`home://area/${area.area_id}`, { area_id: area.area_id, name: area.name, entities: ids.map((id) => line(hub, id)) }, ids);
    },
  }),
  resource({
    uri: 'home://devices/{domain}',
    name: 'Devices of one type',
    description: 'Every entity of one domain (light, climate, cover, ...) with its state and area.',
    mimeType: 'application/json',
    list: ({ services: { hub } }) => domains(hub).map((d) => ({ uri: `home://devices/${d}`, name: `All ${d} entities` })),
    read: ({ domain }, { services: { hub } }) => {
      const ids = [...hub.cache.ids()].filter((id) => id.startsWith(`${domain}.`)).sort();
      return json(`home://devices/${domain}`, { domain, entities: ids.map((id) => line(hub, id)) }, ids);
    },
  }),
  resource({
    uri: 'home://entity/{entity_id}',
    name: 'One entity',
    description: 'One entity in full: state, attributes, area, device.',
    mimeType: 'application/json',
    read: ({ entity_id }, { services: { hub } }) => {
      const s = hub.cache.get(entity_id!);
      if (!s) throw new AppError('INVALID_ENTITY', 404, `No entity ${entity_id}`, { entity_id });
      const entry = hub.registries.entities.get(s.entity_id);
      const device = entry?.device_id ? hub.registries.devices.get(entry.device_id) : undefined;
      const data = { ...s, area: hub.registries.areaOf(s.entity_id)?.name ?? null, device: device ? { id: device.id, name: device.name_by_user ?? device.name ?? null } : null };
      return json(`home://entity/${s.entity_id}`, data, [s.entity_id]);
    },
  }),
];

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
  description: 'Find entities by name, domain and area; resources for devices by type, areas, one entity, and a dashboard.',
  needs,
  tools: [search],
  resources,
});
