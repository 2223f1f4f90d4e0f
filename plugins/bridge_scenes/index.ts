// The bridge's own scenes and groups: list them, activate a scene, capture the current states of
// some entities as a scene, control a group. Home Assistant's own scenes are listed beside them.
import { data, definePlugin, PluginError, resource, tool, v } from 'home-mcp-bridge/plugin';

const name = v.pipe(v.string(), v.nonEmpty(), v.maxLength(100));

const scenes = resource({
  uri: 'home://scenes',
  name: 'Scenes',
  description: 'Home Assistant’s scenes and the scenes this bridge keeps (with what each does).',
  mimeType: 'application/json',
  read: (_p, { home, scenes }) => {
    const hubScenes = home.states('scene').map((s) => ({ entity_id: s.entity_id, name: s.attributes.friendly_name ?? s.entity_id }));
    const bridge = scenes
      .list()
      .map((x) => ({ id: x.id, name: x.name, description: x.description, entities: [...new Set(x.actions.map((a) => a.entity_id))] }));
    const text = JSON.stringify({ home_assistant: hubScenes, bridge });
    return {
      contents: [{ uri: 'home://scenes', mimeType: 'application/json', text }],
      entities: [...hubScenes.map((x) => x.entity_id), ...bridge.flatMap((x) => x.entities)],
    };
  },
});

const bridgeScenes = tool({
  name: 'bridge_scenes',
  title: 'The bridge’s scenes and groups',
  description:
    'Scenes and groups this bridge keeps: list_scenes, activate_scene (name), capture_scene (name, entities: store their current states as a scene), list_groups, control_group (name, action such as turn_off). Actions that need it take confirm: true.',
  input: v.object({
    command: v.picklist(['list_scenes', 'activate_scene', 'capture_scene', 'list_groups', 'control_group']),
    name: v.optional(name),
    entities: v.optional(v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(500))),
    action: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(64))),
    confirm: v.optional(v.boolean()),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (args, { scenes, groups }) => {
    const uses: Record<typeof args.command, readonly ('name' | 'entities' | 'action' | 'confirm')[]> = {
      list_scenes: [],
      list_groups: [],
      activate_scene: ['name', 'confirm'],
      capture_scene: ['name', 'entities'],
      control_group: ['name', 'action', 'confirm'],
    };
    const extra = (['name', 'entities', 'action', 'confirm'] as const).filter((f) => args[f] !== undefined && !uses[args.command].includes(f));
    if (extra.length)
      throw new PluginError(`${args.command} takes ${uses[args.command].join(', ') || 'nothing more'}; ${extra.join(', ')} would be ignored, so leave it out`, {
        field: extra[0],
      });
    const need = <K extends 'name' | 'entities' | 'action'>(field: K): NonNullable<(typeof args)[K]> => {
      const value = args[field];
      if (value === undefined) throw new PluginError(`${args.command} needs ${field}`, { field });
      return value as NonNullable<(typeof args)[K]>;
    };
    switch (args.command) {
      case 'list_scenes': {
        const list = scenes.list().map((s) => ({ id: s.id, name: s.name, description: s.description, actions: s.actions.length }));
        return data(list.map((s) => `${s.name} (${s.id}): ${s.actions} actions`).join('\n') || 'No scenes yet.', { scenes: list });
      }
      case 'list_groups': {
        const list = groups.list().map((g) => ({ id: g.id, name: g.name, entities: g.entities }));
        return data(list.map((g) => `${g.name} (${g.id}): ${g.entities.join(', ')}`).join('\n') || 'No groups yet.', { groups: list });
      }
      case 'activate_scene': {
        const r = await scenes.activate(need('name'), { confirm: args.confirm });
        return data(`Scene ${r.name}: ${r.results.filter((x) => x.status === 'completed').length} of ${r.results.length} actions done.`, { ...r });
      }
      case 'capture_scene': {
        const { scene, created } = scenes.capture({ name: need('name'), entities: need('entities') });
        return data(`${created ? 'Stored' : 'Replaced'} scene ${scene.name} (${scene.id}) with ${scene.actions.length} actions.`, { scene: { ...scene } });
      }
      case 'control_group': {
        const r = await groups.control(need('name'), { action: need('action') }, { confirm: args.confirm });
        return data(`Group ${r.group}: ${r.results.filter((x) => x.status === 'completed').length} of ${r.results.length} done.`, { ...r });
      }
    }
  },
});

export default definePlugin({
  name: 'bridge_scenes',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'The bridge’s own scenes and groups: list, activate, capture, control.',
  needs: ['home', 'scenes', 'groups'],
  tools: [bridgeScenes],
  resources: [scenes],
});
