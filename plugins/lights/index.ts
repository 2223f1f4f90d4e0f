// Lights: on, off and toggle by entity or area, with brightness (absolute or a step), colour
// temperature in kelvin, colours by name or RGB, effects and transitions. Every call can be a dry
// run; after a real one each light's new state says whether it shows what was asked.
import { AppError, definePlugin, text, toolsWith, v, type ToolResult } from '../../src/plugins/api.js';

const needs = ['hub', 'actions', 'guard'] as const;
const tool = toolsWith(needs);

const lightId = v.pipe(v.string(), v.regex(/^light\.[a-z0-9_]+$/, 'must be a light entity id such as light.kitchen'));
const pct = (min: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(100));

const controlLights = tool({
  name: 'control_lights',
  title: 'Control lights',
  description:
    'Turn lights on, off or toggle them, by entity id or by area (name or id). With power on, set brightness_pct (0-100) or brightness_step_pct (-100..100, e.g. -20 to dim), color_temp_kelvin (warm 2700, cool 6500), color_name (red, warm white, ...) or rgb_color, an effect the light lists, and a transition in seconds. dry_run: true shows what would happen without doing it. Answers each light with its new state and whether it matches.',
  input: v.object({
    entity_id: v.optional(v.union([lightId, v.pipe(v.array(lightId), v.minLength(1), v.maxLength(100))])),
    area: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
    power: v.optional(v.picklist(['on', 'off', 'toggle']), 'on'),
    brightness_pct: v.optional(pct(0)),
    brightness_step_pct: v.optional(pct(-100)),
    color_temp_kelvin: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(20000))),
    color_name: v.optional(v.pipe(v.string(), v.maxLength(40))),
    rgb_color: v.optional(v.tuple([v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255)), v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255)), v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255))])),
    effect: v.optional(v.pipe(v.string(), v.maxLength(64))),
    transition: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(300))),
    dry_run: v.optional(v.boolean(), false),
  }),
  output: v.object({
    service: v.string(),
    dry_run: v.boolean(),
    lights: v.array(
      v.object({
        entity_id: v.string(),
        state: v.nullable(v.string()),
        brightness: v.optional(v.nullable(v.number())),
        verified: v.optional(v.boolean()),
        pending: v.optional(v.boolean()),
      }),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (args, { services: { hub, actions, guard } }): Promise<ToolResult> => {
    if (!args.entity_id && !args.area) return text('Say which lights: give entity_id (one or a list) or area. The search_entities tool finds them.', true);
    const service = args.power === 'off' ? 'turn_off' : args.power === 'toggle' ? 'toggle' : 'turn_on';
    const data: Record<string, unknown> = {};
    if (args.transition !== undefined) data.transition = args.transition;
    if (service === 'turn_on') {
      for (const key of ['brightness_pct', 'brightness_step_pct', 'color_temp_kelvin', 'color_name', 'rgb_color', 'effect'] as const) {
        if (args[key] !== undefined) data[key] = args[key];
      }
    } else if (Object.keys(args).some((k) => ['brightness_pct', 'brightness_step_pct', 'color_temp_kelvin', 'color_name', 'rgb_color', 'effect'].includes(k))) {
      return text(`Brightness and colour go with power "on", not "${args.power}".`, true);
    }
    // An area is named as a person says it; the hub takes its id.
    const area = args.area && ([...hub.registries.areas.values()].find((a) => a.area_id === args.area || a.name.toLowerCase() === args.area!.toLowerCase())?.area_id ?? args.area);
    const target = { ...(args.entity_id ? { entity_id: args.entity_id } : {}), ...(area ? { area_id: area } : {}) };
    const plan = actions.planCall({ domain: 'light', service, data, target });
    const lights = plan.entity_ids.filter((id) => id.startsWith('light.'));
    if (!lights.length) throw new AppError('INVALID_ENTITY', 404, `No lights in ${args.area ?? 'that target'}`, { area: args.area ?? null });
    guard.check(lights.map((entity_id) => ({ entity_id, service, data: plan.data, state: hub.cache.get(entity_id) })));
    if (args.dry_run) {
      const planned = lights.map((entity_id) => ({ entity_id, state: hub.cache.get(entity_id)?.state ?? null }));
      return { content: [{ type: 'text', text: `Would call light.${service} on ${lights.join(', ')}${Object.keys(plan.data).length ? ` with ${JSON.stringify(plan.data)}` : ''}.` }], structuredContent: { service: `light.${service}`, dry_run: true, lights: planned } };
    }
    const outcome = await actions.runCall(plan);
    const result = outcome.entities
      .filter((e) => e.entity_id.startsWith('light.'))
      .map((e) => ({
        entity_id: e.entity_id,
        state: e.state?.state ?? null,
        brightness: (e.state?.attributes.brightness as number | null | undefined) ?? null,
        ...(e.verified !== undefined ? { verified: e.verified } : {}),
        ...(e.pending ? { pending: true } : {}),
      }));
    const off = result.filter((r) => r.verified === false && !r.pending);
    const lines = result.map((r) => `${r.entity_id}: ${r.state}${r.brightness != null ? ` (brightness ${Math.round((r.brightness / 255) * 100)}%)` : ''}${r.verified === false ? (r.pending ? ', still changing' : ', NOT as asked') : ''}`);
    return {
      content: [{ type: 'text', text: `${lines.join('\n')}${off.length ? `\n${off.length} light(s) did not do what was asked.` : ''}` }],
      structuredContent: { service: `light.${service}`, dry_run: false, lights: result },
    };
  },
});

export default definePlugin({
  name: 'lights',
  version: '0.1.0',
  description: 'Turn lights on and off, dim them, set their colour and white temperature.',
  needs,
  domains: ['light'],
  tools: [controlLights],
});
