// Covers (blinds, shades, curtains, garage doors, gates): open, close, stop, position, tilt.
import { actOutput, confirmField, definePlugin, homeApp, misplaced, targetFields, text, tool, v } from 'home-mcp-bridge/plugin';
import type { EntityState, ToolResult } from 'home-mcp-bridge/plugin';

const pct = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100));
const SERVICE = {
  open: 'open_cover',
  close: 'close_cover',
  stop: 'stop_cover',
  set_position: 'set_cover_position',
  set_tilt: 'set_cover_tilt_position',
} as const;

/** How long a travel may take before the call stops waiting (a garage door takes ~20 s, a long blind a minute). */
const TRAVEL_MS = 3 * 60_000;
const travelling = (s: EntityState | undefined) => s?.state === 'opening' || s?.state === 'closing';
const where = (s: EntityState | undefined) =>
  s ? `${s.entity_id} ${s.state}${typeof s.attributes.current_position === 'number' ? ` at ${s.attributes.current_position}%` : ''}` : '';
const idsOf = (r: ToolResult) => ((r.structuredContent as { entities?: { entity_id: string }[] } | undefined)?.entities ?? []).map((e) => e.entity_id);

export default definePlugin({
  name: 'covers',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Open, close, stop and position blinds, shades, curtains, garage doors and gates.',
  needs: ['home'],
  domains: ['cover'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_covers',
      core: true,
      ui: homeApp,
      title: 'Control covers',
      description:
        'Open, close or stop covers (blinds, curtains, garage doors, gates), or set_position / set_tilt 0-100 (100 is open). Opening a garage door or gate needs confirm: true.',
      input: v.object({
        ...targetFields('cover'),
        ...confirmField,
        command: v.picklist(['open', 'close', 'stop', 'set_position', 'set_tilt']),
        position: v.optional(pct),
      }),
      output: actOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      task: 'optional',
      run: async (args, { home, client }) => {
        const wrong = misplaced(args, args.command, { position: ['set_position', 'set_tilt'] });
        if (wrong) return wrong;
        const service = SERVICE[args.command];
        const moving = args.command === 'set_position' || args.command === 'set_tilt';
        if (moving && args.position === undefined) return text(`${args.command} needs position (0-100).`, true);
        const data = args.command === 'set_position' ? { position: args.position } : args.command === 'set_tilt' ? { tilt_position: args.position } : {};
        const done = await home.act({
          domain: 'cover',
          service,
          data,
          entity_id: args.entity_id,
          area: args.area,
          dry_run: args.dry_run,
          confirm: args.confirm,
        });
        if (args.dry_run || done.isError || args.command === 'stop') return done;
        // The travel: a task for a client that can follow one; cancelling it stops the covers.
        const ids = idsOf(done);
        // A caller that cannot follow a task has its answer once the covers move, as before.
        if (!ids.some((id) => travelling(home.state(id))) || !client.background()) return done;
        const arrived = await home.waitFor(ids, (states) => !states.some(travelling), {
          timeoutMs: TRAVEL_MS,
          signal: client.signal,
          changed: (states) => void client.progress(states.filter((s) => !travelling(s)).length, ids.length, states.map(where).join(', ')),
        });
        if (client.signal.aborted) {
          await home.act({ domain: 'cover', service: 'stop_cover', entity_id: ids });
          return text(`Stopped on the way: ${ids.map((id) => where(home.state(id))).join(', ')}`);
        }
        const now = ids.map((id) => where(home.state(id))).join(', ');
        return arrived
          ? { ...done, content: [{ type: 'text', text: `Arrived: ${now}` }] }
          : text(`Still moving after ${TRAVEL_MS / 60_000} minutes: ${now}`, true);
      },
    }),
  ],
});
