// Home Assistant's own automations, scripts and scenes: run, trigger, enable and disable them.
import { actOutput, definePlugin, PluginError, resource, tool, v } from 'home-mcp-bridge/plugin';

const runnable = v.pipe(v.string(), v.regex(/^(automation|script|scene)\.[a-z0-9_]+$/, 'must be an automation., script. or scene. entity id'));

const automations = resource({
  uri: 'home://automations',
  name: 'Automations and scripts',
  description: 'Home Assistant’s automations (enabled or not, last triggered) and scripts.',
  mimeType: 'application/json',
  read: (_p, { home }) => {
    const automations = home.states('automation').map((s) => ({
      entity_id: s.entity_id,
      name: s.attributes.friendly_name ?? s.entity_id,
      enabled: s.state === 'on',
      last_triggered: s.attributes.last_triggered ?? null,
    }));
    const scripts = home.states('script').map((s) => ({ entity_id: s.entity_id, name: s.attributes.friendly_name ?? s.entity_id, running: s.state === 'on' }));
    return {
      contents: [{ uri: 'home://automations', mimeType: 'application/json', text: JSON.stringify({ automations, scripts }) }],
      entities: [...automations, ...scripts].map((x) => x.entity_id),
    };
  },
});

const run = tool({
  name: 'run_automation',
  title: 'Run automations, scripts and scenes',
  description:
    'Home Assistant’s own: run a script, activate a scene, trigger an automation (command run), or enable / disable an automation. entity_id is automation.*, script.* or scene.*.',
  input: v.object({ entity_id: runnable, command: v.optional(v.picklist(['run', 'enable', 'disable']), 'run'), dry_run: v.optional(v.boolean()) }),
  output: actOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (args, { home }) => {
    const domain = args.entity_id.slice(0, args.entity_id.indexOf('.'));
    if (args.command !== 'run' && domain !== 'automation')
      throw new PluginError(`${args.command} is for automations; ${domain} entities are only run`, { field: 'command' }, 'INVALID_ACTION');
    const service = args.command === 'enable' ? 'turn_on' : args.command === 'disable' ? 'turn_off' : domain === 'automation' ? 'trigger' : 'turn_on';
    return home.act({ domain, service, entity_id: args.entity_id, dry_run: args.dry_run });
  },
});

export default definePlugin({
  name: 'automation',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Run Home Assistant’s automations, scripts and scenes.',
  needs: ['home'],
  domains: ['automation', 'script', 'scene'],
  tools: [run],
  resources: [automations],
});
