// MCP over Streamable HTTP (/mcp): POST, GET and DELETE, the same at Home Assistant's link
// (/mcp/ha/<key>), and the 2024-11-05 HTTP+SSE pair (/sse, /messages), each behind the same
// admission as every route, all handed to the MCP service.
import { LINK_PREFIX } from '../../auth/discovery-link.js';
import type { Services } from '../../services.js';
import type { RouteTable } from '../routes.js';

const SUMMARY = {
  POST: 'MCP (Streamable HTTP): JSON-RPC messages; an initialize without MCP-Session-Id opens a session',
  GET: 'MCP: the session’s stream of server notifications (Server-Sent Events)',
  DELETE: 'MCP: end the session',
} as const;

export function registerMcpRoutes(routes: RouteTable, { mcp, ingress }: Services): void {
  for (const method of ['POST', 'GET', 'DELETE'] as const) {
    routes.add({ kind: 'fetch', method, path: '/mcp', oauth: true, summary: SUMMARY[method], handle: (request, req) => mcp.handle(request, req.principal!) });
  }
  // The link announced to Home Assistant: the same MCP, with the key in the path as the credential.
  for (const method of ['POST', 'GET', 'DELETE'] as const) {
    routes.add({
      kind: 'fetch',
      method,
      path: `${LINK_PREFIX}:key`,
      capability: true,
      summary: `${SUMMARY[method]}; for Home Assistant, through the link announced to it (404 for a wrong key or address)`,
      handle: (request, req) => mcp.handle(request, req.principal!),
    });
  }
  routes.add({
    kind: 'fetch',
    method: 'GET',
    path: '/sse',
    oauth: true,
    summary: 'MCP of the 2024-11-05 revision (HTTP+SSE): the stream; its first event names the message endpoint',
    handle: (request, req) => mcp.openLegacy(request, req.principal!, ingress.prefix(req.ip, req.headers)),
  });
  routes.add({
    kind: 'fetch',
    method: 'POST',
    path: '/messages',
    oauth: true,
    summary: 'MCP of the 2024-11-05 revision: one client message (?sessionId=), answered 202; replies come down the stream',
    handle: (request, req) => mcp.legacyMessage(request, req.principal!),
  });
}
