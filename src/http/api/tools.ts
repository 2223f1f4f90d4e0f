// The REST tool transport (interface part 4): the tool registry, over HTTP. The MCP server serves
// the same registry.
import * as v from 'valibot';
import type { Services } from '../../services.js';
import { jsonRoute, type RouteTable } from '../routes.js';

const toolCall = v.object({
  name: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  arguments: v.optional(v.record(v.string(), v.unknown(), 'must be an object')),
});

const toolInfo = v.object({
  name: v.string(),
  title: v.string(),
  description: v.string(),
  inputSchema: v.record(v.string(), v.unknown()),
  outputSchema: v.optional(v.record(v.string(), v.unknown())),
  annotations: v.optional(v.record(v.string(), v.boolean())),
});
const toolResult = v.object({
  content: v.array(v.looseObject({ type: v.string() })),
  structuredContent: v.optional(v.record(v.string(), v.unknown())),
  isError: v.optional(v.boolean()),
});

export function registerToolRoutes(routes: RouteTable, { tools }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/tools',
    summary: 'Every tool: name, title, description, inputSchema and outputSchema (JSON Schema 2020-12), annotations',
    responses: { 200: { description: 'The tools', schema: v.object({ tools: v.array(toolInfo) }) } },
    handler: () => ({ tools: tools.list() }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/tools/call',
      summary: "Call a tool {name, arguments}; answers the tool's result (a failure inside the tool is a result with isError: true)",
      body: v.pipe(toolCall, v.examples([{ name: 'search_entities', arguments: { domain: 'light', area: 'living room' } }])),
      responses: {
        200: { description: 'The tool result (MCP shape)', schema: toolResult },
        404: { description: 'NOT_FOUND: no such tool' },
      },
      handler: (req) => tools.call(req.body.name, req.body.arguments ?? {}, req.principal),
    }),
  );
}
