// Lights: on, off and toggle by entity or area, with brightness (absolute or a step), colour
// temperature in kelvin, colours by name or RGB, effects and transitions.
import { actOutput, definePlugin, homeApp, targetFields, text, tool, v } from 'home-mcp-bridge/plugin';

const byte = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255));
const COLOUR_KEYS = ['brightness_pct', 'brightness_step_pct', 'color_temp_kelvin', 'color_name', 'rgb_color', 'effect'] as const;
const SERVICE = { on: 'turn_on', off: 'turn_off', toggle: 'toggle' } as const;

const controlLights = tool({
  name: 'control_lights',
  core: true,
  ui: homeApp,
  title: 'Control lights',
  description:
    'Turn lights on, off or toggle them (command), by entity_id or area. With command on: brightness_pct 0-100, brightness_step_pct (-20 dims), color_temp_kelvin (2700 warm, 6500 cool), color_name or rgb_color [r, g, b], effect, transition seconds.',
  input: v.object({
    ...targetFields('light'),
    command: v.picklist(['on', 'off', 'toggle']),
    brightness_pct: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100))),
    brightness_step_pct: v.optional(v.pipe(v.number(), v.integer(), v.minValue(-100), v.maxValue(100))),
    color_temp_kelvin: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(20000))),
    color_name: v.optional(v.pipe(v.string(), v.maxLength(40))),
    // A closed list of three (Home Assistant's schema converter refuses open tuples).
    rgb_color: v.optional(v.pipe(v.array(byte), v.length(3, 'must be three numbers [r, g, b]'))),
    effect: v.optional(v.pipe(v.string(), v.maxLength(64))),
    transition: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(300))),
  }),
  output: actOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (args, { home }) => {
    const service = SERVICE[args.command];
    const given = COLOUR_KEYS.filter((k) => args[k] !== undefined);
    if (args.command !== 'on' && given.length) return text(`${given.join(', ')} go with command "on", not "${args.command}".`, true);
    const data: Record<string, unknown> = Object.fromEntries(given.map((k) => [k, args[k]]));
    if (args.transition !== undefined) data.transition = args.transition;
    return home.act({ domain: 'light', service, data, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run });
  },
});

export default definePlugin({
  name: 'lights',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Turn lights on and off, dim them, set their colour and white temperature.',
  needs: ['home'],
  domains: ['light'],
  words: new URL('./words/', import.meta.url),
  tools: [controlLights],
});
