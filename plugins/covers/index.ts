// Covers (blinds, shades, curtains, garage doors, gates): open, close, stop, position, tilt.
import { actOutput, confirmField, definePlugin, homeApp, misplaced, targetFields, text, tool, v } from 'home-mcp-bridge/plugin';

const pct = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100));
const SERVICE = {
  open: 'open_cover',
  close: 'close_cover',
  stop: 'stop_cover',
  set_position: 'set_cover_position',
  set_tilt: 'set_cover_tilt_position',
} as const;

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
      run: (args, { home }) => {
        const wrong = misplaced(args, args.command, { position: ['set_position', 'set_tilt'] });
        if (wrong) return wrong;
        const service = SERVICE[args.command];
        const moving = args.command === 'set_position' || args.command === 'set_tilt';
        if (moving && args.position === undefined) return text(`${args.command} needs position (0-100).`, true);
        const data = args.command === 'set_position' ? { position: args.position } : args.command === 'set_tilt' ? { tilt_position: args.position } : {};
        return home.act({ domain: 'cover', service, data, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run, confirm: args.confirm });
      },
    }),
  ],
});
