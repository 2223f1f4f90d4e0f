// The tool list a new client reads stays within the budget for an assistant's context (issue 35:
// 6,000 tokens, JSON characters / 4), in both MCP eras, with default settings and with
// CONFIG_EDITING on, with today's plugins and with stand-ins of the tools issues 35 and 36 add
// (tests/fixtures/standin-plugins); and every tool stays reachable by a client that only calls
// what tools/list showed it, while a caller finds and calls exactly the tools the registry offers it.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Principal } from '../../src/auth/tokens.js';
import { SETTINGS as SETTINGS_TABLE } from '../../src/config/settings.js';
import { homeAssistantSchemaProblems } from '../../src/plugin-host/ha-schema.js';
import { discoveryOf, TOOL_BUDGET_TOKENS, tokensOf } from '../../src/plugin-host/tool-discovery.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Era = 'modern' | 'legacy';
const ERAS: Era[] = ['modern', 'legacy'];
const accept = 'application/json, text/event-stream';

/** The answer of a POST to /mcp, whether it came as JSON or as one SSE message. */
async function rpcResult(res: Response): Promise<Record<string, any>> {
  const body = await res.text();
  const json = res.headers.get('content-type')?.includes('text/event-stream')
    ? body
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join('')
    : body;
  const msg = JSON.parse(json) as { result?: Record<string, any>; error?: unknown };
  if (!msg.result) throw new Error(`no result: ${json.slice(0, 300)}`);
  return msg.result;
}

