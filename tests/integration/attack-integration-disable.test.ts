// ATTACK (issue 37, "by effect"): an integration entry disabled, enabled or reloaded, or a device
// disabled, through the admin tools (ADMIN_TOOLS on). The test failed before the fix committed with it.
// - HOLE A3: the change was judged only by its subject (`integration.<domain>`, `device.<id>`), so an
//   assistant could switch off the integration that provides an entity Home Assistant hides from
//   Assist (TOOLS_EXPOSED_ONLY) or that TOOLS_DENY keeps out (the front door's lock, an alarm):
//   the entity stops working though the assistant may not act on it. Now every entity of the entry
//   or device is judged as entities acted on are, and a hidden one is counted, never named.
// - HOLE A4: with TOOLS_EXPOSED_ONLY the device list showed devices all of whose entities are hidden
//   (the front door's lock, the alarm panel) by name, maker and area, and let them be renamed and
//   moved; the entity list hid their entities. Such a device is now neither listed nor found.
// - HOLE A5: homeassistant.reload_config_entry (real Home Assistant has it; the simulator now does)
//   as a plain call_service reloaded the integration behind a denied lock, with the admin tools
//   off: it was judged as an action on its target, or on nothing. It is refused as an action now;
//   admin_health's reload does it, judging every entity of the entry.
// - HOLE A6 (found by the closing note's review): moving a device into another area moved its
//   entities that have no area of their own, a denied lock among them, unjudged. They are judged now.
// - Held: a deny rule on the integration itself; an entry whose entities all pass (the failed
//   weather entry has none); a read-only grant and a control grant without admin do not reach the
//   tool at all (404), over REST and MCP.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { adminOf } from '@home-mcp-bridge/sim/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authorizedClient, HostedAssistant } from '../helpers/oauth-client.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

type Body = Record<string, any>;

/** admin_health over REST as the test user; the tool's error or its structured answer. */
async function health(s: TestServer, args: Body): Promise<Body> {
  const r = await s.call('/api/tools/call', 'POST', { name: 'admin_health', arguments: args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.isError ? { error: r.body.structuredContent?.error } : r.body.structuredContent;
}

/** admin_health over MCP (2025-11-25) as the test user. */
async function healthMcp(s: TestServer, args: Body): Promise<Body> {
  const client = new Client({ name: 'attack-a3', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  try {
    const r = (await client.callTool({ name: 'admin_health', arguments: args })) as Body;
    return r.isError ? { error: r.structuredContent?.error } : r.structuredContent;
  } finally {
    await client.close();
  }
}

const entryOf = async (s: TestServer, domain: string) =>
  ((await health(s, { operation: 'integrations' })).items as Body[]).find((e) => e.info.domain === domain)!;
const simState = async (s: TestServer) => (await entryOf(s, 'sim')).info.state;
const lockDevice = (s: TestServer) => s.app.simulator!.hub.registries.entities.get('lock.front_door')!.device_id!;

describe('TOOLS_EXPOSED_ONLY: the lock is hidden from Assist (never exposed in the demo home)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ADMIN_TOOLS: 'true', TOOLS_EXPOSED_ONLY: 'true' });
    await s.app.hub.ready(10_000);
  });
  afterAll(() => s?.close());

  test('disabling or reloading the integration that provides it is refused over REST and MCP, previews included, and never names it', async () => {
    const sim = await entryOf(s, 'sim');
    expect(s.app.services.policy.maySee('lock.front_door')).toBe(false);
    for (const operation of ['disable', 'reload']) {
      for (const extra of [{ dry_run: true }, { confirm: true, reason: 'tidy up' }]) {
        for (const [door, ask] of [
          ['REST', health],
          ['MCP', healthMcp],
        ] as const) {
          const r = await ask(s, { operation, id: sim.id, ...extra });
          expect(r.error, `${door} ${operation} ${JSON.stringify(extra)}: ${JSON.stringify(r)}`).toMatchObject({
            code: 'FORBIDDEN',
            details: { exposed: false },
          });
          expect(JSON.stringify(r.error)).not.toContain('front_door');
        }
      }
    }
    expect(await simState(s)).toBe('loaded');
  });

  test('the lock’s device, all of whose entities are hidden, is neither listed nor changed; the failed weather entry, with no entities, may still be disabled (previewed)', async () => {
    const device = lockDevice(s);
    const listed = await s.call('/api/tools/call', 'POST', { name: 'admin_registry', arguments: { operation: 'list', kind: 'device' } });
    const ids = (listed.body.structuredContent.items as Body[]).map((d) => d.id);
    expect(ids).toContain('living_room_tv');
    expect(ids).not.toContain(device);
    expect(JSON.stringify(listed.body)).not.toContain('Front Door Lock');
    for (const fields of [{ disabled: true }, { name_by_user: 'Renamed' }]) {
      const r = await s.call('/api/tools/call', 'POST', {
        name: 'admin_registry',
        arguments: { operation: 'update', kind: 'device', id: device, fields, dry_run: true },
      });
      expect(r.body.structuredContent?.error, JSON.stringify(r.body)).toMatchObject({ code: 'NOT_FOUND' });
    }
    const met = await entryOf(s, 'met');
    const preview = await health(s, { operation: 'disable', id: met.id, dry_run: true });
    expect(preview, JSON.stringify(preview)).toMatchObject({ dry_run: true, needs_confirmation: [expect.stringContaining('integration')] });
  });
});

describe('TOOLS_DENY keeps the lock out', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ADMIN_TOOLS: 'true', TOOLS_DENY: 'lock.front_door' });
    await s.app.hub.ready(10_000);
  });
  afterAll(() => s?.close());

  test('disabling or reloading its integration, or disabling its device, is refused naming the lock', async () => {
    const sim = await entryOf(s, 'sim');
    for (const operation of ['disable', 'reload']) {
      const r = await health(s, { operation, id: sim.id, confirm: true, reason: 'tidy up' });
      expect(r.error, `${operation}: ${JSON.stringify(r)}`).toMatchObject({ code: 'FORBIDDEN', details: { entity_ids: ['lock.front_door'] } });
    }
    const dev = await s.call('/api/tools/call', 'POST', {
      name: 'admin_registry',
      arguments: { operation: 'update', kind: 'device', id: lockDevice(s), fields: { disabled: true }, confirm: true, reason: 'tidy up' },
    });
    expect(dev.body.structuredContent?.error).toMatchObject({ code: 'FORBIDDEN', details: { entity_ids: ['lock.front_door'] } });
    expect(await simState(s)).toBe('loaded');
    expect(s.app.simulator!.hub.registries.devices.get(lockDevice(s))?.disabled_by ?? null).toBeNull();
  });

  test('moving its device to another area, which moves the lock (it has no area of its own), is refused naming the lock; a device whose moved entities all pass may move', async () => {
    const registries = s.app.simulator!.hub.registries;
    expect(registries.entities.get('lock.front_door')?.area_id ?? null).toBeNull();
    const move = (id: string, area: string, extra: Body) =>
      s.call('/api/tools/call', 'POST', {
        name: 'admin_registry',
        arguments: { operation: 'update', kind: 'device', id, fields: { area_id: area }, ...extra },
      });
    for (const extra of [{ dry_run: true }, { confirm: true, reason: 'tidy up' }]) {
      const r = await move(lockDevice(s), 'kitchen', extra);
      expect(r.body.structuredContent?.error, JSON.stringify(r.body)).toMatchObject({ code: 'FORBIDDEN', details: { entity_ids: ['lock.front_door'] } });
    }
    expect(registries.devices.get(lockDevice(s))?.area_id).toBe('hallway');
    // The thermostat's device moves its climate entity and its temperature sensor, both allowed: a preview is offered.
    const ok = await move('hallway_thermostat', 'kitchen', { dry_run: true });
    expect(ok.body.structuredContent, JSON.stringify(ok.body)).toMatchObject({ dry_run: true });
  });
});

