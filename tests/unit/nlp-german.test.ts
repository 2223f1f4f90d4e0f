// German grammar as data, against the German corpus's fixture home: words written together,
// separable verbs with their particle at the end, number words, verb-final and verb-first order,
// case endings, ß and ss, and the rules that refuse, in German words.
import { describe, expect, test } from 'vitest';
import { readLanguages } from '../../src/nlp/language.js';
import { Recoverer } from '../../src/nlp/recover.js';
import type { Outcome } from '../../src/nlp/plan.js';
import { tokenize } from '../../src/nlp/text.js';
import { loadHome } from '@home-mcp-bridge/sim/testing';
import { fixture } from '../helpers/nl-cases.js';
import { plannedCalls, plannerFor } from '../helpers/nlp-home.js';

const p = plannerFor(loadHome(fixture('de/home.yaml')), 'de');
const de = readLanguages().get('de')!;

/** Each planned call as "entity service data", sorted; throws on anything but actions. */
const calls = (command: string, area?: string): string[] => plannedCalls(p, command, area);
const reason = (command: string) =>
  (p.plan(command).find((o) => o.kind === 'not_understood') as Extract<Outcome, { kind: 'not_understood' }> | undefined)?.reason;
const BEDROOM = ['light.bedroom_desk_lamp', 'light.bedroom_lamp'];

describe('number words', () => {
  test('written as one, the unit before the tens', () => {
    expect(tokenize('fünfundzwanzig Prozent', de)).toEqual(['25', 'prozent']);
    expect(tokenize('zweiundvierzig', de)).toEqual(['42']);
    expect(tokenize('einundzwanzig Grad', de)).toEqual(['21', 'grad']);
    expect(tokenize('einhundert', de)).toEqual(['100']);
    expect(tokenize('dreißig', de)).toEqual(['30']);
    expect(tokenize('neunzehn komma fünf', de)).toEqual(['19.5']);
    expect(tokenize('19,5 Grad', de)).toEqual(['19.5', 'grad']);
  });
  test('"ein" is an article or a particle, a number only inside a compound', () => {
    expect(tokenize('schalte ein Licht ein', de)).toEqual(['schalte', 'ein', 'licht', 'ein']);
    expect(calls('stell die Schreibtischlampe auf zweiundvierzig Prozent')).toEqual(['light.bedroom_desk_lamp turn_on {"brightness_pct":42}']);
  });
});

describe('words written together', () => {
  test('a compound of a room and a kind of thing is both (Wohnzimmerlampe); here the living room has no lamp', () => {
    expect(reason('mach die Wohnzimmerlampe an')).toBe('no_target');
    expect(calls('mach das Schlafzimmerlicht an')).toEqual(BEDROOM.map((id) => `${id} turn_on`));
  });
  test('a name written as one answers to its parts said apart', () => {
    expect(calls('schalte die Schlafzimmer Lampe aus')).toEqual(['light.bedroom_lamp turn_off']);
  });
  test('a linking letter between the parts (Küchenfenster, Einfahrtstor)', () => {
    expect(p.plan('ist das Küchenfenster offen?')[0]).toMatchObject({ kind: 'query', entities: ['binary_sensor.kitchen_window'] });
    expect(calls('öffne das Einfahrtstor')).toEqual(['cover.einfahrt_tor open_cover']);
  });
});

describe('separable verbs and word order', () => {
  test('the particle at the end, or the verb joined to it and last', () => {
    expect(calls('schalte die Schreibtischlampe ein')).toEqual(['light.bedroom_desk_lamp turn_on']);
    expect(calls('schalte die Schreibtischlampe wieder aus')).toEqual(['light.bedroom_desk_lamp turn_off']);
    expect(calls('die Schreibtischlampe ausschalten')).toEqual(['light.bedroom_desk_lamp turn_off']);
    expect(calls('Rollo links herunterfahren')).toEqual(['cover.wohnzimmer_rollo_links close_cover']);
    expect(calls('mach das Rollo vorn hoch')).toEqual(['cover.kueche_rollo_vorn open_cover']);
  });
  test('two clauses, each with its own particle or comparative', () => {
    expect(calls('schalte den Fernseher aus und die Schlafzimmerlampe an')).toEqual(['light.bedroom_lamp turn_on', 'media_player.tv turn_off']);
    expect(calls('Schlafzimmerlampe heller und Schreibtischlampe dunkler')).toEqual([
      'light.bedroom_desk_lamp turn_on {"brightness_step_pct":-10}',
      'light.bedroom_lamp turn_on {"brightness_step_pct":10}',
    ]);
  });
  test('a state word that fits a lock only as another state: auf of a door lock is unlocked', () => {
    expect(p.plan('ist die Haustür auf?')[0]).toMatchObject({
      kind: 'query',
      entities: ['lock.front_door'],
      matching: [],
      answer: 'Nein. Haustür: abgeschlossen.',
    });
  });
  test('auf is "to" before a value and a preposition before a place', () => {
    expect(calls('Helligkeit der Schlafzimmerlampe auf 10 %')).toEqual(['light.bedroom_lamp turn_on {"brightness_pct":10}']);
    expect(calls('mach die Markise Osten auf der Terrasse zu')).toEqual(['cover.terrasse_markise close_cover']);
    expect(calls('Stelle das Rollo vorn auf die niedrigste Stufe ein')).toEqual(['cover.kueche_rollo_vorn set_cover_position {"position":1}']);
    expect(calls('Farbe der Schlafzimmerlampe auf grün')).toEqual(['light.bedroom_lamp turn_on {"color_name":"green"}']);
  });
  test('a lock: auf unlocks, ab and zu lock', () => {
    expect(calls('sperr die Hintertür ab')).toEqual(['lock.back_door lock']);
    expect(calls('Hintertür ab')).toEqual(['lock.back_door lock']);
    expect(calls('Hintertür zu')).toEqual(['lock.back_door lock']);
    expect(calls('schließ die Haustür auf')).toEqual(['lock.front_door unlock']);
  });
  test('a question opens with its verb, which may say the state asked about', () => {
    expect(p.plan('lädt der Handyakku gerade?')[0]).toMatchObject({ kind: 'query', entities: ['binary_sensor.phone_battery_charging'] });
    expect(p.plan('steht das Küchenfenster offen?')[0]).toMatchObject({ kind: 'query', entities: ['binary_sensor.kitchen_window'] });
  });
});

