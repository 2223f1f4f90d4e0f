// Sentences that ask a plugin's tool (src/nlp/sayings.ts), read with the built-in languages and the
// calendar, todo, weather and energy plugins' words: which tool and operation, and what each slot
// holds; dates and times in the home's clock; a date or time that could mean two things is asked.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readLanguages, languageWith, type PluginWords } from '../../src/nlp/language.js';
import { addDays, dateWordsOf, matchSaying, type SayingHome } from '../../src/nlp/sayings.js';

const languages = readLanguages();
const plugin = (name: string, code: string) =>
  JSON.parse(readFileSync(new URL(`../../plugins/${name}/words/${code}.json`, import.meta.url), 'utf8')) as PluginWords;
const lang = (code: string) =>
  languageWith(
    languages.get(code)!,
    ['todo', 'calendar', 'weather', 'energy'].map((p) => plugin(p, code)),
  );
const words = (code: string) => {
  const l = lang(code);
  return { sayings: l.sayings, dates: dateWordsOf(l), aliases: l.aliases, kinds: l.named_kinds };
};
// Wednesday 2026-11-25.
const home: SayingHome = {
  entities: (domain) =>
    domain === 'todo'
      ? [
          { entity_id: 'todo.shopping_list', name: 'Shopping List' },
          { entity_id: 'todo.chores', name: 'Chores' },
        ]
      : [
          { entity_id: 'calendar.family', name: 'Family' },
          { entity_id: 'calendar.work', name: 'Work calendar' },
        ],
  today: { date: '2026-11-25', weekday: 2 },
};
const read = (code: string, sentence: string) => {
  const m = matchSaying(sentence, words(code), home);
  if (!m) return undefined;
  const slots = Object.fromEntries(Object.entries(m.slots).map(([k, v]) => [k, typeof v === 'object' && v ? (v as { entity_id: string }).entity_id : v]));
  return { tool: m.saying.tool, operation: m.args.operation, ...slots };
};

describe('to-do lists', () => {
  test.each([
    ['en', 'add milk to the shopping list', { tool: 'todo', operation: 'add', item: 'milk', list: 'todo.shopping_list' }],
    ['en', 'Put oat milk on my shopping list please', { tool: 'todo', operation: 'add', item: 'oat milk', list: 'todo.shopping_list' }],
    ['en', 'add "fix the fence" to chores', { tool: 'todo', operation: 'add', item: '"fix the fence"', list: 'todo.chores' }],
    ['de', 'setz Milch auf die Einkaufsliste', { tool: 'todo', operation: 'add', item: 'Milch', list: 'todo.shopping_list' }],
    ['de', 'Schreib Brot auf die Einkaufsliste!', { tool: 'todo', operation: 'add', item: 'Brot', list: 'todo.shopping_list' }],
    ['en', "what's on my to-do list?", { tool: 'todo', operation: 'items' }],
    ['en', 'what is on the shopping list', { tool: 'todo', operation: 'items', list: 'todo.shopping_list' }],
    ['de', 'was steht auf der Einkaufsliste?', { tool: 'todo', operation: 'items', list: 'todo.shopping_list' }],
    ['de', 'was steht auf meiner To-do-Liste', { tool: 'todo', operation: 'items' }],
    ['en', 'mark milk as done', { tool: 'todo', operation: 'complete', item: 'milk' }],
    ['en', 'cross bread off the shopping list', { tool: 'todo', operation: 'complete', item: 'bread', list: 'todo.shopping_list' }],
    ['de', 'streich Milch von der Liste', { tool: 'todo', operation: 'complete', item: 'Milch' }],
    ['de', 'Hak die Eier ab', { tool: 'todo', operation: 'complete', item: 'Eier' }],
    ['en', 'remove coffee from the shopping list', { tool: 'todo', operation: 'remove', item: 'coffee', list: 'todo.shopping_list' }],
    ['de', 'lösche Kaffee von der Einkaufsliste', { tool: 'todo', operation: 'remove', item: 'Kaffee', list: 'todo.shopping_list' }],
  ] as const)('%s: %s', (code, sentence, expected) => {
    expect(read(code, sentence)).toEqual(expected);
  });

  test('a list the home does not have is no saying (the device parser answers)', () => {
    expect(read('en', 'add milk to the garage list')).toBeUndefined();
    expect(read('en', 'add the lamp to the living room')).toBeUndefined();
    expect(read('en', 'turn on the kitchen light')).toBeUndefined();
  });
});

