// Colour temperature in mireds, as the API's `color_temp` parameter and older hubs have it. Home
// Assistant 2026.11's lights know only kelvin: light.turn_on has no `color_temp` (nor `kelvin`)
// field any more and refuses them as unknown options. So a light service that does not list the
// mired field gets the value as `color_temp_kelvin`; one that does (2024.3.3) gets it as given.
import { invalidParameters } from '../errors.js';
import { flattenFields } from '../hub/service-fields.js';
import type { ServiceDescription } from '../hub/types.js';
import { echo } from '../validation.js';

/** color_temperature_mired_to_kelvin, as Home Assistant rounds it. */
export const miredToKelvin = (mireds: number): number => Math.floor(1_000_000 / mireds);

const KELVIN = 'color_temp_kelvin';

/**
 * The data with `color_temp` (mireds) and `kelvin` turned into `color_temp_kelvin` where the
 * service takes only that; other data, other domains and hubs with mireds are left as they are.
 */
export function kelvinWhereNeeded(domain: string, service: ServiceDescription | undefined, data: Record<string, unknown>): Record<string, unknown> {
  if (domain !== 'light' || !service || !('color_temp' in data || 'kelvin' in data)) return data;
  const fields = flattenFields(service.fields);
  const out = { ...data };
  for (const key of ['color_temp', 'kelvin'] as const) {
    if (!(key in out) || key in fields || !(KELVIN in fields)) continue;
    const raw = out[key];
    const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) {
      throw invalidParameters(`${key}: must be a positive number (${key === 'color_temp' ? 'mireds' : 'kelvin'})`, { field: key, value: echo(raw) });
    }
    if (KELVIN in out) {
      throw invalidParameters(`${key}: give the colour temperature once (${key} or ${KELVIN})`, { field: key, value: echo(raw) });
    }
    out[KELVIN] = key === 'color_temp' ? miredToKelvin(n) : Math.round(n);
    delete out[key];
  }
  return out;
}
