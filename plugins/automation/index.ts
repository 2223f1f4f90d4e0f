// Automations, scripts and scenes of Home Assistant, and the bridge's own scenes and groups.
import { act, actOutput, AppError, commandFields, commandResult, confirmField, definePlugin, resourcesWith, toolsWith, v } from '../../src/plugins/api.js';

const needs = ['hub', 'actions', 'guard', 'scenes', 'groups', 'commands'] as const;
const tool = toolsWith(needs);
const resource = resourcesWith(needs);

const listing = (uri: string, data: unknown, entities: string[]) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }], entities });

const resources = [
  resource({
    uri: 'home://automations',
    name: 'Automations and scripts',
    description: 'Home Assistant’s automations (enabled or not, last triggered) and scripts.',
    mimeType: 'application/json',
    read: (_p, { services: { hub, guard } }) => {
      const of = (domain: string) => [...hub.cache.all()].filter((s) => s.entity_id.startsWith(`${domain}.`) && guard.maySee(s.entity_id));
      const automations = of('automation').map((s) => ({ entity_id: s.entity_id, name: s.attributes.friendly_name ?? s.entity_id, enabled: s.state === 'on', last_triggered: s.attributes.last_triggered ?? null }));
      const scripts = of('script').map((s) => ({ entity_id: s.entity_id, name: s.attributes.friendly_name ?? s.entity_id, running: s.state === 'on' }));
      return listing('home://automations', { automations, scripts }, [...automations, ...scripts].map((x) => x.entity_id));
    },
  }),
  resource({
    uri: 'home://scenes',
    name: 'Scenes',
    description: 'Home Assistant’s scenes and the scenes this bridge keeps (with what each does).',
    mimeType: 'application/json',
    read: (_p, { services: { hub, scenes, guard } }) => {
      const hubScenes = [...hub.cache.all()].filter((s) => s.entity_id.startsWith('scene.') && guard.maySee(s.entity_id)).map((s) => ({ entity_id: s.entity_id, name: s.attributes.friendly_name ?? s.entity_id }));
      const bridge = scenes.list().map((x) => ({ id: x.id, name: x.name, description: x.description, entities: [...new Set(x.actions.map((a) => a.entity_id))] }));
      return listing('home://scenes', { home_assistant: hubScenes, bridge }, [...hubScenes.map((x) => x.entity_id), ...bridge.flatMap((x) => x.entities)]);
    },
  }),
];

const runnable = v.pipe(v.string(), v.regex(/^(automation|script|scene)\.[a-z0-9_]+$/, 'must be an automation., script. or scene. entity id'));
const name = v.pipe(v.string(), v.nonEmpty(), v.maxLength(100));

const run = tool({
  name: 'run_automation',
  title: 'Run automations, scripts and scenes',
  description: 'Home Assistant’s own: run a script, activate a scene, trigger an automation (command run), or enable / disable an automation. entity_id is automation.*, script.* or scene.*.',
  input: v.object({ entity_id: runnable, command: v.optional(v.picklist(['run', 'enable', 'disable']), 'run'), dry_run: v.optional(v.boolean()) }),
  output: actOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (args, { services }) => {
    const domain = args.entity_id.slice(0, args.entity_id.indexOf('.'));
    if (args.command !== 'run' && domain !== 'automation') throw new AppError('INVALID_ACTION', 400, `${args.command} is for automations; ${domain} entities are only run`, { field: 'command' });
    const service = args.command === 'enable' ? 'turn_on' : args.command === 'disable' ? 'turn_off' : domain === 'automation' ? 'trigger' : 'turn_on';
    return act(services, { domain, service, entity_id: args.entity_id, dry_run: args.dry_run });
  },
});

const bridge = tool({
  name: 'bridge_scenes',
  title: 'The bridge’s scenes and groups',
  description:
    'Scenes and groups this bridge keeps: list_scenes, activate_scene (name), capture_scene (name, entities: store their current states as a scene), list_groups, control_group (name, action such as turn_off). Actions that need it take confirm: true.',
  input: v.object({
    command: v.picklist(['list_scenes', 'activate_scene', 'capture_scene', 'list_groups', 'control_group']),
    name: v.optional(name),
    entities: v.optional(v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(500))),
    action: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(64))),
    ...confirmField,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (args, { services: { scenes, groups, guard, hub }, principal }) => {
    const need = <K extends 'name' | 'entities' | 'action'>(field: K): NonNullable<(typeof args)[K]> => {
      const value = args[field];
      if (value === undefined) throw new AppError('INVALID_PARAMETERS', 400, `${args.command} needs ${field}`, { field });
      return value as NonNullable<(typeof args)[K]>;
    };
    const json = (text: string, data: Record<string, unknown>) => ({ content: [{ type: 'text' as const, text }], structuredContent: data });
    switch (args.command) {
      case 'list_scenes': {
        const list = scenes.list().map((s) => ({ id: s.id, name: s.name, description: s.description, actions: s.actions.length }));
        return json(list.map((s) => `${s.name} (${s.id}): ${s.actions} actions`).join('\n') || 'No scenes yet.', { scenes: list });
      }
      case 'list_groups': {
        const list = groups.list().map((g) => ({ id: g.id, name: g.name, entities: g.entities }));
        return json(list.map((g) => `${g.name} (${g.id}): ${g.entities.join(', ')}`).join('\n') || 'No groups yet.', { groups: list });
      }
      case 'activate_scene': {
        const scene = scenes.get(need('name'), 'name');
        guard.check(scene.actions.map((a) => ({ entity_id: a.entity_id, service: a.action, data: a.parameters, state: hub.cache.get(a.entity_id) })), { confirm: args.confirm });
        const r = await scenes.activate(scene.id, principal, 'name');
        return json(`Scene ${r.name}: ${r.results.filter((x) => x.status === 'completed').length} of ${r.results.length} actions done.`, { ...r });
      }
      case 'capture_scene': {
        guard.checkWrite('storing a scene');
        const { scene, created } = scenes.capture({ name: need('name'), entities: need('entities') });
        return json(`${created ? 'Stored' : 'Replaced'} scene ${scene.name} (${scene.id}) with ${scene.actions.length} actions.`, { scene });
      }
      case 'control_group': {
        const view = groups.view(need('name'));
        const action = need('action');
        guard.check(view.expanded_entities.map((entity_id) => ({ entity_id, service: action, data: {}, state: hub.cache.get(entity_id) })), { confirm: args.confirm });
        const r = await groups.control(view.id, { action });
        return json(`Group ${r.group}: ${r.results.filter((x) => x.status === 'completed').length} of ${r.results.length} done.`, { ...r });
      }
    }
  },
});

// The bridge's own command parser, for assistants without a language model of their own.
const command = tool({
  name: 'command',
  title: 'Run a command in plain words',
  description:
    'Run a plain-language command or question about the home ("turn off the kitchen lights", "is the front door locked?"). context.area is the room the speaker is in ("here", "the lights"). dry_run plans without acting. Unlocking, disarming and opening garage doors need confirm: true. Ambiguous commands act on nothing and list the candidates.',
  input: v.object(commandFields),
  output: commandResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (args, { services: { commands }, principal }) => {
    const r = await commands.runCommand(args, principal);
    return { content: [{ type: 'text', text: r.message }], structuredContent: { ...r }, ...(r.success ? {} : { isError: true }) };
  },
});

export default definePlugin({
  name: 'automation',
  version: '0.1.0',
  description: 'Run automations, scripts and scenes; the bridge’s own scenes and groups.',
  needs,
  domains: ['automation', 'script', 'scene'],
  tools: [run, bridge, command],
  resources,
});
