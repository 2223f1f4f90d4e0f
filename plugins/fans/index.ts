// Fans: on, off, speed, preset, oscillation and direction.
import { actOutput, definePlugin, misplaced, targetFields, text, tool, v } from 'home-mcp-bridge/plugin';

export default definePlugin({
  name: 'fans',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Turn fans on and off, set their speed, preset, oscillation and direction.',
  needs: ['home'],
  domains: ['fan'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_fans',
      title: 'Control fans',
      description:
        'Fans: command on, off or toggle; set_speed with percentage 0-100; set_preset with preset_mode (one the fan lists); oscillate with oscillating; set_direction forward or reverse.',
      input: v.object({
        ...targetFields('fan'),
        command: v.picklist(['on', 'off', 'toggle', 'set_speed', 'set_preset', 'oscillate', 'set_direction']),
        percentage: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100))),
        preset_mode: v.optional(v.pipe(v.string(), v.maxLength(64))),
        oscillating: v.optional(v.boolean()),
        direction: v.optional(v.picklist(['forward', 'reverse'])),
      }),
      output: actOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (args, { home }) => {
        const wrong = misplaced(args, args.command, {
          percentage: ['set_speed'],
          preset_mode: ['set_preset'],
          oscillating: ['oscillate'],
          direction: ['set_direction'],
        });
        if (wrong) return wrong;
        const need = { set_speed: 'percentage', set_preset: 'preset_mode', oscillate: 'oscillating', set_direction: 'direction' } as const;
        const field = need[args.command as keyof typeof need];
        if (field && args[field] === undefined) return text(`${args.command} needs ${field}.`, true);
        const plan: Record<typeof args.command, [string, Record<string, unknown>]> = {
          on: ['turn_on', {}],
          off: ['turn_off', {}],
          toggle: ['toggle', {}],
          set_speed: ['set_percentage', { percentage: args.percentage }],
          set_preset: ['set_preset_mode', { preset_mode: args.preset_mode }],
          oscillate: ['oscillate', { oscillating: args.oscillating }],
          set_direction: ['set_direction', { direction: args.direction }],
        };
        const [service, data] = plan[args.command];
        return home.act({ domain: 'fan', service, data, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run });
      },
    }),
  ],
});
