// Alarm panels: arm in each mode, disarm (disarming needs the person's confirmation), with code.
import { actOutput, confirmField, definePlugin, targetFields, tool, v } from 'home-mcp-bridge/plugin';

export default definePlugin({
  name: 'alarm',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Arm and disarm alarm panels.',
  needs: ['home'],
  domains: ['alarm_control_panel'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_alarm',
      title: 'Arm or disarm the alarm',
      description:
        'Alarm panels: arm_home, arm_away, arm_night, arm_vacation, or disarm, with the code where the panel asks for one. Disarm needs confirm: true after asking the person.',
      input: v.object({
        ...targetFields('alarm_control_panel'),
        ...confirmField,
        command: v.picklist(['arm_home', 'arm_away', 'arm_night', 'arm_vacation', 'disarm']),
        code: v.optional(v.pipe(v.string(), v.maxLength(32))),
      }),
      output: actOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: (args, { home }) =>
        home.act({
          domain: 'alarm_control_panel',
          service: `alarm_${args.command}`,
          data: args.code !== undefined ? { code: args.code } : {},
          entity_id: args.entity_id,
          area: args.area,
          dry_run: args.dry_run,
          confirm: args.confirm,
        }),
    }),
  ],
});
