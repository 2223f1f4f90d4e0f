// Questions about the past through POST /api/command (issue 39, sixth round), in English and German,
// against the simulator's recorder after real state changes: answered from the history plugin's
// get_history in one sentence (whether, how often, how long, when last), never acted on.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture } from '../helpers/nl-cases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TIME = '(\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d';

describe.each([
  {
    language: 'en',
    home: 'home.yaml',
    entity: 'light.bedroom_lamp',
    on: 'turn on the bedroom lamp',
    off: 'turn off the bedroom lamp',
    asks: [
      ['was the bedroom lamp on today?', new RegExp(`^Yes: Bedroom Lamp was on today, .*from ${TIME} to ${TIME}\\.$`)],
      ['how many times did the bedroom lamp come on today', /^Bedroom Lamp was on once today\.$/],
      ['when was the bedroom lamp last on', new RegExp(`^Bedroom Lamp was last on at ${TIME}, until ${TIME}\\.$`)],
      ['how long was the bedroom lamp on today', /^Bedroom Lamp was on for (less than a minute|\d+ min) today\.$/],
      ['was the bedroom switch on today', /^No: Bedroom Switch was not on today\.$/],
      // A binary sensor's state in its class's words; "how long" of a state never taken is "never".
      ['how long was the pet door open today', /^Pet Door was never open today\.$/],
    ],
  },
  {
    language: 'de',
    home: 'de/home.yaml',
    entity: 'light.bedroom_desk_lamp',
    on: 'mach die Schreibtischlampe an',
    off: 'mach die Schreibtischlampe aus',
    asks: [
      ['War die Schreibtischlampe heute an?', new RegExp(`^Ja: Schreibtischlampe war heute an, .*von ${TIME} bis ${TIME}\\.$`)],
      ['Wie oft war die Schreibtischlampe heute an?', /^Schreibtischlampe war heute einmal an\.$/],
      ['Wann war die Schreibtischlampe zuletzt an?', new RegExp(`^Schreibtischlampe war zuletzt um ${TIME} an, bis ${TIME}\\.$`)],
      ['Wie lange war die Küchentür heute offen?', /^Küchentür war heute .+ offen\.$/],
      ['Wann war die Schlafzimmerlampe zuletzt aus?', /^Schlafzimmerlampe war in den letzten 7 Tagen nicht aus, soweit der Recorder es festhält\.$/],
    ],
  },
] as const)('questions about the past in $language', ({ language, home, entity, on, off, asks }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  const command = (text: string) => s.call('/api/command', 'POST', { command: text, language });

  test('answered from the recorder after real changes, and nothing is done', async () => {
    // Off at the start, then on and off: one time on today, off now.
    for (const c of [on, off]) expect((await command(c)).status).toBe(200);
    await expect.poll(() => s.app.hub.cache.get(entity)?.state).toBe('off');
    for (const [text, answer] of asks) {
      const r = await command(text);
      expect(r.status, `${text}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.actions, text).toEqual([]);
      expect(r.body.query.answer, text).toMatch(answer);
      expect(r.body.message, text).toBe(r.body.query.answer);
    }
    expect(s.app.hub.cache.get(entity)?.state).toBe('off');
  });

  test('a dry run reads the same, and a thing said that is not there is not answered with another', async () => {
    const r = await s.call('/api/command', 'POST', { command: asks[0][0], language, dry_run: true });
    expect(r.status).toBe(200);
    expect(r.body.query.answer).toMatch(asks[0][1]);
    const none = await command(language === 'en' ? 'was the sauna light on yesterday' : 'war die Saunalampe gestern an');
    expect(none.status).not.toBe(200);
    expect(none.body.actions ?? []).toEqual([]);
  });
});
