// Climate: target temperature or range, hvac, fan, preset and swing modes, humidity.
import { actOutput, definePlugin, homeApp, targetFields, text, tool, v } from 'home-mcp-bridge/plugin';

const temp = v.pipe(v.number(), v.minValue(-50), v.maxValue(150));
const mode = v.pipe(v.string(), v.maxLength(64));

export default definePlugin({
  name: 'climate',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Set thermostats: temperature or a range, hvac, fan, preset and swing modes, humidity.',
  needs: ['home'],
  domains: ['climate'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_climate',
      core: true,
      ui: homeApp,
      title: 'Control thermostats',
      description:
        'Thermostats, one setting per call: temperature (or target_temp_low with target_temp_high, optionally with hvac_mode), hvac_mode (off, heat, cool, heat_cool, auto, ...), fan_mode, preset_mode, swing_mode (each one the thermostat lists), or humidity. In the hub’s temperature unit.',
      input: v.object({
        ...targetFields('climate'),
        temperature: v.optional(temp),
        target_temp_low: v.optional(temp),
        target_temp_high: v.optional(temp),
        hvac_mode: v.optional(mode),
        fan_mode: v.optional(mode),
        preset_mode: v.optional(mode),
        swing_mode: v.optional(mode),
        humidity: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(100))),
      }),
      output: actOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: (args, { home }) => {
        const temps = (['temperature', 'target_temp_low', 'target_temp_high'] as const).filter((k) => args[k] !== undefined);
        const others = (['fan_mode', 'preset_mode', 'swing_mode', 'humidity'] as const).filter((k) => args[k] !== undefined);
        const setting = temps.length ? 'temperature' : args.hvac_mode !== undefined ? 'hvac_mode' : others[0];
        if (!setting) return text('Give one setting: temperature (or a low/high range), hvac_mode, fan_mode, preset_mode, swing_mode or humidity.', true);
        if ((temps.length && others.length) || others.length > 1) return text(`One setting per call: got ${[...temps, ...others].join(', ')}.`, true);
        if (setting === 'temperature') {
          if ((args.target_temp_low === undefined) !== (args.target_temp_high === undefined))
            return text('A range needs both target_temp_low and target_temp_high.', true);
          const data: Record<string, unknown> = Object.fromEntries(temps.map((k) => [k, args[k]]));
          if (args.hvac_mode !== undefined) data.hvac_mode = args.hvac_mode;
          return home.act({ domain: 'climate', service: 'set_temperature', data, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run });
        }
        const service = {
          hvac_mode: 'set_hvac_mode',
          fan_mode: 'set_fan_mode',
          preset_mode: 'set_preset_mode',
          swing_mode: 'set_swing_mode',
          humidity: 'set_humidity',
        }[setting];
        return home.act({ domain: 'climate', service, data: { [setting]: args[setting] }, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run });
      },
    }),
  ],
});
