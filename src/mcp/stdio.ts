// `home-mcp-bridge stdio`: the MCP server over standard input and output, for desktop assistants
// that start their servers as child processes. Both eras: the opening message decides (the SDK's
// serveStdio): `initialize` pins a 2025-era connection, a `_meta` envelope (server/discover) a
// 2026-07-28 one. Standard output belongs to MCP alone: everything else that would write there
// (logs, a plugin's console.log, a library's notice) goes to stderr.
import type { Writable } from 'node:stream';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { serveStdio as serveEras, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Principal } from '../auth/tokens.js';
import type { McpLive } from './live.js';
import type { RequestStateSeal } from './request-state.js';
import { StdioTaskNotices } from './task-notices.js';
import type { McpTasks } from './tasks.js';
import type { McpServices } from './server.js';
import { createMcpSession, type McpSession } from './session.js';

/** The running bridge, as far as stdio needs it (src/main.ts starts it). */
export interface StdioApp {
  /** The bridge's MCP parts: the one follower of the home and the one request-state seal serve stdio too. */
  services: McpServices & { mcp: { live: McpLive; seal: RequestStateSeal; tasks: McpTasks } };
  close(): Promise<void>;
}

type Listen = { jsonrpc: '2.0'; id: string | number; method: string; params?: { notifications?: { resourceSubscriptions?: unknown }; requestId?: unknown } };

/** Serves MCP on stdin and `out` (the real standard output, claimed before anything could write to it). */
export async function serveStdio(app: StdioApp, out: Writable): Promise<void> {
  const { services } = app;
  const principal: Principal = { sub: 'stdio', iat: Math.floor(Date.now() / 1000) };
  const { live, seal, tasks } = services.mcp;
  const sessions = new Set<McpSession>();
  // A listen stream's resources are followed until it is cancelled or the connection ends.
  const listens = new Map<string | number, (() => void)[]>();
  const wire = new StdioServerTransport(process.stdin, out);
  const taskNotices = new StdioTaskNotices(tasks, principal.sub, (m) => void wire.send(m as JSONRPCMessage).catch(() => undefined));
  const peek: Transport = {
    start: () => wire.start(),
    send: async (m) => {
      for (const each of taskNotices.outgoing(m as Record<string, unknown>)) await wire.send(each as JSONRPCMessage);
    },
    close: () => wire.close(),
  };
  wire.onmessage = (m: JSONRPCMessage, extra?: MessageExtraInfo) => {
    const msg = m as Listen;
    if (msg.method === 'subscriptions/listen') {
      const refused = taskNotices.listen(msg);
      if (refused) {
        void wire.send(refused as JSONRPCMessage);
        return;
      }
      const list = msg.params?.notifications?.resourceSubscriptions;
      const uris = Array.isArray(list) ? list.filter((u): u is string => typeof u === 'string').slice(0, 100) : [];
      // Seen before serveStdio, which may build the connection's server for this very message.
      listens.set(
        msg.id,
        uris.map((uri) => live.watch(uri, principal)),
      );
    } else if (msg.method === 'notifications/cancelled') {
      taskNotices.cancel(msg.params?.requestId as string);
      for (const release of listens.get(msg.params?.requestId as string) ?? []) release();
      listens.delete(msg.params?.requestId as string);
    }
    peek.onmessage?.(m, extra);
  };
  wire.onerror = (e) => peek.onerror?.(e);
  wire.onclose = () => peek.onclose?.();

  let closing = false;
  const stop = async (code: number) => {
    if (closing) return;
    closing = true;
    for (const releases of listens.values()) for (const release of releases) release();
    taskNotices.close();
    for (const s of sessions) s.close();
    await handle.close().catch(() => undefined);
    await app.close();
    process.exit(code);
  };
  const handle = serveEras(
    ({ era }) => {
      const session = createMcpSession(services, { seal, tasks, live }, principal, era);
      sessions.add(session);
      session.server.onclose = () => {
        session.close();
        sessions.delete(session);
      };
      return session.server;
    },
    { transport: peek, onerror: (err) => services.log.debug({ err: err.message }, 'MCP over stdio') },
  );
  process.stdin.on('end', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  services.log.info('MCP over stdio: ready (2026-07-28 and 2025-era clients)');
}
