// The pure parts of config editing: the diff in lines and words, what a config touches, dashboard
// edits, Home Assistant's refusals in plain words, traces explained, and the bounded version store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { editDashboard } from '../../src/ha-config/dashboards.js';
import { changeWords, toYaml, unifiedDiff } from '../../src/ha-config/diff.js';
import { plainWords, storedAutomation } from '../../src/ha-config/hub-config.js';
import { referencesOf } from '../../src/ha-config/references.js';
import { explain, explainRun } from '../../src/ha-config/traces.js';
import { openStore } from '../../src/store/index.js';

describe('diff', () => {
  test('a unified diff with hunk headers and three lines of context', () => {
    const a = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n');
    const b = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h', 'i', 'j', 'k'].join('\n');
    expect(unifiedDiff(a, b, 'x.yaml')).toBe(
      ['--- a/x.yaml', '+++ b/x.yaml', '@@ -2,9 +2,10 @@', ' b', ' c', ' d', '-e', '+E', ' f', ' g', ' h', ' i', ' j', '+k', ''].join('\n'),
    );
    expect(unifiedDiff(a, a, 'x.yaml')).toBe('');
  });

  test('far apart changes make two hunks; a new item diffs from /dev/null', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `l${i}`);
    const changed = lines.map((l, i) => (i === 2 || i === 25 ? `${l}!` : l));
    const d = unifiedDiff(lines.join('\n'), changed.join('\n'), 'y');
    expect(d.match(/^@@/gm)).toHaveLength(2);
    expect(d).toContain('@@ -1,6 +1,6 @@');
    expect(d).toContain('@@ -23,7 +23,7 @@');
    expect(unifiedDiff('', 'a: 1\n', 'z')).toBe('--- /dev/null\n+++ b/z\n@@ -0,0 +1,1 @@\n+a: 1\n');
  });

  test('words say what changed, key by key', () => {
    expect(changeWords({ alias: 'A', actions: [1, 2], mode: 'single' }, { alias: 'B', actions: [1, 3, 4], description: 'd' })).toEqual([
      'alias: "A" → "B"',
      'actions: 1 changed, 1 added',
      'mode: removed',
      'description: added ("d")',
    ]);
    expect(changeWords(null, { a: 1 })).toEqual(['new']);
    expect(changeWords({ a: 1 }, null)).toEqual(['removed']);
  });

  test('YAML keeps the keys in their order', () => {
    expect(toYaml(storedAutomation('x', { actions: [], alias: 'A', triggers: [], id: 'other' }))).toBe('id: x\nalias: A\ntriggers: []\nactions: []\n');
  });
});

describe('what a config touches', () => {
  const known = (id: string) => ['light.bed', 'lock.front_door', 'sensor.temp'].includes(id);

  test('actions with their targets wherever they are written, entities of triggers and templates', () => {
    const refs = referencesOf(
      {
        triggers: [{ trigger: 'state', entity_id: ['binary_sensor.door'] }],
        conditions: [{ condition: 'template', value_template: "{{ states('sensor.temp') | float > 20 }}" }],
        actions: [
          { action: 'light.turn_on', target: { entity_id: 'light.bed', area_id: 'hall' } },
          { service: 'lock.unlock', entity_id: 'lock.front_door' },
          { choose: [{ conditions: [], sequence: [{ action: 'notify.mobile_app', data: { message: 'hi' } }] }] },
          { type: 'turn_off', device_id: 'dev1', entity_id: 'light.bed', domain: 'light' },
          { scene: 'scene.night' },
        ],
      },
      known,
    );
    expect(refs.entities).toEqual(['binary_sensor.door', 'light.bed', 'lock.front_door', 'scene.night', 'sensor.temp']);
    expect(refs.actions.map((a) => [`${a.domain}.${a.service}`, a.target.entity_id, a.target.area_id, a.path])).toEqual([
      ['light.turn_on', ['light.bed'], ['hall'], 'actions[0]'],
      ['lock.unlock', ['lock.front_door'], [], 'actions[1]'],
      ['notify.mobile_app', [], [], 'actions[2].choose[0].sequence[0]'],
      ['light.turn_off', ['light.bed'], [], 'actions[3]'],
      ['scene.turn_on', ['scene.night'], [], 'actions[4]'],
    ]);
    expect(refs.templated).toEqual([]);
  });

  test('a card’s entities and its perform-action; templated names and targets are listed apart', () => {
    const card = referencesOf(
      {
        type: 'button',
        entity: 'lock.front_door',
        tap_action: { action: 'perform-action', perform_action: 'lock.unlock', target: { entity_id: 'lock.front_door' } },
      },
      known,
    );
    expect(card.actions.map((a) => `${a.domain}.${a.service}`)).toEqual(['lock.unlock']);
    const t = referencesOf({ sequence: [{ action: '{{ x }}' }, { action: 'light.turn_on', target: { entity_id: '{{ y }}' } }] }, known);
    expect(t.templated).toEqual(['sequence[0]', 'sequence[1].entity_id']);
  });
});

