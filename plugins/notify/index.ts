// Notifications: through a notify service of the hub, or as a persistent notification in its UI.
import { definePlugin, PluginError, tool, v } from 'home-mcp-bridge/plugin';

export default definePlugin({
  name: 'notify',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Send notifications through Home Assistant.',
  needs: ['home'],
  domains: ['notify', 'persistent_notification'],
  // Notify services need no entity (notify.mobile_app_phone): offered while the hub has them.
  available: (home) => Object.keys(home.services('notify')).length > 0 || Object.keys(home.services('persistent_notification')).length > 0,
  tools: [
    tool({
      name: 'send_notification',
      title: 'Send a notification',
      description: 'Send a message (with an optional title) through a notify service of the hub (default notify.notify; the names are the hub’s, e.g. mobile_app_phone), or show it in Home Assistant itself with persistent: true.',
      input: v.object({
        message: v.pipe(v.string(), v.nonEmpty(), v.maxLength(4000)),
        title: v.optional(v.pipe(v.string(), v.maxLength(200))),
        service: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9_]+$/, 'must be a notify service name such as mobile_app_phone'))),
        persistent: v.optional(v.boolean()),
        dry_run: v.optional(v.boolean()),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      run: async (args, { home }) => {
        const domain = args.persistent ? 'persistent_notification' : 'notify';
        const service = args.persistent ? 'create' : (args.service ?? 'notify');
        if (!home.services(domain)[service]) {
          const known = Object.keys(home.services('notify')).sort();
          throw new PluginError(`The hub has no ${domain}.${service}; notify services: ${known.join(', ') || 'none'}`, { available_services: known }, 'INVALID_ACTION');
        }
        const answer = await home.call({ domain, service, data: { message: args.message, ...(args.title ? { title: args.title } : {}) } }, { dry_run: args.dry_run });
        return { content: [{ type: 'text', text: answer.dry_run ? `Would call ${answer.service} with ${JSON.stringify(answer.data)}.` : `Sent through ${answer.service}.` }] };
      },
    }),
  ],
});
