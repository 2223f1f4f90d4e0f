// The language of a command: named by the request (a BCP 47 tag, de-CH answered in German), else
// COMMAND_LANGUAGE, else the hub's own; replies are sentences in it on every transport. A third
// language needs no code: a made-up one here is a folder of data and a plugin's words file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture } from '../helpers/nl-cases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const temp = mkdtempSync(join(tmpdir(), 'hmb-lang-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The German fixture home, saying its own language as Home Assistant's configuration does. */
function germanHome(language: string): string {
  const file = join(temp, `home-${language}.yaml`);
  writeFileSync(file, `language: ${language}\n${readFileSync(fixture('de/home.yaml'), 'utf8')}`);
  return file;
}

async function wsCommand(s: TestServer, payload: Record<string, unknown>): Promise<any> {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
  const messages: any[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.type === 'connected') ws.send(JSON.stringify({ type: 'command', id: 1, payload }));
      else {
        messages.push(m);
        resolve();
      }
    });
    ws.on('error', reject);
  });
  ws.close();
  return messages[0];
}

describe('the language of a command', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: germanHome('de-AT') });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test('the hub’s configured language (de-AT) chooses German when the request names none', async () => {
    const r = await s.call('/api/command', 'POST', { command: 'schalte die Schreibtischlampe ein', dry_run: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      actions: [{ entity_id: 'light.bedroom_desk_lamp', action: 'turn_on', status: 'planned' }],
      message: 'Ich würde Schreibtischlampe einschalten.',
    });
  });

  test('a request names its own: en, de, de-CH; an unknown one is refused naming those there are', async () => {
    const en = await s.call('/api/command', 'POST', { command: 'turn on the desk lamp', language: 'en', dry_run: true });
    expect(en.status).toBe(422);
    expect(en.body.message).toMatch(/^I did nothing/);
    const ch = await s.call('/api/command', 'POST', { command: 'schalte die Schreibtischlampe ein', language: 'de-CH', dry_run: true });
    expect(ch.body.actions).toMatchObject([{ entity_id: 'light.bedroom_desk_lamp', action: 'turn_on' }]);
    const fr = await s.call('/api/command', 'POST', { command: 'allume la lampe', language: 'fr' });
    expect(fr.status).toBe(400);
    expect(fr.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'language', languages: expect.arrayContaining(['de', 'en']) } });
    const nowhere = await s.call('/api/command', 'POST', { command: 'Licht an', language: 'de', context: { area: 'Kühe' } });
    expect(nowhere.body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: expect.stringMatching(/^Ich habe nichts getan: Einen Bereich „Kühe“ gibt es nicht; am nächsten sind [^.]+ und [^.]+\.$/),
      details: { field: 'context.area' },
    });
    const bad = await s.call('/api/command', 'POST', { command: 'x', language: 'not a tag' });
    expect(bad.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { issues: [expect.objectContaining({ field: 'language' })] } });
  });

  test('refusals, questions and ambiguity are sentences in German, over REST and the WebSocket', async () => {
    const no = await s.call('/api/command', 'POST', { command: 'schalte die Schreibtischlampe nicht ein', language: 'de' });
    expect(no.status).toBe(422);
    expect(no.body).toMatchObject({
      code: 'NOT_UNDERSTOOD',
      details: { reason: 'negation', words: ['nicht'] },
      message: expect.stringMatching(/^Ich habe nichts getan: Der Befehl sagt „nicht“/),
    });
    const q = await s.call('/api/command', 'POST', { command: 'ist die Haustür abgeschlossen?', language: 'de' });
    expect(q.body).toMatchObject({ query: { entities: ['lock.front_door'] }, message: 'Ja. Haustür: abgeschlossen.' });
    const which = await wsCommand(s, { command: 'schalte die Lampe an', language: 'de-CH' });
    expect(which).toMatchObject({
      type: 'error',
      id: 1,
      error: {
        code: 'AMBIGUOUS',
        message: expect.stringMatching(/^Was meinst du mit „lampe“: Schlafzimmerlampe \(Schlafzimmer\) oder Schreibtischlampe \(Schlafzimmer\)\?/),
      },
    });
    expect(which.error.details.candidates.map((c: { entity_id: string }) => c.entity_id).sort()).toEqual(['light.bedroom_desk_lamp', 'light.bedroom_lamp']);
  });
});

