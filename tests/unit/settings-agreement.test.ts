// The settings table is the only list: the add-on's options and schema (config.yaml), its
// translations and docs/settings.md's table must agree with it.
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { SETTINGS, type Setting } from '../../src/config/settings.js';

const read = (path: string) => parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as Record<string, any>;
const manifest = read('config.yaml');
const translations = read('translations/en.yaml');
const byFile = new Map((Object.values(SETTINGS) as Setting[]).map((s) => [s.file, s]));
const offered = (Object.values(SETTINGS) as Setting[]).filter((s) => s.addon !== undefined);

/** The [min, max] a valibot number pipe requires, and the picklist options, read from the schema itself. */
function bounds(schema: v.GenericSchema): { min?: number; max?: number; options?: string[]; type: string } {
  const pipe = (schema as { pipe?: { type: string; requirement?: unknown; options?: string[] }[] }).pipe ?? [schema as never];
  const out: { min?: number; max?: number; options?: string[]; type: string } = { type: pipe[0]!.type };
  for (const item of pipe) {
    if (item.type === 'min_value') out.min = item.requirement as number;
    if (item.type === 'max_value') out.max = item.requirement as number;
    if (item.type === 'picklist') out.options = item.options;
    if (item.type === 'array') out.type = 'array';
  }
  const top = schema as { type: string; options?: string[] };
  if (top.type === 'picklist') return { type: 'picklist', options: top.options };
  return out;
}

describe('config.yaml', () => {
  test('every schema and options key is a setting the add-on offers', () => {
    for (const key of [...Object.keys(manifest.schema), ...Object.keys(manifest.options)]) {
      expect(byFile.get(key)?.addon, `${key} in config.yaml`).toBeDefined();
    }
    expect(Object.keys(manifest.schema).sort()).toEqual(offered.map((s) => s.file).sort());
  });

  test('each option schema agrees with the setting: type, ranges, choices', () => {
    for (const s of offered) {
      expect(manifest.schema[s.file], s.file).toEqual(s.addon);
      const b = bounds(s.schema);
      const addon = Array.isArray(s.addon) ? s.addon[0]! : s.addon!;
      const int = /^int\((-?\d*),(-?\d*)\)\??$/.exec(addon);
      const list = /^list\(([^)]*)\)\??$/.exec(addon);
      if (Array.isArray(s.addon)) expect(b.type, s.file).toBe('array');
      else if (int) {
        expect(b.type, s.file).toBe('number');
        expect(int[1] === '' ? undefined : Number(int[1]), `${s.file} min`).toBe(b.min);
        expect(int[2] === '' ? undefined : Number(int[2]), `${s.file} max`).toBe(b.max);
      } else if (list) {
        // The add-on may offer fewer choices than the service takes, never others.
        for (const choice of list[1]!.split('|')) expect(b.options, s.file).toContain(choice);
      } else if (/^(str|password)\??$/.test(addon)) {
        expect(b.type, s.file).toBe('string');
      } else if (/^bool\??$/.test(addon)) {
        expect(b.type, s.file).toBe('boolean');
      } else {
        throw new Error(`${s.file}: add-on schema ${addon} is not checked here`);
      }
    }
  });

  test('options hold the service defaults (or the add-on\u2019s own, where a setting names one), for the keys that must be present', () => {
    for (const [key, value] of Object.entries(manifest.options)) {
      const s = byFile.get(key)!;
      expect(value, key).toEqual(s.addonDefault ?? s.default);
      expect(v.safeParse(s.schema, value).success, key).toBe(true);
    }
    // An add-on default is an option the user sees filled in.
    for (const s of offered.filter((x) => x.addonDefault !== undefined)) expect(manifest.options, s.file).toHaveProperty(s.file, s.addonDefault);
    // A required option (no `?`) needs a value in options.
    for (const [key, schema] of Object.entries(manifest.schema)) {
      if (typeof schema === 'string' && !schema.endsWith('?')) expect(manifest.options, key).toHaveProperty(key);
      if (Array.isArray(schema)) expect(manifest.options, key).toHaveProperty(key);
    }
  });
});

test('translations name and describe every option, and nothing else', () => {
  const configuration = translations.configuration as Record<string, { name?: string; description?: string }>;
  expect(Object.keys(configuration).sort()).toEqual(Object.keys(manifest.schema).sort());
  for (const [key, t] of Object.entries(configuration)) {
    expect(t.name, key).toBeTruthy();
    expect(t.description, key).toBeTruthy();
  }
});
