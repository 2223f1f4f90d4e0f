// Keys of scene and group names: transliterated, lower snake case, stable; a hash where nothing transliterates.
import { expect, test } from 'vitest';
import { keyFromPath, keyOf, slugify } from '../../src/store/names.js';

test.each([
  ['Movie Night!', 'movie_night'],
  ["  Café  d'été ", 'cafe_d_ete'],
  ['Straße', 'strasse'],
  ['Soirée café', 'soiree_cafe'],
  ['Кино', 'kino'],
  ['Ταινία', 'tainia'],
])('%s -> %s', (name, key) => {
  expect(keyOf(name)).toBe(key);
  // A key is its own key, so a path may name either.
  expect(keyOf(key)).toBe(key);
});

test('letters that transliterate to nothing get a stable short hash key', () => {
  const name = 'ʔʕ';
  expect(slugify(name)).toBe('');
  const key = keyOf(name);
  expect(key).toMatch(/^n_[0-9a-f]{10}$/);
  expect(keyOf(name)).toBe(key);
  expect(keyOf('ʕʔ')).not.toBe(key);
  expect(keyFromPath(name, 'scene_name')).toBe(key);
  expect(keyFromPath(key, 'scene_name')).toBe(key);
});

test('a path with no letter or digit is refused, echoing only a prefix', () => {
  expect(() => keyFromPath('!!!', 'scene_name')).toThrow('scene_name: must contain at least one letter or digit');
});