describe('dashboards', () => {
  const board = {
    views: [
      { title: 'Home', path: 'home', cards: [{ type: 'tile', entity: 'light.bed' }] },
      { title: 'Other', sections: [] },
    ],
  };

  test('add, replace and remove a card or a view, by index, path or title', () => {
    expect(editDashboard(board, { op: 'create', view: 'home', config: { type: 'tile', entity: 'light.desk' } }).after.views).toEqual([
      {
        title: 'Home',
        path: 'home',
        cards: [
          { type: 'tile', entity: 'light.bed' },
          { type: 'tile', entity: 'light.desk' },
        ],
      },
      board.views[1],
    ]);
    expect(editDashboard(board, { op: 'update', view: 'Home', card: 0, config: { type: 'entity', entity: 'sensor.t' } }).words).toBe(
      'replaces card 0 (tile card (light.bed)) of view "Home" with entity card (sensor.t)',
    );
    expect(editDashboard(board, { op: 'delete', view: 1 }).after.views).toHaveLength(1);
    expect(editDashboard(null, { op: 'create', config: { title: 'New' } }).after).toEqual({ views: [{ title: 'New' }] });
    expect(board.views[0]!.cards).toHaveLength(1);
  });

  test('what cannot be done is said', () => {
    expect(() => editDashboard(board, { op: 'create', view: 'nope', config: { type: 'tile' } })).toThrow(
      'The dashboard has no view "nope"; its views are 0: "Home", 1: "Other"',
    );
    expect(() => editDashboard(board, { op: 'delete', view: 0, card: 3 })).toThrow('view "Home" has no card 3; it has 1 (0 to 0)');
    expect(() => editDashboard(board, { op: 'create', view: 'Other', config: { type: 'tile' } })).toThrow(/holds sections, not cards/);
    expect(() => editDashboard(board, { op: 'create', view: 0, config: { entity: 'x' } })).toThrow(/a card is an object with a type/);
    expect(() => editDashboard(board, { op: 'delete' })).toThrow(/a whole dashboard is removed in Home Assistant/);
  });
});

test("Home Assistant's refusals in plain words", () => {
  expect(plainWords("Message malformed: required key not provided at 'triggers'")).toBe('triggers is required and missing');
  expect(plainWords("Message malformed: not a valid option, did you mean 'triggers'? at 'trigers'")).toBe(
    'trigers is not a setting Home Assistant knows here (did you mean triggers?)',
  );
  expect(plainWords("Message malformed: Invalid trigger 'nope' specified")).toBe('there is no trigger type "nope"');
  expect(plainWords("Message malformed: Unable to determine action at 'actions[0]'")).toBe(
    'actions[0] is not an action Home Assistant recognises (an action needs a key such as action, delay, event or condition)',
  );
  expect(plainWords("expected int at 'brightness'. Got 'x'")).toBe("brightness must be a whole number (it was 'x')");
  expect(plainWords("required key not provided at 'max'. Got None\nrequired key not provided at 'min'. Got None")).toBe(
    'max is required and missing; min is required and missing',
  );
  expect(plainWords('invalid slug Bad Key (try bad_key)')).toBe('"Bad Key" cannot be an id: use lower case letters, digits and _ (such as bad_key)');
});

describe('traces explained', () => {
  const summary = (execution: string, extra: Record<string, unknown> = {}) => ({
    run_id: 'r',
    state: 'stopped',
    script_execution: execution,
    last_step: 'action/0',
    timestamp: { start: '2026-11-25T01:00:00+00:00', finish: '2026-11-25T01:00:01+00:00' },
    trigger: 'state of input_boolean.x',
    ...extra,
  });
  const config = {
    triggers: [{ trigger: 'state', entity_id: 'input_boolean.x', to: 'on' }],
    conditions: [{ condition: 'state', entity_id: 'input_boolean.guard', state: 'off' }],
    actions: [{ action: 'light.turn_on' }],
  };

  test('a failed condition names the entity, the state found and the one wanted', () => {
    const r = explainRun(summary('failed_conditions', { last_step: 'condition/0/entity_id/0' }), {
      config,
      trace: {
        'condition/0': [{ path: 'condition/0', result: { result: false } }],
        'condition/0/entity_id/0': [{ path: 'condition/0/entity_id/0', result: { result: false, state: 'on', wanted_state: 'off' } }],
      },
    });
    expect(r.detail).toBe('stopped: condition 1 (state) was not met: input_boolean.guard was "on", wanted "off"');
  });

  test('an error names the step; no run, a disabled one and an unavailable one say why', () => {
    expect(explainRun(summary('error', { error: "expected int at 'brightness'" }), { config, trace: {} }).detail).toBe(
      "failed at action 1 (light.turn_on): expected int at 'brightness'",
    );
    const entity = { entity_id: 'automation.a', state: 'on', attributes: {} };
    expect(explain('automation', entity, config, []).why).toBe(
      'No run since Home Assistant last started: its trigger has not fired (it waits for state of input_boolean.x to "on"). Home Assistant keeps the last few runs only, and none across a restart.',
    );
    expect(explain('automation', { ...entity, state: 'off' }, config, []).why).toMatch(/^It is turned off/);
    expect(explain('automation', { ...entity, state: 'unavailable' }, config, []).why).toMatch(/could not load it/);
  });
});

describe('the version store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hmb-versions-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('keeps the newest versions of each item, up to the bound, and never another item’s', () => {
    const store = openStore(join(dir, 'bridge.db'));
    try {
      const v = (item: string, n: number) => ({
        kind: 'script' as const,
        item,
        config: { n },
        change: 'updated' as const,
        actor_kind: 'user',
        actor: 'me',
        reason: null,
        summary: null,
        restored_from: null,
      });
      for (let n = 0; n < 7; n++) store.configVersions.add([v('a', n)], 3);
      store.configVersions.add([v('b', 0)], 3);
      expect(store.configVersions.history('script', 'a').map((x) => (x.config as { n: number }).n)).toEqual([6, 5, 4]);
      expect(store.configVersions.history('script', 'b')).toHaveLength(1);
      expect(store.configVersions.recent(2).map((x) => x.item)).toEqual(['b', 'a']);
    } finally {
      store.close();
    }
  });
});
