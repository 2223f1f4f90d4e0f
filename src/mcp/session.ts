// A server with the home's changes attached, for transports that keep one server per connection:
// a 2025-era session (Streamable HTTP with MCP-Session-Id, the 2024-11-05 HTTP+SSE pair, stdio
// opened with initialize) hears resources/subscribe and is sent updates and list changes unasked;
// a 2026-07-28 stdio connection sends them too, and serveStdio delivers each only on the
// subscriptions/listen streams that asked for it.
import type { Server } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/tokens.js';
import type { McpLive } from './live.js';
import { buildServer, type Era, type McpServices, type ServerParts } from './server.js';

export interface McpSession {
  server: Server;
  /** Stops following the home. */
  close(): void;
}

export function createMcpSession(s: McpServices, parts: ServerParts & { live: McpLive }, principal: Principal | undefined, era: Era): McpSession {
  const server = buildServer(s, parts, principal, era);
  const { live } = parts;
  const subscribed = new Map<string, () => void>();
  const quiet = () => undefined;

  if (era === 'legacy') {
    server.setRequestHandler('resources/subscribe', async (req) => {
      const { uri } = req.params;
      if (!subscribed.has(uri)) subscribed.set(uri, live.watch(uri, principal));
      await live.follow(uri);
      return {} as never;
    });
    server.setRequestHandler('resources/unsubscribe', (req) => {
      subscribed.get(req.params.uri)?.();
      subscribed.delete(req.params.uri);
      return {} as never;
    });
  }

  const stop = live.on((e) => {
    if (e.kind === 'resource_updated') {
      // A 2025 session hears only what it subscribed to; a 2026 stdio connection's streams filter by URI.
      if (era === 'legacy' && !subscribed.has(e.uri)) return;
      server.sendResourceUpdated({ uri: e.uri }).catch(quiet);
    } else if (e.kind === 'resources_list_changed') server.sendResourceListChanged().catch(quiet);
    else server.sendToolListChanged().catch(quiet);
  });

  return {
    server,
    close: () => {
      stop();
      for (const release of subscribed.values()) release();
      subscribed.clear();
    },
  };
}
