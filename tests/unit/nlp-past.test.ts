// Questions about the past (issue 39, sixth round), with sentences of our own: planned as a read of the
// recorder naming the thing, the window (today, yesterday, last night, this week, the latest change)
// and what is measured (whether, how long, how often, when last); never an action. And the answer
// worded from the history tool's changes, or said that the recorder cannot tell.
import { describe, expect, test } from 'vitest';
import { loadHome } from '@home-mcp-bridge/sim/testing';
import { answerPast } from '../../src/nlp/history-answer.js';
import { readLanguages } from '../../src/nlp/language.js';
import type { Outcome } from '../../src/nlp/plan.js';
import { fixture } from '../helpers/nl-cases.js';
import { plannerFor } from '../helpers/nlp-home.js';

const en = plannerFor(loadHome(fixture('home.yaml')));
const de = plannerFor(loadHome(fixture('de/home.yaml')), 'de');
type Planner = typeof en;

function past(p: Planner, command: string): Outcome {
  const out = p.plan(command);
  expect(
    out.some((o) => o.kind === 'act'),
    command,
  ).toBe(false);
  expect(out, command).toHaveLength(1);
  return out[0]!;
}

describe('a question about the past is a read of the recorder', () => {
  test('English: whether, in a window', () => {
    expect(past(en, 'did the back door get unlocked today')).toMatchObject({
      kind: 'query',
      entities: ['lock.back_door'],
      history: { window: 'today', measure: 'whether', state: 'unlocked' },
    });
    expect(past(en, 'was the washer running yesterday')).toMatchObject({ entities: ['binary_sensor.washer_running'], history: { window: 'yesterday' } });
    expect(past(en, 'was the living room lamp on last night')).toMatchObject({ entities: ['light.living_room_lamp'], history: { window: 'last_night' } });
    expect(past(en, 'has the shed door been opened this week')).toMatchObject({
      entities: ['binary_sensor.shed_door_opening'],
      history: { window: 'this_week' },
    });
  });
  test('English: when last, how long, how often', () => {
    expect(past(en, 'when did the pet door last open')).toMatchObject({ entities: ['binary_sensor.pet_door'], history: { window: 'latest', measure: 'when' } });
    expect(past(en, 'when did the tv go off')).toMatchObject({ entities: ['media_player.tv'], history: { measure: 'when', state: 'off' } });
    expect(past(en, 'when did someone last lock the side door')).toMatchObject({ entities: ['lock.side_door'], history: { measure: 'when', state: 'locked' } });
    expect(past(en, 'how long was the garage light on today')).toMatchObject({ entities: ['light.garage'], history: { measure: 'how_long', state: 'on' } });
    expect(past(en, 'how many times was the front door unlocked today')).toMatchObject({ entities: ['lock.front_door'], history: { measure: 'how_often' } });
  });
  test('German: ob, wann zuletzt, wie lange, wie oft', () => {
    expect(past(de, 'Wurde die Hintertür heute aufgesperrt?')).toMatchObject({ entities: ['lock.back_door'], history: { window: 'today', state: 'unlocked' } });
    expect(past(de, 'War das Küchenfenster gestern offen?')).toMatchObject({ entities: ['binary_sensor.kitchen_window'], history: { window: 'yesterday' } });
    expect(past(de, 'War die Wohnungstür heute Nacht offen?')).toMatchObject({ entities: ['binary_sensor.apartment_door'], history: { window: 'last_night' } });
    expect(past(de, 'Wann wurde das Wohnzimmerfenster zuletzt geöffnet?')).toMatchObject({ history: { window: 'latest', measure: 'when' } });
    expect(past(de, 'Wann lief der Rover zuletzt?')).toMatchObject({ entities: ['vacuum.rover'], history: { measure: 'when', state: 'cleaning' } });
    expect(past(de, 'Wie lange war die Schlafzimmerlampe heute an?')).toMatchObject({ entities: ['light.bedroom_lamp'], history: { measure: 'how_long' } });
    expect(past(de, 'Wie oft war die Küchentür heute offen?')).toMatchObject({ entities: ['binary_sensor.kitchen_door'], history: { measure: 'how_often' } });
  });
  test('a reading asked for a period is not a question of whether; a time in a command still refuses', () => {
    expect(past(en, 'how much gas did we use today')).toMatchObject({ kind: 'not_understood', reason: 'period' });
    expect(past(en, 'turn on the garage light tomorrow')).toMatchObject({ kind: 'not_understood', reason: 'time' });
    expect(past(en, 'how long should I leave the garage light on')).toMatchObject({ kind: 'not_understood' });
  });
});

