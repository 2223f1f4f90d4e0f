// Weather: current conditions in the attributes (numbers kept as numbers, units named) and
// forecasts through weather.get_forecasts, each kind only where the entity's supported_features
// has it. Forecasts come from the home file (config.forecast: daily entries) or, failing that, a
// fixed pattern around today's temperature, so answers are the same from run to run.
import { type DomainModule, finish, numeric } from '../domain.js';
import { ServiceValidationError } from '../errors.js';
import type { Hub } from '../hub.js';
import { oneOf } from '../schema.js';
import { nowMicros } from '../time.js';
import { fromLocal, localParts } from '../zone.js';
import { localIso } from './calendar-events.js';
import { zoneOf } from './calendar.js';
import { num, sel } from './common.js';

export const FORECAST_DAILY = 1;
export const FORECAST_HOURLY = 2;
export const FORECAST_TWICE_DAILY = 4;
const KIND_FEATURE: Record<string, number> = { daily: FORECAST_DAILY, hourly: FORECAST_HOURLY, twice_daily: FORECAST_TWICE_DAILY };
const CONDITIONS = ['sunny', 'partlycloudy', 'cloudy', 'rainy', 'partlycloudy', 'sunny', 'pouring'];

/** A forecast of one kind: daily from local midnight (7 days), twice daily (14 halves), hourly (24 hours). */
function forecast(hub: Hub, entityId: string, kind: string): Record<string, unknown>[] {
  const tz = zoneOf(hub);
  const now = nowMicros();
  const p = localParts(tz, now);
  const attrs = hub.states.get(entityId)?.attributes ?? {};
  const base = num(attrs.temperature, 15);
  const declared = hub.entityConfig(entityId).forecast;
  const days = Array.isArray(declared) ? (declared as Record<string, unknown>[]) : [];
  const day = (i: number): Record<string, unknown> => ({
    condition: days[i]?.condition ?? CONDITIONS[i % CONDITIONS.length],
    temperature: num(days[i]?.temperature, Math.round((base + ((i * 3) % 5) - 1) * 10) / 10),
    templow: num(days[i]?.templow, Math.round((base - 6 + (i % 3)) * 10) / 10),
    precipitation: num(days[i]?.precipitation, [0, 0, 1.2, 4.5, 0.3, 0, 9.1][i % 7]!),
    precipitation_probability: num(days[i]?.precipitation_probability, [5, 10, 60, 85, 30, 0, 95][i % 7]!),
    wind_speed: num(days[i]?.wind_speed, 8 + (i % 4) * 3),
    humidity: num(days[i]?.humidity, 60 + (i % 5) * 5),
  });
  if (kind === 'daily') return Array.from({ length: 7 }, (_, i) => ({ datetime: localIso(tz, fromLocal(tz, p.year, p.month, p.day + i)), ...day(i) }));
  if (kind === 'twice_daily')
    return Array.from({ length: 14 }, (_, i) => {
      const d = day(Math.floor(i / 2));
      const daytime = i % 2 === 0;
      return {
        datetime: localIso(tz, fromLocal(tz, p.year, p.month, p.day + Math.floor(i / 2), daytime ? 6 : 18)),
        is_daytime: daytime,
        ...d,
        temperature: daytime ? d.temperature : d.templow,
      };
    });
  return Array.from({ length: 24 }, (_, i) => {
    const d = day(Math.floor((p.hour + 1 + i) / 24));
    const hour = (p.hour + 1 + i) % 24;
    const warmth = Math.sin(((hour - 9) / 24) * 2 * Math.PI);
    const { templow, ...rest } = d;
    return {
      ...rest,
      datetime: localIso(tz, fromLocal(tz, p.year, p.month, p.day, p.hour + 1 + i)),
      temperature: Math.round(((d.temperature as number) + (templow as number)) / 2 + warmth * (((d.temperature as number) - (templow as number)) / 2)),
    };
  });
}

export const weather: DomainModule = {
  domain: 'weather',
  init(seed, hub) {
    const a = seed.attributes;
    numeric(a, ['temperature', 'humidity', 'pressure', 'wind_speed', 'wind_bearing', 'visibility', 'dew_point', 'cloud_coverage']);
    a.temperature_unit ??= hub.temperatureUnit;
    return { state: seed.state ?? 'unknown', attributes: finish(a, seed.name, Number(a.supported_features ?? 0)) };
  },
  setup(hub) {
    hub.services.register('weather', 'get_forecasts', {
      name: 'Get forecasts',
      description: 'Retrieves the forecast from selected weather services.',
      response: 'only',
      requiredFeatures: [FORECAST_DAILY, FORECAST_HOURLY, FORECAST_TWICE_DAILY],
      fields: {
        type: {
          v: oneOf(['daily', 'hourly', 'twice_daily']),
          required: true,
          name: 'Forecast type',
          description: 'The scope of the weather forecast.',
          example: 'daily',
          selector: sel.select(['daily', 'hourly', 'twice_daily'], { translation_key: 'forecast_type' }),
        },
      },
      handle: (e) => {
        const kind = e.params.type as string;
        if (!(e.features & KIND_FEATURE[kind]!))
          throw new ServiceValidationError(`Weather entity does not support '${kind}' forecast`, {
            domain: 'weather',
            key: 'forecast_not_supported',
            placeholders: { forecast_type: kind },
          });
        return { forecast: forecast(e.hub, e.id, kind) };
      },
    });
  },
};
