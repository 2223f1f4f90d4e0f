// Languages as folders of data: which one a tag asks for, what a folder must hold (a missing
// sentence or a malformed field is an error naming the file and the field), and plugins' words
// extending a language's own.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { BUILT_IN_LANGUAGES, languageWith, pickLanguage, readLanguage, readLanguages } from '../../src/nlp/language.js';

const temp = mkdtempSync(join(tmpdir(), 'hmb-lang-unit-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

test('a BCP 47 tag asks for itself, else for itself with its last parts dropped', () => {
  const known = ['en', 'de', 'de-ch-x'];
  expect(pickLanguage('de-CH', known)).toBe('de');
  expect(pickLanguage('EN-gb', known)).toBe('en');
  expect(pickLanguage('de_CH_x', known)).toBe('de-ch-x');
  expect(pickLanguage('fr', known)).toBeUndefined();
});

test('the built-in languages are English and German, each with every sentence a reply needs', () => {
  const langs = readLanguages();
  expect([...langs.keys()].sort()).toEqual(['de', 'en']);
  expect(langs.get('de')!.messages.negation).toMatch(/^Ich habe nichts getan/);
});

test('a folder missing a sentence, or with a field of the wrong shape, is an error naming them', () => {
  const dir = join(temp, 'xx');
  cpSync(join(BUILT_IN_LANGUAGES, 'en'), dir, { recursive: true });
  const messages = JSON.parse(JSON.stringify(readLanguage(dir, 'xx').messages)) as Record<string, string>;
  delete messages.negation;
  delete messages.time;
  writeFileSync(join(dir, 'messages.json'), JSON.stringify(messages));
  expect(() => readLanguage(dir, 'xx')).toThrow(`${join(dir, 'messages.json')}: these sentences are missing: negation, time`);
  cpSync(join(BUILT_IN_LANGUAGES, 'en', 'messages.json'), join(dir, 'messages.json'));
  writeFileSync(join(dir, 'words.json'), JSON.stringify({ negation: 'not' }));
  expect(() => readLanguage(dir, 'xx')).toThrow(`${join(dir, 'words.json')} negation: must be a list of phrases`);
});

test("a plugin's words extend the language's, never replace them", () => {
  const en = readLanguages().get('en')!;
  const merged = languageWith(en, [
    { domains: { light: { nouns: ['glowbulb'] } }, actions: { dock: ['go to bed'] } },
    { domains: { light: { nouns: ['lamp'] } } },
  ]);
  expect(merged.domains.light!.nouns).toEqual(['glowbulb', 'lamp']);
  expect(merged.actions.dock).toEqual(['go to bed']);
  expect(merged.actions.turn_on).toEqual(en.actions.turn_on);
  expect(en.domains.light).toBeUndefined();
});