describe('the answer from the history tool', () => {
  const langs = readLanguages();
  const home = loadHome(fixture('home.yaml'));
  const entity = (id: string) => {
    const e = home.entities.find((x) => x.entity_id === id);
    return e && ({ id, domain: id.split('.')[0]!, name: String(e.name), cls: undefined, area: null, floor: null, background: false, words: [] } as never);
  };
  const NOW = Date.parse('2026-11-28T18:00:00Z');
  const rows = [
    { entity_id: 'lock.front_door', when: '2026-11-28T00:00:00+00:00', state: 'locked' },
    { entity_id: 'lock.front_door', when: '2026-11-28T07:42:10+00:00', state: 'unlocked' },
    { entity_id: 'lock.front_door', when: '2026-11-28T07:50:00+00:00', state: 'locked' },
    { entity_id: 'lock.front_door', when: '2026-11-28T12:00:00+00:00', state: 'unlocked' },
    { entity_id: 'lock.front_door', when: '2026-11-28T12:30:00+00:00', state: 'locked' },
  ];
  const deps = (lang: string, call?: () => Promise<unknown>) => ({
    call: (call ?? (async () => ({ structuredContent: { changes: rows, next_cursor: null } }))) as never,
    entity,
    name: () => (lang === 'en' ? 'Front Door' : 'Haustür'),
    zone: 'UTC',
    lang: langs.get(lang)!,
    now: NOW,
  });
  const ask = (measure: string, state: string, lang = 'en', call?: () => Promise<unknown>) =>
    answerPast({ window: 'today', measure: measure as never, state }, ['lock.front_door'], deps(lang, call));

  test('whether, how long, how often, when last', async () => {
    expect(await ask('whether', 'unlocked')).toEqual({
      answer: 'Yes: Front Door was unlocked today, from 07:42 to 07:50 and from 12:00 to 12:30.',
      matching: ['lock.front_door'],
    });
    expect((await ask('how_long', 'unlocked')).answer).toBe('Front Door was unlocked for 38 min today.');
    expect((await ask('how_often', 'unlocked')).answer).toBe('Front Door was unlocked 2 times today.');
    expect((await ask('when', 'unlocked')).answer).toBe('Front Door was last unlocked at 12:00, until 12:30.');
    expect((await ask('when', 'locked')).answer).toBe('Front Door has been locked since 12:30.');
    expect((await ask('whether', 'unlocked', 'de')).answer).toBe('Ja: Haustür war heute aufgeschlossen, von 07:42 bis 07:50 und von 12:00 bis 12:30.');
  });
  test('never in the state: no, and no recorder: said, never guessed', async () => {
    const none = async () => ({ structuredContent: { changes: rows.slice(0, 1), next_cursor: null } });
    expect(await ask('whether', 'unlocked', 'en', none)).toEqual({ answer: 'No: Front Door was not unlocked today.', matching: [] });
    expect((await ask('whether', 'unlocked', 'de', none)).answer).toBe('Nein: Haustür war heute nicht aufgeschlossen.');
    const away = async () => ({
      isError: true,
      content: [{ type: 'text', text: 'no history' }],
      structuredContent: { error: { code: 'HUB_ERROR', message: 'its history integration is not loaded' } },
    });
    expect((await ask('whether', 'unlocked', 'en', away)).answer).toBe(
      "I cannot tell: Home Assistant's recorder did not answer (its history integration is not loaded).",
    );
    const hidden = async () => ({ isError: true, structuredContent: { error: { code: 'FORBIDDEN', message: 'not allowed' } } });
    await expect(ask('whether', 'unlocked', 'en', hidden)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