describe('calendars: dates and times on the home’s clock', () => {
  test.each([
    ['en', "what's on my calendar tomorrow", { tool: 'calendar', operation: 'events', date: '2026-11-26' }],
    ['en', 'What is on my calendar?', { tool: 'calendar', operation: 'events' }],
    ['en', "what's on the family calendar on friday", { tool: 'calendar', operation: 'events', calendar: 'calendar.family', date: '2026-11-27' }],
    ['de', 'was steht heute im Kalender', { tool: 'calendar', operation: 'events', date: '2026-11-25' }],
    ['de', 'was steht morgen im Familienkalender?', { tool: 'calendar', operation: 'events', date: '2026-11-26', calendar: 'calendar.family' }],
    ['de', 'Was habe ich übermorgen vor', { tool: 'calendar', operation: 'events', date: '2026-11-27' }],
    [
      'en',
      'add dentist on Friday at 3 pm to the family calendar',
      { tool: 'calendar', operation: 'create', summary: 'dentist', date: '2026-11-27', time: '15:00', calendar: 'calendar.family' },
    ],
    [
      'en',
      'add dentist on friday at 15:30 to the family calendar',
      { tool: 'calendar', operation: 'create', summary: 'dentist', date: '2026-11-27', time: '15:30', calendar: 'calendar.family' },
    ],
    [
      'en',
      'add school trip on 2026-12-03 to the work calendar',
      { tool: 'calendar', operation: 'create', summary: 'school trip', date: '2026-12-03', calendar: 'calendar.work' },
    ],
    [
      'de',
      'trag Zahnarzt am Freitag um 15 Uhr in den Familienkalender ein',
      { tool: 'calendar', operation: 'create', summary: 'Zahnarzt', date: '2026-11-27', time: '15:00', calendar: 'calendar.family' },
    ],
    [
      'de',
      'trag Zahnarzt am 3.12. um 9 Uhr morgens in den Familienkalender ein',
      { tool: 'calendar', operation: 'create', summary: 'Zahnarzt', date: '2026-12-03', time: '09:00', calendar: 'calendar.family' },
    ],
    [
      'en',
      'add dentist on friday at 3 in the afternoon to the family calendar',
      { tool: 'calendar', operation: 'create', summary: 'dentist', date: '2026-11-27', time: '15:00', calendar: 'calendar.family' },
    ],
  ] as const)('%s: %s', (code, sentence, expected) => {
    expect(read(code, sentence)).toEqual(expected);
  });

  test('an hour that could be morning or afternoon is asked, never guessed', () => {
    expect(() => read('en', 'add dentist on Friday at 3 to the family calendar')).toThrow(/3 in the morning or in the afternoon/);
    try {
      read('de', 'trag Zahnarzt am Freitag um 3 in den Familienkalender ein');
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'AMBIGUOUS', details: { field: 'time', times: ['03:00', '15:00'] } });
    }
  });

  test("today's own weekday is asked (today or a week on); a date that does not exist is no date", () => {
    expect(() => read('en', "what's on my calendar on wednesday")).toThrow(/today or a week from today/);
    expect(read('en', 'add party on 2026-02-30 to the family calendar')).toBeUndefined();
  });

  test('a day and month already past this year is next year’s', () => {
    expect(read('de', 'trag Silvester am 31.12. in den Familienkalender ein')).toMatchObject({ date: '2026-12-31' });
    expect(read('de', 'trag Dreikönig am 6.1. in den Familienkalender ein')).toMatchObject({ date: '2027-01-06' });
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('weather and energy', () => {
  test.each([
    ['en', 'will it rain tomorrow?', { tool: 'weather', operation: 'forecast', date: '2026-11-26' }],
    ['en', "what's the weather like", { tool: 'weather', operation: 'current' }],
    ['en', 'How is the weather outside?', { tool: 'weather', operation: 'current' }],
    ['de', 'wie wird das Wetter morgen', { tool: 'weather', operation: 'forecast', date: '2026-11-26' }],
    ['de', 'Regnet es übermorgen?', { tool: 'weather', operation: 'forecast', date: '2026-11-27' }],
    ['de', 'wie ist das Wetter draußen', { tool: 'weather', operation: 'current' }],
    ['en', 'how much energy did we use today', { tool: 'energy', operation: 'totals', period: 'today' }],
    ['en', 'how much electricity did we use this month?', { tool: 'energy', operation: 'totals', period: 'this_month' }],
    ['de', 'wie viel Strom haben wir diesen Monat verbraucht', { tool: 'energy', operation: 'totals', period: 'this_month' }],
    ['de', 'Wie viel Energie haben wir gestern verbraucht?', { tool: 'energy', operation: 'totals', period: 'yesterday' }],
  ] as const)('%s: %s', (code, sentence, expected) => {
    expect(read(code, sentence)).toEqual(expected);
  });

  test('a period the energy words do not have is no saying', () => {
    expect(read('en', 'how much energy did we use in the bathroom')).toBeUndefined();
  });
});
