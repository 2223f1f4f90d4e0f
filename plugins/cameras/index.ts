// Cameras: which there are, a camera's state and whether it streams, and a snapshot as MCP image
// content, read through Home Assistant's camera proxy within the bridge's size cap
// (CAMERA_SNAPSHOT_MAX_BYTES). Home Assistant puts a credential in every camera's state (the
// access_token attribute, and entity_picture, a proxy URL carrying it): neither leaves this tool,
// and it gives no stream URL at all.
import { definePlugin, type EntityState, type Home, image, PluginError, tool, v } from 'home-mcp-bridge/plugin';

/** Home Assistant's CameraEntityFeature. */
const ON_OFF = 1;
const STREAM = 2;

const cameraId = v.pipe(v.string(), v.regex(/^camera\.[a-z0-9_]+$/, 'must be a camera entity id such as camera.front_door'));

/** What a caller may read of a camera: no token, no URL. */
function describe(s: EntityState, home: Home) {
  const a = s.attributes;
  const features = Number(a.supported_features ?? 0);
  return {
    entity_id: s.entity_id,
    name: typeof a.friendly_name === 'string' ? a.friendly_name : s.entity_id,
    area: home.areaOf(s.entity_id)?.name ?? null,
    state: s.state,
    has_stream: (features & STREAM) !== 0,
    can_turn_off: (features & ON_OFF) !== 0,
    ...(typeof a.brand === 'string' ? { brand: a.brand } : {}),
    ...(typeof a.model_name === 'string' ? { model: a.model_name } : {}),
    ...(typeof a.motion_detection === 'boolean' ? { motion_detection: a.motion_detection } : {}),
    last_changed: s.last_changed,
  };
}
type Camera = ReturnType<typeof describe>;
const line = (c: Camera) =>
  `${c.name} (${c.entity_id}${c.area ? `, ${c.area}` : ''}): ${c.state}, ${c.has_stream ? 'has a stream' : 'no stream'}${c.motion_detection ? ', motion detection on' : ''}`;

function camera(home: Home, id: string | undefined): EntityState {
  if (!id) throw new PluginError('entity_id: say which camera (operation list names them)', { field: 'entity_id' });
  const s = home.state(id);
  if (!s) throw home.unknownEntity(id);
  return s;
}

/** structuredContent: {cameras} (list), {camera} (state), {camera, snapshot} (snapshot); kept loose, as the tool list must stay small. */
const output = v.record(v.string(), v.unknown());

const cameras = tool({
  name: 'cameras',
  title: 'Cameras',
  description: 'Cameras: list them (optionally in an area), read one camera’s state and whether it has a stream, or take a snapshot (returned as an image).',
  input: v.object({
    operation: v.picklist(['list', 'state', 'snapshot']),
    entity_id: v.optional(cameraId),
    area: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
  }),
  output,
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  run: async (args, { home }) => {
    if (args.operation !== 'list' && args.area !== undefined)
      throw new PluginError(`area goes with list, not with ${args.operation}; give entity_id`, { field: 'area' });
    if (args.operation === 'list') {
      if (args.entity_id !== undefined) throw new PluginError('entity_id goes with state or snapshot, not with list', { field: 'entity_id' });
      let all = home.states('camera');
      if (args.area !== undefined) {
        const areaId = home.areaIdFor(args.area);
        if (!areaId) throw new PluginError(`There is no area ${JSON.stringify(args.area.slice(0, 40))}`, { field: 'area' }, 'INVALID_ENTITY', 404);
        all = all.filter((s) => home.areaOf(s.entity_id)?.area_id === areaId);
      }
      const list = all.map((s) => describe(s, home)).sort((a, b) => a.name.localeCompare(b.name));
      const text = list.length ? list.map(line).join('\n') : `No cameras${args.area ? ` in ${args.area}` : ''}.`;
      return { content: [{ type: 'text', text }], structuredContent: { cameras: list } };
    }
    const s = camera(home, args.entity_id);
    const info = describe(s, home);
    if (args.operation === 'state') return { content: [{ type: 'text', text: line(info) }], structuredContent: { camera: info } };
    const shot = await home.snapshot(s.entity_id);
    const { data, entity_id: _id, ...meta } = shot;
    const size = shot.width ? `${shot.width}×${shot.height}, ` : '';
    const scaled = shot.scaled_from
      ? ` (made smaller by Home Assistant from ${shot.scaled_from.width}×${shot.scaled_from.height}, ${shot.scaled_from.bytes} bytes)`
      : '';
    return image(data, shot.mime_type, `Snapshot of ${info.name} (${s.entity_id}), ${size}${shot.bytes} bytes${scaled}, taken ${new Date().toISOString()}.`, {
      camera: info,
      snapshot: meta,
    });
  },
});

export default definePlugin({
  name: 'cameras',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Camera states and snapshots, read through Home Assistant’s camera proxy.',
  needs: ['home'],
  domains: ['camera'],
  words: new URL('./words/', import.meta.url),
  tools: [cameras],
});