test('COMMAND_LANGUAGE wins over the hub’s language; one the bridge has no words for stops the start', async () => {
  const s = await startTestServer({ SIM_HOME: germanHome('de'), COMMAND_LANGUAGE: 'en' });
  try {
    await s.app.hub.ready();
    const r = await s.call('/api/command', 'POST', { command: 'turn on the desk lamp', dry_run: true });
    expect(r.status).toBe(422);
    expect(r.body.message).toMatch(/^I did nothing/);
  } finally {
    await s.close();
  }
  // The plugins are set up before the command service is made with their words: a start that
  // fails there closes them again (a user plugin writes down both).
  const plugins = join(temp, 'closing-plugins');
  const said = join(temp, 'closing-plugins.log');
  mkdirSync(plugins, { recursive: true });
  writeFileSync(
    join(plugins, 'closing.mjs'),
    `import { appendFileSync } from 'node:fs';
export default { name: 'closing', version: '1.0.0', bridge: '>=0.2.0', setup: () => appendFileSync(${JSON.stringify(said)}, 'setup\\n'), close: () => appendFileSync(${JSON.stringify(said)}, 'close\\n') };
`,
  );
  await expect(startTestServer({ COMMAND_LANGUAGE: 'fr', PLUGINS_DIR: plugins })).rejects.toThrow(
    /COMMAND_LANGUAGE: the command parser has no words for "fr"; it has de, en/,
  );
  expect(readFileSync(said, 'utf8')).toBe('setup\nclose\n');
});

