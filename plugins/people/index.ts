// People and places: who is home, where each person is (the zone Home Assistant's person entity
// says, from its device trackers) and since when, and the zones. Read only. Coordinates stay out:
// the zone is the answer to "where is Anna?", and a position is more than a question needs.
import { definePlugin, type EntityState, type Home, localTime, PluginError, tool, v } from 'home-mcp-bridge/plugin';

const nameOf = (s: EntityState) => (typeof s.attributes.friendly_name === 'string' ? s.attributes.friendly_name : s.entity_id);
const fold = (x: string) => x.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** The zone entity a person's or tracker's state names: home is zone.home, another zone by its name. */
function zoneOf(state: string, home: Home): EntityState | undefined {
  if (state === 'home') return home.state('zone.home');
  return home.states('zone').find((z) => z.entity_id !== 'zone.home' && nameOf(z) === state);
}

/** A person's or tracker's place in words: "home", a zone's name, "away", or Home Assistant's unknown/unavailable. */
function whereabouts(s: EntityState, home: Home) {
  const zone = zoneOf(s.state, home);
  const tz = home.config?.time_zone;
  const at_home = s.state === 'home';
  return {
    state: s.state,
    at_home,
    zone: zone?.entity_id ?? null,
    place: at_home ? 'home' : zone ? nameOf(zone) : s.state === 'not_home' ? 'away' : s.state,
    since: localTime(Date.parse(s.last_changed), tz),
  };
}

function person(s: EntityState, home: Home) {
  const trackers = (Array.isArray(s.attributes.device_trackers) ? s.attributes.device_trackers : []).filter(
    (id): id is string => typeof id === 'string' && home.has(id),
  );
  return {
    entity_id: s.entity_id,
    name: nameOf(s),
    ...whereabouts(s, home),
    ...(typeof s.attributes.source === 'string' && home.has(s.attributes.source) ? { source: s.attributes.source } : {}),
    trackers: trackers.map((id) => {
      const t = home.state(id)!;
      const b = t.attributes.battery_level;
      return {
        entity_id: id,
        ...whereabouts(t, home),
        ...(typeof t.attributes.source_type === 'string' ? { source_type: t.attributes.source_type } : {}),
        ...(typeof b === 'number' ? { battery_level: b } : {}),
      };
    }),
  };
}
type Person = ReturnType<typeof person>;

const sentence = (p: Person) =>
  `${p.name} is ${p.at_home ? 'home' : p.place === 'away' ? 'away (in no zone)' : ['unknown', 'unavailable'].includes(p.state) ? `${p.state} (Home Assistant cannot tell)` : `at ${p.place}`} since ${p.since}.`;

/** The person a word names: entity id, name or object id, ignoring case and accents. */
function findPerson(word: string, home: Home): EntityState {
  const people = home.states('person');
  const w = fold(word);
  const hits = people.filter((s) => s.entity_id === word || fold(nameOf(s)) === w || fold(s.entity_id.slice(7).replace(/_/g, ' ')) === w);
  if (hits.length === 1) return hits[0]!;
  const loose = people.filter((s) => fold(nameOf(s)).split(/\s+/).includes(w));
  if (loose.length === 1) return loose[0]!;
  const names = people.map(nameOf);
  if (loose.length > 1)
    throw new PluginError(
      `${JSON.stringify(word)} may be ${loose.map(nameOf).join(' or ')}; say which`,
      { field: 'person', candidates: loose.map((s) => s.entity_id) },
      'AMBIGUOUS',
    );
  throw new PluginError(
    `There is no person ${JSON.stringify(word.slice(0, 40))}; people: ${names.join(', ') || 'none (Home Assistant has no person entities)'}`,
    { field: 'person', people: names },
    'INVALID_ENTITY',
    404,
  );
}

/** structuredContent: {people, home} (home), {person} (where), {zones} (zones); kept loose, as the tool list must stay small. */
const output = v.record(v.string(), v.unknown());

const people = tool({
  name: 'people',
  title: 'People and places',
  description: 'Who is home and where each person is (zone, since when); one person (where); or the zones and who is in each.',
  input: v.object({
    operation: v.picklist(['home', 'where', 'zones']),
    person: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
  }),
  output,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, { home }) => {
    if (args.operation !== 'where' && args.person !== undefined)
      throw new PluginError(`person goes with where, not with ${args.operation}`, { field: 'person' });
    const everyone = home
      .states('person')
      .map((s) => person(s, home))
      .sort((a, b) => a.name.localeCompare(b.name));
    if (args.operation === 'where') {
      if (!args.person) throw new PluginError('person: say whose whereabouts (a name or person entity id)', { field: 'person' });
      const p = person(findPerson(args.person, home), home);
      return { content: [{ type: 'text', text: sentence(p) }], structuredContent: { person: p } };
    }
    if (args.operation === 'zones') {
      const zones = home
        .states('zone')
        .map((z) => ({
          entity_id: z.entity_id,
          name: nameOf(z),
          radius: typeof z.attributes.radius === 'number' ? z.attributes.radius : null,
          passive: z.attributes.passive === true,
          people: everyone.filter((p) => p.zone === z.entity_id).map((p) => p.name),
        }))
        .sort((a, b) => (a.entity_id === 'zone.home' ? -1 : b.entity_id === 'zone.home' ? 1 : a.name.localeCompare(b.name)));
      const text = zones.length
        ? zones
            .map(
              (z) =>
                `${z.name} (${z.entity_id}${z.radius !== null ? `, ${z.radius} m` : ''}${z.passive ? ', passive' : ''}): ${z.people.join(', ') || 'nobody'}`,
            )
            .join('\n')
        : 'Home Assistant has no zones.';
      return { content: [{ type: 'text', text }], structuredContent: { zones } };
    }
    const atHome = everyone.filter((p) => p.at_home).map((p) => p.name);
    const head = !everyone.length
      ? 'Home Assistant has no people (person entities) to tell who is home.'
      : atHome.length
        ? `Home: ${atHome.join(', ')}.`
        : 'Nobody is home.';
    return { content: [{ type: 'text', text: [head, ...everyone.map(sentence)].join('\n') }], structuredContent: { people: everyone, home: atHome } };
  },
});

export default definePlugin({
  name: 'people',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Who is home, where each person is and since when, and the zones.',
  needs: ['home'],
  domains: ['person', 'zone', 'device_tracker'],
  words: new URL('./words/', import.meta.url),
  tools: [people],
});
