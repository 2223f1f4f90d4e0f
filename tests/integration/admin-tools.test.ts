// The admin tools against the simulator over real HTTP: registries, zones, health and integrations,
// each change previewed (dry_run), confirmed, kept as a version and put back with undo, through
// REST /api/tools/call and MCP in both eras (the person asked through elicitation). Read-only mode
// and deny rules refuse every change; an exposure change narrows TOOLS_EXPOSED_ONLY at once; a
// scoped credential needs admin (control and config do not give it).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Principal } from '../../src/auth/tokens.js';
import { adminOf, RawClient } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Body = Record<string, any>;
const grant = (scope: string[]): Principal => ({ sub: 'client', iat: 0, via: 'oauth', scope });

async function tool(s: TestServer, name: string, args: Record<string, unknown>): Promise<{ status: number; body: Body }> {
  const r = await s.call('/api/tools/call', 'POST', { name, arguments: args });
  return { status: r.status, body: r.body };
}
const sc = (r: { body: Body }) => r.body.structuredContent as Body;

/** Exposes entities to Assist, or hides them, as a person does in Home Assistant; the bridge reads exposure again at once. */
async function setExposed(s: TestServer, entityIds: string[], expose: boolean): Promise<void> {
  const raw = await RawClient.connect(s.app.simulator!.wsUrl, s.app.simulator!.token);
  try {
    const r = await raw.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: entityIds, should_expose: expose });
    expect(r.success, JSON.stringify(r)).toBe(true);
  } finally {
    await raw.close();
  }
  await s.app.services.exposure!.refresh();
}
const text = (r: { body: Body }) => String(r.body.content?.[0]?.text ?? '');

/** Preview, then apply with the preview's id, as an assistant over REST does. */
async function change(s: TestServer, name: string, args: Record<string, unknown>): Promise<Body> {
  const preview = await tool(s, name, { ...args, dry_run: true });
  expect(preview.body.isError, text(preview)).toBeFalsy();
  expect(sc(preview)).toMatchObject({ dry_run: true, applied: false });
  const applied = await tool(s, name, { ...args, confirm: true, preview_id: sc(preview).preview_id, reason: 'test' });
  expect(applied.body.isError, text(applied)).toBeFalsy();
  return sc(applied);
}

