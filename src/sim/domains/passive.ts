// Entities that only report: sensors and binary sensors (weather, with forecasts, is weather.ts). No services, just the defaults
// the hub would show and numbers kept as numbers.
import { type DomainModule, finish } from '../domain.js';

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
