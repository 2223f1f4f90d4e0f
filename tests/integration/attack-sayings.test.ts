// ATTACK (issue 37): the sayings plugin's commands (to-do items and calendar events added by a
// sentence, English and German) against lists and calendars the settings keep out or hide.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { exposeOnly } from '../helpers/exposed-only.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const command = (server: TestServer, text: string, language = 'en') => server.call('/api/command', 'POST', { command: text, language });
const items = async (server: TestServer, list: string) => {
  const r = await server.app.services.tools.call('todo', { operation: 'items', list }, undefined);
  return JSON.stringify((r as { structuredContent?: unknown }).structuredContent);
};

describe('a denied list and calendar (TOOLS_DENY)', () => {
  let x: TestServer;
  beforeAll(async () => {
    x = await startTestServer({ TOOLS_DENY: 'todo.shopping_list,calendar.family' });
    await x.app.hub.ready();
  });
  afterAll(() => x?.close());

  test('adding to it by name, German name or entity id in odd case is refused and nothing is added', async () => {
    const before = await items(x, 'todo.shopping_list');
    for (const [text, lang] of [
      ['add milk to the shopping list', 'en'],
      ['put milk on the Shopping List', 'en'],
      ['add milk to TODO.SHOPPING_LIST', 'en'],
      ['setz Milch auf die Einkaufsliste', 'de'],
      ['füge Milch zur Einkaufsliste hinzu', 'de'],
    ]) {
      const r = await command(x, text!, lang);
      expect(r.body.success === true && r.body.actions?.length > 0, `${text}: ${JSON.stringify(r.body)}`).toBe(false);
    }
    expect(await items(x, 'todo.shopping_list')).toBe(before);
  });

  test('an event on the denied calendar is refused', async () => {
    for (const [text, lang] of [
      ['add dentist to the family calendar tomorrow at 10', 'en'],
      ['trag Zahnarzt morgen um 10 in den Familienkalender ein', 'de'],
    ]) {
      const r = await command(x, text!, lang);
      expect(r.body.success === true && r.body.actions?.length > 0, `${text}: ${JSON.stringify(r.body)}`).toBe(false);
    }
  });
});

describe('lists and calendars hidden from Assist (TOOLS_EXPOSED_ONLY)', () => {
  let x: TestServer;
  beforeAll(async () => {
    x = await startTestServer({ TOOLS_EXPOSED_ONLY: 'true' });
    await exposeOnly(x, ['light.hallway']);
    // Home Assistant exposes to-do lists by default: these are hidden as a person would hide them.
    const hide = ['todo.shopping_list', 'todo.chores', 'calendar.family', 'calendar.public_holidays'];
    const raw = await RawClient.connect(x.app.simulator!.wsUrl, x.app.simulator!.token);
    const hidden = new Promise<void>((resolve) => {
      const off = x.app.services.exposure!.onChange(() => {
        if (hide.every((id) => !x.app.services.policy.maySee(id))) {
          off();
          resolve();
        }
      });
    });
    await raw.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: hide, should_expose: false });
    await raw.command({ type: 'config/entity_registry/update', entity_id: 'light.hallway', name: 'Hallway' });
    await raw.close();
    if (!hide.every((id) => !x.app.services.policy.maySee(id))) await hidden;
  });
  afterAll(() => x?.close());

  test('nothing is added to a hidden list, and no hidden list or calendar is named', async () => {
    for (const [text, lang] of [
      ['add milk to the shopping list', 'en'],
      ['add milk', 'en'],
      ['setz Milch auf die Einkaufsliste', 'de'],
      ['add dentist to the calendar tomorrow at 10', 'en'],
    ]) {
      const r = await command(x, text!, lang);
      const said = JSON.stringify(r.body);
      expect(r.body.success === true && r.body.actions?.length > 0, `${text}: ${said}`).toBe(false);
      expect(said, text).not.toMatch(/todo\.chores|calendar\.family|calendar\.public_holidays|Chores|Public holidays/i);
    }
  });
});
