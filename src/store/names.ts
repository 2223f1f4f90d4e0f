// Scenes and groups are named freely and addressed by a key: the lower snake form of the name.
// The name is kept exactly as given; only the key has to be safe in a path.
import * as v from 'valibot';
import { invalidParameters } from '../errors.js';
import { slugify } from '../hub/entity-id.js';

export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 1000;
/** Actions in a scene and members in a group (a request body is bounded by BODY_LIMIT as well). */
export const MAX_ITEMS = 500;

export const nameSchema = v.pipe(
  v.string('must be a string'),
  v.nonEmpty('must not be empty'),
  v.maxLength(MAX_NAME, `must be at most ${MAX_NAME} characters`),
  v.check((name) => slugify(name) !== '', 'must contain at least one letter or digit'),
);

export const descriptionSchema = v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(MAX_DESCRIPTION, `must be at most ${MAX_DESCRIPTION} characters`))));

/** The key a path segment addresses: a name or a key both lead to the key. */
export function keyFromPath(segment: string | undefined, field: string): string {
  const key = slugify(segment ?? '');
  if (!key) throw invalidParameters(`${field}: must contain at least one letter or digit`, { field, value: segment?.slice(0, MAX_NAME) });
  return key;
}

export { slugify as keyOf };
