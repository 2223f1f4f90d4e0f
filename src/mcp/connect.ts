// `home-mcp-bridge connect`: standard input and output to a remote bridge's /mcp, for desktop
// assistants that only start stdio servers while the bridge runs elsewhere (as a Home Assistant
// add-on). Two ways there: the bridge's own port with a bridge token (`connect URL`, BRIDGE_TOKEN),
// or Home Assistant's own address and sign-in through ingress (`connect --home-assistant URL`,
// HASS_TOKEN). Messages pass through unchanged. When the remote drops the session (a restart) or
// is unreachable for a while, the proxy opens a new session by replaying the client's initialize,
// then sends again what failed; a request that still cannot go through gets a JSON-RPC error
// rather than a hang, and so does every request when the way in cannot be set up at all.
import { readFileSync } from 'node:fs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { HaIngress, IngressSetupError } from './ha-ingress.js';
import { claimStdout } from './stdout.js';

const RETRIES = [250, 500, 1000, 2000, 4000, 8000];
const REPLAYED = '__home_mcp_bridge_reinitialize__';

type Message = JSONRPCMessage & { id?: string | number; method?: string; params?: unknown; result?: { protocolVersion?: string } };

export const CONNECT_USAGE = `usage:
  home-mcp-bridge connect --home-assistant URL [--addon SLUG] [--token-file FILE]
      through Home Assistant's own address (e.g. https://homeassistant.local:8123), signed in with an
      administrator's long-lived access token in HASS_TOKEN (or --token-file); no extra port
  home-mcp-bridge connect URL
      to the add-on's own port (e.g. http://homeassistant.local:3000/mcp), with a bridge token in BRIDGE_TOKEN`;

/** Where the messages go and how each request is sent there. */
interface Target {
  url: URL;
  requestInit?: RequestInit;
  fetch?: (input: string | URL, init?: RequestInit) => Promise<Response>;
  close?: () => void;
}

type ConnectPlan = { kind: 'bridge'; url: URL; token: string } | { kind: 'home-assistant'; url: string; token: string; addon?: string; renewMs?: number };

/** Reads the command line and the environment; a mistake is an Error naming it, with the usage. */
export function connectPlan(args: string[], env: NodeJS.ProcessEnv = process.env): ConnectPlan {
  const flags = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (['--home-assistant', '--addon', '--token-file', '--renew-seconds'].includes(a)) {
      const value = args[++i];
      if (value === undefined || value.startsWith('--')) throw new Error(`${a} needs a value\n${CONNECT_USAGE}`);
      flags.set(a, value);
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a}\n${CONNECT_USAGE}`);
    else rest.push(a);
  }
  const ha = flags.get('--home-assistant');
  if (ha !== undefined) {
    if (!/^https?:\/\/[^\s/]+/i.test(ha) || rest.length)
      throw new Error(`--home-assistant takes Home Assistant's URL, such as http://homeassistant.local:8123\n${CONNECT_USAGE}`);
    const file = flags.get('--token-file');
    const token = file !== undefined ? readFileSync(file, 'utf8').trim() : env.HASS_TOKEN?.trim();
    if (!token)
      throw new Error(
        'HASS_TOKEN is not set (nor --token-file): make a long-lived access token on your Home Assistant profile page (Security), as an administrator',
      );
    const renew = flags.get('--renew-seconds');
    const renewMs = renew === undefined ? undefined : Number(renew) * 1000;
    if (renewMs !== undefined && !(renewMs >= 100 && renewMs <= 600_000)) throw new Error('--renew-seconds must be between 0.1 and 600');
    return { kind: 'home-assistant', url: ha.replace(/\/+$/, ''), token, addon: flags.get('--addon'), renewMs };
  }
  const target = rest[0];
  if (!target || !/^https?:\/\//.test(target) || rest.length > 1) throw new Error(CONNECT_USAGE);
  const token = env.BRIDGE_TOKEN;
  if (!token) throw new Error('BRIDGE_TOKEN is not set: make a token in the panel ("Connect an assistant") or with POST /api/tokens');
  return { kind: 'bridge', url: new URL(target.endsWith('/mcp') ? target : `${target.replace(/\/+$/, '')}/mcp`), token };
}

async function targetOf(plan: ConnectPlan, log: (m: string) => void): Promise<Target> {
  if (plan.kind === 'bridge') return { url: plan.url, requestInit: { headers: { authorization: `Bearer ${plan.token}` } } };
  const ingress = new HaIngress({ url: plan.url, token: plan.token, addon: plan.addon, renewMs: plan.renewMs, log });
  try {
    const url = await ingress.start();
    return { url, fetch: ingress.fetch, close: () => ingress.close() };
  } catch (err) {
    ingress.close();
    throw err;
  }
}

export async function runConnect(args: string[]): Promise<void> {
  const plan = connectPlan(args);
  const local = new StdioServerTransport(process.stdin, claimStdout());
  const log = (m: string) => process.stderr.write(`home-mcp-bridge connect: ${m}\n`);

  let target: Target;
  try {
    target = await targetOf(plan, log);
  } catch (err) {
    const reason = err instanceof IngressSetupError ? err.message : `cannot set up the connection: ${(err as Error).message}`;
    log(reason);
    // The assistant shows this as the server's error, rather than waiting on a server that never answers.
    local.onmessage = (m) => {
      const msg = m as Message;
      if (msg.id !== undefined && msg.method)
        void local.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32000, message: `Home MCP Bridge: ${reason}` } } as JSONRPCMessage);
    };
    local.onclose = () => process.exit(1);
    process.stdin.on('end', () => process.exit(1));
    await local.start();
    return;
  }
  const url = target.url;

  let initialize: Message | undefined;
  let initialized = false;
  let remote = await open();
  let reopening: Promise<void> | undefined;

  async function open(): Promise<StreamableHTTPClientTransport> {
    const t = new StreamableHTTPClientTransport(url, { requestInit: target.requestInit, ...(target.fetch ? { fetch: target.fetch } : {}) });
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
          if (m.id !== undefined && m.method)
            void local.send({
              jsonrpc: '2.0',
              id: m.id,
              error: { code: -32000, message: `The bridge at ${url.origin} cannot be reached: ${(err as Error).message}` },
            } as JSONRPCMessage);
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
    target.close?.();
    process.exit(0);
  };
  local.onclose = () => void stop();
  process.stdin.on('end', () => void stop());
  await local.start();
  log(`bridging standard input and output to ${plan.kind === 'home-assistant' ? `${url.href} (through Home Assistant's ingress)` : url.href}`);
}
