// README's and the docs pages' examples work as written against the demo home: every shell block that calls the API with
// curl runs through bash and the real curl (only the address is this server's, the placeholders
// filled in), and the commands in plain words README shows answer as README says. A lock that
// wants a code asks for it over MCP and names the field over REST.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** README and the reference pages under docs/, read as one text: the examples moved with their sections. */
const DOCS = new URL('../../docs/', import.meta.url);
const README = [
  readFileSync(new URL('../../README.md', import.meta.url), 'utf8'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readFileSync(new URL(f, DOCS), 'utf8')),
].join('\n');
const ADMIN = { username: 'admin', password: 'a password from the banner' };

let s: TestServer;
let token: string;
beforeAll(async () => {
  // README's first start names the user admin; its password is the banner's.
  s = await startTestServer({ AUTH_USERNAME: ADMIN.username, AUTH_PASSWORD: ADMIN.password });
  await s.app.hub.ready();
  token = (
    (await (await fetch(`${s.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })).json()) as {
      access_token: string;
    }
  ).access_token;
});
const call = async (path: string, method: string, json: unknown) => {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
afterAll(() => s?.close());

const hubState = (id: string) => s.app.simulator!.getState(id)!.state;
const setHub = (id: string, state: string) => s.app.simulator!.setState(id, state);

/** README's shell blocks that call the bridge with curl. */
function curlBlocks(): string[] {
  const blocks = [...README.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  return blocks.filter((b) => /\bcurl\b/.test(b) && b.includes('localhost:3000'));
}

/**
 * Runs a block with bash as a reader would, on this server: curl is wrapped only to print each
 * answer's status after it and to end a stream after 3 s; TOKEN is set, `<access_token>` and
 * `<from the banner>` are filled in.
 */
function runBlock(block: string, token: string): Promise<{ statuses: number[]; out: string; code: number }> {
  const host = new URL(s.url).host;
  const script = block.replaceAll('localhost:3000', host).replaceAll('<access_token>', token).replaceAll('<from the banner>', ADMIN.password);
  const wrapper = `curl() { command curl --max-time 3 -w '\\n@@%{http_code}@@\\n' "$@"; }\n`;
  return new Promise((resolve) => {
    execFile('bash', ['-c', wrapper + script], { env: { PATH: process.env.PATH, TOKEN: token }, timeout: 30_000 }, (err, stdout) => {
      const statuses = [...stdout.matchAll(/@@(\d{3})@@/g)].map((m) => Number(m[1]));
      resolve({ statuses, out: stdout, code: err ? ((err as { code?: number }).code ?? 1) : 0 });
    });
  });
}

describe('README curl examples', () => {
  test('there are some, and each answers 2xx (a stream: 200, then ended by the 3 s limit)', async () => {
    const blocks = curlBlocks();
    // Quick start (token, states), the command in plain words, the live stream.
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      const r = await runBlock(block, token);
      const calls = block.match(/\bcurl\b/g)!.length;
      expect(r.statuses, `${block}\n${r.out.slice(0, 600)}`).toHaveLength(calls);
      for (const status of r.statuses) expect(status, `${block}\n${r.out.slice(0, 600)}`).toBeLessThan(300);
      // curl's own exit: 0, or 28 (the time limit) for the stream README shows with -N.
      expect(r.code === 0 || (block.includes('curl -N') && r.code === 28), `${block}: curl exit ${r.code}`).toBe(true);
    }
  });

  test('the quick start gives a token that the next call takes', async () => {
    const quick = curlBlocks().find((b) => b.includes('/auth/token'))!;
    const r = await runBlock(quick, token);
    const given = /"access_token":"([^"]+)"/.exec(r.out)?.[1];
    expect(given).toEqual(expect.any(String));
    expect(r.statuses).toEqual([200, 200]);
    expect((await fetch(`${s.url}/api/state`, { headers: { authorization: `Bearer ${given}` } })).status).toBe(200);
  });

  test('"turn off the lights and lock the front door" in the Kitchen does all of it: 200, lights off, door locked', async () => {
    setHub('lock.front_door', 'unlocked');
    setHub('light.kitchen_ceiling', 'on');
    const block = curlBlocks().find((b) => b.includes('/api/command'))!;
    expect(block).toContain('turn off the lights and lock the front door');
    const r = await runBlock(block, token);
    expect(r.statuses).toEqual([200]);
    const body = JSON.parse(r.out.slice(0, r.out.indexOf('\n@@'))) as { success: boolean; message: string };
    expect(body).toMatchObject({ success: true, message: 'Turned off Kitchen Ceiling and Kitchen Strip. Locked Front Door.' });
    expect(hubState('lock.front_door')).toBe('locked');
    expect(hubState('light.kitchen_ceiling')).toBe('off');
  });
});

describe('README commands in plain words, against the demo home', () => {
  // Each phrase is quoted from README (checked below); a dry run where it would act.
  const cases: [phrase: string, status: number, expected: Record<string, unknown>][] = [
    ['is the front door locked?', 200, { success: true }],
    ['which lights are on in the kitchen?', 200, { success: true }],
    ['how cold is it outside?', 200, { success: true }],
    ['what is the temperature in the living room', 422, { message: 'There is no temperature sensor in Living Room.', details: { reason: 'no_such' } }],
    ["please don't turn on the TV", 422, { code: 'NOT_UNDERSTOOD', details: { reason: 'negation' } }],
    ['lock the doors at 11', 422, { code: 'NOT_UNDERSTOOD', details: { reason: 'time' } }],
    ['turn on the lamp', 409, { code: 'AMBIGUOUS' }],
    ['um, turn off the, uh, kitchen lights', 200, { success: true }],
    ['turn the kitchen lights off and the bedroom lamp on', 200, { success: true }],
    ['the tv and the lights in the living room', 200, { success: true }],
    ['all the lights except the kitchen', 200, { success: true }],
    ['open the curtain a little', 200, { success: true }],
    ['turn on the lights', 200, { success: true }],
  ];
  const asCommand = (phrase: string) => (/^(the|all) /.test(phrase) ? `turn on ${phrase}` : phrase);

  test.each(cases)('%s', async (phrase, status, expected) => {
    expect(README.replace(/\s+/g, ' ')).toContain(`\`${phrase}\``);
    // README: kinds of thing alone (`turn on the lights`) in `context.area`; the lamp "with no area".
    const r = await call('/api/command', 'POST', {
      command: asCommand(phrase),
      dry_run: true,
      ...(phrase === 'turn on the lights' ? { context: { area: 'Kitchen' } } : {}),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.body).toMatchObject(expected);
  });
});

describe('a lock that wants a code', () => {
  beforeEach(() => setHub('lock.front_door', 'unlocked'));

  test('REST names the field to add, and does nothing half way when it is the only thing asked', async () => {
    const r = await call('/api/command', 'POST', { command: 'lock the front door' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'code', entity_id: 'lock.front_door' } });
    expect(r.body.message).toContain('`code`');
    const control = await call('/api/device/control', 'POST', { entity_id: 'lock.front_door', action: 'lock' });
    expect(control).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', details: { field: 'parameters.code' } } });
    expect(control.body.message).toContain('`parameters.code`');
    expect(hubState('lock.front_door')).toBe('unlocked');
    expect((await call('/api/device/control', 'POST', { entity_id: 'lock.front_door', action: 'lock', parameters: { code: '4321' } })).status).toBe(200);
    expect(hubState('lock.front_door')).toBe('locked');
  });

  test('over MCP the person is asked for the code before anything runs; declined, nothing is done', async () => {
    const connect = async (answer: (message: string) => { action: 'accept' | 'decline'; content?: Record<string, unknown> }) => {
      const asked: string[] = [];
      const c = new Client({ name: 'readme-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      c.setRequestHandler('elicitation/create', async (req) => {
        const { message } = req.params as { message: string };
        asked.push(message);
        return answer(message) as never;
      });
      await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return { c, asked };
    };
    setHub('light.kitchen_ceiling', 'on');
    const declined = await connect(() => ({ action: 'decline' }));
    const no = await declined.c.callTool({
      name: 'command',
      arguments: { command: 'turn off the lights and lock the front door', context: { area: 'Kitchen' } },
    });
    expect(declined.asked).toEqual([expect.stringContaining('Front Door wants a code')]);
    expect(no.isError).toBe(true);
    expect(hubState('light.kitchen_ceiling')).toBe('on');
    expect(hubState('lock.front_door')).toBe('unlocked');
    await declined.c.close();

    const given = await connect(() => ({ action: 'accept', content: { code: '2468' } }));
    const yes = await given.c.callTool({
      name: 'command',
      arguments: { command: 'turn off the lights and lock the front door', context: { area: 'Kitchen' } },
    });
    expect(yes.isError).toBeFalsy();
    expect(given.asked).toHaveLength(1);
    expect(hubState('light.kitchen_ceiling')).toBe('off');
    expect(hubState('lock.front_door')).toBe('locked');

    // The lock tool asks when Home Assistant refuses for want of the code.
    setHub('lock.front_door', 'unlocked');
    given.asked.length = 0;
    const tool = await given.c.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.front_door', command: 'lock' } });
    expect(tool.isError).toBeFalsy();
    expect(given.asked).toEqual([expect.stringContaining('lock.front_door wants a code')]);
    expect(hubState('lock.front_door')).toBe('locked');
    await given.c.close();
  });

  test('over MCP a client that cannot be asked gets the refusal naming code', async () => {
    const c = new Client({ name: 'readme-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const r = await c.callTool({ name: 'control_locks', arguments: { entity_id: 'lock.front_door', command: 'lock' } });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: { code: string; details: { field: string } } }).error).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { field: 'code' },
    });
    expect(hubState('lock.front_door')).toBe('unlocked');
    await c.close();
  });
});
