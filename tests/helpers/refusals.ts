// One refused action asked over each transport (REST, the tool route, MCP in both eras, the
// WebSocket `command`), each answer read into the same shape, and the simulated hub asked directly
// as its administrator: for tests that try to get past the checkpoint by every door.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { TestServer } from './server.js';

export interface Answer {
  code: string;
  details: Record<string, any>;
  message: string;
}

/** The probes for the server `server()` returns (read at each call, so a `beforeAll` may start it). */
export function refusals(server: () => TestServer, clientName: string) {
  const sim = () => server().app.simulator!;

  /** Asks the simulated hub directly, as its administrator. */
  async function hub(method: string, path: string, body?: unknown, status = 200) {
    const r = await fetch(`${sim().url}${path}`, {
      method,
      headers: { authorization: `Bearer ${sim().token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    expect(r.status, `${method} ${path}`).toBe(status);
  }

  const until = async (ok: () => boolean, what: string) => {
    for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!ok()) throw new Error(`never: ${what}`);
  };

  async function rest(method: string, path: string, json?: unknown): Promise<Answer> {
    const r = await server().call(path, method, json);
    expect([403, 409], `${method} ${path}: ${JSON.stringify(r.body)}`).toContain(r.status);
    return { code: r.body.code, details: r.body.details, message: r.body.message };
  }

  async function tool(name: string, args: Record<string, unknown>): Promise<Answer> {
    const r = await server().call('/api/tools/call', 'POST', { name, arguments: args });
    expect(r.body.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r.body)}`).toBe(true);
    const e = r.body.structuredContent?.error ?? {};
    return { code: e.code, details: e.details ?? {}, message: e.message };
  }

  /** A 2025-era MCP session, or a 2026-07-28 client that would say yes if it were asked: a refusal is no question. */
  async function mcp(name: string, args: Record<string, unknown>, era: 'legacy' | 'modern' = 'legacy'): Promise<Answer> {
    const s = server();
    const client = new Client(
      { name: clientName, version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } } : {},
    );
    if (era === 'modern') client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: false } }) as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: { error?: Answer } };
      expect(r.isError, `${name}: ${JSON.stringify(r)}`).toBe(true);
      const e = r.structuredContent?.error;
      return { code: e?.code ?? '', details: e?.details ?? {}, message: e?.message ?? '' };
    } finally {
      await client.close();
    }
  }

  async function socket(command: string): Promise<Answer> {
    const s = server();
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
    const answer = new Promise<any>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.id === 1) resolve(m);
      }),
    );
    await new Promise((r) => ws.on('open', r));
    ws.send(JSON.stringify({ type: 'command', id: 1, payload: { command } }));
    const m = await answer;
    ws.close();
    expect(m, JSON.stringify(m)).toMatchObject({ type: 'error', id: 1 });
    return { code: m.error.code, details: m.error.details ?? {}, message: m.error.message };
  }

  return { sim, hub, until, rest, tool, mcp, socket };
}
