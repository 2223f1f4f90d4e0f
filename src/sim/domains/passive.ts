// Entities that only report: sensors, binary sensors, weather. No services, just the defaults
// the hub would show and numbers kept as numbers.
import { type DomainModule, finish, numeric } from '../domain.js';

export const sensor: DomainModule = {
  domain: 'sensor',
  init(seed) {
    return { state: seed.state ?? 'unknown', attributes: finish(seed.attributes, seed.name) };
  },
};

export const binarySensor: DomainModule = {
  domain: 'binary_sensor',
  init(seed) {
    return { state: seed.state ?? 'off', attributes: finish(seed.attributes, seed.name) };
  },
};

export const weather: DomainModule = {
  domain: 'weather',
  init(seed, hub) {
    const a = seed.attributes;
    numeric(a, ['temperature', 'humidity', 'pressure', 'wind_speed', 'wind_bearing', 'visibility', 'dew_point', 'cloud_coverage']);
    a.temperature_unit ??= hub.temperatureUnit;
    return { state: seed.state ?? 'unknown', attributes: finish(a, seed.name, Number(a.supported_features ?? 0)) };
  },
};
