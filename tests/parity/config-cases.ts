// Parity cases for Home Assistant's config part, as Home Assistant 2026.11.0 answers them (with its
// demo, `input_boolean:`... in configuration.yaml, automations.yaml and scripts.yaml included, and a
// YAML-mode dashboard yaml-board): the config API's REST views for automations, scripts and scenes and
// their refusals, the reload into entities, automation/config and script/config, trace/list and
// trace/get, the helper collections and lovelace/config. The same runner and step kinds as
// cases.ts; they run against the real hub (tests/e2e/config-parity.test.ts) and the simulator
// (tests/integration/sim-config-parity.test.ts).
import { expect } from 'vitest';
import type { ParityCase, Step } from './cases.js';

const ok = (result: unknown = null) => ({ type: 'result', success: true, result });
const failed = (code: string, message: string) => ({ type: 'result', success: false, error: { code, message } });
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?\+00:00$/);
const RUN_ID = expect.stringMatching(/^[0-9a-f]{32}$/);
/** The context of something the test's user caused over the API. */
const CONTEXT = { id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/), parent_id: null, user_id: expect.stringMatching(/^[0-9a-f]{32}$/) };
const malformed = (path: string, body: unknown, message: string): Step => ({ rest: { method: 'POST', path, body }, status: 400, json: { message } });
const call = (domain: string, service: string, entityId: string): Step => ({
  ws: { type: 'call_service', domain, service, target: { entity_id: entityId } },
  reply: { type: 'result', success: true, result: { context: CONTEXT } },
});

const AUTOMATION = {
  alias: 'Parity light',
  description: 'Bed light when the parity switch turns on',
  triggers: [{ trigger: 'state', entity_id: 'input_boolean.parity_switch', to: 'on' }],
  conditions: [{ condition: 'state', entity_id: 'input_boolean.parity_switch', state: 'on' }],
  actions: [{ action: 'light.turn_on', target: { entity_id: 'light.bed_light' } }],
  mode: 'single',
};
const SCRIPT = { alias: 'Parity script', sequence: [{ action: 'light.turn_on', target: { entity_id: 'light.bed_light' } }], mode: 'single' };

const SCENE_ID = '1764201600099';
const SCENE = { name: 'Parity scene', entities: { 'light.bed_light': { state: 'on', brightness: 120 } } };

