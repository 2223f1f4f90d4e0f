// Scenes and groups are named freely, in any script, and addressed by a key: the name
// transliterated to Latin letters, then in lower snake form, as Home Assistant derives object ids
// ("Straße" -> strasse, "Soirée café" -> soiree_cafe). The name is kept exactly as given.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import * as v from 'valibot';
import { conflict, invalidParameters } from '../errors.js';

export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 1000;
/** Actions in a scene and members in a group (a request body is bounded by BODY_LIMIT as well). */
export const MAX_ITEMS = 500;

const HAS_WORD = /[\p{L}\p{N}]/u;
const NON_ASCII = /\P{ASCII}/u;

// any-ascii's tables are half a megabyte of source (and its bytecode once called): loaded the
// first time a name holds a letter beyond ASCII, which many homes never give (bench/memory).
let transliterate: ((text: string) => string) | undefined;
const toAscii = (text: string): string => {
  if (!NON_ASCII.test(text)) return text;
  transliterate ??= (createRequire(import.meta.url)('any-ascii') as typeof import('any-ascii')).default;
  return transliterate(text);
};

/** Lower snake form of the Latin transliteration; empty when nothing of the name transliterates. */
export function slugify(name: string): string {
  return toAscii(name.normalize('NFC'))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The key of a name; a stable short hash-based key where nothing of it transliterates. */
export function keyOf(name: string): string {
  const slug = slugify(name);
  if (slug) return slug;
  return `n_${createHash('sha256').update(name.normalize('NFC')).digest('hex').slice(0, 10)}`;
}

export const nameSchema = v.pipe(
  v.string('must be a string'),
  v.nonEmpty('must not be empty'),
  v.maxLength(MAX_NAME, `must be at most ${MAX_NAME} characters`),
  v.check((name) => HAS_WORD.test(name), 'must contain at least one letter or digit'),
);

export const descriptionSchema = v.optional(
  v.nullable(v.pipe(v.string('must be a string'), v.maxLength(MAX_DESCRIPTION, `must be at most ${MAX_DESCRIPTION} characters`))),
);

/** The key a path segment addresses: a name or a key both lead to the key. */
export function keyFromPath(segment: string | undefined, field: string): string {
  if (!segment || !HAS_WORD.test(segment))
    throw invalidParameters(`${field}: must contain at least one letter or digit`, { field, value: segment?.slice(0, 40) });
  return keyOf(segment);
}

const sameName = (a: string, b: string) => a.normalize('NFKC').toLowerCase() === b.normalize('NFKC').toLowerCase();

/** A new name whose key another name already has is refused, naming the other (replace with ?replace=true or PUT). */
export function refuseKeyClash(what: 'scene' | 'group', key: string, name: string, existing: { name: string } | undefined): void {
  if (existing && !sameName(existing.name, name)) {
    throw conflict(
      `The name ${JSON.stringify(name.slice(0, MAX_NAME))} has the key ${key}, which the ${what} ${JSON.stringify(existing.name)} already has; choose another name, or replace it with ?replace=true or PUT`,
      { id: key, existing_name: existing.name },
    );
  }
}