describe('held: a deny rule on the integration, and callers without the admin scope', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ADMIN_TOOLS: 'true', TOOLS_DENY: 'integration.sim' });
    await s.app.hub.ready(10_000);
  });
  afterAll(() => s?.close());

  test('TOOLS_DENY=integration.sim refuses disabling it', async () => {
    const sim = await entryOf(s, 'sim');
    const r = await health(s, { operation: 'disable', id: sim.id, dry_run: true });
    expect(r.error).toMatchObject({ code: 'FORBIDDEN', details: { entity_ids: ['integration.sim'] } });
  });

  test('a read grant and a read-control grant (OAuth) get 404 for admin_health over MCP and REST, listing included', async () => {
    const sim = await entryOf(s, 'sim');
    for (const scopes of [['read'], ['read', 'control']]) {
      const assistant = new HostedAssistant(scopes.join(' '));
      const client = await authorizedClient(s.url, TEST_USER, assistant, scopes);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('admin_health');
        for (const args of [{ operation: 'integrations' }, { operation: 'disable', id: sim.id, confirm: true, reason: 'x' }]) {
          // An unknown tool is a protocol error in MCP, as for a tool that does not exist.
          await expect(client.callTool({ name: 'admin_health', arguments: args }), `${scopes} MCP ${JSON.stringify(args)}`).rejects.toThrow(
            /No tool admin_health/,
          );
          const rest = await s.api('/api/tools/call', {
            method: 'POST',
            headers: { authorization: `Bearer ${assistant.saved!.access_token}` },
            json: { name: 'admin_health', arguments: args },
          });
          expect([401, 404], `${scopes} REST ${JSON.stringify(args)}`).toContain(rest.status);
        }
      } finally {
        await client.close();
      }
    }
    expect(await simState(s)).toBe('loaded');
  });
});

describe('HOLE A5: homeassistant.reload_config_entry as a plain service call', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ TOOLS_DENY: 'lock.front_door' });
    await s.app.hub.ready(10_000);
  });
  afterAll(() => s?.close());

  test('is refused as an action over REST and MCP (admin_health reload does it, judging the entry’s entities); nothing is reloaded', async () => {
    const entry = s.app.simulator!.hub.registries.entities.get('lock.front_door')!.config_entry_id!;
    const calls = [
      { operation: 'call', domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: entry } },
      { operation: 'call', domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: entry }, confirm: true },
    ];
    const client = new Client({ name: 'attack-a5', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      for (const args of calls) {
        const rest = await s.call('/api/tools/call', 'POST', { name: 'call_service', arguments: args });
        expect(rest.body.structuredContent?.error, `REST ${JSON.stringify(args)}: ${JSON.stringify(rest.body)}`).toMatchObject({
          code: 'FORBIDDEN',
          details: { admin_service: 'homeassistant.reload_config_entry' },
        });
        const r = (await client.callTool({ name: 'call_service', arguments: args })) as Body;
        expect(r.structuredContent?.error, `MCP ${JSON.stringify(args)}: ${JSON.stringify(r)}`).toMatchObject({ code: 'FORBIDDEN' });
      }
    } finally {
      await client.close();
    }
    expect(adminOf(s.app.simulator!.hub).reloads).toEqual([]);
  });
});