describe('a time of day', () => {
  test('"um 8" with no unit is a time, refused; "um 2 Grad" is a change by them', () => {
    for (const c of ['dreh die Heizung um 8 hoch', 'stell die Heizung um 7 auf 21 Grad'])
      expect(p.plan(c)[0], c).toMatchObject({ kind: 'not_understood', reason: 'time' });
    expect(calls('mach es im Wohnzimmer um 2 Grad wärmer')).toEqual(['climate.living_room set_temperature {"temperature":24}']);
  });
});

describe('words for kinds of cover', () => {
  test('a kind means that kind by device class, in a place or of several, never every cover', () => {
    expect(calls('mach alle Markisen zu')).toEqual(['cover.terrasse_markise close_cover']);
    expect(calls('mach im Wohnzimmer die Vorhänge zu')).toEqual(['cover.wohnzimmer_vorhang_links close_cover', 'cover.wohnzimmer_vorhang_rechts close_cover']);
    expect(calls('Rollos runter')).toEqual(
      ['cover.kueche_rollo_vorn', 'cover.wohnzimmer_rollo_links', 'cover.wohnzimmer_rollo_rechts'].map((id) => `${id} close_cover`),
    );
    expect(calls('fahr die Rollläden hoch')).toEqual(['cover.wohnzimmer_rollladen_links open_cover']);
    // No skylight in this home: the blinds are not one.
    expect(p.plan('mach die Dachfenster auf')[0]).toMatchObject({ kind: 'not_understood' });
    expect(p.plan('welche Vorhänge im Wohnzimmer sind offen?')[0]).toMatchObject({
      kind: 'query',
      entities: ['cover.wohnzimmer_vorhang_links', 'cover.wohnzimmer_vorhang_rechts'],
    });
  });
  test('a word for two kinds (Tor: a gate or a garage door) means both, and one of them is asked', () => {
    expect(calls('mach alle Tore zu')).toEqual(['cover.einfahrt_tor close_cover', 'cover.garage_garagentuer close_cover']);
    expect(p.plan('mach das Tor auf')[0]).toMatchObject({ kind: 'ambiguous' });
  });
});

describe('endings and spellings', () => {
  test('an ending is taken off, not guessed at', () => {
    const r = new Recoverer(p.deps.lang, [p.deps.vocabulary, p.deps.home.names]).recover(['licht', 'des', 'wohnzimmers']);
    expect(r).toEqual({ tokens: ['licht', 'des', 'wohnzimmer'], guesses: [] });
  });
  test('a case ending off a known word (des Schlafzimmers), ß and ss alike', () => {
    expect(calls('mach das Licht des Schlafzimmers aus')).toEqual(BEDROOM.map((id) => `${id} turn_off`));
    expect(calls('schliesse das Rollo vorn')).toEqual(['cover.kueche_rollo_vorn close_cover']);
    expect(calls('schließe das Rollo vorn')).toEqual(['cover.kueche_rollo_vorn close_cover']);
  });
});

describe('refusals in German words', () => {
  test('nicht, kein, auf keinen Fall; Zeiten; wenn', () => {
    expect(reason('schalte die Schlafzimmerlampe nicht aus')).toBe('negation');
    expect(reason('schalte keine Lampe ein')).toBe('negation');
    expect(reason('öffne auf keinen Fall das Garagentor')).toBe('negation');
    expect(reason('schalte das Licht in zehn Minuten aus')).toBe('time');
    expect(reason('mach um 18 Uhr die Rollos runter')).toBe('time');
    expect(reason('wenn es kalt ist, mach die Heizung an')).toBe('condition');
    expect(reason('mach zwei der Lampen an')).toBe('count_of_things');
    expect(reason('lass die Schreibtischlampe an')).toBe('keep');
  });
  test('relative changes in the hub’s Celsius from its reading (it reports no target): a little is half a degree', () => {
    expect(calls('mach es im Wohnzimmer zwei Grad wärmer')).toEqual(['climate.living_room set_temperature {"temperature":24}']);
    expect(calls('Wohnzimmer etwas wärmer')).toEqual(['climate.living_room set_temperature {"temperature":22.5}']);
    expect(calls('die Küche um drei Grad kühler')).toEqual(['climate.kitchen set_temperature {"temperature":21}']);
  });
});
