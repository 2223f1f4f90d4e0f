// Discovery: find entities by what a person calls them, by domain and by area. Names and areas
// come from the hub; nothing about a home is written here.
import { definePlugin, type Home, homeApp, PluginError, resource, type ResourceContents, text, tool, v } from 'home-mcp-bridge/plugin';

const nameOf = (home: Home, id: string) => {
  const s = home.state(id);
  return typeof s?.attributes.friendly_name === 'string' ? s.attributes.friendly_name : id;
};
const line = (home: Home, id: string) => ({
  entity_id: id,
  name: nameOf(home, id),
  state: home.state(id)?.state ?? 'unknown',
  area: home.areaOf(id)?.name ?? null,
});
const json = (uri: string, data: unknown, entities: string[]): ResourceContents => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }],
  entities,
});
const domains = (home: Home) => [...new Set(home.ids().map((id) => id.slice(0, id.indexOf('.'))))].sort();

const resources = [
  resource({
    uri: 'home://dashboard',
    name: 'Dashboard summary',
    description: 'What is on, open, unlocked or running right now, and how many entities of each kind there are.',
    mimeType: 'application/json',
    read: (_p, { home }) => {
      const all = home.states();
      const count = Object.fromEntries(domains(home).map((d) => [d, all.filter((s) => s.entity_id.startsWith(`${d}.`)).length]));
      const pick = (domain: string, states: string[]) =>
        all.filter((s) => s.entity_id.startsWith(`${domain}.`) && states.includes(s.state)).map((s) => s.entity_id);
      const data = {
        entities: count,
        lights_on: pick('light', ['on']),
        switches_on: pick('switch', ['on']),
        open_covers: pick('cover', ['open', 'opening']),
        unlocked: pick('lock', ['unlocked', 'open', 'jammed']),
        alarm: all.filter((s) => s.entity_id.startsWith('alarm_control_panel.')).map((s) => ({ entity_id: s.entity_id, state: s.state })),
        playing: pick('media_player', ['playing']),
        climate: all
          .filter((s) => s.entity_id.startsWith('climate.'))
          .map((s) => ({ entity_id: s.entity_id, mode: s.state, current: s.attributes.current_temperature ?? null, target: s.attributes.temperature ?? null })),
        unavailable: all.filter((s) => s.state === 'unavailable').map((s) => s.entity_id),
      };
      return json(
        'home://dashboard',
        data,
        all.map((s) => s.entity_id),
      );
    },
  }),
  resource({
    uri: 'home://areas',
    name: 'Areas and floors',
    description: 'Every area with its floor and the entities in it.',
    mimeType: 'application/json',
    read: (_p, { home }) => {
      const byArea = new Map<string, string[]>();
      for (const id of home.ids()) {
        const a = home.areaOf(id);
        if (a) byArea.set(a.area_id, [...(byArea.get(a.area_id) ?? []), id]);
      }
      const areas = home.areas().map((a) => ({
        area_id: a.area_id,
        name: a.name,
        floor: a.floor_id ? (home.floor(a.floor_id)?.name ?? a.floor_id) : null,
        entities: (byArea.get(a.area_id) ?? []).sort(),
      }));
      return json(
        'home://areas',
        { areas },
        areas.flatMap((a) => a.entities),
      );
    },
  }),
  resource({
    uri: 'home://area/{area_id}',
    name: 'One area',
    description: 'The entities of one area with their states.',
    mimeType: 'application/json',
    list: ({ home }) => home.areas().map((a) => ({ uri: `home://area/${a.area_id}`, name: a.name })),
    complete: {
      area_id: (typed, { home }) =>
        startingWith(
          home.areas().map((a) => a.area_id),
          typed,
        ),
    },
    read: ({ area_id }, { home }) => {
      const area = home.area(area_id!);
      if (!area) throw new PluginError(`No area ${area_id}`, { area_id }, 'NOT_FOUND', 404);
      const ids = home
        .ids()
        .filter((id) => home.areaOf(id)?.area_id === area.area_id)
        .sort();
      return json(`home://area/${area.area_id}`, { area_id: area.area_id, name: area.name, entities: ids.map((id) => line(home, id)) }, ids);
    },
  }),
  resource({
    uri: 'home://devices/{domain}',
    name: 'Devices of one type',
    description: 'Every entity of one domain (light, climate, cover, ...) with its state and area.',
    mimeType: 'application/json',
    list: ({ home }) => domains(home).map((d) => ({ uri: `home://devices/${d}`, name: `All ${d} entities` })),
    complete: { domain: (typed, { home }) => startingWith(domains(home), typed) },
    read: ({ domain }, { home }) => {
      const ids = home
        .ids()
        .filter((id) => id.startsWith(`${domain}.`))
        .sort();
      return json(`home://devices/${domain}`, { domain, entities: ids.map((id) => line(home, id)) }, ids);
    },
  }),
  resource({
    uri: 'home://entity/{entity_id}',
    name: 'One entity',
    description: 'One entity in full: state, attributes, area, device.',
    mimeType: 'application/json',
    complete: { entity_id: (typed, { home }) => startingWith(home.ids(), typed) },
    read: ({ entity_id }, { home }) => {
      const s = home.state(entity_id!);
      if (!s) throw new PluginError(`No entity ${entity_id}`, { entity_id }, 'INVALID_ENTITY', 404);
      const entry = home.entry(s.entity_id);
      const device = entry?.device_id ? home.device(entry.device_id) : undefined;
      const data = {
        ...s,
        area: home.areaOf(s.entity_id)?.name ?? null,
        device: device ? { id: device.id, name: device.name_by_user ?? device.name ?? null } : null,
      };
      return json(`home://entity/${s.entity_id}`, data, [s.entity_id]);
    },
  }),
];

