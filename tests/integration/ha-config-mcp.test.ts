// The config tools over MCP, through the official SDK client in both eras: a change is previewed
// (dry_run), then asked of the person with its diff (an input-required result on 2026-07-28, an
// elicitation on a 2025 session) and applied only on their yes; a client that cannot be asked keeps
// confirm: true. The tools that change config are listed only while CONFIG_EDITING is on. Read-only
// mode and a deny rule refuse config edits alike on every way in: REST, the REST tool transport,
// MCP over HTTP in both eras, the WebSocket command channel has none (it only runs commands).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { configHomeFile } from '../helpers/config-home.js';

type Era = 'modern' | 'legacy';
type Answer = (req: { message: string }) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

async function mcp(s: TestServer, era: Era, answer?: Answer) {
  const asked: string[] = [];
  const c = new Client(
    { name: 'config-test', version: '1.0.0' },
    { ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}), capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer) {
    c.setRequestHandler('elicitation/create', async (req) => {
      asked.push((req.params as { message: string }).message);
      return answer(req.params as { message: string }) as never;
    });
  }
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  return { c, asked };
}

const yes: Answer = () => ({ action: 'accept', content: { confirm: true } });
const no: Answer = () => ({ action: 'decline' });
const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;
const automation = (n: number) => ({
  alias: `Desk at night ${n}`,
  triggers: [{ trigger: 'event', event_type: `night_${n}` }],
  actions: [{ action: 'light.turn_on', target: { entity_id: 'light.desk' } }],
});

describe('with config editing on', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ CONFIG_EDITING: 'true', SIM_HOME: configHomeFile() });
  });
  afterAll(() => s?.close());

  test.each(['modern', 'legacy'] as const)(
    '%s era: every config tool is listed; a change is shown to the person and applied only on their yes',
    async (era) => {
      const n = era === 'modern' ? 1 : 2;
      const declined = await mcp(s, era, no);
      const names = (await declined.c.listTools()).tools.map((t) => t.name).filter((x) => x.startsWith('config'));
      expect(names.sort()).toEqual(['config_change', 'config_history', 'config_read', 'config_restore', 'config_trace']);
      const preview = await declined.c.callTool({
        name: 'config_change',
        arguments: { kind: 'automation', op: 'create', config: automation(n), dry_run: true },
      });
      expect(structured(preview)).toMatchObject({ dry_run: true, applied: false, change: 'created' });
      expect((preview as { content: { text: string }[] }).content[0]!.text).toContain(`+alias: Desk at night ${n}`);

      const refused = await declined.c.callTool({
        name: 'config_change',
        arguments: { kind: 'automation', op: 'create', config: automation(n), reason: 'the person asked' },
      });
      expect(declined.asked).toHaveLength(1);
      expect(declined.asked[0]).toContain(`+alias: Desk at night ${n}`);
      expect(refused.isError).toBe(true);
      expect(structured(refused).error).toMatchObject({ code: 'CONFIRMATION_REQUIRED', details: { declined: true } });
      expect((await s.call(`/api/ha-config/automation/desk_at_night_${n}`)).status).toBe(404);
      await declined.c.close();

      const allowed = await mcp(s, era, yes);
      const done = await allowed.c.callTool({
        name: 'config_change',
        arguments: { kind: 'automation', op: 'create', config: automation(n), reason: 'the person asked' },
      });
      expect(done.isError).toBeFalsy();
      expect(allowed.asked).toHaveLength(1);
      expect(structured(done)).toMatchObject({ applied: true, change: 'created', id: `desk_at_night_${n}` });
      const history = await allowed.c.callTool({ name: 'config_history', arguments: { kind: 'automation', id: `desk_at_night_${n}` } });
      expect(structured(history).versions[0]).toMatchObject({ change: 'created', actor_kind: 'user', reason: 'the person asked' });
      await allowed.c.close();
    },
  );

  test('offered by scope: a grant with config (and no control) gets the config tools and no control tool; one with control and no config gets no tool that changes config', () => {
    const names = (scope: string[]) => s.app.services.tools.listFor({ sub: 'client', iat: 0, via: 'oauth', scope }).map((t) => t.name);
    expect(names(['read', 'config'])).toEqual(expect.arrayContaining(['config_change', 'config_restore', 'config_read']));
    expect(names(['read', 'config'])).not.toContain('control_lights');
    expect(names(['read', 'control'])).toEqual(expect.arrayContaining(['control_lights', 'config_read', 'config_trace', 'config_history']));
    expect(names(['read', 'control'])).not.toContain('config_change');
    // Home Assistant's link: read and control at most, never config.
    expect(s.app.services.tools.listFor({ sub: 'home-assistant', iat: 0, via: 'discovery', scope: ['read', 'control'] }).map((t) => t.name)).not.toContain(
      'config_restore',
    );
  });

  test('a client that cannot be asked gets the preview with CONFIRMATION_REQUIRED, and applies with confirm: true', async () => {
    const { c } = await mcp(s, 'modern');
    const r = await c.callTool({
      name: 'config_change',
      arguments: { kind: 'helper', op: 'create', id: 'input_boolean', config: { name: 'Movie mode' }, reason: 'for movie nights' },
    });
    expect(structured(r).error).toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      details: { needs_confirmation: ['creating input_boolean helper "Movie mode"'], diff: expect.stringContaining('+name: Movie mode') },
    });
    const ok = await c.callTool({
      name: 'config_change',
      arguments: {
        kind: 'helper',
        op: 'create',
        id: 'input_boolean',
        config: { name: 'Movie mode' },
        reason: 'for movie nights',
        confirm: true,
        preview_id: structured(r).error.details.preview_id,
      },
    });
    expect(structured(ok)).toMatchObject({ applied: true, id: 'input_boolean.movie_mode' });
    const noReason = await c.callTool({ name: 'config_change', arguments: { kind: 'helper', op: 'delete', id: 'input_boolean.movie_mode', confirm: true } });
    expect(structured(noReason).error).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'reason' } });
    await c.close();
  });

  test('config_read lists automations with when each last ran, config_trace explains a run', async () => {
    const { c } = await mcp(s, 'legacy');
    await s.app.simulator!.hub.bus.fire('night_1', {});
    for (let i = 0; i < 200 && s.app.hub.cache.get('light.desk')?.state !== 'on'; i++) await new Promise((r) => setTimeout(r, 10));
    const list = await c.callTool({ name: 'config_read', arguments: { kind: 'automation' } });
    expect((list as { content: { text: string }[] }).content[0]!.text).toMatch(
      /desk_at_night_1 \(automation\.desk_at_night_1\): Desk at night 1, on, last ran \d{4}-/,
    );
    const why = await c.callTool({ name: 'config_trace', arguments: { kind: 'automation', id: 'automation.desk_at_night_1' } });
    expect(structured(why).why).toMatch(/on event 'night_1', ran to the end \(1 step\)\.$/);
    await c.close();
  });
});

