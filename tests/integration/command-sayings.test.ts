// Commands a person would say about calendars, to-do lists, the weather and energy, in English and
// German, through REST /api/command and MCP's command tool, against the simulator's demo home
// (Europe/Amsterdam): each answers naming what it read, a question never acts, adding an item is
// an action on the list (refused in read-only mode), an hour that could be morning or afternoon is
// asked.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startOf } from '../../src/plugin-sdk/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s?.close());

const ZONE = 'Europe/Amsterdam';
const dateIn = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(ms));
const today = () => dateIn(Date.now());
const tomorrow = () => {
  const d = new Date(`${today()}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

const command = async (text: string, language = 'en', extra: Record<string, unknown> = {}, server = s) =>
  server.call('/api/command', 'POST', { command: text, language, ...extra });

async function mcpCommand(args: Record<string, unknown>, era: 'legacy' | 'modern' = 'legacy') {
  const client = new Client({ name: 'sayings-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  try {
    const r = (await client.callTool({ name: 'command', arguments: args })) as { isError?: boolean; content: { text?: string }[]; structuredContent?: any };
    return r;
  } finally {
    await client.close();
  }
}

const items = async (list: string) => {
  const r = await s.call('/api/tools/call', 'POST', { name: 'todo', arguments: { operation: 'items', list } });
  return (r.body.structuredContent.items as { summary: string; status: string }[]).map((i) => `${i.summary}:${i.status}`);
};

describe('to-do lists', () => {
  test('a question reads the lists and acts on nothing (en and de, REST and MCP)', async () => {
    const before = await items('todo.shopping_list');
    const en = await command("what's on my to-do list?");
    expect(en.status, JSON.stringify(en.body)).toBe(200);
    expect(en.body.message).toBe('On Shopping List: Bread and Coffee. On Chores: Clean the gutters (due 2030-05-01) and Water the plants.');
    expect(en.body.actions).toEqual([]);
    expect(en.body.query).toMatchObject({ question: 'todo.items', entities: ['todo.shopping_list', 'todo.chores'] });
    const de = await command('was steht auf der Einkaufsliste?', 'de');
    expect(de.body.message).toBe('Auf Shopping List: Bread und Coffee.');
    const mcp = await mcpCommand({ command: 'Was steht auf der Einkaufsliste', language: 'de' });
    expect(mcp.isError).toBeFalsy();
    expect(mcp.content[0]!.text).toContain('Auf Shopping List: Bread und Coffee.');
    expect(await items('todo.shopping_list')).toEqual(before);
  });

  test('add, mark as done and cross off: English over REST, German over MCP in both eras', async () => {
    const added = await command('add milk to the shopping list');
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({
      success: true,
      message: 'Added “milk” to Shopping List.',
      action: 'add_item',
      device: 'todo.shopping_list',
      actions: [{ entity_id: 'todo.shopping_list', action: 'add_item', status: 'completed' }],
    });
    expect(await items('todo.shopping_list')).toContain('milk:needs_action');
    const done = await command('mark milk as done');
    expect(done.body.message).toBe('Marked “milk” as done on Shopping List.');
    expect(await items('todo.shopping_list')).toContain('milk:completed');

    const de = await mcpCommand({ command: 'setz Milch auf die Einkaufsliste', language: 'de' });
    expect(de.isError, de.content[0]?.text).toBeFalsy();
    expect(de.content[0]!.text).toContain('„Milch“ steht jetzt auf Shopping List.');
    const crossed = await mcpCommand({ command: 'streich Milch von der Liste', language: 'de' }, 'modern');
    expect(crossed.isError, crossed.content[0]?.text).toBeFalsy();
    expect(crossed.content[0]!.text).toContain('„Milch“ auf Shopping List ist abgehakt.');
    const after = await items('todo.shopping_list');
    expect(after.filter((x) => /^(milk|milch):/i.test(x)).sort()).toEqual(['Milch:completed', 'milk:completed']);
  });

  test('a dry run plans without adding; an item on no list is said so, nothing done', async () => {
    const before = await items('todo.shopping_list');
    const dry = await command('add butter to the shopping list', 'en', { dry_run: true });
    expect(dry.body).toMatchObject({ dry_run: true, message: 'Would add “butter” to Shopping List.', actions: [{ status: 'planned' }] });
    const missing = await command('mark caviar as done');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('I did nothing: there is no open item “caviar” on Shopping List and Chores.');
    expect(await items('todo.shopping_list')).toEqual(before);
  });

  test('adding to a list with no list named asks which (both lists listed as candidates)', async () => {
    const r = await command('add milk to my to-do list');
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.code).toBe('AMBIGUOUS');
    expect(r.body.details.candidates.map((c: { entity_id: string }) => c.entity_id)).toEqual(['todo.shopping_list', 'todo.chores']);
  });
});

describe('calendars', () => {
  test("what's on tomorrow: the demo's dentist, in the home's time zone (en and de, REST and MCP)", async () => {
    const en = await command("what's on my calendar tomorrow?");
    expect(en.status, JSON.stringify(en.body)).toBe(200);
    expect(en.body.message).toMatch(/^Family and Public holidays tomorrow \(times in Europe\/Amsterdam\): .*10:00 Dentist \(Main Street 4\) \[Family\]/);
    expect(en.body.query.entities).toEqual(['calendar.family', 'calendar.public_holidays']);
    const de = await mcpCommand({ command: 'was steht morgen im Kalender', language: 'de' }, 'modern');
    expect(de.content[0]!.text).toMatch(/morgen \(Zeiten in Europe\/Amsterdam\): .*10:00 Dentist/);
    const todayDe = await command('was steht heute im Kalender', 'de');
    expect(todayDe.status).toBe(200);
    expect(todayDe.body.message).toMatch(/heute \(Zeiten in Europe\/Amsterdam\)/);
  });

  test('add an event: a clear time is created on the home’s clock; "at 3" is asked, nothing created', async () => {
    const asked = await command('add dentist on Friday at 3 to the family calendar');
    expect(asked.status, JSON.stringify(asked.body)).toBe(409);
    expect(asked.body).toMatchObject({ code: 'AMBIGUOUS', details: { field: 'time', times: ['03:00', '15:00'] } });
    const made = await command(`add vet on ${tomorrow()} at 3 pm to the family calendar`);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.message).toBe('Added “vet” to Family tomorrow from 15:00 to 16:00 (times in Europe/Amsterdam).');
    expect(made.body).toMatchObject({ action: 'create_event', device: 'calendar.family' });
    const de = await mcpCommand({ command: 'trag Friseur morgen um 17 Uhr in den Familienkalender ein', language: 'de' });
    expect(de.isError, de.content[0]?.text).toBeFalsy();
    expect(de.content[0]!.text).toContain('„Friseur“ steht jetzt in Family, morgen von 17:00 bis 18:00 (Zeiten in Europe/Amsterdam).');
    const read = await command("what's on the family calendar tomorrow");
    expect(read.body.message).toContain('15:00 vet');
    expect(read.body.message).toContain('17:00 Friseur');
    // A calendar that cannot take events says so, and nothing is made.
    const holidays = await command(`add party on ${tomorrow()} to the public holidays calendar`);
    expect(holidays.status).toBe(400);
    expect(holidays.body.message).toMatch(/does not let events be created/);
  });
});

describe('weather', () => {
  test('current conditions with units, and tomorrow’s forecast (en and de, REST and MCP); nothing acts', async () => {
    const now = await command("what's the weather like?");
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    expect(now.body.message).toMatch(/^Weather from Home now: sunny, temperature 12\.3 °C, humidity 60%/);
    expect(now.body.query).toMatchObject({ question: 'weather.current', entities: ['weather.home'] });
    const rain = await command('will it rain tomorrow?');
    expect(rain.status, JSON.stringify(rain.body)).toBe(200);
    expect(rain.body.message).toMatch(/^Forecast from Home for tomorrow: .+, -?[\d.]+–-?[\d.]+ °C/);
    expect(rain.body.actions).toEqual([]);
    const de = await mcpCommand({ command: 'wie wird das Wetter morgen', language: 'de' });
    expect(de.content[0]!.text).toMatch(/^Vorhersage laut Home für morgen: /);
    const deNow = await command('wie ist das Wetter', 'de');
    expect(deNow.body.message).toMatch(/^Wetter laut Home jetzt: sonnig, Temperatur 12\.3 °C, Luftfeuchtigkeit 60%/);
  });
});

describe('a home with two weather entities', () => {
  test('is asked which one, and the one chosen answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hmb-weather-'));
    const file = join(dir, 'home.yaml');
    writeFileSync(
      file,
      [
        'name: Two skies',
        'time_zone: UTC',
        'entities:',
        '  - entity_id: weather.berlin',
        '    state: rainy',
        '    attributes: {temperature: 4, temperature_unit: "°C", supported_features: 1}',
        '  - entity_id: weather.london',
        '    state: cloudy',
        '    attributes: {temperature: 9, temperature_unit: "°C", supported_features: 1}',
        '',
      ].join('\n'),
    );
    const two = await startTestServer({ SIM_HOME: file });
    try {
      await two.app.hub.ready();
      const asked = await command('is it raining?', 'en', {}, two);
      expect(asked.status, JSON.stringify(asked.body)).toBe(409);
      expect(asked.body.details.candidates.map((c: { entity_id: string }) => c.entity_id)).toEqual(['weather.berlin', 'weather.london']);
      const chosen = await command('is it raining?', 'en', { choose: 'weather.london' }, two);
      expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
      expect(chosen.body.message).toMatch(/^Weather from London now: cloudy, temperature 9 °C/);
    } finally {
      await two.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('energy', () => {
  test('today and this month, with units (en and de, REST and MCP)', async () => {
    const HOUR = 3_600_000;
    const start = startOf('day', Date.now(), ZONE);
    const hours: number[] = [];
    for (let t = start - 2 * HOUR; t + HOUR <= Date.now(); t += HOUR) hours.push(t);
    const hub = await RawClient.connect(s.app.simulator!.wsUrl, s.app.simulator!.token);
    try {
      for (const [id, unit, perHour] of [
        ['sensor.grid_energy_import', 'kWh', 0.5],
        ['sensor.gas_meter', 'm³', 0.125],
      ] as const) {
        const r = await hub.command({
          type: 'recorder/import_statistics',
          metadata: { has_mean: false, has_sum: true, name: null, source: 'recorder', statistic_id: id, unit_of_measurement: unit },
          stats: hours.map((t, i) => ({ start: new Date(t).toISOString(), state: 100 + perHour * (i + 1), sum: perHour * (i + 1) })),
        });
        expect(r.success, JSON.stringify(r)).toBe(true);
      }
    } finally {
      await hub.close();
    }
    const en = await command('how much energy did we use today?');
    expect(en.status, JSON.stringify(en.body)).toBe(200);
    expect(en.body.message).toMatch(/^Energy today \(.+ to .+, Europe\/Amsterdam\): the home used [\d.]+ kWh, from the grid [\d.]+ kWh and gas [\d.]+ m³\.$/);
    const de = await mcpCommand({ command: 'wie viel Strom haben wir diesen Monat verbraucht', language: 'de' });
    expect(de.isError, de.content[0]?.text).toBeFalsy();
    expect(de.content[0]!.text).toMatch(/^Energie diesen Monat \(.+\): Verbrauch des Hauses [\d.]+ kWh, aus dem Netz [\d.]+ kWh und Gas [\d.]+ m³\.$/);
  });
});

describe('read-only mode', () => {
  test('adding an item is an action on the list and is refused; questions still answer', async () => {
    const ro = await startTestServer({ TOOLS_READ_ONLY: 'true' });
    try {
      await ro.app.hub.ready();
      const before = (await ro.call('/api/tools/call', 'POST', { name: 'todo', arguments: { operation: 'items', list: 'todo.shopping_list' } })).body;
      const add = await command('add milk to the shopping list', 'en', {}, ro);
      expect(add.status, JSON.stringify(add.body)).toBe(403);
      expect(add.body.code).toBe('FORBIDDEN');
      const after = (await ro.call('/api/tools/call', 'POST', { name: 'todo', arguments: { operation: 'items', list: 'todo.shopping_list' } })).body;
      expect(after.structuredContent.items).toEqual(before.structuredContent.items);
      const q = await command('was steht auf der Einkaufsliste', 'de', {}, ro);
      expect(q.status, JSON.stringify(q.body)).toBe(200);
    } finally {
      await ro.close();
    }
  });
});
