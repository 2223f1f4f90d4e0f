// Locks: lock, unlock, open (unlocking and opening need the person's confirmation).
import { actOutput, confirmField, definePlugin, targetFields, tool, v } from 'home-mcp-bridge/plugin';

export default definePlugin({
  name: 'locks',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Lock, unlock and open locks.',
  needs: ['home'],
  domains: ['lock'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_locks',
      core: true,
      title: 'Control locks',
      description: 'Lock, unlock or open (unlatch) locks, with a code where the lock asks for one. Unlock and open need confirm: true after asking the person.',
      input: v.object({
        ...targetFields('lock'),
        ...confirmField,
        command: v.picklist(['lock', 'unlock', 'open']),
        code: v.optional(v.pipe(v.string(), v.maxLength(32))),
      }),
      output: actOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: (args, { home }) =>
        home.act({
          domain: 'lock',
          service: args.command,
          data: args.code !== undefined ? { code: args.code } : {},
          entity_id: args.entity_id,
          area: args.area,
          dry_run: args.dry_run,
          confirm: args.confirm,
        }),
    }),
  ],
});