describe('with ADMIN_TOOLS on', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ADMIN_TOOLS: 'true', CONFIG_EDITING: 'true', TOOLS_EXPOSED_ONLY: 'true' });
  });
  afterAll(() => s?.close());

  test('areas: create with aliases and icon, rename, undo the rename, remove; each a version', async () => {
    const listed = await tool(s, 'admin_registry', { operation: 'list', kind: 'area' });
    expect(text(listed)).toContain('kitchen: Kitchen');
    const preview = await tool(s, 'admin_registry', {
      operation: 'create',
      kind: 'area',
      fields: { name: 'Pantry', aliases: ['larder'], icon: 'mdi:fridge' },
      dry_run: true,
    });
    expect(sc(preview).diff).toContain('+name: Pantry');
    // Without confirmation nothing happens: the refusal carries the preview.
    const unconfirmed = await tool(s, 'admin_registry', { operation: 'create', kind: 'area', fields: { name: 'Pantry' }, reason: 'x' });
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.body.isError).toBe(true);
    expect(unconfirmed.body.structuredContent.error.code).toBe('CONFIRMATION_REQUIRED');
    const made = await change(s, 'admin_registry', { operation: 'create', kind: 'area', fields: { name: 'Pantry', aliases: ['larder'], icon: 'mdi:fridge' } });
    expect(made).toMatchObject({ applied: true, id: 'pantry', change: 'created' });
    const renamed = await change(s, 'admin_registry', { operation: 'update', kind: 'area', id: 'pantry', fields: { name: 'Larder' } });
    expect(renamed.diff).toContain('-name: Pantry');
    expect(renamed.diff).toContain('+name: Larder');
    const history = await tool(s, 'admin_registry', { operation: 'history', kind: 'area', id: 'pantry' });
    const versions = sc(history).versions as Body[];
    expect(versions.map((x) => x.change)).toEqual(['updated', 'created']);
    const undone = await change(s, 'admin_registry', { operation: 'undo', version: versions[1]!.id });
    expect(undone).toMatchObject({ applied: true, change: 'restored' });
    expect(text(await tool(s, 'admin_registry', { operation: 'list', kind: 'area' }))).toMatch(/pantry: Pantry \(aliases=larder, icon=mdi:fridge/);
    // Config history keeps to config items: the admin versions are the admin tools' own.
    const configHistory = await tool(s, 'config_history', {});
    expect(JSON.stringify(sc(configHistory))).not.toContain('pantry');
    await change(s, 'admin_registry', { operation: 'delete', kind: 'area', id: 'pantry' });
    expect(text(await tool(s, 'admin_registry', { operation: 'list', kind: 'area' }))).not.toContain('pantry');
  });

  test('floors and labels: create, change, remove; a field a kind does not take is refused naming those it does', async () => {
    const floor = await change(s, 'admin_registry', { operation: 'create', kind: 'floor', fields: { name: 'Attic', level: 2, icon: 'mdi:home-roof' } });
    expect(floor.id).toBe('attic');
    const label = await change(s, 'admin_registry', { operation: 'create', kind: 'label', fields: { name: 'Outdoor', color: 'green' } });
    expect(label.id).toBe('outdoor');
    await change(s, 'admin_registry', { operation: 'update', kind: 'label', id: 'outdoor', fields: { description: 'Outside the house' } });
    const bad = await tool(s, 'admin_registry', { operation: 'update', kind: 'floor', id: 'attic', fields: { colour: 'red' }, dry_run: true });
    expect(bad.body.isError).toBe(true);
    expect(text(bad)).toContain('it takes name, aliases, icon, level');
    const dup = await tool(s, 'admin_registry', { operation: 'create', kind: 'floor', fields: { name: 'attic' }, confirm: true, reason: 'x' });
    expect(text(dup)).toContain('already in use');
    await change(s, 'admin_registry', { operation: 'delete', kind: 'floor', id: 'attic' });
    await change(s, 'admin_registry', { operation: 'delete', kind: 'label', id: 'outdoor' });
  });

  test('devices and entities: rename, move, label, hide, disable; undo puts the entity back', async () => {
    const dev = await change(s, 'admin_registry', {
      operation: 'update',
      kind: 'device',
      id: 'robot_vacuum',
      fields: { name_by_user: 'Robbie', labels: ['energy'] },
    });
    expect(dev.words.join(' ')).toMatch(/name_by_user/);
    expect(text(await tool(s, 'admin_registry', { operation: 'list', kind: 'device' }))).toContain('robot_vacuum: Robbie');
    const ent = await change(s, 'admin_registry', {
      operation: 'update',
      kind: 'entity',
      id: 'light.office_desk',
      fields: { name: 'Desk', area_id: 'bedroom', labels: ['energy'] },
    });
    expect(ent).toMatchObject({ applied: true, entity_id: 'light.office_desk' });
    await expect.poll(() => s.app.services.hub.cache.get('light.office_desk')?.attributes.friendly_name).toBe('Desk');
    const undo = await change(s, 'admin_registry', { operation: 'undo', version: ent.version - 1 });
    expect(undo.diff).toContain('+name: null');
    const entities = sc(await tool(s, 'admin_registry', { operation: 'list', kind: 'entity' })).items as Body[];
    expect(entities.find((e) => e.id === 'light.office_desk')!.fields).toMatchObject({ name: null, area_id: 'office', labels: [] });
  });

  test('exposure: withdrawing an entity from Assist takes it out of TOOLS_EXPOSED_ONLY callers’ view at once; giving it back is a person’s to do', async () => {
    const seen = async () => JSON.stringify(await (await s.api('/api/state?domain=light')).json());
    expect(await seen()).toContain('light.bedroom_lamp');
    await change(s, 'admin_registry', { operation: 'update', kind: 'entity', id: 'light.bedroom_lamp', fields: { exposed: false } });
    expect(await seen()).not.toContain('light.bedroom_lamp');
    const back = await tool(s, 'admin_registry', { operation: 'update', kind: 'entity', id: 'light.bedroom_lamp', fields: { exposed: true }, dry_run: true });
    expect(back.body.isError).toBe(true);
    expect(back.body.structuredContent.error.code).toBe('NOT_FOUND');
  });

  test('zones: create, change, remove; the home zone is read-only', async () => {
    const made = await change(s, 'admin_registry', {
      operation: 'create',
      kind: 'zone',
      fields: { name: 'Office Park', latitude: 52.1, longitude: 4.3, radius: 250 },
    });
    expect(made).toMatchObject({ id: 'office_park', entity_id: 'zone.office_park' });
    await expect.poll(() => s.app.services.hub.cache.get('zone.office_park')?.attributes.radius).toBe(250);
    await change(s, 'admin_registry', { operation: 'update', kind: 'zone', id: 'office_park', fields: { radius: 400, icon: 'mdi:briefcase' } });
    await expect.poll(() => s.app.services.hub.cache.get('zone.office_park')?.attributes.radius).toBe(400);
    const home = await tool(s, 'admin_registry', { operation: 'update', kind: 'zone', id: 'home', fields: { radius: 1 }, dry_run: true });
    expect(home.body.structuredContent.error.code).toBe('FORBIDDEN');
    await change(s, 'admin_registry', { operation: 'delete', kind: 'zone', id: 'office_park' });
    await expect.poll(() => s.app.services.hub.cache.get('zone.office_park')).toBeUndefined();
  });

  test('health: overview explains repairs, summarises the log by integration and names the failing integration; dismiss, reload, disable and enable', async () => {
    const overview = await tool(s, 'admin_health', { operation: 'overview' });
    const h = sc(overview);
    expect(h.repairs[0]).toMatchObject({ domain: 'met', issue_id: 'cannot_connect', ignored: false });
    expect(h.repairs[0].explanation).toContain('Error in met: cannot connect (title: Forecast)');
    expect(h.log[0]).toMatchObject({ integration: 'met', errors: 12 });
    expect(h.log[0].newest[0].message).toContain('Cannot connect');
    expect(h.troubled.map((t: Body) => t.info.domain)).toEqual(['met']);
    expect(h.system.homeassistant.version).toBeTruthy();
    const dismissed = await change(s, 'admin_health', { operation: 'dismiss', id: 'met/cannot_connect' });
    expect(dismissed.diff).toContain('+ignored: true');
    await change(s, 'admin_health', { operation: 'restore', id: 'met/cannot_connect' });
    const entries = sc(await tool(s, 'admin_health', { operation: 'integrations' })).items as Body[];
    const sim = entries.find((e) => e.info.domain === 'sim')!;
    // Reloading or disabling an integration acts on its entities: while one is hidden from Assist, it is refused (attack A3).
    const hidden = [...s.app.simulator!.hub.registries.entities.values()]
      .filter((e) => e.config_entry_id === sim.id && !s.app.services.policy.maySee(e.entity_id))
      .map((e) => e.entity_id);
    expect(hidden).toContain('lock.front_door');
    for (const operation of ['reload', 'disable'])
      expect(sc(await tool(s, 'admin_health', { operation, id: sim.id, dry_run: true })).error).toMatchObject({
        code: 'FORBIDDEN',
        details: { exposed: false },
      });
    await setExposed(s, hidden, true);
    const reload = await change(s, 'admin_health', { operation: 'reload', id: sim.id });
    expect(reload).toMatchObject({ applied: true });
    expect(reload.version).toBeUndefined();
    await change(s, 'admin_health', { operation: 'disable', id: sim.id });
    expect((sc(await tool(s, 'admin_health', { operation: 'integrations' })).items as Body[]).find((e) => e.id === sim.id)!.info.state).toBe('not_loaded');
    await change(s, 'admin_health', { operation: 'enable', id: sim.id });
    expect((sc(await tool(s, 'admin_health', { operation: 'integrations' })).items as Body[]).find((e) => e.id === sim.id)!.info.state).toBe('loaded');
    // An integration that cannot unload: Home Assistant keeps it running until a restart, and the answer says so.
    adminOf(s.app.simulator!.hub).entries.get(sim.id)!.supports_unload = false;
    const stuck = await change(s, 'admin_health', { operation: 'disable', id: sim.id });
    expect(stuck).toMatchObject({ applied: true, require_restart: true });
    expect(stuck.summary).toContain('after its next restart');
    expect((sc(await tool(s, 'admin_health', { operation: 'integrations' })).items as Body[]).find((e) => e.id === sim.id)!.info.state).toBe('failed_unload');
    adminOf(s.app.simulator!.hub).entries.get(sim.id)!.supports_unload = true;
    await change(s, 'admin_health', { operation: 'enable', id: sim.id });
    await setExposed(s, hidden, false);
  });

  test('blueprints: listed with their inputs; one Home Assistant does not expand cannot be checked, so using it is refused', async () => {
    const listed = sc(await tool(s, 'admin_blueprint', { operation: 'list', domain: 'automation' }));
    expect(listed.blueprints[0]).toMatchObject({ path: 'homeassistant/motion_light.yaml', name: 'Motion-activated Light' });
    expect(Object.keys(listed.blueprints[0].inputs)).toEqual(['motion_entity', 'light_target', 'no_motion_wait']);
    const unknown = await tool(s, 'admin_blueprint', { operation: 'use', path: 'nope.yaml', dry_run: true });
    expect(text(unknown)).toContain('has no automation blueprint nope.yaml');
    // The simulator does not run blueprints (no blueprint/substitute): what it would do cannot be known.
    const use = await tool(s, 'admin_blueprint', {
      operation: 'use',
      path: 'homeassistant/motion_light.yaml',
      inputs: { motion_entity: 'binary_sensor.hallway_motion', light_target: { entity_id: 'light.kitchen_ceiling' } },
      dry_run: true,
    });
    expect(use.body.structuredContent.error).toMatchObject({ code: 'FORBIDDEN' });
    expect(text(use)).toContain('use_blueprint');
  });

  test.each(['modern', 'legacy'] as const)('%s MCP era: the person is asked and the change applies on their yes', async (era) => {
    const c = new Client(
      { name: 'admin-test', version: '1.0.0' },
      { ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}), capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    c.setRequestHandler('elicitation/create', async (req) => {
      asked.push((req.params as { message: string }).message);
      return { action: 'accept', content: { confirm: true } } as never;
    });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      // Past the tool list's budget the admin tools are found (find_tools) rather than listed.
      const found = (await c.callTool({ name: 'find_tools', arguments: { names: ['admin_registry', 'admin_health', 'admin_blueprint'] } })) as {
        structuredContent: { tools: { name: string }[] };
      };
      const names = found.structuredContent.tools.map((t) => t.name).filter((n) => n.startsWith('admin_'));
      expect(names.sort()).toEqual(['admin_blueprint', 'admin_health', 'admin_registry']);
      const r = (await c.callTool({
        name: 'admin_registry',
        arguments: { operation: 'create', kind: 'label', fields: { name: `Era ${era}` }, reason: 'test' },
      })) as Body;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ applied: true, id: `era_${era}` });
      expect(asked[0]).toContain(`Creating label "Era ${era}"`);
    } finally {
      await c.close();
    }
  });

  test('scoped credentials: admin needed; control and config are refused', async () => {
    const tools = s.app.services.tools;
    for (const scope of [
      ['read', 'control'],
      ['read', 'config'],
      ['read', 'control', 'config'],
    ]) {
      expect(tools.listFor(grant(scope)).map((t) => t.name)).not.toContain('admin_registry');
      for (const name of ['admin_registry', 'admin_health', 'admin_blueprint'])
        await expect(tools.call(name, { operation: 'list', kind: 'area' }, grant(scope))).rejects.toMatchObject({ status: 404 });
    }
    const admin = grant(['read', 'admin']);
    expect(tools.listFor(admin).map((t) => t.name)).toEqual(expect.arrayContaining(['admin_registry', 'admin_health', 'admin_blueprint']));
    const listed = await tools.call('admin_registry', { operation: 'list', kind: 'zone' }, admin);
    expect(listed.isError).toBeFalsy();
    const health = await tools.call('admin_health', { operation: 'overview' }, admin);
    expect(health.isError).toBeFalsy();
  });
});

