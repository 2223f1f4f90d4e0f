// The batch runner's ordering and status rules (the executor's one runBatch), with an executor whose
// calls take chosen times (the simulator answers too evenly to show an ordering mistake), and
// group-graph helpers.
import { describe, expect, test } from 'vitest';
import { batchStatus, runBatch } from '../../src/actions/batch.js';
import { ActionExecutor, type DeviceCommand, type PlannedAction } from '../../src/actions/executor.js';
import { AppError, invalidParameters } from '../../src/errors.js';
import { expandGroup, findCycle, normaliseMembers } from '../../src/groups/members.js';
import { normaliseAction } from '../../src/scenes/normalise.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Plans anything except action "bad"; runs take `delay` ms and fail for action "fail". */
function fakeExecutor(delay: (p: PlannedAction) => number) {
  const log: { id: string; action: string; at: 'start' | 'end'; t: number }[] = [];
  const t0 = Date.now();
  // The executor's own runBatch, over planning and running that take chosen times.
  const ex = Object.assign(Object.create(ActionExecutor.prototype) as ActionExecutor, {
    authorize() {},
    async prepare() {},
    plan(cmd: DeviceCommand): PlannedAction {
      if (cmd.action === 'bad') throw invalidParameters('bad action', { field: 'action' });
      return { entity_id: cmd.entity_id, action: cmd.action, domain: 'light', service: cmd.action, data: cmd.parameters ?? {} };
    },
    async run(p: PlannedAction) {
      log.push({ id: p.entity_id, action: p.action, at: 'start', t: Date.now() - t0 });
      await sleep(delay(p));
      log.push({ id: p.entity_id, action: p.action, at: 'end', t: Date.now() - t0 });
      if (p.action === 'fail') throw new AppError('HUB_ERROR', 400, 'refused');
      return { success: true as const, entity_id: p.entity_id, action: p.action, service: `light.${p.action}`, parameters: p.data, state: null };
    },
  });
  return { ex, log };
}

describe('runBatch', () => {
  test("one entity's actions never overlap and keep their order; different entities overlap", async () => {
    // The first action of light.a is the slowest: run in parallel, a later one would finish first.
    const { ex, log } = fakeExecutor((p) => (p.entity_id === 'light.a' ? (p.action === 'a1' ? 80 : 5) : 40));
    const cmds = [
      { entity_id: 'light.a', action: 'a1' },
      { entity_id: 'light.b', action: 'b1' },
      { entity_id: 'light.a', action: 'a2' },
      { entity_id: 'light.a', action: 'a3' },
    ];
    const out = await runBatch(ex, true, cmds, {});
    expect(out.results.map((r) => `${r.entity_id}:${r.action}:${r.status}`)).toEqual([
      'light.a:a1:completed',
      'light.b:b1:completed',
      'light.a:a2:completed',
      'light.a:a3:completed',
    ]);
    const aEvents = log.filter((e) => e.id === 'light.a').map((e) => `${e.action}:${e.at}`);
    expect(aEvents).toEqual(['a1:start', 'a1:end', 'a2:start', 'a2:end', 'a3:start', 'a3:end']);
    const bStart = log.find((e) => e.id === 'light.b' && e.at === 'start')!;
    const a1End = log.find((e) => e.action === 'a1' && e.at === 'end')!;
    expect(bStart.t).toBeLessThan(a1End.t); // b did not wait for a
  });

  test('failures are per action, keep their place, and do not stop the entity', async () => {
    const { ex } = fakeExecutor(() => 1);
    const out = await runBatch(
      ex,
      true,
      [
        { entity_id: 'light.a', action: 'fail' },
        { entity_id: 'light.a', action: 'ok' },
        { entity_id: 'light.b', action: 'bad' },
      ],
      {},
    );
    expect(out.results).toEqual([
      { entity_id: 'light.a', action: 'fail', status: 'failed', error: { code: 'HUB_ERROR', message: 'refused' } },
      { entity_id: 'light.a', action: 'ok', status: 'completed', state: null },
      { entity_id: 'light.b', action: 'bad', status: 'failed', error: { code: 'INVALID_PARAMETERS', message: 'bad action' } },
    ]);
    expect(out.firstError?.code).toBe('HUB_ERROR');
    expect(batchStatus(out, 'x')).toBe(207);
  });

  test('status: 200 all done; none done throws the first failure with every result', async () => {
    const { ex } = fakeExecutor(() => 1);
    expect(batchStatus(await runBatch(ex, true, [{ entity_id: 'light.a', action: 'ok' }], {}), 'x')).toBe(200);
    const none = await runBatch(
      ex,
      true,
      [
        { entity_id: 'light.a', action: 'bad' },
        { entity_id: 'light.b', action: 'fail' },
      ],
      {},
    );
    let thrown: AppError | undefined;
    try {
      batchStatus(none, 'scene s');
    } catch (err) {
      thrown = err as AppError;
    }
    expect(thrown).toMatchObject({ code: 'INVALID_PARAMETERS', status: 400, details: { field: 'action' } });
    expect(thrown?.message).toMatch(/^No action of scene s succeeded/);
    expect((thrown!.details.results as unknown[]).length).toBe(2);
  });

  test('a disconnected hub refuses the whole batch with 503', async () => {
    const { ex, log } = fakeExecutor(() => 1);
    await expect(runBatch(ex, false, [{ entity_id: 'light.a', action: 'ok' }], {})).rejects.toMatchObject({ code: 'CONNECTION_ERROR', status: 503 });
    expect(log).toEqual([]);
  });

  test('no more than 16 entities run at once', async () => {
    let now = 0;
    let peak = 0;
    const ex = Object.assign(Object.create(ActionExecutor.prototype) as ActionExecutor, {
      authorize: () => {},
      prepare: async () => {},
      plan: (c: DeviceCommand) => ({ entity_id: c.entity_id, action: c.action, domain: 'light', service: c.action, data: {} }),
      run: async (p: PlannedAction) => {
        peak = Math.max(peak, ++now);
        await sleep(5);
        now--;
        return { success: true as const, entity_id: p.entity_id, action: p.action, service: '', parameters: {}, state: null };
      },
    });
    await runBatch(
      ex,
      true,
      Array.from({ length: 50 }, (_, i) => ({ entity_id: `light.l${i}`, action: 'turn_on' })),
      {},
    );
    expect(peak).toBe(16);
  });
});

