// What a tool asks the client in the middle of a call (elicitation, sampling) travels on that
// call's own response stream. Sent on the session's separate GET stream instead, it was lost
// whenever the client had not opened that stream yet (a busy machine), and the call hung until
// the client gave up: the conformance suite's elicitation scenario took 30 s under load.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ PLUGINS_DIR: join(import.meta.dirname, '..', 'fixtures', 'conformance-plugin') });
});
afterAll(() => s?.close());

const headers = (session?: string) => ({
  authorization: `Bearer ${s.token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
  ...(session ? { 'mcp-session-id': session } : {}),
});
const post = (body: unknown, session?: string) => fetch(`${s.url}/mcp`, { method: 'POST', headers: headers(session), body: JSON.stringify(body) });

/** The next JSON-RPC message on an SSE response. */
async function nextMessage(reader: ReadableStreamDefaultReader<Uint8Array>, state: { buffer: string }): Promise<any> {
  for (;;) {
    const cut = state.buffer.indexOf('\n\n');
    if (cut !== -1) {
      const frame = state.buffer.slice(0, cut);
      state.buffer = state.buffer.slice(cut + 2);
      const data = frame
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      if (data) return JSON.parse(data);
      continue;
    }
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended');
    state.buffer += new TextDecoder().decode(value);
  }
}

test.each([
  [
    'test_elicitation_sep1330_enums',
    {},
    'elicitation/create',
    {
      action: 'accept',
      content: { untitledSingle: 'option1', titledSingle: 'value1', legacyEnum: 'opt1', untitledMulti: ['option1'], titledMulti: ['value1'] },
    },
  ],
  ['test_sampling', { prompt: 'hello' }, 'sampling/createMessage', { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }],
])('%s: the request to the client comes on the call’s own stream, with no GET stream open', async (tool, args, method, reply) => {
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} }, sampling: {} }, clientInfo: { name: 'raw', version: '1' } },
  });
  const session = init.headers.get('mcp-session-id')!;
  await init.text();
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
  // No GET /mcp: the only stream is the call's.
  const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: args } }, session);
  expect(call.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = call.body!.getReader();
  const state = { buffer: '' };
  const asked = await nextMessage(reader, state);
  expect(asked).toMatchObject({ jsonrpc: '2.0', method });
  expect((await post({ jsonrpc: '2.0', id: asked.id, result: reply }, session)).status).toBe(202);
  const answer = await nextMessage(reader, state);
  expect(answer).toMatchObject({ jsonrpc: '2.0', id: 2, result: { content: expect.any(Array) } });
  expect(answer.result.isError).toBeFalsy();
  await reader.cancel();
});