describe('read-only mode and deny rules refuse every change', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ADMIN_TOOLS: 'true', TOOLS_DENY: 'area,integration,light.kitchen_ceiling' });
  });
  afterAll(() => s?.close());

  test('a denied area, integration or entity is refused; a label is not', async () => {
    for (const args of [
      { operation: 'update', kind: 'area', id: 'kitchen', fields: { name: 'Cookery' } },
      { operation: 'update', kind: 'entity', id: 'light.kitchen_ceiling', fields: { name: 'X' } },
      // Moving an entity into a denied area touches that area too.
      { operation: 'update', kind: 'entity', id: 'light.office_desk', fields: { area_id: 'kitchen' } },
    ]) {
      const r = await tool(s, 'admin_registry', { ...args, dry_run: true });
      expect(r.body.structuredContent.error, JSON.stringify(args)).toMatchObject({ code: 'FORBIDDEN' });
    }
    const entries = sc(await tool(s, 'admin_health', { operation: 'integrations' })).items as Body[];
    const reload = await tool(s, 'admin_health', { operation: 'reload', id: entries[0]!.id, dry_run: true });
    expect(reload.body.structuredContent.error.code).toBe('FORBIDDEN');
    const label = await tool(s, 'admin_registry', { operation: 'create', kind: 'label', fields: { name: 'Fine' }, dry_run: true });
    expect(label.body.isError).toBeFalsy();
  });
});

describe('read-only mode', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ADMIN_TOOLS: 'true', TOOLS_READ_ONLY: 'true' });
  });
  afterAll(() => s?.close());

  test('reading works; every change is refused', async () => {
    expect(text(await tool(s, 'admin_registry', { operation: 'list', kind: 'floor' }))).toContain('ground_floor');
    for (const [name, args] of [
      ['admin_registry', { operation: 'create', kind: 'zone', fields: { name: 'Z', latitude: 1, longitude: 1 } }],
      ['admin_health', { operation: 'dismiss', id: 'met/cannot_connect' }],
    ] as const) {
      const r = await tool(s, name, { ...args, confirm: true, reason: 'x' });
      expect(r.body.structuredContent.error).toMatchObject({ code: 'FORBIDDEN', details: { read_only: true } });
    }
  });
});