describe('a third language is data only', () => {
  // "Qaa" (an ISO 639 code reserved for local use), made up for this test: blorp = turn on,
  // snarf = turn off, glim = light, zo = the, nix = not, moro = tomorrow, ka = is, lit = on.
  const lang = join(temp, 'lang', 'qaa');
  const plugin = join(temp, 'plugins', 'qaa_lights');
  mkdirSync(lang, { recursive: true });
  mkdirSync(join(plugin, 'words'), { recursive: true });
  writeFileSync(join(lang, 'grammar.json'), JSON.stringify({ plural: [['', 'i']], numbers: { un: 1, du: 2 }, number_scales: { dek: 10 } }));
  writeFileSync(
    join(lang, 'words.json'),
    JSON.stringify({
      actions: { turn_on: ['blorp'], turn_off: ['snarf'] },
      units: { percent: ['perz'] },
      to: ['pa'],
      here: ['hiro'],
      filler: ['zo', 'plez'],
      negation: ['nix'],
      time: ['moro'],
      questions: { yesno: ['ka'] },
      states: { on: ['lit'], off: ['dun'] },
      list_joiners: ['e', ','],
    }),
  );
  const sentences: Record<string, string> = {
    list_and: '{rest} e {last}',
    list_or: '{rest} o {last}',
    planned: 'Wud {what}.',
    failed: 'Fel {what}: {error}',
    ambiguous: 'Wic {noun}: {candidates}? Nix dun.',
    not_understood: 'Nix dun: {words} in “{command}” nix ken.',
    closest: 'Nir: {names}.',
    did_you_mean: 'Nix dun: {guess} for {word}?',
    no_action: 'Nix dun: wat in “{command}”?',
    no_target: 'Nix dun: nix {words}.',
    no_target_in: 'Nix dun: nix {words} in {where}.',
    cannot: 'Nix dun: kan nix {what}.',
    scene_action: 'Nix dun: {names} sen.',
    group_action: 'Nix dun: grup nix {words}.',
    negation: 'Nix dun: {words} sed nix.',
    time: 'Nix dun: nau, nix {words}.',
    condition: 'Nix dun: nix if {words}.',
    quantity: 'Nix dun: {words}.',
    range: 'Nix dun: {value} nix {min}-{max}.',
    count_of_things: 'Nix dun: {words}.',
    no_antecedent: 'Nix dun: {words} wat?',
    exception: 'Nix dun: nix {words}.',
    part: 'Part: “{part}”.',
    confirm: 'Nix dun: sho {what}.',
    forbidden: 'Nix dun: {names} nix.',
    yes: 'Ya',
    no: 'Na',
    none: 'Nun.',
    count: '{count}/{total}',
    value: '{name}: {value}.',
    unknown_value: '?',
    nothing_to_answer: 'Nun.',
    quote: '«{text}»',
    no_such: 'Nun {what} in {where}.',
    no_such_anywhere: 'Nun {what}.',
    sensor: '{kind} sensr',
    thing: 'thing',
    unverified: '{name} {actual}, nix {expected}.',
    pending: '{name} stil {actual}.',
    hub_away: 'Nix dun: hub gon.',
    hub_unknown: 'Nix dun: hub nevr sen.',
    no_area: 'Nix dun: nix {area}; nir: {names}.',
    keep: 'Nix dun: {words}.',
    asked: 'Nix dun: ask {words}.',
    no_place: 'Nix dun: nun plas {words}.',
    period: 'Nun fo {words}.',
    history: 'Nun ago {words}.',
    'do.turn_on': 'blorp {names}',
    'done.turn_on': 'Blorpd {names}.',
    'do.turn_off': 'snarf {names}',
    'done.turn_off': 'Snarfd {names}.',
    'do.brightness': 'blorp {names} pa {value} perz',
    'state.on': 'lit',
    'state.off': 'dun',
  };
  writeFileSync(join(lang, 'messages.json'), JSON.stringify(sentences));
  // The plugin's words for its domain, as plugins/<name>/words/qaa.json would be for a built-in one.
  writeFileSync(join(plugin, 'words', 'qaa.json'), JSON.stringify({ domains: { light: { nouns: ['glim'] } } }));
  writeFileSync(
    join(plugin, 'index.mjs'),
    "import { definePlugin } from 'home-mcp-bridge/plugin';\nexport default definePlugin({ name: 'qaa_lights', version: '1.0.0', bridge: '>=0.1.0', words: new URL('./words/', import.meta.url) });\n",
  );

  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ PLUGINS_DIR: join(temp, 'plugins') }, { languageDirs: [join(temp, 'lang')] });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test('it plans, refuses, asks and answers in its own words', async () => {
    const on = await s.call('/api/command', 'POST', { command: 'blorp zo glimi hiro', language: 'qaa', context: { area: 'Kitchen' }, dry_run: true });
    expect(on.status).toBe(200);
    expect(on.body.actions.map((a: { entity_id: string }) => a.entity_id).sort()).toEqual(['light.kitchen_ceiling', 'light.kitchen_strip']);
    expect(on.body.message).toBe('Wud blorp Kitchen Ceiling e Kitchen Strip.');
    const set = await s.call('/api/command', 'POST', { command: 'blorp zo Bedroom Lamp pa du dek perz', language: 'qaa', dry_run: true });
    expect(set.body).toMatchObject({
      actions: [{ entity_id: 'light.bedroom_lamp', action: 'turn_on', parameters: { brightness_pct: 20 } }],
      message: 'Wud blorp Bedroom Lamp pa 20 perz.',
    });
    const nix = await s.call('/api/command', 'POST', { command: 'nix blorp zo Bedroom Lamp', language: 'qaa' });
    expect(nix.body).toMatchObject({ code: 'NOT_UNDERSTOOD', details: { reason: 'negation' }, message: 'Nix dun: «nix» sed nix.' });
    const later = await s.call('/api/command', 'POST', { command: 'snarf zo Bedroom Lamp moro', language: 'qaa' });
    expect(later.body).toMatchObject({ details: { reason: 'time' }, message: 'Nix dun: nau, nix «moro».' });
    const which = await s.call('/api/command', 'POST', { command: 'blorp zo glim', language: 'qaa' });
    expect(which.status).toBe(409);
    expect(which.body).toMatchObject({ code: 'AMBIGUOUS', message: expect.stringMatching(/^Wic glim: .* o .*\? Nix dun\.$/) });
    const ka = await s.call('/api/command', 'POST', { command: 'ka zo Kitchen Ceiling lit', language: 'qaa' });
    expect(ka.body).toMatchObject({
      query: { entities: ['light.kitchen_ceiling'] },
      message: expect.stringMatching(/^(Ya|Na)\. Kitchen Ceiling: (lit|dun)\.$/),
    });
  });
});