describe('group graph', () => {
  test('findCycle names the path back to the start, or nothing', () => {
    const edges = new Map([
      ['a', ['b', 'x']],
      ['b', ['c']],
      ['c', ['a']],
      ['x', ['y']],
    ]);
    expect(findCycle('a', edges)).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle('x', edges)).toBeUndefined();
    expect(findCycle('s', new Map([['s', ['s']]]))).toEqual(['s', 's']);
    // A diamond is not a cycle.
    expect(
      findCycle(
        'top',
        new Map([
          ['top', ['l', 'r']],
          ['l', ['bottom']],
          ['r', ['bottom']],
        ]),
      ),
    ).toBeUndefined();
  });

  test('expandGroup visits each nested group once and each entity once', () => {
    const groups = new Map([
      ['l', { id: 'l', entities: ['light.a', 'group:bottom'] }],
      ['r', { id: 'r', entities: ['group:bottom', 'light.b'] }],
      ['bottom', { id: 'bottom', entities: ['light.c', 'light.a'] }],
    ]);
    expect(expandGroup({ id: 'top', entities: ['group:l', 'group:r', 'light.d'] }, (id) => groups.get(id))).toEqual([
      'light.a',
      'light.c',
      'light.b',
      'light.d',
    ]);
  });

  test('members: group references by key, duplicates dropped, bad ids named', () => {
    expect(normaliseMembers(['light.a', 'group:Living Room', 'light.a', 'group:living_room'])).toEqual(['light.a', 'group:living_room']);
    expect(() => normaliseMembers(['light.a', 'LIGHT.B'])).toThrow(expect.objectContaining({ details: expect.objectContaining({ field: 'entities.1' }) }));
  });
});

describe('scene action shapes', () => {
  test('the shorthand maps on, off and dim; other actions pass through with their value', () => {
    expect(normaliseAction({ device: 'light.a', action: 'on' }, 'x')).toEqual({ entity_id: 'light.a', action: 'turn_on', parameters: {} });
    expect(normaliseAction({ device: 'light.a', action: 'off' }, 'x')).toEqual({ entity_id: 'light.a', action: 'turn_off', parameters: {} });
    expect(normaliseAction({ device: 'light.a', action: 'dim', value: 25 }, 'x')).toEqual({
      entity_id: 'light.a',
      action: 'turn_on',
      parameters: { brightness_pct: 25 },
    });
    expect(normaliseAction({ device: 'cover.a', action: 'close' }, 'x')).toEqual({ entity_id: 'cover.a', action: 'close', parameters: {} });
    expect(normaliseAction({ device: 'fan.a', action: 'set_value', value: 40 }, 'x')).toEqual({
      entity_id: 'fan.a',
      action: 'set_value',
      parameters: { value: 40 },
    });
    expect(normaliseAction({ entity_id: 'light.a', action: 'turn_on' }, 'x')).toEqual({ entity_id: 'light.a', action: 'turn_on', parameters: {} });
    expect(() => normaliseAction({ device: 'light.a', action: 'dim', value: 'bright' }, 'actions.2')).toThrow(/actions\.2\.value/);
    expect(() => normaliseAction({ entity_id: 'light.a', device: 'light.b', action: 'on' }, 'actions.0')).toThrow(/actions\.0\.device: unknown field/);
  });
});
