// Query string values as the routes declare them: one value per name, flags spelled true/false.
import * as v from 'valibot';

/** A query value taken once (a repeated name counts with its first value). */
export const single = v.pipe(
  v.union([v.string(), v.array(v.string())], 'must be text'),
  v.transform((q): string => (Array.isArray(q) ? (q[0] ?? '') : q)),
);

/** `?name=true|1` (or a bare `?name`) is on, `false|0` or absent is off; anything else is refused, not guessed. */
export const flag = v.optional(
  v.pipe(
    single,
    v.picklist(['true', 'false', '1', '0', ''], 'must be true or false'),
    v.transform((raw) => raw === 'true' || raw === '1' || raw === ''),
  ),
  'false',
);

/** An optional text value of the query. */
export const text = () => v.optional(single);