/** Completion values: those that start with what was typed, sorted (MCP sends at most 100). */
const startingWith = (values: Iterable<string>, typed: string) => [...values].filter((v) => v.startsWith(typed.toLowerCase())).sort();

const FIELDS = ['entity_id', 'name', 'state', 'area', 'floor', 'attributes'] as const;
type Field = (typeof FIELDS)[number];

/** An opaque page cursor: where the next page starts, for this same query. */
const cursorOf = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
/** Where a page starts: 0 without a cursor; a cursor this tool did not give is the caller's mistake. */
const offsetOf = (cursor: string | undefined): number => {
  if (cursor === undefined) return 0;
  const m = /^o:(\d{1,7})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw new PluginError('cursor: is not one this tool gave; leave it out to start again', { field: 'cursor' });
  return Number(m[1]);
};

/** Lower-cased and trimmed, for matching a person's words against names. */
const word = (x: string | undefined) => x?.trim().toLowerCase();

const search = tool({
  name: 'search_entities',
  core: true,
  ui: homeApp,
  title: 'Search entities',
  description:
    'Find entities by part of their name, alias or id, and by domain, area, floor, label or state. Compact by default (entity_id, name, state, area); fields picks others; pages of limit with next_cursor.',
  input: v.object({
    query: v.optional(v.pipe(v.string(), v.maxLength(100))),
    domain: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9_]+$/, 'must be a domain in lower case, such as light'))),
    area: v.optional(v.pipe(v.string(), v.maxLength(100))),
    floor: v.optional(v.pipe(v.string(), v.maxLength(100))),
    label: v.optional(v.pipe(v.string(), v.maxLength(100))),
    state: v.optional(v.pipe(v.string(), v.maxLength(64))),
    fields: v.optional(v.pipe(v.array(v.picklist(FIELDS)), v.minLength(1))),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
    cursor: v.optional(v.pipe(v.string(), v.maxLength(64))),
  }),
  output: v.object({ entities: v.array(v.record(v.string(), v.unknown())), total: v.number(), next_cursor: v.nullable(v.string()) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, { home }) => {
    const start = offsetOf(args.cursor);
    const [query, floor, label] = [word(args.query), word(args.floor), word(args.label)];
    const areaId = args.area !== undefined ? home.areaIdFor(args.area) : undefined;
    if (args.area !== undefined && areaId === undefined)
      return text(`There is no area ${JSON.stringify(args.area.slice(0, 40))}; list_areas lists them.`, true);
    const labelId = label && home.labels().find((l) => l.label_id === label || l.name.toLowerCase() === label)?.label_id;
    const found = [];
    for (const s of home.states(args.domain)) {
      if (args.state && s.state !== args.state) continue;
      const name = nameOf(home, s.entity_id);
      const where = home.areaOf(s.entity_id);
      const level = where?.floor_id ? home.floor(where.floor_id) : undefined;
      if (areaId !== undefined && where?.area_id !== areaId) continue;
      if (floor && !(level && (level.floor_id === floor || level.name.toLowerCase() === floor || level.aliases?.some((x) => x.toLowerCase() === floor))))
        continue;
      const entry = home.entry(s.entity_id);
      if (label && !(labelId && entry?.labels?.includes(labelId))) continue;
      const names = [name, ...(entry?.aliases ?? [])].map((n) => n.toLowerCase());
      if (query && !names.some((n) => n.includes(query)) && !s.entity_id.includes(query)) continue;
      found.push({ entity_id: s.entity_id, name, state: s.state, area: where?.name ?? null, floor: level?.name ?? null, attributes: s.attributes });
    }
    if (!found.length) return text('No entity matches; try a shorter query, or leave out a filter.', true);
    found.sort((a, b) => (a.entity_id < b.entity_id ? -1 : 1));
    const fields: readonly Field[] = args.fields ?? ['entity_id', 'name', 'state', 'area'];
    const page = found.slice(start, start + args.limit).map((e) => Object.fromEntries(fields.map((f) => [f, e[f]])));
    const next = start + args.limit < found.length ? cursorOf(start + args.limit) : null;
    const lines = page.map((e) =>
      Object.values(e)
        .map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x)))
        .join(' | '),
    );
    const more = next ? `\n${found.length - start - page.length} more: call again with cursor ${next}.` : '';
    return { content: [{ type: 'text', text: `${lines.join('\n')}${more}` }], structuredContent: { entities: page, total: found.length, next_cursor: next } };
  },
});

