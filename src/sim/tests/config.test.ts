// The simulator's config part as Home Assistant 2026.11 has it: automations and scripts through
// the config API (REST), reloaded into entities that run; their traces; helper collections over
// the WebSocket API; Lovelace dashboards in storage and YAML mode.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient, type Simulator, startSimulator } from '../testing.js';
import { configOf } from '../config/index.js';

let sim: Simulator;
let ws: RawClient;
const auth = { Authorization: 'Bearer sim-token', 'Content-Type': 'application/json' };

beforeAll(async () => {
  sim = await startSimulator({
    userToken: 'user-token',
    home: {
      entities: [
        { entity_id: 'light.bed', name: 'Bed', state: 'off', attributes: { supported_color_modes: ['brightness'] } },
        { entity_id: 'input_boolean.trigger', name: 'Trigger', state: 'off' },
        { entity_id: 'input_boolean.guard', name: 'Guard', state: 'off' },
      ],
      dashboards: [{ url_path: 'wall-panel', title: 'Wall panel', mode: 'yaml', filename: 'wall.yaml', config: { views: [{ title: 'Wall' }] } }],
    },
  });
  ws = await RawClient.connect(sim.wsUrl, 'sim-token');
});
afterAll(async () => {
  ws?.close();
  await sim?.stop();
});

async function rest(method: string, path: string, body?: unknown, token = 'sim-token') {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { ...auth, Authorization: `Bearer ${token}` },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, json: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : undefined };
}

