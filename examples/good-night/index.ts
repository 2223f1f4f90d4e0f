// Good night: one tool that puts the home to bed. It switches off the lights that are on (but those
// you keep), locks the locks that are unlocked, and says what is still open: doors and windows by
// their sensors, covers not closed. It acts only through `home.act`, so the bridge's checkpoint
// decides every action (dry_run plans without acting), and sees only what its caller may see.
// It uses only TypeScript that Node can strip, so this file also loads as it is.
import { definePlugin, text, tool, v, type EntityState, type Home, type ToolResult } from 'home-mcp-bridge/plugin';

/** A door, window or opening sensor that says it is open, and a cover that is not closed. */
const OPENINGS = ['door', 'window', 'opening', 'garage_door'];
const nameOf = (s: EntityState) => (typeof s.attributes.friendly_name === 'string' ? s.attributes.friendly_name : s.entity_id);

function stillOpen(home: Home): EntityState[] {
  const sensors = home.states('binary_sensor').filter((s) => s.state === 'on' && OPENINGS.includes(String(s.attributes.device_class)));
  const covers = home.states('cover').filter((s) => s.state !== 'closed');
  return [...sensors, ...covers];
}

/** What one act did, per entity, from the structuredContent `home.act` answers. */
function outcome(result: ToolResult): { entity_id: string; state: string | null }[] {
  const entities = (result.structuredContent as { entities?: { entity_id: string; state: string | null }[] } | undefined)?.entities;
  return entities ?? [];
}

const goodNight = tool({
  name: 'good_night',
  title: 'Good night',
  description:
    'Put the home to bed: turn off the lights that are on (except keep_on), lock the unlocked locks, and list the doors, windows and covers still open. dry_run: true says what it would do.',
  input: v.object({
    keep_on: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^light\.[a-z0-9_]+$/, 'must be light entity ids such as light.hallway'))), v.maxLength(50))),
    dry_run: v.optional(v.boolean()),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (args, { home }) => {
    const keep = new Set(args.keep_on ?? []);
    for (const id of keep) if (!home.has(id)) throw home.unknownEntity(id);
    const lights = home
      .states('light')
      .filter((s) => s.state === 'on' && !keep.has(s.entity_id))
      .map((s) => s.entity_id);
    const locks = home
      .states('lock')
      .filter((s) => s.state === 'unlocked')
      .map((s) => s.entity_id);
    const dry_run = args.dry_run === true;
    const done: Record<string, { entity_id: string; state: string | null }[]> = { lights_off: [], locked: [] };
    // One act per kind: the checkpoint sees each as one batch, all allowed or none.
    for (const [key, domain, service, ids] of [
      ['lights_off', 'light', 'turn_off', lights],
      ['locked', 'lock', 'lock', locks],
    ] as const) {
      if (!ids.length) continue;
      const result = await home.act({ domain, service, entity_id: [...ids], dry_run });
      if (result.isError) return result;
      done[key] = outcome(result);
    }
    const open = stillOpen(home).map((s) => ({ entity_id: s.entity_id, name: nameOf(s), state: s.state }));
    const verb = dry_run ? 'Would turn off' : 'Turned off';
    const lines = [
      `${verb} ${done.lights_off!.length} light(s)${keep.size ? `, keeping ${[...keep].join(', ')}` : ''}.`,
      `${dry_run ? 'Would lock' : 'Locked'} ${done.locked!.length} lock(s).`,
      open.length ? `Still open: ${open.map((o) => o.name).join(', ')}.` : 'Nothing is open.',
    ];
    return { ...text(lines.join(' ')), structuredContent: { dry_run, lights_off: done.lights_off!, locked: done.locked!, still_open: open } };
  },
});

export default definePlugin({
  name: 'good_night',
  version: '1.0.0',
  bridge: '^0.2.0',
  description: 'Puts the home to bed: lights off, locks locked, and what is still open.',
  needs: ['home'],
  domains: ['light', 'lock'],
  tools: [goodNight],
});