const areas = tool({
  name: 'list_areas',
  core: true,
  ui: homeApp,
  title: 'List areas',
  description: 'Every area (with its floor and how many entities of each domain it has), and every floor; optionally one floor’s areas.',
  input: v.object({ floor: v.optional(v.pipe(v.string(), v.maxLength(100))) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, { home }) => {
    const counts = new Map<string, Record<string, number>>();
    for (const id of home.ids()) {
      const a = home.areaOf(id);
      if (!a) continue;
      const c = counts.get(a.area_id) ?? {};
      const domain = id.slice(0, id.indexOf('.'));
      c[domain] = (c[domain] ?? 0) + 1;
      counts.set(a.area_id, c);
    }
    const floorWord = args.floor?.trim().toLowerCase();
    const list = home
      .areas()
      .map((a) => ({
        area_id: a.area_id,
        name: a.name,
        floor: a.floor_id ? (home.floor(a.floor_id)?.name ?? a.floor_id) : null,
        floor_id: a.floor_id ?? null,
        entities: counts.get(a.area_id) ?? {},
      }))
      .filter((a) => !floorWord || a.floor_id === floorWord || a.floor?.toLowerCase() === floorWord)
      .sort((a, b) => a.name.localeCompare(b.name));
    const floors = home.floors().map((f) => ({ floor_id: f.floor_id, name: f.name, level: f.level ?? null }));
    const lines = list.map(
      (a) =>
        `${a.name} (${a.area_id})${a.floor ? `, ${a.floor}` : ''}: ${
          Object.entries(a.entities)
            .map(([d, n]) => `${n} ${d}`)
            .join(', ') || 'no entities'
        }`,
    );
    return { content: [{ type: 'text', text: lines.join('\n') || 'No areas.' }], structuredContent: { areas: list, floors } };
  },
});

const devices = tool({
  name: 'list_devices',
  title: 'List devices',
  description:
    'Devices (name, area, maker, model, their entities), optionally one device by device_id, of one area or label, or matching a word; every label. Pages of limit with next_cursor.',
  input: v.object({
    device_id: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(128))),
    area: v.optional(v.pipe(v.string(), v.maxLength(100))),
    label: v.optional(v.pipe(v.string(), v.maxLength(100))),
    query: v.optional(v.pipe(v.string(), v.maxLength(100))),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)), 50),
    cursor: v.optional(v.pipe(v.string(), v.maxLength(64))),
  }),
  output: v.object({
    devices: v.array(v.record(v.string(), v.unknown())),
    labels: v.array(v.record(v.string(), v.unknown())),
    total: v.number(),
    next_cursor: v.nullable(v.string()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, { home }) => {
    const start = offsetOf(args.cursor);
    if (args.device_id !== undefined && !home.device(args.device_id)) throw home.unknownDevice(args.device_id);
    const [label, query] = [word(args.label), word(args.query)];
    const areaId = args.area !== undefined ? home.areaIdFor(args.area) : undefined;
    if (args.area !== undefined && areaId === undefined)
      return text(`There is no area ${JSON.stringify(args.area.slice(0, 40))}; list_areas lists them.`, true);
    const labelId = label && home.labels().find((l) => l.label_id === label || l.name.toLowerCase() === label)?.label_id;
    const byDevice = new Map<string, string[]>();
    for (const id of home.ids()) {
      const deviceId = home.entry(id)?.device_id;
      if (deviceId) byDevice.set(deviceId, [...(byDevice.get(deviceId) ?? []), id]);
    }
    const found = home
      .devices()
      .filter((d) => byDevice.has(d.id) && (args.device_id === undefined || d.id === args.device_id))
      .map((d) => {
        const where = d.area_id ? home.area(d.area_id) : undefined;
        return {
          device_id: d.id,
          name: d.name_by_user ?? d.name ?? d.id,
          area: where?.name ?? null,
          area_id: where?.area_id ?? null,
          manufacturer: d.manufacturer ?? null,
          model: d.model ?? null,
          labels: d.labels ?? [],
          entities: byDevice.get(d.id)!.sort(),
        };
      })
      .filter((d) => areaId === undefined || d.area_id === areaId)
      .filter((d) => !label || (labelId !== undefined && d.labels.includes(labelId)))
      .filter((d) => !query || [d.name, d.manufacturer ?? '', d.model ?? ''].some((x) => x.toLowerCase().includes(query)))
      .sort((a, b) => a.name.localeCompare(b.name));
    const page = found.slice(start, start + args.limit);
    const next = start + args.limit < found.length ? cursorOf(start + args.limit) : null;
    const labels = home.labels().map((l) => ({ label_id: l.label_id, name: l.name }));
    const lines = page.map(
      (d) => `${d.name}${d.area ? ` (${d.area})` : ''}${d.manufacturer ? `, ${d.manufacturer}${d.model ? ` ${d.model}` : ''}` : ''}: ${d.entities.join(', ')}`,
    );
    const more = next ? `\n${found.length - start - page.length} more: call again with cursor ${next}.` : '';
    return {
      content: [{ type: 'text', text: `${lines.join('\n') || 'No device matches.'}${more}` }],
      structuredContent: { devices: page, labels, total: found.length, next_cursor: next },
    };
  },
});

