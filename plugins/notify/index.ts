// Notifications: through a notify service of the hub, or as a persistent notification in its UI.
import { AppError, definePlugin, toolsWith, v } from '../../src/plugins/api.js';

const needs = ['hub', 'actions', 'guard'] as const;
const tool = toolsWith(needs);

export default definePlugin({
  name: 'notify',
  version: '0.1.0',
  description: 'Send notifications through Home Assistant.',
  needs,
  domains: ['notify', 'persistent_notification'],
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
      run: async (args, { services: { actions, guard, hub } }) => {
        const domain = args.persistent ? 'persistent_notification' : 'notify';
        const service = args.persistent ? 'create' : (args.service ?? 'notify');
        if (!hub.services[domain]?.[service]) {
          const known = Object.keys(hub.services.notify ?? {}).sort();
          throw new AppError('INVALID_ACTION', 400, `The hub has no ${domain}.${service}; notify services: ${known.join(', ') || 'none'}`, { available_services: known });
        }
        guard.checkWrite(`sending a notification`);
        const data = { message: args.message, ...(args.title ? { title: args.title } : {}) };
        const plan = actions.planCall({ domain, service, data });
        if (args.dry_run) return { content: [{ type: 'text', text: `Would call ${domain}.${service} with ${JSON.stringify(plan.data)}.` }] };
        await actions.runCall(plan);
        return { content: [{ type: 'text', text: `Sent through ${domain}.${service}.` }] };
      },
    }),
  ],
});
