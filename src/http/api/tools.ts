// The REST tool transport: the tool registry, over HTTP. The MCP server serves
// the same registry.
import * as v from 'valibot';
import type { Services } from '../../services.js';
import { anyObject } from '../../validation.js';
import { jsonRoute, type RouteTable } from '../routes.js';

const toolCall = v.object({
  name: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  arguments: v.optional(anyObject),
});

const toolInfo = v.object({
  name: v.string(),
  title: v.string(),
  description: v.string(),
  inputSchema: v.record(v.string(), v.unknown()),
  outputSchema: v.optional(v.record(v.string(), v.unknown())),
  annotations: v.optional(v.record(v.string(), v.boolean())),
  execution: v.optional(v.object({ taskSupport: v.picklist(['optional', 'required']) })),
});
const toolResult = v.object({
  content: v.array(v.looseObject({ type: v.string() })),
  structuredContent: v.optional(v.record(v.string(), v.unknown())),
  isError: v.optional(v.boolean()),
});

const promptGet = v.object({
  name: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  arguments: v.optional(v.record(v.string(), v.pipe(v.string(), v.maxLength(1000)), 'must be an object of strings')),
});
const json = v.record(v.string(), v.unknown());

export function registerToolRoutes(routes: RouteTable, { tools, prompts, resources }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/tools',
    summary:
      'Every tool (admin tools only while ADMIN_TOOLS is on and for callers with the admin scope): name, title, description, inputSchema and outputSchema (JSON Schema 2020-12), annotations',
    responses: { 200: { description: 'The tools', schema: v.object({ tools: v.array(toolInfo) }) } },
    handler: (req) => ({ tools: tools.catalogFor(req.principal) }),
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

  routes.add({
    method: 'GET',
    path: '/api/resources/list',
    summary: 'Every resource (device lists by type, areas, automations and scenes, a dashboard summary, one per entity and area) and the templates',
    responses: { 200: { description: '{resources, resourceTemplates}', schema: v.object({ resources: v.array(json), resourceTemplates: v.array(json) }) } },
    handler: (req) => ({ resources: resources.list(req.principal), resourceTemplates: resources.templates() }),
  });

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/resources/read',
      summary: 'Read one resource by its URI (?uri=home://areas); answers its contents and the entities it shows',
      query: v.object({ uri: v.pipe(v.string('must be given once'), v.nonEmpty('must not be empty'), v.maxLength(500)) }),
      responses: {
        200: { description: '{contents, entities}', schema: v.object({ contents: v.array(json), entities: v.array(v.string()) }) },
        404: { description: 'NOT_FOUND: no such resource' },
      },
      handler: (req) => resources.read(req.query.uri, req.principal),
    }),
  );

  routes.add({
    method: 'GET',
    path: '/api/prompts',
    summary: 'Every prompt template with its arguments',
    responses: { 200: { description: '{prompts}', schema: v.object({ prompts: v.array(json) }) } },
    handler: () => ({ prompts: prompts.list() }),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/prompts/get',
      summary: 'Fill a prompt {name, arguments} from live hub data; answers {description, messages}',
      body: v.pipe(promptGet, v.examples([{ name: 'evening_routine', arguments: {} }])),
      responses: {
        200: { description: '{description, messages}', schema: v.object({ description: v.optional(v.string()), messages: v.array(json) }) },
        404: { description: 'NOT_FOUND: no such prompt' },
      },
      handler: (req) => prompts.get(req.body.name, req.body.arguments ?? {}, req.principal),
    }),
  );
}
