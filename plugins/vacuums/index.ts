// Vacuums: start, pause, stop, return to the dock, locate, spot clean, fan speed.
import { actOutput, definePlugin, misplaced, targetFields, text, tool, v } from 'home-mcp-bridge/plugin';

export default definePlugin({
  name: 'vacuums',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Start, pause and dock robot vacuums; set their suction.',
  needs: ['home'],
  domains: ['vacuum'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_vacuums',
      title: 'Control vacuums',
      description: 'Vacuums: start, pause, stop, return_to_base (dock), locate, clean_spot, or set_fan_speed with fan_speed (one the vacuum lists).',
      input: v.object({
        ...targetFields('vacuum'),
        command: v.picklist(['start', 'pause', 'stop', 'return_to_base', 'locate', 'clean_spot', 'set_fan_speed']),
        fan_speed: v.optional(v.pipe(v.string(), v.maxLength(64))),
      }),
      output: actOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (args, { home }) => {
        const wrong = misplaced(args, args.command, { fan_speed: ['set_fan_speed'] });
        if (wrong) return wrong;
        if (args.command === 'set_fan_speed' && args.fan_speed === undefined) return text('set_fan_speed needs fan_speed.', true);
        const data = args.command === 'set_fan_speed' ? { fan_speed: args.fan_speed } : {};
        return home.act({ domain: 'vacuum', service: args.command, data, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run });
      },
    }),
  ],
});
