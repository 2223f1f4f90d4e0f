// Notifications: to a notify entity (notify.send_message, Home Assistant 2024.5 on), through a
// legacy notify service (notify.notify, notify.mobile_app_phone), or as a persistent notification
// in Home Assistant's own UI. With no target named, the one the hub leaves no doubt about: its
// notify.notify, else its only notify entity; when there are several, the person is asked which
// (a client that cannot ask gets AMBIGUOUS with the candidates), and nothing is sent before.
import { definePlugin, type Home, PluginError, tool, v } from 'home-mcp-bridge/plugin';

/** NotifyEntityFeature.TITLE: the entity takes a title. */
const TITLE = 1;

/** What the hub offers to notify through: its notify entities and its legacy notify services. */
function targets(home: Home): { entities: string[]; services: string[] } {
  const services = Object.keys(home.services('notify')).filter((s) => s !== 'send_message' && s !== 'persistent_notification');
  const entities = home.services('notify').send_message ? home.states('notify').map((s) => s.entity_id) : [];
  return { entities: entities.sort(), services: services.sort() };
}

const listed = (t: { entities: string[]; services: string[] }) =>
  [t.entities.length ? `notify entities: ${t.entities.join(', ')}` : '', t.services.length ? `notify services: ${t.services.join(', ')}` : '']
    .filter(Boolean)
    .join('; ') || 'none';

export default definePlugin({
  name: 'notify',
  version: '0.3.0',
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
      description:
        'Send a message (with an optional title) to a notify entity (entity_id, e.g. notify.phone), through a notify service of the hub (service, e.g. mobile_app_phone), or show it in Home Assistant itself with persistent: true. Without one, the hub’s notify.notify, else its only notify entity; with several, the answer lists them to choose from.',
      input: v.object({
        message: v.pipe(v.string(), v.nonEmpty(), v.maxLength(4000)),
        title: v.optional(v.pipe(v.string(), v.maxLength(200))),
        entity_id: v.optional(v.pipe(v.string(), v.regex(/^notify\.[a-z0-9_]+$/, 'must be a notify entity such as notify.phone'))),
        service: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9_]+$/, 'must be a notify service name such as mobile_app_phone'))),
        persistent: v.optional(v.boolean()),
        dry_run: v.optional(v.boolean()),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      run: async (args, { home, client }) => {
        const named = [args.entity_id && 'entity_id', args.service && 'service', args.persistent && 'persistent'].filter(Boolean);
        if (named.length > 1)
          throw new PluginError(`Give one of entity_id, service or persistent, not ${named.join(' and ')}.`, { field: named[1] }, 'INVALID_PARAMETERS');
        const data = { message: args.message, ...(args.title ? { title: args.title } : {}) };
        const send = async (call: Parameters<Home['call']>[0]) => {
          const answer = await home.call(call, { dry_run: args.dry_run });
          const to = call.target?.entity_id ? `${answer.service} to ${String(call.target.entity_id)}` : answer.service;
          return {
            content: [{ type: 'text' as const, text: answer.dry_run ? `Would call ${to} with ${JSON.stringify(answer.data)}.` : `Sent through ${to}.` }],
          };
        };
        const toEntity = (entityId: string) => {
          // A title goes only to an entity that takes one (the hub would drop it without a word).
          const titled = (Number(home.state(entityId)?.attributes.supported_features ?? 0) & TITLE) !== 0;
          if (args.title && !titled)
            throw new PluginError(`${entityId} takes no title; send the message without one.`, { field: 'title', entity_id: entityId }, 'INVALID_PARAMETERS');
          return send({ domain: 'notify', service: 'send_message', data, target: { entity_id: entityId } });
        };

        if (args.persistent) return send({ domain: 'persistent_notification', service: 'create', data });
        const known = targets(home);
        if (args.entity_id) {
          if (!home.services('notify').send_message) {
            throw new PluginError(
              `This Home Assistant has no notify entities (notify.send_message came in 2024.5); ${listed(known)}`,
              { ...known, field: 'entity_id' },
              'INVALID_ACTION',
            );
          }
          if (!home.has(args.entity_id)) throw home.unknownEntity(args.entity_id);
          return toEntity(args.entity_id);
        }
        if (args.service) {
          if (!known.services.includes(args.service)) {
            throw new PluginError(
              `The hub has no notify.${args.service}; ${listed(known)}`,
              { ...known, available_services: known.services, field: 'service' },
              'INVALID_ACTION',
            );
          }
          return send({ domain: 'notify', service: args.service, data });
        }
        // Nothing named: only a target the hub leaves no doubt about.
        if (known.services.includes('notify')) return send({ domain: 'notify', service: 'notify', data });
        if (known.entities.length === 1) return toEntity(known.entities[0]!);
        if (known.entities.length > 1) {
          const question = `Which one should get the message? ${listed(known)}.`;
          const candidates = known.entities.map((id) => ({
            entity_id: id,
            name: String(home.state(id)?.attributes.friendly_name ?? id),
            area: home.areaOf(id)?.name ?? null,
          }));
          if (!client.can('elicitation'))
            throw new PluginError(`${question} Name entity_id (or service).`, { ...known, field: 'entity_id', candidates }, 'AMBIGUOUS');
          const pick = await client.choose(
            question,
            candidates.map((c) => ({ value: c.entity_id, label: c.area ? `${c.name} (${c.area})` : c.name })),
          );
          if (pick === undefined)
            throw new PluginError(
              `No notify entity was chosen; nothing was sent. ${question}`,
              { ...known, field: 'entity_id', candidates, declined: true },
              'AMBIGUOUS',
            );
          return toEntity(pick);
        }
        throw new PluginError(
          `The hub has no notify.notify and no notify entity; ${listed(known)}`,
          { ...known, available_services: known.services },
          'INVALID_ACTION',
        );
      },
    }),
  ],
});