export const CONFIG_CASES: ParityCase[] = [
  {
    // What the bridge reads to judge a scene's effects: its members on the entity, its states from the config view.
    name: 'scene editor: a scene written through the config view is reloaded into an entity listing its members and read back',
    steps: [
      { rest: { path: '/api/config/scene/config/parity_nothing' }, status: 404, json: { message: 'Resource not found' } },
      { ws: { type: 'subscribe_events', event_type: 'scene_reloaded' }, reply: ok(null), save: 'reloads' },
      { rest: { method: 'POST', path: `/api/config/scene/config/${SCENE_ID}`, body: SCENE }, status: 200, json: { result: 'ok' } },
      // The bridge drops the scene configs it keeps when Home Assistant says it reloaded them.
      { event: 'reloads', expect: expect.objectContaining({ event_type: 'scene_reloaded' }) },
      { rest: { path: `/api/config/scene/config/${SCENE_ID}` }, status: 200, json: { id: SCENE_ID, ...SCENE } },
      {
        state: 'scene.parity_scene',
        expect: expect.objectContaining({ state: 'unknown', attributes: { entity_id: ['light.bed_light'], id: SCENE_ID, friendly_name: 'Parity scene' } }),
      },
      { rest: { method: 'DELETE', path: `/api/config/scene/config/${SCENE_ID}` }, status: 200, json: { result: 'ok' } },
      { rest: { path: `/api/config/scene/config/${SCENE_ID}` }, status: 404, json: { message: 'Resource not found' } },
    ],
    cleanup: [{ rest: { method: 'DELETE', path: `/api/config/scene/config/${SCENE_ID}` }, status: 200 }],
  },
  {
    name: 'config API: an unknown automation or script is 404 to read and 400 to delete, both "Resource not found"',
    steps: [
      { rest: { path: '/api/config/automation/config/parity_nothing' }, status: 404, json: { message: 'Resource not found' } },
      { rest: { method: 'DELETE', path: '/api/config/automation/config/parity_nothing' }, status: 400, json: { message: 'Resource not found' } },
      { rest: { path: '/api/config/script/config/parity_nothing' }, status: 404, json: { message: 'Resource not found' } },
    ],
  },
  {
    name: "config API: Home Assistant's refusals of an automation or script, nothing written",
    steps: [
      malformed('/api/config/automation/config/parity_bad', { alias: 'x', actions: [] }, "Message malformed: required key not provided at 'triggers'"),
      malformed(
        '/api/config/automation/config/parity_bad',
        { alias: 'x', triggers: [], actions: [], foo: 1 },
        "Message malformed: not a valid option at 'foo'",
      ),
      malformed(
        '/api/config/automation/config/parity_bad',
        { alias: 'x', triggers: [{ trigger: 'nope' }], actions: [] },
        "Message malformed: Invalid trigger 'nope' specified",
      ),
      malformed(
        '/api/config/automation/config/parity_bad',
        { alias: 'x', triggers: [{ trigger: 'state' }], actions: [] },
        "Message malformed: required key not provided at 'entity_id'",
      ),
      malformed(
        '/api/config/automation/config/parity_bad',
        { alias: 'x', triggers: [], actions: [{ foo: 1 }] },
        "Message malformed: Unable to determine action at 'actions[0]'",
      ),
      malformed(
        '/api/config/automation/config/parity_bad',
        { alias: 'x', triggers: [], conditions: [{ condition: 'state', entity_id: 'light.bed_light' }], actions: [] },
        "Message malformed: required key not provided at 'conditions[0].state'",
      ),
      malformed(
        '/api/config/automation/config/parity_bad',
        { alias: 'x', triggers: [], actions: [], mode: 'often' },
        "Message malformed: value must be one of ['parallel', 'queued', 'restart', 'single'] at 'mode'",
      ),
      malformed(
        '/api/config/automation/config/parity_bad',
        { alias: 'x', triggers: [], actions: [{ action: 'not a service' }] },
        "Message malformed: Service not a service does not match format <domain>.<name> at 'actions[0].action'",
      ),
      { rest: { method: 'POST', path: '/api/config/automation/config/parity_bad', body: 'nope' }, status: 400, json: { message: 'Invalid JSON specified' } },
      malformed('/api/config/script/config/Parity Bad', { sequence: [] }, 'Key malformed: invalid slug Parity Bad (try parity_bad)'),
      malformed('/api/config/script/config/parity_bad', { alias: 'x' }, "Message malformed: required key not provided at 'sequence'"),
      malformed('/api/config/script/config/parity_bad', { sequence: [], bogus: 1 }, "Message malformed: not a valid option at 'bogus'"),
      { rest: { path: '/api/config/automation/config/parity_bad' }, status: 404, json: { message: 'Resource not found' } },
      { rest: { path: '/api/config/script/config/parity_bad' }, status: 404, json: { message: 'Resource not found' } },
    ],
  },
  {
    name: 'automation: written, reloaded into an entity, run by its trigger with its condition, traced step by step',
    steps: [
      call('light', 'turn_off', 'light.bed_light'),
      { ws: { type: 'input_boolean/create', name: 'Parity switch' }, reply: ok({ id: 'parity_switch', name: 'Parity switch' }) },
      {
        state: 'input_boolean.parity_switch',
        expect: expect.objectContaining({ state: 'off', attributes: { editable: true, friendly_name: 'Parity switch' } }),
      },
      { rest: { method: 'POST', path: '/api/config/automation/config/parity_light', body: AUTOMATION }, status: 200, json: { result: 'ok' } },
      { rest: { path: '/api/config/automation/config/parity_light' }, status: 200, json: { id: 'parity_light', ...AUTOMATION } },
      {
        state: 'automation.parity_light',
        expect: expect.objectContaining({
          state: 'on',
          attributes: { id: 'parity_light', last_triggered: null, mode: 'single', current: 0, friendly_name: 'Parity light' },
        }),
      },
      { ws: { type: 'automation/config', entity_id: 'automation.parity_light' }, reply: ok({ config: { id: 'parity_light', ...AUTOMATION } }) },
      { ws: { type: 'automation/config', entity_id: 'automation.parity_nothing' }, reply: failed('not_found', 'Entity not found') },
      call('input_boolean', 'turn_on', 'input_boolean.parity_switch'),
      { state: 'light.bed_light', until: (s) => s.state === 'on' },
      {
        state: 'automation.parity_light',
        until: (s) => s.attributes.last_triggered !== null && s.attributes.current === 0,
        expect: expect.objectContaining({ attributes: expect.objectContaining({ last_triggered: ISO }) }),
      },
      {
        ws: { type: 'trace/list', domain: 'automation', item_id: 'parity_light' },
        reply: ok([
          {
            last_step: 'action/0',
            run_id: RUN_ID,
            state: 'stopped',
            script_execution: 'finished',
            timestamp: { start: ISO, finish: ISO },
            domain: 'automation',
            item_id: 'parity_light',
            trigger: 'state of input_boolean.parity_switch',
          },
        ]),
        save: 'runs',
      },
      {
        ws: { type: 'trace/get', domain: 'automation', item_id: 'parity_light', run_id: (v: Record<string, any>) => v.runs.result[0].run_id },
        pick: (m) => ({
          keys: Object.keys(m.result.trace),
          trigger: m.result.trace['trigger/0'][0].changed_variables.trigger.description,
          condition: m.result.trace['condition/0/entity_id/0'][0].result,
          action: m.result.trace['action/0'][0].result,
          config: m.result.config,
          blueprint_inputs: m.result.blueprint_inputs,
        }),
        reply: {
          keys: ['trigger/0', 'condition/0', 'condition/0/entity_id/0', 'action/0'],
          trigger: 'state of input_boolean.parity_switch',
          condition: { result: true, state: 'on', wanted_state: 'on' },
          action: { params: { domain: 'light', service: 'turn_on', service_data: {}, target: { entity_id: ['light.bed_light'] } }, running_script: false },
          config: { id: 'parity_light', ...AUTOMATION },
          blueprint_inputs: null,
        },
      },
      { ws: { type: 'trace/get', domain: 'automation', item_id: 'parity_light', run_id: 'nope' }, reply: failed('not_found', 'The trace could not be found') },
      { rest: { method: 'DELETE', path: '/api/config/automation/config/parity_light' }, status: 200, json: { result: 'ok' } },
      { rest: { path: '/api/config/automation/config/parity_light' }, status: 404, json: { message: 'Resource not found' } },
    ],
    cleanup: [
      { rest: { method: 'DELETE', path: '/api/config/automation/config/parity_light' }, status: 200 },
      { ws: { type: 'input_boolean/delete', input_boolean_id: 'parity_switch' } },
      { ws: { type: 'call_service', domain: 'light', service: 'turn_off', target: { entity_id: 'light.bed_light' } } },
    ],
  },
  {
    name: 'script: written, its entity and raw config, run as an action, traced (no trigger)',
    steps: [
      call('light', 'turn_off', 'light.bed_light'),
      { rest: { method: 'POST', path: '/api/config/script/config/parity_script', body: SCRIPT }, status: 200, json: { result: 'ok' } },
      { rest: { path: '/api/config/script/config/parity_script' }, status: 200, json: SCRIPT },
      {
        state: 'script.parity_script',
        expect: expect.objectContaining({ state: 'off', attributes: { last_triggered: null, mode: 'single', current: 0, friendly_name: 'Parity script' } }),
      },
      { ws: { type: 'script/config', entity_id: 'script.parity_script' }, reply: ok({ config: SCRIPT }) },
      { ws: { type: 'call_service', domain: 'script', service: 'parity_script' }, reply: { type: 'result', success: true, result: { context: CONTEXT } } },
      { state: 'light.bed_light', until: (s) => s.state === 'on' },
      {
        ws: { type: 'trace/list', domain: 'script', item_id: 'parity_script' },
        reply: ok([
          {
            last_step: 'sequence/0',
            run_id: RUN_ID,
            state: 'stopped',
            script_execution: 'finished',
            timestamp: { start: ISO, finish: ISO },
            domain: 'script',
            item_id: 'parity_script',
          },
        ]),
      },
      { rest: { method: 'DELETE', path: '/api/config/script/config/parity_script' }, status: 200, json: { result: 'ok' } },
    ],
    cleanup: [
      { rest: { method: 'DELETE', path: '/api/config/script/config/parity_script' }, status: 200 },
      { ws: { type: 'call_service', domain: 'light', service: 'turn_off', target: { entity_id: 'light.bed_light' } } },
    ],
  },
  {
    name: 'helpers: create with the defaults of each type, update replaces every field, refusals in their words',
    steps: [
      {
        ws: { type: 'input_boolean/create', name: 'Parity toggle', icon: 'mdi:test' },
        reply: ok({ id: 'parity_toggle', name: 'Parity toggle', icon: 'mdi:test' }),
      },
      {
        ws: { type: 'input_boolean/update', input_boolean_id: 'parity_toggle', name: 'Parity toggle 2' },
        reply: ok({ id: 'parity_toggle', name: 'Parity toggle 2' }),
      },
      {
        ws: { type: 'input_boolean/update', input_boolean_id: 'parity_nope', name: 'x' },
        reply: failed('not_found', 'Unable to find input_boolean_id parity_nope'),
      },
      { ws: { type: 'input_boolean/create' }, reply: failed('invalid_format', "required key not provided at 'name'. Got None") },
      { ws: { type: 'input_boolean/create', name: 'Other', bogus: 1 }, reply: failed('invalid_format', "not a valid option at 'bogus'. Got 1") },
      {
        ws: { type: 'input_number/create', name: 'Parity level', min: 0, max: 10 },
        reply: ok({ id: 'parity_level', name: 'Parity level', min: 0, max: 10, step: 1, mode: 'slider' }),
      },
      {
        state: 'input_number.parity_level',
        expect: expect.objectContaining({
          state: '0.0',
          attributes: { min: 0, max: 10, step: 1, mode: 'slider', initial: null, editable: true, friendly_name: 'Parity level' },
        }),
      },
      {
        ws: { type: 'input_number/create', name: 'Parity bad', min: 10, max: 0 },
        reply: failed(
          'invalid_format',
          "Maximum (10.0) is not greater than minimum (0.0). Got {'name': 'Parity bad', 'min': 10.0, 'max': 0.0, 'step': 1.0, 'mode': 'slider'}",
        ),
      },
      {
        ws: { type: 'input_select/create', name: 'Parity mode', options: ['a', 'b'] },
        reply: ok({ id: 'parity_mode', name: 'Parity mode', options: ['a', 'b'] }),
      },
      {
        ws: { type: 'input_select/create', name: 'Parity dup', options: ['a', 'a'] },
        reply: failed('home_assistant_error', 'Duplicate options are not allowed'),
      },
      { ws: { type: 'input_text/create', name: 'Parity note' }, reply: ok({ id: 'parity_note', name: 'Parity note', min: 0, max: 100, mode: 'text' }) },
      {
        ws: { type: 'input_datetime/create', name: 'Parity when', has_date: true, has_time: true },
        reply: ok({ id: 'parity_when', name: 'Parity when', has_date: true, has_time: true }),
      },
      {
        ws: { type: 'input_datetime/create', name: 'Parity never' },
        reply: failed('invalid_format', "Entity needs at least a date or a time. Got {'name': 'Parity never', 'has_date': False, 'has_time': False}"),
      },
      { ws: { type: 'input_button/create', name: 'Parity press' }, reply: ok({ id: 'parity_press', name: 'Parity press' }) },
      {
        ws: { type: 'counter/create', name: 'Parity count' },
        reply: ok({ id: 'parity_count', name: 'Parity count', initial: 0, maximum: null, minimum: null, restore: true, step: 1 }),
      },
      {
        ws: { type: 'timer/create', name: 'Parity egg', duration: '00:03:00' },
        reply: ok({ id: 'parity_egg', name: 'Parity egg', duration: '0:03:00', restore: false }),
      },
      {
        state: 'timer.parity_egg',
        expect: expect.objectContaining({
          state: 'idle',
          attributes: { duration: '0:03:00', editable: true, last_transition: null, friendly_name: 'Parity egg' },
        }),
      },
      { ws: { type: 'counter/delete', counter_id: 'parity_count' }, reply: ok(null) },
    ],
    cleanup: [
      ...(
        [
          ['input_boolean', 'parity_toggle'],
          ['input_number', 'parity_level'],
          ['input_select', 'parity_mode'],
          ['input_text', 'parity_note'],
          ['input_datetime', 'parity_when'],
          ['input_button', 'parity_press'],
          ['counter', 'parity_count'],
          ['timer', 'parity_egg'],
        ] as const
      ).map(([type, id]): Step => ({ ws: { type: `${type}/delete`, [`${type}_id`]: id } })),
    ],
  },
  {
    name: 'lovelace: the default dashboard has no config until saved; an unknown one; a YAML one lists its mode and refuses saving',
    steps: [
      // Whatever ran before, the default dashboard starts without a saved config.
      { ws: { type: 'lovelace/config/delete' }, reply: ok(null) },
      { ws: { type: 'lovelace/config' }, reply: failed('config_not_found', 'No config found.') },
      { ws: { type: 'lovelace/config', url_path: 'parity-nothing' }, reply: failed('config_not_found', 'Unknown config specified: parity-nothing') },
      {
        ws: { type: 'lovelace/dashboards/list' },
        reply: ok([{ mode: 'yaml', title: 'YAML board', filename: 'yaml-board.yaml', require_admin: false, show_in_sidebar: true, url_path: 'yaml-board' }]),
      },
      { ws: { type: 'lovelace/config/save', url_path: 'yaml-board', config: { views: [] } }, reply: failed('error', 'Not supported') },
      { ws: { type: 'lovelace/config/save', config: { views: [{ title: 'Parity', cards: [{ type: 'tile', entity: 'light.bed_light' }] }] } }, reply: ok(null) },
      { ws: { type: 'lovelace/config' }, reply: ok({ views: [{ title: 'Parity', cards: [{ type: 'tile', entity: 'light.bed_light' }] }] }) },
      { ws: { type: 'lovelace/config/delete' }, reply: ok(null) },
      { ws: { type: 'lovelace/config' }, reply: failed('config_not_found', 'No config found.') },
    ],
    cleanup: [{ ws: { type: 'lovelace/config/delete' } }],
  },
];