const describe = tool({
  name: 'describe_entity',
  core: true,
  ui: homeApp,
  title: 'Describe an entity',
  description: 'One entity in full: state, attributes, area, floor, device, labels, aliases, and the actions it supports (for the control tools).',
  input: v.object({ entity_id: v.pipe(v.string(), v.regex(/^[a-z0-9_]+\.[a-z0-9_]+$/, 'must be an entity id such as light.kitchen')) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, { home }) => {
    const s = home.state(args.entity_id);
    if (!s) throw home.unknownEntity(args.entity_id);
    const entry = home.entry(s.entity_id);
    const device = entry?.device_id ? home.device(entry.device_id) : undefined;
    const area = home.areaOf(s.entity_id);
    const labelNames = new Map(home.labels().map((l) => [l.label_id, l.name]));
    const data = {
      ...s,
      name: nameOf(home, s.entity_id),
      area: area?.name ?? null,
      floor: area?.floor_id ? (home.floor(area.floor_id)?.name ?? null) : null,
      device: device ? { id: device.id, name: device.name_by_user ?? device.name ?? null } : null,
      labels: (entry?.labels ?? []).map((l) => labelNames.get(l) ?? l),
      aliases: entry?.aliases ?? [],
      supported_actions: home.supportedActions(s.entity_id),
    };
    return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
  },
});

export default definePlugin({
  name: 'discovery',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Find entities, list areas, floors, devices and labels, describe one entity; resources for devices by type, areas, one entity, and a dashboard.',
  needs: ['home'],
  tools: [search, areas, devices, describe],
  resources,
});
