// Weather: the current conditions a weather entity reports (its state and attributes, each number
// with its unit) and its forecasts, daily, hourly or twice daily, through weather.get_forecasts
// where the entity offers that kind. Only reads.
import { data, definePlugin, type Home, PluginError, tool, v } from 'home-mcp-bridge/plugin';

const KINDS = { daily: 1, hourly: 2, twice_daily: 4 } as const;
type Kind = keyof typeof KINDS;

/** Each reading and the attribute naming its unit (percent ones have none to name). */
const READINGS: [string, string | null][] = [
  ['temperature', 'temperature_unit'],
  ['apparent_temperature', 'temperature_unit'],
  ['dew_point', 'temperature_unit'],
  ['humidity', null],
  ['cloud_coverage', null],
  ['uv_index', null],
  ['pressure', 'pressure_unit'],
  ['wind_speed', 'wind_speed_unit'],
  ['wind_gust_speed', 'wind_speed_unit'],
  ['wind_bearing', null],
  ['visibility', 'visibility_unit'],
  ['ozone', null],
];
const PERCENT = new Set(['humidity', 'cloud_coverage', 'precipitation_probability']);

const input = v.object({
  operation: v.picklist(['current', 'forecast']),
  entity_id: v.optional(v.pipe(v.string(), v.regex(/^weather\.[a-z0-9_]+$/, 'must be a weather entity id such as weather.home'))),
  type: v.optional(v.picklist(['daily', 'hourly', 'twice_daily'])),
});

function entityOf(home: Home, given: string | undefined): string {
  if (given !== undefined) {
    if (!home.has(given)) throw home.unknownEntity(given);
    return given;
  }
  const all = home.states('weather');
  if (!all.length) throw new PluginError('There is no weather entity in this home', {}, 'NOT_FOUND', 404);
  return all[0]!.entity_id;
}

const unitOf = (attrs: Record<string, unknown>, key: string, unitKey: string | null) =>
  PERCENT.has(key) ? '%' : key === 'wind_bearing' ? '°' : unitKey ? ((attrs[unitKey] as string | undefined) ?? null) : null;

const weatherTool = tool({
  name: 'weather',
  title: 'Weather',
  description: 'Weather: operation current (with units) or forecast (type daily, hourly, twice_daily; default daily). entity_id defaults to the first.',
  input,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (args, { home }) => {
    const id = entityOf(home, args.entity_id);
    const state = home.state(id)!;
    const attrs = state.attributes;
    const name = String(attrs.friendly_name ?? id);
    const zone = home.config?.time_zone ?? 'UTC';
    if (args.operation === 'current') {
      if (args.type !== undefined) throw new PluginError('type goes with operation forecast', { field: 'type' });
      const readings: Record<string, { value: unknown; unit: string | null }> = {};
      for (const [key, unitKey] of READINGS)
        if (attrs[key] !== undefined && attrs[key] !== null) readings[key] = { value: attrs[key], unit: unitOf(attrs, key, unitKey) };
      const words = Object.entries(readings).map(
        ([k, r]) => `${k.replace(/_/g, ' ')} ${r.value}${r.unit ? (r.unit === '%' || r.unit === '°' ? r.unit : ` ${r.unit}`) : ''}`,
      );
      return data(`${name} (${id}): ${state.state}; ${words.join(', ')}.`, {
        entity_id: id,
        condition: state.state,
        readings,
        precipitation_unit: (attrs.precipitation_unit as string | undefined) ?? null,
        updated: state.last_updated,
      });
    }
    const kind: Kind = args.type ?? 'daily';
    const features = Number(attrs.supported_features ?? 0);
    if (!(features & KINDS[kind])) {
      const offered = (Object.keys(KINDS) as Kind[]).filter((k) => features & KINDS[k]);
      throw new PluginError(`${name} (${id}) has no ${kind.replace('_', ' ')} forecast; it offers ${offered.join(', ') || 'no forecasts'}`, {
        field: 'type',
        offered,
      });
    }
    const answer = await home.ask({ domain: 'weather', service: 'get_forecasts', target: { entity_id: id }, data: { type: kind } });
    const all = ((answer[id] as { forecast?: Record<string, unknown>[] } | undefined)?.forecast ?? []) as Record<string, unknown>[];
    const forecast = all.slice(0, kind === 'hourly' ? 24 : all.length);
    const units = {
      temperature: (attrs.temperature_unit as string | undefined) ?? null,
      precipitation: (attrs.precipitation_unit as string | undefined) ?? null,
      wind_speed: (attrs.wind_speed_unit as string | undefined) ?? null,
      pressure: (attrs.pressure_unit as string | undefined) ?? null,
    };
    const t = units.temperature ?? '';
    const lines = forecast.map((f) => {
      const temp = f.templow !== undefined ? `${f.templow}–${f.temperature} ${t}` : `${f.temperature} ${t}`;
      const rain = f.precipitation !== undefined ? `, ${f.precipitation} ${units.precipitation ?? ''}`.trimEnd() : '';
      const chance = f.precipitation_probability !== undefined ? ` (${f.precipitation_probability}%)` : '';
      return `${f.datetime}${f.is_daytime === false ? ' night' : ''}: ${f.condition}, ${temp}${rain}${chance}`;
    });
    return data(`${kind.replace('_', ' ')} forecast for ${name} (times in ${zone}):\n${lines.join('\n')}`, {
      entity_id: id,
      type: kind,
      time_zone: zone,
      units,
      forecast,
    });
  },
});

export default definePlugin({
  name: 'weather',
  version: '0.1.0',
  bridge: '^0.2.0',
  description: 'Current weather and forecasts.',
  needs: ['home'],
  words: new URL('./words/', import.meta.url),
  domains: ['weather'],
  tools: [weatherTool],
});
