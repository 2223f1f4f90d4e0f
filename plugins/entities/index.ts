// Every other kind of entity (switch, input_number, select, siren, valve, water heater, lawn mower,
// update, ...): one tool that acts on one entity with a service its domain really has. The services
// and their fields come from the hub (home.services), never from a list here, so a domain a new
// Home Assistant adds is served the day it appears. Reading goes through search_entities and
// describe_entity, which show any entity and the actions it supports.
import { checkServiceFields, definePlugin, PluginError, serviceFields, tool, v } from 'home-mcp-bridge/plugin';

const ID = /^[a-z0-9_]+\.[a-z0-9_]+$/;

export default definePlugin({
  name: 'entities',
  version: '0.1.0',
  bridge: '^0.2.0',
  description: 'Act on any entity with a service its domain offers (switches, helpers, numbers, selects, sirens, valves, water heaters, mowers, updates, ...).',
  needs: ['home'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_entity',
      title: 'Control any entity',
      description:
        "Call a service of an entity's own domain on it (switch, input_*, number, select, siren, valve, water_heater, lawn_mower, update, ...); describe_entity lists its services, data holds their fields.",
      input: v.object({
        entity_id: v.pipe(v.string(), v.regex(ID, 'must be an entity id such as switch.kettle')),
        service: v.pipe(v.string(), v.nonEmpty()),
        data: v.optional(v.record(v.string(), v.unknown())),
        dry_run: v.optional(v.boolean()),
        confirm: v.optional(v.boolean()),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      run: async (args, { home }) => {
        if (!home.has(args.entity_id)) throw home.unknownEntity(args.entity_id);
        const domain = args.entity_id.slice(0, args.entity_id.indexOf('.'));
        const services = home.services(domain);
        const names = Object.keys(services).sort();
        if (!names.length)
          throw new PluginError(
            `${domain} entities have no services: they are read, not controlled (describe_entity shows ${args.entity_id})`,
            {
              field: 'service',
              entity_id: args.entity_id,
              available_services: [],
            },
            'INVALID_ACTION',
          );
        const info = services[args.service];
        const supported = home.supportedActions(args.entity_id).filter((s) => services[s]?.target !== undefined);
        if (!info?.target) {
          const why = info ? `${domain}.${args.service} acts on no entity` : `${domain} has no service ${args.service}`;
          throw new PluginError(
            `${why}; ${args.entity_id} supports: ${supported.join(', ') || 'nothing'}`,
            {
              field: 'service',
              entity_id: args.entity_id,
              available_services: supported,
            },
            'INVALID_ACTION',
          );
        }
        const data = args.data ?? {};
        const what = `${domain}.${args.service}`;
        checkServiceFields(what, info, data);
        const answer = await home.call(
          { domain, service: args.service, data, target: { entity_id: args.entity_id } },
          { dry_run: args.dry_run, confirm: args.confirm },
        );
        const after = answer.entities.map((e) => `${e.entity_id}: ${e.state ?? 'unknown'}${e.verified === false ? ' (not as asked)' : ''}`);
        const response = answer.response !== undefined ? `\nResponse: ${JSON.stringify(answer.response).slice(0, 4000)}` : '';
        const text = answer.dry_run
          ? `Would call ${what} on ${args.entity_id}${Object.keys(answer.data).length ? ` with ${JSON.stringify(answer.data)}` : ''}.`
          : `${what} done.\n${after.join('\n')}${response}`;
        return {
          content: [{ type: 'text', text }],
          structuredContent: { ...answer, fields: serviceFields(info) },
        };
      },
    }),
  ],
});
