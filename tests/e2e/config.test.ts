// Config editing against the real Home Assistant 2026.11, as an assistant does it over MCP (the
// official SDK client, 2026-07-28, answering the bridge's questions with yes): an automation that
// turns a light on when an input_boolean turns on is created, triggered (the light comes on),
// explained from its trace, changed (with its diff), restored to its first version and deleted;
// the same for a script, a helper and a dashboard card. Every change is previewed, then asked of
// the person; every version is kept. A config Home Assistant refuses comes back in plain words
// with nothing written. (Its 2024.3.3 run skips these: automations there are written with the
// keys of before 2024.10, and the issue asks for 2026.11.)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { HA_VERSION } from './ha-control.js';
import { eventually, haCall, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

const CURRENT = HA_VERSION === '2026.11.0';

let s: TestServer;
let mcp: Client;
const asked: string[] = [];

beforeAll(async () => {
  if (!CURRENT) return;
  s = await startTestServer({ HASS_URL, HASS_TOKEN, CONFIG_EDITING: 'true' });
  await s.app.hub.ready(30_000);
  mcp = new Client({ name: 'e2e-config', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } });
  mcp.setRequestHandler('elicitation/create', async (req) => {
    asked.push((req.params as { message: string }).message);
    return { action: 'accept', content: { confirm: true } } as never;
  });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
});
afterAll(async () => {
  await mcp?.close();
  await s?.close();
});

type Result = { isError?: boolean; content: { text: string }[]; structuredContent: Record<string, any> };
async function tool(name: string, args: Record<string, unknown>): Promise<Result> {
  const r = (await mcp.callTool({ name, arguments: args })) as unknown as Result;
  expect(r.isError, `${name}: ${r.content?.[0]?.text}`).toBeFalsy();
  return r;
}

/** Previews a change, checks its diff, then applies it: the person is asked (and says yes) with the diff in front of them. */
async function change(args: Record<string, unknown>, diffHas: string[] = []): Promise<Record<string, any>> {
  const preview = (await tool('config_change', { ...args, dry_run: true })).structuredContent;
  expect(preview).toMatchObject({ dry_run: true, applied: false });
  for (const line of diffHas) expect(preview.diff).toContain(line);
  const before = asked.length;
  const done = (await tool('config_change', { ...args, reason: 'end-to-end test' })).structuredContent;
  expect(asked.length).toBe(before + 1);
  for (const line of diffHas) expect(asked.at(-1)).toContain(line);
  expect(done).toMatchObject({ applied: true, preview_id: preview.preview_id });
  return done;
}

async function restoreFirst(kind: string, id: string): Promise<Record<string, any>> {
  const versions = (await tool('config_history', { kind, id })).structuredContent.versions as { id: number; change: string }[];
  const first = versions.filter((v) => v.change !== 'found').at(-1)!;
  const preview = (await tool('config_restore', { version: first.id, dry_run: true })).structuredContent;
  expect(preview).toMatchObject({ change: 'restored', restored_from: first.id });
  return (await tool('config_restore', { version: first.id, reason: 'back to the first version', preview_id: preview.preview_id })).structuredContent;
}

const light = 'light.bed_light';

