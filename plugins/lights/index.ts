// Lights: on, off and toggle by entity or area, with brightness (absolute or a step), colour
// temperature in kelvin, colours by name or RGB, effects and transitions.
import { act, actOutput, definePlugin, targetFields, text, toolsWith, v } from '../../src/plugins/api.js';
import en from './words/en.json' with { type: 'json' };

const needs = ['hub', 'actions', 'guard'] as const;
const tool = toolsWith(needs);
const byte = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255));
const COLOUR_KEYS = ['brightness_pct', 'brightness_step_pct', 'color_temp_kelvin', 'color_name', 'rgb_color', 'effect'] as const;

const controlLights = tool({
  name: 'control_lights',
  title: 'Control lights',
  description:
    'Turn lights on, off or toggle them, by entity_id or area. With power on: brightness_pct 0-100, brightness_step_pct (-20 dims), color_temp_kelvin (2700 warm, 6500 cool), color_name or rgb_color, effect, transition seconds.',
  input: v.object({
    ...targetFields('light'),
    power: v.optional(v.picklist(['on', 'off', 'toggle']), 'on'),
    brightness_pct: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100))),
    brightness_step_pct: v.optional(v.pipe(v.number(), v.integer(), v.minValue(-100), v.maxValue(100))),
    color_temp_kelvin: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(20000))),
    color_name: v.optional(v.pipe(v.string(), v.maxLength(40))),
    // A list of three rather than a tuple: Home Assistant's converter refuses open tuples, and models read items with a length best.
    rgb_color: v.optional(v.pipe(v.array(byte), v.length(3, 'must be three numbers: red, green, blue'))),
    effect: v.optional(v.pipe(v.string(), v.maxLength(64))),
    transition: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(300))),
  }),
  output: actOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (args, { services }) => {
    const service = args.power === 'off' ? 'turn_off' : args.power === 'toggle' ? 'toggle' : 'turn_on';
    const given = COLOUR_KEYS.filter((k) => args[k] !== undefined);
    if (service !== 'turn_on' && given.length) return text(`${given.join(', ')} go with power "on", not "${args.power}".`, true);
    const data: Record<string, unknown> = Object.fromEntries(given.map((k) => [k, args[k]]));
    if (args.transition !== undefined) data.transition = args.transition;
    return act(services, { domain: 'light', service, data, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run });
  },
});

export default definePlugin({
  name: 'lights',
  version: '0.1.0',
  description: 'Turn lights on and off, dim them, set their colour and white temperature.',
  needs,
  domains: ['light'],
  vocabulary: { en },
  tools: [controlLights],
});