describe('the checkpoint holds for config edits on every way in', () => {
  const attempt = {
    kind: 'script',
    op: 'create',
    id: 'let_in',
    config: { sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }] },
    reason: 'test',
    confirm: true,
  };

  test.each([
    ['read-only mode', { TOOLS_READ_ONLY: 'true' }, { read_only: true }],
    ['a deny rule on what the script touches', { TOOLS_DENY: 'lock.front_door' }, { entity_ids: ['lock.front_door'] }],
    ['a deny rule on scripts themselves', { TOOLS_DENY: 'script' }, { entity_ids: ['script.let_in'] }],
    ['config editing off', { CONFIG_EDITING: 'false' }, { config_editing: false }],
  ])('%s', async (_name, env, details) => {
    const s = await startTestServer({ CONFIG_EDITING: 'true', ...env, SIM_HOME: configHomeFile() });
    try {
      const rest = await s.call('/api/ha-config-changes', 'POST', attempt);
      expect(rest.status).toBe(403);
      expect(rest.body.details).toMatchObject(details);
      const tool = await s.call('/api/tools/call', 'POST', { name: 'config_change', arguments: attempt });
      expect(tool.body.structuredContent.error).toMatchObject({ code: 'FORBIDDEN', details });
      for (const era of ['modern', 'legacy'] as const) {
        // A client that would say yes is never asked: the refusal comes first.
        const { c, asked } = await mcp(s, era, yes);
        const r = await c.callTool({ name: 'config_change', arguments: attempt });
        expect(r.isError).toBe(true);
        expect(structured(r).error).toMatchObject({ code: 'FORBIDDEN', details });
        expect(asked).toEqual([]);
        await c.close();
      }
      expect((await s.call('/api/ha-config/script/let_in')).status).toBe(404);
    } finally {
      await s.close();
    }
  });

  test('with config editing off, the tools that change config are not offered, and config_read still reads', async () => {
    const s = await startTestServer({ SIM_HOME: configHomeFile() });
    try {
      const { c } = await mcp(s, 'modern');
      const names = (await c.listTools()).tools.map((t) => t.name).filter((x) => x.startsWith('config'));
      expect(names.sort()).toEqual(['config_history', 'config_read', 'config_trace']);
      const read = await c.callTool({ name: 'config_read', arguments: { kind: 'script', id: 'open_up' } });
      expect((read as { content: { text: string }[] }).content[0]!.text).toContain('action: lock.unlock');
      await c.close();
    } finally {
      await s.close();
    }
  });
});
