// The parser's words: lower case, contractions and possessives, number words, units apart; plurals.
import { expect, test } from 'vitest';
import { readLanguages } from '../../src/nlp/language.js';
import { languageLexicon } from '../../src/nlp/lexicon.js';
import { pluralOf, tokenize } from '../../src/nlp/text.js';

const en = readLanguages().get('en')!;

test('numbers in words become digits; units stand apart', () => {
  expect(tokenize('Set it to fifty percent', en)).toEqual(['set', 'it', 'to', '50', 'percent']);
  expect(tokenize('twenty five', en)).toEqual(['25']);
  expect(tokenize('one hundred and five', en)).toEqual(['105']);
  expect(tokenize('two point five degrees', en)).toEqual(['2.5', 'degrees']);
  expect(tokenize('50% and 21°', en)).toEqual(['50', '%', 'and', '21', '°']);
  expect(tokenize('PM2.5 sensor 2', en)).toEqual(['pm2.5', 'sensor', '2']);
});

test('contractions open, possessives drop', () => {
  expect(tokenize("What's Mistral's speed?", en)).toEqual(['what', 'is', 'mistral', 'speed']);
  expect(tokenize("Trader Joe's", en)).toEqual(['trader', 'joe']);
});

test('plurals by the language’s rules', () => {
  expect(['light', 'battery', 'switch', 'garage door', 'people'].map((w) => pluralOf(w, en))).toEqual([
    'lights',
    'batteries',
    'switches',
    'garage doors',
    'people',
  ]);
});

test('the longest phrase wins and keeps all its meanings; unknown words come alone', () => {
  const lex = languageLexicon(en);
  const m = lex.match(tokenize('turn on the carbon monoxide sensors', en));
  expect(m.map((x) => x.text)).toEqual(['turn on', 'the', 'carbon monoxide sensors']);
  expect(m[2]!.meanings).toContainEqual({ k: 'bnoun', cls: 'carbon_monoxide', plural: true });
  expect(lex.match(['zzz'])).toEqual([{ start: 0, end: 1, text: 'zzz', meanings: [] }]);
});
