// The home inside the assistant (MCP Apps): a `ui://` page that shows the entities of a discovery or
// control tool's result, or an area, with their live state and the controls that fit. The page
// reads state with app_home_state (a tool for the page, not the model) and acts through the same
// control tools the model uses, so the checkpoint holds for every press.
import { definePlugin, HOME_APP_URI, resource, tool, UI_MIME, v, type EntityState, type Home } from 'home-mcp-bridge/plugin';
import { VIEW_HTML } from './view.js';

const MAX = 50;

const pct = (x: unknown) => (typeof x === 'number' ? Math.round((x / 255) * 100) : 0);

/** The controls that make sense for an entity, with the values they start from. */
function controls(home: Home, s: EntityState): Record<string, unknown> | undefined {
  const domain = s.entity_id.slice(0, s.entity_id.indexOf('.'));
  const a = s.attributes;
  if (domain === 'light') {
    const modes = Array.isArray(a.supported_color_modes) ? (a.supported_color_modes as string[]) : [];
    const dims = modes.some((m) => m !== 'onoff');
    return { kind: 'light', ...(dims ? { brightness_pct: s.state === 'on' ? pct(a.brightness) : 0 } : {}) };
  }
  if (domain === 'cover') {
    const positions = ((Number(a.supported_features) || 0) & 4) !== 0;
    return { kind: 'cover', ...(positions ? { position: typeof a.current_position === 'number' ? a.current_position : 0 } : {}) };
  }
  if (domain === 'climate') {
    const unit = home.config?.unit_system?.temperature ?? '°C';
    return {
      kind: 'climate',
      target: typeof a.temperature === 'number' ? a.temperature : null,
      min: a.min_temp ?? 7,
      max: a.max_temp ?? 35,
      step: a.target_temp_step ?? 0.5,
      unit,
    };
  }
  return undefined;
}

const appHomeState = tool({
  name: 'app_home_state',
  title: 'Home app: state',
  description: 'For the home app only: entities (by id, or an area) with their state and controls, or the areas.',
  input: v.object({
    entity_ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z_]+\.[a-z0-9_]+$/, 'must be entity ids'))), v.maxLength(MAX))),
    area: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  ui: { resourceUri: HOME_APP_URI, visibility: ['app'] },
  run: (args, { home }) => {
    const row = (s: EntityState) => {
      const c = controls(home, s);
      return {
        entity_id: s.entity_id,
        name: typeof s.attributes.friendly_name === 'string' ? s.attributes.friendly_name : s.entity_id,
        state: s.state,
        area: home.areaOf(s.entity_id)?.name ?? null,
        ...(c ? { controls: c } : {}),
      };
    };
    let title = 'Areas';
    let states: EntityState[] = [];
    if (args.entity_ids?.length) {
      states = args.entity_ids.map((id) => home.state(id)).filter((s): s is EntityState => s !== undefined);
      title = states.length === 1 ? row(states[0]!).name : `${states.length} entities`;
    } else if (args.area !== undefined) {
      const id = home.areaIdFor(args.area);
      const area = id ? home.area(id) : undefined;
      if (area) {
        states = home
          .states()
          .filter((s) => home.areaOf(s.entity_id)?.area_id === area.area_id)
          .slice(0, MAX);
        title = area.name;
      }
    }
    const entities = states.map(row);
    const areas = entities.length
      ? []
      : home.areas().map((a) => ({ area_id: a.area_id, name: a.name, count: home.ids().filter((id) => home.areaOf(id)?.area_id === a.area_id).length }));
    return {
      content: [{ type: 'text', text: `${title}: ${entities.map((e) => `${e.name} ${e.state}`).join(', ') || areas.map((a) => a.name).join(', ')}` }],
      structuredContent: { title, entities, areas },
    };
  },
});

export default definePlugin({
  name: 'app',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'The home inside the assistant: an MCP Apps page of entities with live state and controls.',
  needs: ['home'],
  tools: [appHomeState],
  resources: [
    resource({
      uri: HOME_APP_URI,
      name: 'Home app',
      title: 'Home',
      description:
        'An interactive view of the entities a tool answered with, or of an area: live state, switches, brightness, cover positions, thermostat targets.',
      mimeType: UI_MIME,
      // No origin at all: the page loads nothing and connects nowhere; it talks only to its host.
      ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
      read: () => ({ contents: [{ uri: HOME_APP_URI, mimeType: UI_MIME, text: VIEW_HTML }], entities: [] }),
    }),
  ],
});