describe.skipIf(!CURRENT)(`config editing against Home Assistant ${HA_VERSION}`, () => {
  test('a helper: created, changed (its diff), restored to its first version', async () => {
    const made = await change({ kind: 'helper', op: 'create', id: 'input_boolean', config: { name: 'E2E bedtime', icon: 'mdi:bed' } }, ['+name: E2E bedtime']);
    expect(made.id).toBe('input_boolean.e2e_bedtime');
    await eventually(
      () => haStateOf('input_boolean.e2e_bedtime'),
      (x) => x.state === 'off',
      'the helper in Home Assistant',
    );
    await change({ kind: 'helper', op: 'update', id: 'input_boolean.e2e_bedtime', config: { icon: 'mdi:sleep' } }, ['-icon: mdi:bed', '+icon: mdi:sleep']);
    await eventually(
      () => haStateOf('input_boolean.e2e_bedtime'),
      (x) => x.attributes.icon === 'mdi:sleep',
      'the new icon',
    );
    await restoreFirst('helper', 'input_boolean.e2e_bedtime');
    await eventually(
      () => haStateOf('input_boolean.e2e_bedtime'),
      (x) => x.attributes.icon === 'mdi:bed',
      'the first icon back',
    );
  });

  test('an automation: created, triggered (the light comes on), traced, changed, restored, deleted', async () => {
    await haCall('light', 'turn_off', { entity_id: light });
    await eventually(
      () => haStateOf(light),
      (x) => x.state === 'off',
      'the light off',
    );
    const v1 = {
      alias: 'E2E bedtime light',
      triggers: [{ trigger: 'state', entity_id: 'input_boolean.e2e_bedtime', to: 'on' }],
      actions: [{ action: 'light.turn_on', target: { entity_id: light } }],
    };
    const made = await change({ kind: 'automation', op: 'create', id: 'e2e_bedtime_light', config: v1 }, ['+alias: E2E bedtime light']);
    expect(made.entity_id).toBe('automation.e2e_bedtime_light');

    await haCall('input_boolean', 'turn_on', { entity_id: 'input_boolean.e2e_bedtime' });
    await eventually(
      () => haStateOf(light),
      (x) => x.state === 'on',
      'the light on, by the automation',
    );
    const why = await eventually(
      async () => (await tool('config_trace', { kind: 'automation', id: 'e2e_bedtime_light' })).structuredContent,
      (e) => e.runs.length > 0,
      'a run in the trace',
    );
    expect(why.why).toMatch(/on state of input_boolean\.e2e_bedtime, ran to the end \(1 step\)\.$/);

    const v2 = { ...v1, actions: [{ action: 'light.turn_on', target: { entity_id: light }, data: { brightness_pct: 30 } }] };
    const changed = await change({ kind: 'automation', op: 'update', id: 'automation.e2e_bedtime_light', config: v2 }, ['+      brightness_pct: 30']);
    expect(changed.words).toEqual(['actions: 1 changed']);
    expect((await tool('config_read', { kind: 'automation', id: 'e2e_bedtime_light' })).content[0]!.text).toContain('brightness_pct: 30');

    await restoreFirst('automation', 'e2e_bedtime_light');
    const read = await tool('config_read', { kind: 'automation', id: 'e2e_bedtime_light' });
    expect(read.structuredContent.config).toEqual({ id: 'e2e_bedtime_light', ...v1 });

    await change({ kind: 'automation', op: 'delete', id: 'e2e_bedtime_light' });
    const gone = (await mcp.callTool({ name: 'config_read', arguments: { kind: 'automation', id: 'e2e_bedtime_light' } })) as unknown as Result;
    expect(gone.isError).toBe(true);
    expect(gone.structuredContent.error.code).toBe('NOT_FOUND');
    const kept = (await tool('config_history', { kind: 'automation', id: 'e2e_bedtime_light' })).structuredContent.versions.map(
      (v: { change: string }) => v.change,
    );
    expect(kept).toEqual(['deleted', 'restored', 'updated', 'created']);
  });

  test('a script: created, run (the light comes on), traced, changed, restored, deleted', async () => {
    await haCall('light', 'turn_off', { entity_id: light });
    await eventually(
      () => haStateOf(light),
      (x) => x.state === 'off',
      'the light off',
    );
    const v1 = { alias: 'E2E light up', sequence: [{ action: 'light.turn_on', target: { entity_id: light } }] };
    await change({ kind: 'script', op: 'create', id: 'e2e_light_up', config: v1 }, ['+alias: E2E light up']);
    await eventually(
      () => s.app.hub.services.script?.e2e_light_up,
      (x) => x !== undefined,
      'the script service known to the bridge',
    );
    await tool('run_automation', { entity_id: 'script.e2e_light_up' });
    await eventually(
      () => haStateOf(light),
      (x) => x.state === 'on',
      'the light on, by the script',
    );
    const why = await eventually(
      async () => (await tool('config_trace', { kind: 'script', id: 'e2e_light_up' })).structuredContent,
      (e) => e.runs.length > 0 && e.runs[0].outcome === 'finished',
      'a finished run',
    );
    expect(why.runs[0].detail).toBe('ran to the end (1 step)');
    await change(
      {
        kind: 'script',
        op: 'update',
        id: 'script.e2e_light_up',
        config: { ...v1, sequence: [{ action: 'light.turn_on', target: { entity_id: light }, data: { brightness_pct: 60 } }] },
      },
      ['+      brightness_pct: 60'],
    );
    await restoreFirst('script', 'e2e_light_up');
    expect((await tool('config_read', { kind: 'script', id: 'e2e_light_up' })).structuredContent.config).toEqual(v1);
    await change({ kind: 'script', op: 'delete', id: 'e2e_light_up' });
    await eventually(
      async () => (await fetch(`${HASS_URL}/api/states/script.e2e_light_up`, { headers: { authorization: `Bearer ${HASS_TOKEN}` } })).status,
      (x) => x === 404,
      'the script gone',
    );
  });

  test('a dashboard card: added to a view, changed, restored, removed; a YAML dashboard is refused with the reason', async () => {
    await change({ kind: 'dashboard', op: 'create', id: 'default', config: { title: 'E2E', path: 'e2e', cards: [] } }, ['+  - title: E2E']);
    const withCard = await change({ kind: 'dashboard', op: 'create', id: 'default', view: 'e2e', config: { type: 'tile', entity: light } }, [
      '+        entity: light.bed_light',
    ]);
    await change({ kind: 'dashboard', op: 'update', id: 'default', view: 'e2e', card: 0, config: { type: 'tile', entity: 'light.ceiling_lights' } }, [
      '-        entity: light.bed_light',
      '+        entity: light.ceiling_lights',
    ]);
    const versions = (await tool('config_history', { kind: 'dashboard', id: 'default' })).structuredContent.versions as { id: number; summary: string }[];
    expect(versions.find((v) => v.id === withCard.version)!.summary).toMatch(/adds tile card \(light\.bed_light\) to view "E2E" at position 0/);
    await tool('config_restore', { version: withCard.version, reason: 'the first card back' });
    expect((await tool('config_read', { kind: 'dashboard', id: 'default' })).structuredContent.config.views.at(-1).cards).toEqual([
      { type: 'tile', entity: light },
    ]);
    await change({ kind: 'dashboard', op: 'delete', id: 'default', view: 'e2e', card: 0 });
    await change({ kind: 'dashboard', op: 'delete', id: 'default', view: 'e2e' });
    // The default dashboard had no config before this test: it gets none again (Home Assistant's own command; the bridge removes views and cards).
    const ws = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
    try {
      expect((await ws.command({ type: 'lovelace/config/delete' })).success).toBe(true);
    } finally {
      await ws.close();
    }

    const yaml = (await mcp.callTool({
      name: 'config_change',
      arguments: { kind: 'dashboard', op: 'create', id: 'yaml-board', view: 0, config: { type: 'tile', entity: light }, dry_run: true },
    })) as unknown as Result;
    expect(yaml.isError).toBe(true);
    expect(yaml.content[0]!.text).toBe(
      'The dashboard yaml-board is in YAML mode: Home Assistant reads it from yaml-board.yaml and never saves it, so it can only be changed in that file; the bridge changes dashboards Home Assistant stores itself (storage mode)',
    );
  });

  test('a config Home Assistant refuses comes back in plain words, and nothing is written', async () => {
    const before = asked.length;
    const r = (await mcp.callTool({
      name: 'config_change',
      arguments: {
        kind: 'automation',
        op: 'create',
        id: 'e2e_broken',
        config: { alias: 'Broken', triggers: [{ trigger: 'state' }], actions: [] },
        reason: 'test',
      },
    })) as unknown as Result;
    expect(r.isError).toBe(true);
    expect(r.structuredContent.error).toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: 'Home Assistant refused the automation: entity_id is required and missing',
      details: { hub_message: "Message malformed: required key not provided at 'entity_id'" },
    });
    // Asked, since the bridge cannot know before Home Assistant checks it; nothing was written.
    expect(asked.length).toBe(before + 1);
    expect((await fetch(`${HASS_URL}/api/config/automation/config/e2e_broken`, { headers: { authorization: `Bearer ${HASS_TOKEN}` } })).status).toBe(404);
    expect((await tool('config_history', { kind: 'automation', id: 'e2e_broken' })).structuredContent.versions).toEqual([]);
  });

  test('the helper is deleted at the end, its versions kept', async () => {
    await change({ kind: 'helper', op: 'delete', id: 'input_boolean.e2e_bedtime' });
    await eventually(
      async () => (await fetch(`${HASS_URL}/api/states/input_boolean.e2e_bedtime`, { headers: { authorization: `Bearer ${HASS_TOKEN}` } })).status,
      (x) => x === 404,
      'the helper gone',
    );
    expect(
      (await tool('config_history', { kind: 'helper', id: 'input_boolean.e2e_bedtime' })).structuredContent.versions.map((v: { change: string }) => v.change),
    ).toEqual(['deleted', 'restored', 'updated', 'created']);
  });
});