const until = async <T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> => {
  for (let i = 0; i < 200; i++) {
    const v = await read();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never: ${what}`);
};
const state = (id: string) => sim.hub.states.get(id);

describe('automations through the config API', () => {
  const config = {
    alias: 'Bed light with trigger',
    triggers: [{ trigger: 'state', entity_id: 'input_boolean.trigger', to: 'on' }],
    conditions: [{ condition: 'state', entity_id: 'input_boolean.guard', state: 'off' }],
    actions: [{ action: 'light.turn_on', target: { entity_id: 'light.bed' } }],
  };

  test('created, reloaded after the answer, run by its trigger, traced', async () => {
    const created = await rest('POST', '/api/config/automation/config/bed_on', config);
    expect(created).toMatchObject({ status: 200, json: { result: 'ok' } });
    const entity = await until(() => configOf(sim.hub).scripted.automationEntity('bed_on'), 'the automation entity');
    expect(entity).toBe('automation.bed_light_with_trigger');
    expect(state(entity)?.attributes).toEqual({ id: 'bed_on', last_triggered: null, mode: 'single', current: 0, friendly_name: 'Bed light with trigger' });
    expect((await rest('GET', '/api/config/automation/config/bed_on')).json).toEqual({ id: 'bed_on', ...config });
    expect(await ws.command({ type: 'automation/config', entity_id: entity })).toMatchObject({
      success: true,
      result: { config: { id: 'bed_on', ...config } },
    });

    await ws.command({ type: 'call_service', domain: 'input_boolean', service: 'turn_on', target: { entity_id: 'input_boolean.trigger' } });
    await until(() => state('light.bed')?.state === 'on', 'the light on');
    const list = await until(async () => {
      const r = (await ws.command({ type: 'trace/list', domain: 'automation', item_id: 'bed_on' })).result as any[];
      return r.length && r[0].state === 'stopped' ? r : undefined;
    }, 'a finished trace');
    expect(list[0]).toMatchObject({
      last_step: 'action/0',
      state: 'stopped',
      script_execution: 'finished',
      domain: 'automation',
      item_id: 'bed_on',
      trigger: 'state of input_boolean.trigger',
    });
    const full = (await ws.command({ type: 'trace/get', domain: 'automation', item_id: 'bed_on', run_id: list[0].run_id })).result;
    expect(Object.keys(full.trace)).toEqual(['trigger/0', 'condition/0', 'condition/0/entity_id/0', 'action/0']);
    expect(full.trace['condition/0/entity_id/0'][0].result).toEqual({ result: true, state: 'off', wanted_state: 'off' });
    expect(full.trace['action/0'][0].result).toEqual({
      params: { domain: 'light', service: 'turn_on', service_data: {}, target: { entity_id: ['light.bed'] } },
      running_script: false,
    });
    expect(state(entity)?.attributes.last_triggered).toEqual(expect.any(String));
  });

  test('a failed condition and a failed action are what the trace says', async () => {
    await ws.command({ type: 'call_service', domain: 'input_boolean', service: 'turn_on', target: { entity_id: 'input_boolean.guard' } });
    await ws.command({ type: 'call_service', domain: 'input_boolean', service: 'turn_off', target: { entity_id: 'input_boolean.trigger' } });
    await ws.command({ type: 'call_service', domain: 'input_boolean', service: 'turn_on', target: { entity_id: 'input_boolean.trigger' } });
    const failed = await until(
      async () =>
        ((await ws.command({ type: 'trace/list', domain: 'automation', item_id: 'bed_on' })).result as any[]).find(
          (t) => t.script_execution === 'failed_conditions',
        ),
      'failed conditions',
    );
    expect(failed.last_step).toBe('condition/0/entity_id/0');

    expect(
      (
        await rest('POST', '/api/config/automation/config/bad_step', {
          alias: 'Bad',
          triggers: [{ trigger: 'event', event_type: 'go' }],
          actions: [{ action: 'light.turn_on', target: { entity_id: 'light.bed' }, data: { brightness: 'x' } }],
        })
      ).status,
    ).toBe(200);
    await until(() => configOf(sim.hub).scripted.automationEntity('bad_step'), 'the second automation');
    await ws.command({ type: 'fire_event', event_type: 'go' });
    const error = await until(
      async () =>
        ((await ws.command({ type: 'trace/list', domain: 'automation', item_id: 'bad_step' })).result as any[]).find((t) => t.script_execution === 'error'),
      'an error',
    );
    expect(error).toMatchObject({ last_step: 'action/0', trigger: "event 'go'", error: expect.stringContaining('brightness') });
  });

  test("refusals in Home Assistant's words, and nothing written", async () => {
    const cases: [unknown, number, string][] = [
      [{ alias: 'x', actions: [] }, 400, "Message malformed: required key not provided at 'triggers'"],
      [{ alias: 'x', triggers: [], actions: [], foo: 1 }, 400, "Message malformed: not a valid option at 'foo'"],
      [{ alias: 'x', triggers: [{ trigger: 'nope' }], actions: [] }, 400, "Message malformed: Invalid trigger 'nope' specified"],
      [{ alias: 'x', triggers: [{ trigger: 'state' }], actions: [] }, 400, "Message malformed: required key not provided at 'entity_id'"],
      [
        { alias: 'x', triggers: [], conditions: [{ condition: 'state', entity_id: 'light.bed' }], actions: [] },
        400,
        "Message malformed: required key not provided at 'conditions[0].state'",
      ],
      [{ alias: 'x', triggers: [], actions: [{ foo: 1 }] }, 400, "Message malformed: Unable to determine action at 'actions[0]'"],
      [
        { alias: 'x', triggers: [], actions: [], mode: 'often' },
        400,
        "Message malformed: value must be one of ['parallel', 'queued', 'restart', 'single'] at 'mode'",
      ],
    ];
    for (const [body, status, msg] of cases)
      expect(await rest('POST', '/api/config/automation/config/refused', body)).toMatchObject({ status, json: { message: msg } });
    expect((await rest('POST', '/api/config/automation/config/refused', 'nope')).json).toEqual({ message: 'Invalid JSON specified' });
    expect((await rest('GET', '/api/config/automation/config/refused')).status).toBe(404);
    expect((await rest('DELETE', '/api/config/automation/config/refused')).json).toEqual({ message: 'Resource not found' });
    expect((await rest('POST', '/api/config/automation/config/x', { alias: 'x', triggers: [], actions: [] }, 'user-token')).status).toBe(401);
  });

  test('a reload that fails leaves the automation unavailable; delete removes it', async () => {
    configOf(sim.hub).scripted.failNextReload.add('bed_on');
    await rest('POST', '/api/config/automation/config/bed_on', { ...config, alias: 'Bed light with trigger' });
    await until(() => state('automation.bed_light_with_trigger')?.state === 'unavailable', 'unavailable');
    expect((await rest('DELETE', '/api/config/automation/config/bed_on')).json).toEqual({ result: 'ok' });
    await until(() => !state('automation.bed_light_with_trigger'), 'removed');
  });
});

describe('scripts', () => {
  test('created, its service registered, run and traced; key checked', async () => {
    expect((await rest('POST', '/api/config/script/config/Bad Key', { sequence: [] })).json).toEqual({
      message: 'Key malformed: invalid slug Bad Key (try bad_key)',
    });
    expect((await rest('POST', '/api/config/script/config/s1', { sequence: [], bogus: 1 })).json).toEqual({
      message: "Message malformed: not a valid option at 'bogus'",
    });
    await ws.command({ type: 'call_service', domain: 'light', service: 'turn_off', target: { entity_id: 'light.bed' } });
    expect(
      (await rest('POST', '/api/config/script/config/bed_on', { alias: 'Bed on', sequence: [{ action: 'light.turn_on', target: { entity_id: 'light.bed' } }] }))
        .status,
    ).toBe(200);
    await until(() => state('script.bed_on'), 'the script');
    expect(state('script.bed_on')?.attributes).toEqual({ last_triggered: null, mode: 'single', current: 0, friendly_name: 'Bed on' });
    expect((await ws.command({ type: 'call_service', domain: 'script', service: 'bed_on' })).success).toBe(true);
    expect(state('light.bed')?.state).toBe('on');
    const [trace] = (await ws.command({ type: 'trace/list', domain: 'script', item_id: 'bed_on' })).result as any[];
    expect(trace).toMatchObject({ last_step: 'sequence/0', script_execution: 'finished', domain: 'script', item_id: 'bed_on' });
    expect(trace.trigger).toBeUndefined();
    expect((await rest('DELETE', '/api/config/script/config/bed_on')).status).toBe(200);
    await until(() => !state('script.bed_on'), 'gone');
  });
});

describe('helpers', () => {
  test('create, list, update (a whole replacement), delete, with their entities', async () => {
    const made = await ws.command({ type: 'input_boolean/create', name: 'Test switch', icon: 'mdi:test' });
    expect(made.result).toEqual({ id: 'test_switch', name: 'Test switch', icon: 'mdi:test' });
    expect((await ws.command({ type: 'input_boolean/create', name: 'Test switch' })).result).toEqual({ id: 'test_switch_2', name: 'Test switch' });
    expect(state('input_boolean.test_switch')?.attributes).toEqual({ editable: true, icon: 'mdi:test', friendly_name: 'Test switch' });
    expect((await ws.command({ type: 'input_boolean/update', input_boolean_id: 'test_switch', name: 'Renamed' })).result).toEqual({
      id: 'test_switch',
      name: 'Renamed',
    });
    expect(state('input_boolean.test_switch')?.attributes).toEqual({ editable: true, friendly_name: 'Renamed' });
    expect((await ws.command({ type: 'input_boolean/update', input_boolean_id: 'nope', name: 'x' })).error).toEqual({
      code: 'not_found',
      message: 'Unable to find input_boolean_id nope',
    });
    expect((await ws.command({ type: 'input_boolean/delete', input_boolean_id: 'test_switch_2' })).success).toBe(true);
    expect(state('input_boolean.test_switch_2')).toBeUndefined();
    expect(((await ws.command({ type: 'input_boolean/list' })).result as any[]).map((i) => i.id)).toEqual(['trigger', 'guard', 'test_switch']);
  });

  test('every type, with the defaults and refusals of 2026.11', async () => {
    const r = async (msg: Record<string, unknown>) => ws.command(msg);
    expect((await r({ type: 'input_number/create', name: 'Level', min: 0, max: 10 })).result).toEqual({
      id: 'level',
      name: 'Level',
      min: 0,
      max: 10,
      step: 1,
      mode: 'slider',
    });
    expect(state('input_number.level')?.state).toBe('0.0');
    expect((await r({ type: 'input_number/create', name: 'Bad', min: 10, max: 0 })).error).toEqual({
      code: 'invalid_format',
      message: "Maximum (10.0) is not greater than minimum (0.0). Got {'name': 'Bad', 'min': 10.0, 'max': 0.0, 'step': 1.0, 'mode': 'slider'}",
    });
    expect((await r({ type: 'input_number/create', name: 'Level2' })).error?.message).toBe(
      "required key not provided at 'max'. Got None\nrequired key not provided at 'min'. Got None",
    );
    expect((await r({ type: 'input_select/create', name: 'Mode', options: ['a', 'b'] })).result).toEqual({ id: 'mode', name: 'Mode', options: ['a', 'b'] });
    expect((await r({ type: 'input_select/create', name: 'M', options: [] })).error?.message).toBe("value must not be empty at 'options'. Got []");
    expect((await r({ type: 'input_select/create', name: 'M', options: ['a', 'a'] })).error).toEqual({
      code: 'home_assistant_error',
      message: 'Duplicate options are not allowed',
    });
    expect((await r({ type: 'input_text/create', name: 'Note' })).result).toEqual({ id: 'note', name: 'Note', min: 0, max: 100, mode: 'text' });
    expect((await r({ type: 'input_datetime/create', name: 'When', has_date: true, has_time: true })).result).toEqual({
      id: 'when',
      name: 'When',
      has_date: true,
      has_time: true,
    });
    expect((await r({ type: 'input_datetime/create', name: 'W' })).error?.message).toBe(
      "Entity needs at least a date or a time. Got {'name': 'W', 'has_date': False, 'has_time': False}",
    );
    expect((await r({ type: 'input_button/create', name: 'Press' })).result).toEqual({ id: 'press', name: 'Press' });
    expect((await r({ type: 'counter/create', name: 'Count' })).result).toEqual({
      id: 'count',
      name: 'Count',
      initial: 0,
      maximum: null,
      minimum: null,
      restore: true,
      step: 1,
    });
    expect((await r({ type: 'timer/create', name: 'Egg', duration: '00:03:00' })).result).toEqual({
      id: 'egg',
      name: 'Egg',
      duration: '0:03:00',
      restore: false,
    });
    expect((await r({ type: 'timer/create', name: 'E', duration: 'abc' })).error?.message).toBe(
      "offset abc should be format 'HH:MM', 'HH:MM:SS' or 'HH:MM:SS.F' at 'duration'. Got 'abc'",
    );
    expect((await r({ type: 'input_boolean/create', name: 'Other', bogus: 1 })).error?.message).toBe("not a valid option at 'bogus'. Got 1");
    expect((await r({ type: 'input_boolean/create' })).error?.message).toBe("required key not provided at 'name'. Got None");
  });
});

describe('lovelace', () => {
  test('the default dashboard has no config until saved; a YAML one refuses saving', async () => {
    expect((await ws.command({ type: 'lovelace/config' })).error).toEqual({ code: 'config_not_found', message: 'No config found.' });
    expect((await ws.command({ type: 'lovelace/config', url_path: 'nope' })).error).toEqual({
      code: 'config_not_found',
      message: 'Unknown config specified: nope',
    });
    expect((await ws.command({ type: 'lovelace/config/save', config: { views: [{ title: 'Home', cards: [] }] } })).success).toBe(true);
    expect((await ws.command({ type: 'lovelace/config' })).result).toEqual({ views: [{ title: 'Home', cards: [] }] });
    expect((await ws.command({ type: 'lovelace/config', url_path: 'wall-panel' })).result).toEqual({ views: [{ title: 'Wall' }] });
    expect((await ws.command({ type: 'lovelace/config/save', url_path: 'wall-panel', config: { views: [] } })).error).toEqual({
      code: 'error',
      message: 'Not supported',
    });
    expect((await ws.command({ type: 'lovelace/dashboards/list' })).result).toEqual([
      { mode: 'yaml', title: 'Wall panel', filename: 'wall.yaml', require_admin: false, show_in_sidebar: true, url_path: 'wall-panel' },
    ]);
  });
});
