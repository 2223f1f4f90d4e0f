// `home-mcp-bridge connect URL`: standard input and output to a remote bridge's /mcp, for desktop
// assistants that only start stdio servers while the bridge runs elsewhere (as a Home Assistant
// add-on). Messages pass through unchanged. When the remote drops the session (a restart) or is
// unreachable for a while, the proxy opens a new session by replaying the client's initialize,
// then sends again what failed; a request that still cannot go through gets a JSON-RPC error
// rather than a hang.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { claimStdout } from './stdout.js';

const RETRIES = [250, 500, 1000, 2000, 4000, 8000];
const REPLAYED = '__home_mcp_bridge_reinitialize__';

type Message = JSONRPCMessage & { id?: string | number; method?: string; params?: unknown; result?: { protocolVersion?: string } };

export async function runConnect(args: string[]): Promise<void> {
  const target = args[0];
  if (!target || !/^https?:\/\//.test(target)) throw new Error('usage: home-mcp-bridge connect URL (e.g. http://homeassistant.local:3000/mcp), with the token in BRIDGE_TOKEN');
  const token = process.env.BRIDGE_TOKEN;
  if (!token) throw new Error('BRIDGE_TOKEN is not set: get a token from POST /auth/token on the bridge');
  const url = new URL(target.endsWith('/mcp') ? target : `${target.replace(/\/+$/, '')}/mcp`);
  const local = new StdioServerTransport(process.stdin, claimStdout());
  const log = (m: string) => process.stderr.write(`home-mcp-bridge connect: ${m}\n`);

  let initialize: Message | undefined;
  let initialized = false;
  let remote = await open();
  let reopening: Promise<void> | undefined;

  async function open(): Promise<StreamableHTTPClientTransport> {
    const t = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    t.onmessage = (m) => {
      const msg = m as Message;
      if (msg.id === REPLAYED) {
        if (msg.result?.protocolVersion) t.setProtocolVersion(msg.result.protocolVersion);
        return;
      }
      if (initialize && msg.id === initialize.id && msg.result?.protocolVersion) t.setProtocolVersion(msg.result.protocolVersion);
      void local.send(m);
    };
    t.onerror = (err) => log(err.message);
    await t.start();
    return t;
  }

  /** A new session: the client's own initialize again (its answer kept from the client), then initialized. */
  const reopen = () =>
    (reopening ??= (async () => {
      await remote.close().catch(() => undefined);
      remote = await open();
      if (initialize) {
        await remote.send({ ...initialize, id: REPLAYED } as JSONRPCMessage);
        if (initialized) await remote.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      }
      log('reconnected: a new session is open');
    })().finally(() => (reopening = undefined)));

  const forward = async (m: Message) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await reopening;
        await remote.send(m as JSONRPCMessage);
        return;
      } catch (err) {
        if (attempt >= RETRIES.length) {
          log(`giving up on a message after ${attempt + 1} attempts: ${(err as Error).message}`);
          if (m.id !== undefined && m.method) void local.send({ jsonrpc: '2.0', id: m.id, error: { code: -32000, message: `The bridge at ${url.origin} cannot be reached: ${(err as Error).message}` } } as JSONRPCMessage);
          return;
        }
        await new Promise((r) => setTimeout(r, RETRIES[attempt]));
        await reopen().catch((e: Error) => log(`reconnecting failed: ${e.message}`));
      }
    }
  };

  local.onmessage = (m) => {
    const msg = m as Message;
    if (msg.method === 'initialize') initialize = msg;
    if (msg.method === 'notifications/initialized') initialized = true;
    void forward(msg);
  };
  const stop = async () => {
    await remote.close().catch(() => undefined);
    process.exit(0);
  };
  local.onclose = () => void stop();
  process.stdin.on('end', () => void stop());
  await local.start();
  log(`bridging standard input and output to ${url.href}`);
}
