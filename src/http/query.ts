// Query string values as the routes read them: one value per name, flags spelled true/false.
import { invalidParameters } from '../errors.js';

type Query = Record<string, string | string[] | undefined>;

export const one = (q: string | string[] | undefined): string | undefined => (Array.isArray(q) ? q[0] : q);

/** `?name=true|1` is on, `false|0` or absent is off; anything else is refused, not guessed. */
export function flag(query: Query, name: string): boolean {
  const raw = one(query[name]);
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1' || raw === '') return true;
  throw invalidParameters(`${name}: must be true or false`, { field: name, value: raw });
}
