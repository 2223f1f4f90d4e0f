// What no dedicated tool covers: a service call as Home Assistant takes it (any domain, a target of
// entities, devices, areas, floors or labels, the service's response), and firing an event. Both
// act through the bridge's one checkpoint, which judges what the call will do (a script's steps, a
// group's members, homeassistant.turn_on's targets), so this is no way around any rule; Home
// Assistant's own event types are refused.
import { checkServiceFields, definePlugin, PluginError, tool, v } from 'home-mcp-bridge/plugin';

const ONLY: Record<string, readonly string[]> = {
  domain: ['call'],
  service: ['call'],
  target: ['call'],
  data: ['call'],
  return_response: ['call'],
  event_type: ['fire_event'],
  event_data: ['fire_event'],
};

export default definePlugin({
  name: 'services',
  version: '0.1.0',
  bridge: '^0.2.0',
  description: "Call any Home Assistant service (with its response data), or fire an event, through the bridge's rules.",
  needs: ['home'],
  tools: [
    tool({
      name: 'call_service',
      title: 'Call a service or fire an event',
      description:
        'Any service or event, for what no other tool covers. call: domain, service, target (entity_id, device_id, area_id, floor_id or label_id: an id or a list), data, return_response. fire_event: event_type, event_data.',
      // Kept lean for the tool list: the executor checks each value and names what it takes.
      input: v.object({
        operation: v.picklist(['call', 'fire_event']),
        domain: v.optional(v.string()),
        service: v.optional(v.string()),
        target: v.optional(v.record(v.string(), v.unknown())),
        data: v.optional(v.record(v.string(), v.unknown())),
        return_response: v.optional(v.boolean()),
        event_type: v.optional(v.string()),
        event_data: v.optional(v.record(v.string(), v.unknown())),
        dry_run: v.optional(v.boolean()),
        confirm: v.optional(v.boolean()),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      run: async (args, { home }) => {
        for (const [field, ops] of Object.entries(ONLY)) {
          if ((args as Record<string, unknown>)[field] !== undefined && !ops.includes(args.operation))
            throw new PluginError(`${field} goes with operation ${ops.join(' or ')}, not ${args.operation}`, { field });
        }
        const opts = { dry_run: args.dry_run, confirm: args.confirm };
        if (args.operation === 'fire_event') {
          if (!args.event_type) throw new PluginError('fire_event needs event_type', { field: 'event_type' });
          const done = await home.fireEvent({ event_type: args.event_type, event_data: args.event_data ?? {} }, opts);
          return {
            content: [{ type: 'text', text: done.dry_run ? `Would fire ${done.event_type}.` : `Fired ${done.event_type}.` }],
            structuredContent: { ...done },
          };
        }
        if (!args.domain || !args.service) throw new PluginError('call needs domain and service', { field: args.domain ? 'service' : 'domain' });
        const services = home.services(args.domain);
        const info = services[args.service];
        if (!info) {
          const names = Object.keys(services).sort();
          throw new PluginError(
            names.length
              ? `${args.domain}.${args.service} is not a service; ${args.domain} has: ${names.join(', ')}`
              : `The hub has no services in the domain ${args.domain}`,
            { field: 'service', available_services: names },
            'INVALID_ACTION',
          );
        }
        const what = `${args.domain}.${args.service}`;
        const data = args.data ?? {};
        checkServiceFields(what, info, data);
        if (args.return_response && !info.response)
          throw new PluginError(`${what} gives no response data; call it without return_response`, { field: 'return_response' });
        const answer = await home.call(
          {
            domain: args.domain,
            service: args.service,
            data,
            ...(args.target ? { target: args.target } : {}),
            ...(args.return_response ? { return_response: true } : {}),
          },
          opts,
        );
        const on = answer.entities.length ? ` on ${answer.entities.map((e) => e.entity_id).join(', ')}` : '';
        const lines = answer.entities.map((e) => `${e.entity_id}: ${e.state ?? 'unknown'}`);
        const response = answer.response !== undefined ? `\nResponse: ${JSON.stringify(answer.response).slice(0, 8000)}` : '';
        return {
          content: [
            {
              type: 'text',
              text: answer.dry_run
                ? `Would call ${what}${on}${Object.keys(answer.data).length ? ` with ${JSON.stringify(answer.data)}` : ''}.`
                : `${what} done.${lines.length ? `\n${lines.join('\n')}` : ''}${response}`,
            },
          ],
          structuredContent: { ...answer },
        };
      },
    }),
  ],
});