/** tools/list's `tools` exactly as a new client receives them on the wire, in one era. */
async function wireToolsList(s: TestServer, era: Era): Promise<Record<string, any>[]> {
  const headers = { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', accept };
  if (era === 'modern') {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'budget', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    return (await rpcResult(res)).tools;
  }
  const init = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'budget', version: '1' } },
    }),
  });
  await rpcResult(init);
  const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  await (
    await fetch(`${s.url}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
  ).text();
  const list = await fetch(`${s.url}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
  const tools = (await rpcResult(list)).tools;
  await fetch(`${s.url}/mcp`, { method: 'DELETE', headers: session });
  return tools;
}

async function client(s: TestServer, era: Era) {
  const c = new Client({ name: 'budget-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  return c;
}

const standins = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hmb-standins-'));
  cpSync(join(import.meta.dirname, '..', 'fixtures', 'standin-plugins'), dir, { recursive: true });
  return dir;
};

// ADMIN_TOOLS (issue 36's admin tools) joins the settings measured once this version has it.
const HAS_ADMIN_TOOLS = Object.values(SETTINGS_TABLE).some((x) => (x as { env?: string }).env === 'ADMIN_TOOLS');
const SETTINGS: Record<string, Record<string, string>> = {
  default: {},
  'CONFIG_EDITING on': { CONFIG_EDITING: 'true' },
  ...(HAS_ADMIN_TOOLS ? { 'CONFIG_EDITING and ADMIN_TOOLS on': { CONFIG_EDITING: 'true', ADMIN_TOOLS: 'true' } } : {}),
};

describe.each([
  ['today’s plugins', false],
  ['with 16 stand-ins of the coming tools', true],
] as const)('the tool list a new client reads, %s', (_label, withStandins) => {
  describe.each(Object.entries(SETTINGS))('%s', (_setting, env) => {
    let s: TestServer;
    let dir: string | undefined;
    beforeAll(async () => {
      dir = withStandins ? standins() : undefined;
      s = await startTestServer({ ...env, ...(dir ? { PLUGINS_DIR: dir } : {}) });
    });
    afterAll(async () => {
      await s?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test.each(ERAS)(`is within ${TOOL_BUDGET_TOKENS.toLocaleString('en')} tokens (%s era)`, async (era) => {
      const tools = await wireToolsList(s, era);
      expect(tools.length).toBeGreaterThan(0);
      expect(tokensOf(tools)).toBeLessThanOrEqual(TOOL_BUDGET_TOKENS);
      // Home Assistant's mcp integration refuses a whole server for one schema it cannot convert.
      for (const t of tools) expect(homeAssistantSchemaProblems(t.inputSchema), t.name).toEqual([]);
      // The list is the one the discovery computes for this caller, whatever the era.
      expect(tools.map((t) => t.name).sort()).toEqual(
        discoveryOf(s.app.services.tools)
          .listedFor(undefined)
          .map((t) => t.name)
          .sort(),
      );
    });

    test.each(ERAS)('reaches every tool the caller may use, knowing only tools/list (%s era)', async (era) => {
      const c = await client(s, era);
      try {
        const listed = new Map((await c.listTools()).tools.map((t) => [t.name, t]));
        const offered = s.app.services.tools.listFor(undefined);
        if (withStandins) expect(offered.length).toBeGreaterThan(listed.size);
        for (const tool of offered) {
          if (listed.has(tool.name)) continue;
          // Not listed: find_tools gives its full definition, and call_tool reaches it.
          expect(listed.has('find_tools') && listed.has('call_tool'), `${tool.name} is neither listed nor findable`).toBe(true);
          expect(listed.get('find_tools')!.description).toContain(tool.name);
          const found = await c.callTool({ name: 'find_tools', arguments: { names: [tool.name] } });
          const { _meta: _, ...definition } = tool;
          expect(found.structuredContent).toEqual({ tools: [definition] });
          // An argument no tool takes reaches the tool's own check, which names the arguments it takes.
          const probe = await c.callTool({ name: 'call_tool', arguments: { name: tool.name, arguments: { no_such_argument: 1 } } });
          expect(probe.isError).toBe(true);
          expect((probe.content as { text: string }[])[0]!.text).toMatch(new RegExp(`no_such_argument: is not an argument of ${tool.name}`));
        }
      } finally {
        await c.close();
      }
    });
  });
});

describe('finding and calling deferred tools', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = standins();
    s = await startTestServer({ PLUGINS_DIR: dir });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const sim = () => s.app.simulator!;
  const hubState = async (id: string) =>
    ((await (await fetch(`${sim().url}/api/states/${id}`, { headers: { authorization: `Bearer ${sim().token}` } })).json()) as { state: string }).state;

  test.each(ERAS)('a tool found by words acts through call_tool and when called by name (%s era)', async (era) => {
    const c = await client(s, era);
    try {
      const names = (await c.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['find_tools', 'call_tool', 'search_entities', 'command']));
      expect(names).not.toContain('control_fans');
      // The home app calls its own tool through the host, which allows only listed tools.
      expect(names).toContain('app_home_state');
      const found = await c.callTool({ name: 'find_tools', arguments: { query: 'turn a fan on' } });
      expect((found.structuredContent as { tools: { name: string }[] }).tools[0]!.name).toBe('control_fans');

      const before = await hubState('fan.bedroom_fan');
      const target = before === 'on' ? 'off' : 'on';
      const viaCallTool = await c.callTool({
        name: 'call_tool',
        arguments: { name: 'control_fans', arguments: { entity_id: 'fan.bedroom_fan', command: target } },
      });
      expect(viaCallTool.isError).toBeFalsy();
      expect(await hubState('fan.bedroom_fan')).toBe(target);
      // A client that read the definition from find_tools may call the tool directly.
      const direct = await c.callTool({ name: 'control_fans', arguments: { entity_id: 'fan.bedroom_fan', command: before === 'on' ? 'on' : 'off' } });
      expect(direct.isError).toBeFalsy();
      expect(await hubState('fan.bedroom_fan')).toBe(before);

      const standin = await c.callTool({ name: 'call_tool', arguments: { name: 'standins__weather', arguments: { operation: 'forecast', type: 'hourly' } } });
      expect(standin.structuredContent).toEqual({ tool: 'weather', args: { operation: 'forecast', type: 'hourly' } });
    } finally {
      await c.close();
    }
  });

  test.each(ERAS)('a found tool that asks the person asks through call_tool too, and acts on the answer (%s era)', async (era) => {
    await s.call('/api/tools/call', 'POST', {
      name: 'control_alarm',
      arguments: { entity_id: 'alarm_control_panel.security', command: 'arm_home', code: '1234' },
    });
    expect(await hubState('alarm_control_panel.security')).toBe('armed_home');
    const asked: string[] = [];
    const c = new Client(
      { name: 'budget-test', version: '1.0.0' },
      { ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}), capabilities: { elicitation: {} } },
    );
    c.setRequestHandler('elicitation/create', async (req) => {
      asked.push((req.params as { message: string }).message);
      return { action: 'accept', content: { confirm: true } } as never;
    });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      expect((await c.listTools()).tools.map((t) => t.name)).not.toContain('control_alarm');
      const r = await c.callTool({
        name: 'call_tool',
        arguments: { name: 'control_alarm', arguments: { entity_id: 'alarm_control_panel.security', command: 'disarm', code: '1234' } },
      });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(await hubState('alarm_control_panel.security')).toBe('disarmed');
    } finally {
      await c.close();
    }
  });

  test('mistakes are results the model reads: no such tool, no query, unknown arguments', async () => {
    const c = await client(s, 'modern');
    try {
      const none = await c.callTool({ name: 'call_tool', arguments: { name: 'no_such_tool' } });
      expect(none).toMatchObject({ isError: true, structuredContent: { error: { code: 'NOT_FOUND' } } });
      const unnamed = await c.callTool({ name: 'find_tools', arguments: { names: ['no_such_tool'] } });
      expect(unnamed).toMatchObject({ isError: true, structuredContent: { error: { code: 'NOT_FOUND' } } });
      const empty = await c.callTool({ name: 'find_tools', arguments: {} });
      expect(empty).toMatchObject({ isError: true, structuredContent: { error: { code: 'INVALID_PARAMETERS' } } });
      const extra = await c.callTool({ name: 'call_tool', arguments: { name: 'weather', args: {} } });
      expect(extra).toMatchObject({ isError: true, structuredContent: { error: { code: 'INVALID_PARAMETERS' } } });
      const nothing = await c.callTool({ name: 'find_tools', arguments: { query: 'xylophone' } });
      expect(nothing.isError).toBeFalsy();
      expect(nothing.structuredContent).toEqual({ tools: [] });
    } finally {
      await c.close();
    }
  });

  test('a caller finds and calls exactly what the registry offers it: a read-only grant reaches no acting tool', async () => {
    const discovery = discoveryOf(s.app.services.tools);
    const reader: Principal = { sub: 'client', iat: 0, via: 'oauth', scope: ['read'] };
    const offered = s.app.services.tools.listFor(reader).map((t) => t.name);
    expect(offered).not.toContain('control_fans');
    const listed = discovery.listedFor(reader).map((t) => t.name);
    const reachable = listed.includes('find_tools')
      ? ((await discovery.call('find_tools', { names: offered.slice(0, 5) }, reader)).structuredContent as { tools: { name: string }[] }).tools.map(
          (t) => t.name,
        )
      : listed;
    expect(reachable.every((n) => offered.includes(n))).toBe(true);
    const refused = await discovery
      .call('call_tool', { name: 'control_fans', arguments: { entity_id: 'fan.bedroom_fan', command: 'on' } }, reader)
      .catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
    expect(refused.isError).toBe(true);
    expect(
      await discovery.call('find_tools', { names: ['control_fans'] }, reader).catch((err: Error) => ({ isError: true, message: err.message })),
    ).toMatchObject({
      isError: true,
    });
  });
});
