// The API describes itself: an OpenAPI 3.1 document made once from the route table. Each route's
// declared schemas (path, query, body, answers) become its operation; the answers its policy
// implies (401 and 429, and 400/413/415 for a body) are added here, in one place.
import * as v from 'valibot';
import { jsonSchemaOf } from '../validation.js';
import { kindOf, versioned, type Route } from './routes.js';
import { coreError, rateLimited, sseError } from './shapes.js';

type Json = Record<string, unknown>;

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const SSE_ERROR_REF = { $ref: '#/components/schemas/SseError' };

/** A JSON Schema for OpenAPI: the `$schema` key belongs to the document, not to each schema. */
function schemaOf(schema: v.GenericSchema): Json {
  const { $schema: _, ...rest } = jsonSchemaOf(schema) as Json;
  return rest;
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function operationIdOf(route: Route): string {
  if (route.operationId) return route.operationId;
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `by_${seg.slice(1)}` : seg.replace(/[^a-zA-Z0-9]+/g, '_')));
  return [route.method.toLowerCase(), ...words].join('_');
}

function parameters(route: Route): Json[] {
  const out: Json[] = [];
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const params = route.params ? schemaOf(route.params) : undefined;
  for (const name of names) {
    const schema = ((params?.properties as Json | undefined)?.[name] as Json | undefined) ?? { type: 'string', minLength: 1 };
    out.push({ name, in: 'path', required: true, schema });
  }
  if (route.query) {
    const q = schemaOf(route.query);
    const required = new Set((q.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((q.properties as Json | undefined) ?? {})) {
      out.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  if (route.queryToken) {
    // A route whose query schema already names token gets the description, not a second parameter (OpenAPI forbids duplicates).
    const description = 'The access token, for clients that cannot send headers (EventSource)';
    const declared = out.find((p) => p.name === 'token' && p.in === 'query');
    if (declared) declared.description = description;
    else out.push({ name: 'token', in: 'query', required: false, schema: { type: 'string' }, description });
  }
  return out;
}

const errorResponse = (description: string, sse: boolean) => ({ description, content: { 'application/json': { schema: sse ? SSE_ERROR_REF : ERROR_REF } } });

function responses(route: Route): Json {
  const sse = route.errorShape === 'sse';
  const out: Json = {};
  for (const [status, spec] of Object.entries(route.responses ?? {})) {
    if (Number(status) >= 400 && !spec.schema && !spec.contentType) {
      out[status] = errorResponse(spec.description, sse);
      continue;
    }
    const contentType = spec.contentType ?? 'application/json';
    out[status] = {
      description: spec.description,
      ...(spec.schema ? { content: { [contentType]: { schema: schemaOf(spec.schema) } } } : spec.contentType ? { content: { [contentType]: {} } } : {}),
      ...(spec.links ? { links: spec.links } : {}),
    };
  }
  const add = (status: number, description: string) => {
    out[status] ??= errorResponse(description, sse);
  };
  const hasInput = route.params || route.query || (kindOf(route) === 'json' && 'body' in route && route.body) || /:\w+/.test(route.path);
  if (hasInput) add(400, 'The request is not valid: `details.field` names the field, `details.issues` lists every problem');
  if (kindOf(route) === 'json' && 'body' in route && route.body) {
    add(413, 'The body is larger than BODY_LIMIT');
    add(415, 'The body is not JSON');
  }
  if (!route.public) add(401, 'The token is missing or not valid (see WWW-Authenticate)');
  if (route.rateLimited !== false)
    out[429] ??= { description: 'Too many requests in the window', content: { 'application/json': { schema: { $ref: '#/components/schemas/RateLimited' } } } };
  return out;
}

function operation(route: Route): Json {
  const op: Json = {
    operationId: operationIdOf(route),
    summary: route.summary,
    tags: [route.path.split('/')[route.path.startsWith('/api/') ? 2 : 1]?.replace(/^:.*/, '') || 'system'],
    parameters: parameters(route),
    responses: responses(route),
  };
  if (!route.public) op.security = [{ bearer: [] }];
  else op.security = [];
  if (kindOf(route) === 'json' && 'body' in route && route.body) {
    // The front checks an absent body as {}: a body is optional exactly where {} passes the schema.
    op.requestBody = { required: !v.safeParse(route.body, {}).success, content: { 'application/json': { schema: schemaOf(route.body) } } };
  }
  if (kindOf(route) === 'stream') op['x-stream'] = 'Server-Sent Events: the answer stays open and carries `data:` frames';
  return op;
}

export interface DocumentInfo {
  version: string;
}

/** The OpenAPI 3.1 document of every HTTP route; WebSocket routes are listed under `x-websockets`, MCP's under `x-mcp`, OAuth's under `x-oauth`. */
export function openApiDocument(routes: readonly Route[], info: DocumentInfo): Json {
  const paths: Record<string, Json> = {};
  const websockets: Json[] = [];
  const mcp: Json[] = [];
  const oauth: Json[] = [];
  for (const route of routes) {
    if (kindOf(route) === 'websocket') {
      websockets.push({ path: route.path, summary: route.summary, public: Boolean(route.public), versioned: versioned(route.path) ?? null });
      continue;
    }
    // MCP's own protocol (JSON-RPC over Streamable HTTP) has its own specification; it is named, not described.
    // So have OAuth's endpoints (form bodies, OAuth's own error shape, RFC 6749 and its kin).
    if (kindOf(route) === 'fetch') {
      (route.path.startsWith('/oauth/') ? oauth : mcp).push({ method: route.method, path: route.path, summary: route.summary });
      continue;
    }
    const path = openApiPath(route.path);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Home MCP Bridge',
      version: info.version,
      description:
        'A bridge between AI assistants and Home Assistant. Every path under /api is also served at /api/v1 (the current version). ' +
        'Errors have the body {error, code, message, details}; rate limiting answers {error, code, message, reset}; the SSE statistics endpoints answer {success: false, message, error_code}.',
    },
    servers: [{ url: '/' }],
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A token from POST /auth/token' } },
      schemas: { Error: schemaOf(coreError), RateLimited: schemaOf(rateLimited), SseError: schemaOf(sseError) },
    },
    ...(websockets.length ? { 'x-websockets': websockets } : {}),
    ...(mcp.length ? { 'x-mcp': mcp } : {}),
    ...(oauth.length ? { 'x-oauth': oauth } : {}),
  };
}
