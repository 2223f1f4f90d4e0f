// ATTACK (issue 37, "by effect"): admin_system's changes reached around it. Each test failed before
// the fix committed with it.
// - HOLE A1: a caller without the admin scope (a `control` grant) restarted Home Assistant or
//   reloaded its YAML through call_service (homeassistant.restart, homeassistant.reload_all): the
//   executor judged them as plain targetless actions, so the admin scope, ADMIN_TOOLS, the deny
//   rules on core.restart and the person's confirmation that admin_system asks for never applied.
// - HOLE A2: the bridge keeps its own app running by asking the Supervisor which app it is; when that
//   asking failed once (the Supervisor busy or restarting), the failure was kept as "no app", and
//   from then on stop_app on the bridge's own slug stopped the bridge.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { SupervisorApi } from '../../src/hub/supervisor.js';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import type { Principal } from '../../src/auth/tokens.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
// @ts-expect-error: a plain .mjs helper shared with the process runners
import { freePort } from '../lib/bridge-process.mjs';

const grant = (scope: string[]): Principal => ({ sub: 'client', iat: 0, via: 'oauth', scope });
type Body = Record<string, any>;

let sim: Simulator;
let s: TestServer;

beforeAll(async () => {
  sim = await startSimulator({ supervisor: { backupMs: 150 }, timing: { restartMs: 200 } });
  const port = (await freePort()) as number;
  sim.supervisor!.installAddon({
    slug: 'home_mcp_bridge',
    name: 'Home MCP Bridge',
    url: `http://127.0.0.1:${port}`,
    version: '0.2.0',
    hassioApi: true,
    hassioRole: 'manager',
  });
  sim.supervisor!.installAddon({ slug: 'core_mosquitto', name: 'Mosquitto broker', url: 'http://127.0.0.1:1', version: '6.5.1' });
  s = await startTestServer({ SUPERVISOR_TOKEN: 'supervisor-token', SUPERVISOR_URL: sim.url, ADMIN_TOOLS: 'true', PORT: String(port) });
  await s.app.hub.ready(10_000);
});
afterAll(async () => {
  await s?.close();
  await sim?.stop();
});

const core = [
  { operation: 'call', domain: 'homeassistant', service: 'restart' },
  { operation: 'call', domain: 'homeassistant', service: 'stop' },
  { operation: 'call', domain: 'homeassistant', service: 'reload_all' },
  { operation: 'call', domain: 'HomeAssistant', service: 'Restart' },
];

describe('HOLE A1: core restart and reload through call_service', () => {
  test('a control grant without admin cannot restart or reload Home Assistant, even confirmed', async () => {
    for (const args of core) {
      for (const extra of [{}, { confirm: true }, { dry_run: true }]) {
        const r = (await s.app.services.tools
          .call('call_service', { ...args, ...extra }, grant(['read', 'control']))
          .catch((e: unknown) => ({ thrown: e }))) as Body;
        const text = JSON.stringify(r.thrown ?? r);
        expect(text, `${JSON.stringify(args)} ${JSON.stringify(extra)}`).toMatch(/FORBIDDEN|NOT_FOUND|INVALID/);
        expect(text).not.toMatch(/HUB_ERROR|"success":true/);
      }
    }
  });

  test('with the admin scope it is an admin change: the person confirms it, and a deny rule on core.restart holds', async () => {
    const tools = s.app.services.tools;
    const held = (await tools.call('call_service', core[0]!, grant(['read', 'control', 'admin'])).catch((e: unknown) => ({ thrown: e }))) as Body;
    expect(JSON.stringify(held.thrown ?? held)).toContain('CONFIRMATION_REQUIRED');
    const denied = await startTestServer({ SUPERVISOR_TOKEN: 'supervisor-token', SUPERVISOR_URL: sim.url, ADMIN_TOOLS: 'true', TOOLS_DENY: 'core.restart' });
    try {
      await denied.app.hub.ready(10_000);
      const r = (await denied.app.services.tools
        .call('call_service', { ...core[0]!, confirm: true }, undefined)
        .catch((e: unknown) => ({ thrown: e }))) as Body;
      expect(JSON.stringify(r.thrown ?? r)).toContain('TOOLS_DENY');
    } finally {
      await denied.close();
    }
  });
});

describe('a command to restart or reload Home Assistant', () => {
  test('English and German: never restarts it unconfirmed', async () => {
    for (const [command, language] of [
      ['restart home assistant', 'en'],
      ['reload home assistant', 'en'],
      ['starte Home Assistant neu', 'de'],
    ]) {
      const r = await s.call('/api/command', 'POST', { command, language });
      expect(r.body.success === true && r.body.actions?.length > 0, `${command}: ${JSON.stringify(r.body)}`).toBe(false);
    }
  });
});

describe('HOLE A2: the bridge does not stop itself when the Supervisor does not say which app it is', () => {
  test('a failed asking refuses the stop, and is asked again next time', async () => {
    // The link's announcement asks the Supervisor too, retrying while it fails: stopped, so the spy counts admin_system's asking only (under load a retry fell inside).
    s.app.services.discoveryLink.stop();
    const spy = vi.spyOn(SupervisorApi.prototype, 'addonInfo').mockRejectedValueOnce(new Error('fetch failed'));
    try {
      const args = { operation: 'stop_app', app: 'home_mcp_bridge', confirm: true, reason: 'attack' };
      for (let i = 0; i < 2; i++) {
        const r = (await s.call('/api/tools/call', 'POST', { name: 'admin_system', arguments: args })).body;
        expect(r.isError, JSON.stringify(r)).toBe(true);
        expect(sim.supervisor!.addon('home_mcp_bridge')!.state).toBe('started');
      }
      expect(spy).toHaveBeenCalledTimes(2);
      // Other spellings of its slug are no app at all.
      for (const app of ['Home_MCP_Bridge', ' home_mcp_bridge', 'home_mcp_bridge ', 'local_home_mcp_bridge']) {
        const r = (await s.call('/api/tools/call', 'POST', { name: 'admin_system', arguments: { ...args, app } })).body;
        expect(r.isError === true || r.error === true, `${app}: ${JSON.stringify(r)}`).toBe(true);
      }
      expect(sim.supervisor!.addon('home_mcp_bridge')!.state).toBe('started');
    } finally {
      spy.mockRestore();
    }
  });
});
