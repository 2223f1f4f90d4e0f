// Home Assistant's own MCP path (/api/mcp/{api_id}), against the real Home Assistant (2026.10 and
// later; older releases have no mcp integration and skip, saying so):
// (c) the add-on's discovery message, handed over as the Supervisor would, reaches the `hassio`
//     step of Home Assistant's mcp integration, and confirming it makes the entry, with no OAuth;
// (a) Home Assistant's LLM API then lists every bridge tool: its own converter took every schema
//     (one it refused would fail the whole entry), and the manual path works too: its OAuth flow as
//     it is, with a confidential client made on the bridge;
// (b) an MCP client holding only a Home Assistant token calls a bridge tool through
//     /api/mcp/{api_id} and a light changes in Home Assistant; the one text block Home Assistant
//     answers carries the bridge's own words and its structured result.
// Also: the link's scope and a new key, followed by Home Assistant. The simulator plays the
// Supervisor (the discovery API); the hub is the real Home Assistant.
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';
import { discoveryOf } from '../../src/plugin-host/tool-discovery.js';
import {
  addDiscovered,
  bridgeResultOf,
  ensureMcpServer,
  entriesOf,
  flowStep,
  haCommand,
  haMcp,
  haRequest,
  handToHomeAssistant,
  removeEntry,
} from '../lib/home-assistant-mcp.mjs';
import { consent } from '../lib/oauth-consent.mjs';
import { eventually, haCall, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

const SLUG = 'home_mcp_bridge';
const API = `mcp-${SLUG}`;
const version = String(
  ((await (await fetch(`${HASS_URL}/api/config`, { headers: { authorization: `Bearer ${HASS_TOKEN}` } })).json()) as { version: string }).version,
);
const [major, minor] = version.split('.').map(Number) as [number, number];
const hasMcp = major > 2026 || (major === 2026 && minor >= 10);

let sim: Simulator;
let s: TestServer;
const made: { entries: string[]; credentials: string[] } = { entries: [], credentials: [] };
const announced = () => sim.supervisor!.discoveries().find((d) => d.service === 'mcp')!;

async function waitFor<T>(what: string, get: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The official SDK client, holding nothing but a Home Assistant token, at Home Assistant's /api/mcp/{api_id}. */
async function throughHomeAssistant(apiId = API): Promise<Client> {
  const client = new Client({ name: 'assistant-behind-home-assistant', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${HASS_URL}/api/mcp/${apiId}`), { requestInit: { headers: { authorization: `Bearer ${HASS_TOKEN}` } } }),
  );
  return client;
}

const toolNames = async (apiId: string) => {
  const res = await haMcp(HASS_URL, HASS_TOKEN, apiId, 'tools/list');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.result.tools as { name: string }[]).map((t) => t.name).sort();
};

const reload = (entryId: string) => haRequest(HASS_URL, HASS_TOKEN, `/api/config/config_entries/entry/${entryId}/reload`, { method: 'POST' });

beforeAll(async () => {
  if (!hasMcp) return;
  sim = await startSimulator({ supervisor: {} });
  // The add-on's host name is where Home Assistant reaches it: here, this machine.
  sim.supervisor!.installAddon({ slug: SLUG, name: 'Home MCP Bridge', url: 'http://127.0.0.1:9', discovery: ['mcp'], hostname: '127.0.0.1' });
  // Home Assistant runs on this machine's loopback, so that is the peer the link admits.
  s = await startTestServer({ HASS_URL, HASS_TOKEN, SUPERVISOR_TOKEN: 'supervisor-token', SUPERVISOR_URL: sim.url, DISCOVERY_PEERS: '127.0.0.1' });
  await s.app.hub.ready(30_000);
  await waitFor('the announcement', () => sim.supervisor!.discoveries().find((d) => d.service === 'mcp'));
  await ensureMcpServer(HASS_URL, HASS_TOKEN);
});

afterAll(async () => {
  for (const id of made.entries) await removeEntry(HASS_URL, HASS_TOKEN, id).catch(() => undefined);
  for (const id of made.credentials)
    await haCommand(HASS_URL, HASS_TOKEN, { type: 'application_credentials/delete', application_credentials_id: id }).catch(() => undefined);
  await s?.close();
  await sim?.stop();
});

describe.skipIf(!hasMcp)(`Home Assistant's own MCP path (/api/mcp/{api_id}), Home Assistant ${version}`, () => {
  let entryId: string;

  test('(c) the discovery message reaches the hassio step; confirming it makes the entry, with no OAuth', async () => {
    const message = announced();
    expect(String(message.config.url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/ha\/[A-Za-z0-9_-]{43}$/);
    const { flow, result } = await addDiscovered(HASS_URL, HASS_TOKEN, message);
    expect(flow).toMatchObject({
      handler: 'mcp',
      step_id: 'hassio_confirm',
      context: { source: 'hassio', unique_id: message.uuid, title_placeholders: { name: 'Home MCP Bridge' } },
    });
    expect(result, JSON.stringify(result)).toMatchObject({ type: 'create_entry', result: { domain: 'mcp', source: 'hassio', state: 'loaded' } });
    entryId = result.result.entry_id;
    made.entries.push(entryId);
    // Home Assistant came in through the link, as its own principal.
    expect((await s.call('/api/discovery')).body.last_used_at).toEqual(expect.any(String));
  });

  test("(a) Home Assistant's LLM API lists every bridge tool: its converter took every input schema", async () => {
    // Every tool the bridge lists for this home (a plugin's tools only while its domains have
    // entities: the 2026.11 demo has no automation, script or scene, so no run_automation; past
    // the list's budget, the core tools with find_tools and call_tool, which reach the rest).
    const ours = discoveryOf(s.app.services.tools)
      .listedFor(undefined)
      .map((t) => t.name)
      .sort();
    expect(await toolNames(API)).toEqual(ours);
    // As Home Assistant re-publishes it from its own validator: the colour is a list of three.
    const tools = (await haMcp(HASS_URL, HASS_TOKEN, API, 'tools/list')).body.result.tools as { name: string; inputSchema: any }[];
    expect(tools.find((t) => t.name === 'control_lights')!.inputSchema.properties.rgb_color).toMatchObject({ type: 'array', minItems: 3, maxItems: 3 });
  });

  test('(b) an MCP client holding only a Home Assistant token turns a light on through /api/mcp; the answer is useful text', async () => {
    await haCall('light', 'turn_off', { entity_id: 'light.kitchen_lights' });
    await eventually(
      () => haStateOf('light.kitchen_lights'),
      (x) => x.state === 'off',
      'kitchen lights off',
    );
    const client = await throughHomeAssistant();
    const result = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.kitchen_lights', command: 'on', brightness_pct: 60 } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    await eventually(
      () => haStateOf('light.kitchen_lights'),
      (x) => x.state === 'on' && x.attributes.brightness === 153,
      'kitchen lights on at 60 % in Home Assistant',
    );
    // One text block, no structuredContent: the bridge's own result, words and data, as JSON.
    expect(result.structuredContent).toBeUndefined();
    const ours = bridgeResultOf(result as { content: { type: string; text: string }[] });
    expect(ours.content[0].text).toBe('light.turn_on done.\nlight.kitchen_lights: on');
    expect(ours.structuredContent).toMatchObject({ service: 'light.turn_on', entities: [{ entity_id: 'light.kitchen_lights', state: 'on', verified: true }] });
    // A business refusal arrives the same way, and nothing happens.
    const lock = (await haStateOf('lock.front_door')).state;
    const refused = await client.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.front_door', command: 'unlock' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(bridgeResultOf(refused as { content: { type: string; text: string }[] }))).toContain('CONFIRMATION_REQUIRED');
    expect((await haStateOf('lock.front_door')).state).toBe(lock);
    await client.close();
  });

  test("the link's scope reaches Home Assistant: read only, its LLM API holds only the tools that read", async () => {
    expect((await s.call('/api/discovery', 'PATCH', { scope: ['read'] })).status).toBe(200);
    // Home Assistant reads the tool list when the entry loads (and every 30 minutes).
    await reload(entryId);
    const listed = await waitFor('the reloaded tool list', async () => {
      const names = await toolNames(API).catch(() => undefined);
      return names && !names.includes('control_lights') ? names : undefined;
    });
    expect(listed).toContain('search_entities');
    expect((await s.call('/api/discovery', 'PATCH', { scope: ['read', 'control'] })).status).toBe(200);
    await reload(entryId);
    await waitFor('control again', async () => ((await toolNames(API).catch((): string[] => [])).includes('control_lights') ? true : undefined));
  });

  test('a new key: the old link is refused at once; the announcement updates the entry, which keeps working', async () => {
    const before = announced();
    const rotated = (await s.call('/api/discovery/rotate', 'POST')).body;
    expect(rotated.announcement).toMatchObject({ state: 'announced', uuid: before.uuid });
    const after = announced();
    expect(after.config.url).not.toBe(before.config.url);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    };
    const old = await fetch(String(before.config.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(old.status).toBe(404);
    // The Supervisor pushes the changed message (same uuid); Home Assistant's hassio step updates the entry's URL and reloads it.
    await handToHomeAssistant(HASS_URL, HASS_TOKEN, after, 'Home MCP Bridge');
    // While the entry reloads its API is away, and a call may still go to the old link; then it goes through.
    await waitFor('a call through the updated entry', async () => {
      const client = await throughHomeAssistant().catch(() => undefined);
      const result = await client
        ?.callTool({ name: 'control_lights', arguments: { entity_id: 'light.kitchen_lights', command: 'off' } })
        .catch(() => undefined);
      await client?.close();
      return result && !result.isError ? result : undefined;
    });
    await eventually(
      () => haStateOf('light.kitchen_lights'),
      (x) => x.state === 'off',
      'kitchen lights off through the new link',
    );
    expect((await entriesOf(HASS_URL, HASS_TOKEN, 'mcp')).filter((e: any) => e.source === 'hassio')).toHaveLength(1);
  });

  test("(a) by hand: Home Assistant's OAuth flow as it is, with a confidential client made on the bridge", async () => {
    // Without the My Home Assistant integration, Home Assistant's redirect URI is its own callback.
    const redirect = `${HASS_URL}/auth/external/callback`;
    const client = (await s.call('/api/oauth/clients', 'POST', { name: 'Home Assistant', redirect_uris: [redirect] })).body;
    const credential = await haCommand(HASS_URL, HASS_TOKEN, {
      type: 'application_credentials/create',
      domain: 'mcp',
      client_id: client.client_id,
      client_secret: client.client_secret,
      name: `Home MCP Bridge ${randomBytes(3).toString('hex')}`,
    });
    made.credentials.push(credential.id);
    const started = (await haRequest(HASS_URL, HASS_TOKEN, '/api/config/config_entries/flow', { method: 'POST', json: { handler: 'mcp' } })).body;
    const frontend = { 'HA-Frontend-Base': HASS_URL };
    let step = (await flowStep(HASS_URL, HASS_TOKEN, started.flow_id, { url: `${s.url}/mcp` }, frontend)).body;
    // A 401 from /mcp sends it to OAuth discovery, then to the credentials.
    if (step.type === 'menu') step = (await flowStep(HASS_URL, HASS_TOKEN, started.flow_id, { next_step_id: 'pick_implementation' }, frontend)).body;
    if (step.type === 'form' && step.step_id === 'pick_implementation')
      step = (await flowStep(HASS_URL, HASS_TOKEN, started.flow_id, { implementation: credential.id }, frontend)).body;
    expect(step, JSON.stringify(step)).toMatchObject({ type: 'external', step_id: 'auth' });
    const authorize = new URL(step.url);
    // What Home Assistant asks for: no PKCE, no resource.
    expect(authorize.searchParams.get('code_challenge')).toBeNull();
    expect(authorize.searchParams.get('resource')).toBeNull();
    expect(authorize.searchParams.get('redirect_uri')).toBe(redirect);
    const answer = await consent(authorize.href, TEST_USER);
    expect(answer.status, answer.page).toBe(302);
    // The browser lands on Home Assistant's callback, which hands the code to the flow; the flow trades it with the secret.
    const back = await fetch(answer.location!, { redirect: 'manual' });
    expect(back.status).toBe(200);
    await back.body?.cancel();
    const done = await waitFor('the OAuth entry', async () => {
      const r = (await flowStep(HASS_URL, HASS_TOKEN, started.flow_id, {})).body;
      return r.type === 'create_entry' ? r : undefined;
    });
    expect(done.result).toMatchObject({ domain: 'mcp', source: 'user', state: 'loaded' });
    made.entries.push(done.result.entry_id);
    const grants = (await s.call('/api/tokens')).body.tokens.filter((t: any) => t.kind === 'oauth_grant' && t.client_id === client.client_id);
    expect(grants).toEqual([expect.objectContaining({ scope: ['read', 'control'], created_by: TEST_USER.username })]);
    // Its own LLM API (mcp-<entry id>) serves the same tools, and a call acts.
    const apiId = `mcp-${done.result.entry_id}`;
    expect(await toolNames(apiId)).toEqual(await toolNames(API));
    const mcp = await throughHomeAssistant(apiId);
    const result = await mcp.callTool({ name: 'control_lights', arguments: { entity_id: 'light.kitchen_lights', command: 'on' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    await eventually(
      () => haStateOf('light.kitchen_lights'),
      (x) => x.state === 'on',
      'kitchen lights on through the OAuth entry',
    );
    await mcp.close();
  });
});

describe.skipIf(hasMcp)(`Home Assistant ${version}: before 2026.10`, () => {
  test('has no mcp integration, so its own MCP path is not there to test', async () => {
    await expect(haCommand(HASS_URL, HASS_TOKEN, { type: 'manifest/get', integration: 'mcp' })).rejects.toThrow(/not_found/);
    // While an integration it has, has a manifest.
    expect(await haCommand(HASS_URL, HASS_TOKEN, { type: 'manifest/get', integration: 'light' })).toMatchObject({ domain: 'light' });
  });
});
