// Query string values as the routes declare them: each name given once; flags spelled true/false.
// Schemas here describe what a client sends (published as the operation's parameters).
import * as v from 'valibot';

/** `?name=true|1` (or a bare `?name`) is on, `false|0` or absent is off; anything else is refused, not guessed. */
export const flag = v.optional(
  v.pipe(
    v.picklist(['true', 'false', '1', '0', ''], 'must be true or false'),
    v.transform((raw) => raw === 'true' || raw === '1' || raw === ''),
  ),
  'false',
);

/** An optional text value of the query (a name given twice is refused). */
export const text = () => v.optional(v.string('must be given once'));

/** An optional choice among fixed words. */
export const choice = <const T extends string>(words: readonly T[], message: string) => v.optional(v.picklist(words, message));

/** Stores of named things (scenes, groups): `?replace=true` replaces one with the same key, `?allow_unknown=true` admits entities the hub does not know. */
export const saveQuery = v.object({ replace: flag, allow_unknown: flag });

/** An optional whole number within bounds, with its default as the query would spell it. */
export const wholeNumber = (min: number, max: number, fallback: string) =>
  v.optional(
    v.pipe(
      v.string('must be given once'),
      v.regex(/^\d{1,10}$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(min, `must be at least ${min}`),
      v.maxValue(max, `must be at most ${max}`),
    ),
    fallback,
  );
