// The API describes itself: every route declares its schemas, the document is valid OpenAPI 3.1,
// README's overview names exactly the routes of the table, and the reference page works offline.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kindOf } from '../../src/http/routes.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

let s: TestServer;
let doc: Record<string, any>;
beforeAll(async () => {
  s = await startTestServer();
  doc = (await (await fetch(`${s.url}/api/openapi.json`)).json()) as Record<string, any>;
});
afterAll(() => s?.close());

/** POST routes that take no body by design. */
const BODYLESS = new Set(['POST /api/scene/:scene_name/activate', 'POST /api/discovery/rotate']);

describe('every route declares its schemas', () => {
  test('each has responses with its success status, and each route that reads a body declares it', () => {
    for (const r of s.app.routes.routes()) {
      const id = `${r.method} ${r.path}`;
      // WebSocket and MCP routes speak their own protocols; they are named in x-websockets and x-mcp.
      if (kindOf(r) === 'websocket' || kindOf(r) === 'fetch') continue;
      const statuses = Object.keys(r.responses ?? {}).map(Number);
      expect(
        statuses.some((st) => st >= 200 && st < 300),
        `${id} declares a success answer`,
      ).toBe(true);
      if (kindOf(r) === 'json' && ['POST', 'PUT', 'PATCH'].includes(r.method) && !BODYLESS.has(id)) {
        expect((r as { body?: unknown }).body, `${id} declares its body`).toBeDefined();
      }
      if (/:\w+/.test(r.path) && kindOf(r) === 'json') expect(statuses.some((st) => st >= 400) || r.params, `${id} says what a bad path gets`).toBeTruthy();
    }
  });
});

describe('the document', () => {
  test('is valid OpenAPI 3.1', async () => {
    const v = new Validator();
    const result = await v.validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(v.version).toBe('3.1');
  });

  test('names each parameter once per operation (a rule the schema validator above does not check)', () => {
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(methods)) {
        const keys = ((op.parameters ?? []) as { name: string; in: string }[]).map((p) => `${p.in} ${p.name}`);
        expect(keys, `${method.toUpperCase()} ${path}`).toEqual([...new Set(keys)]);
      }
    }
    expect(doc.paths['/subscribe_events'].get.parameters.filter((p: { name: string }) => p.name === 'token')).toEqual([
      expect.objectContaining({ in: 'query', description: expect.stringContaining('access token') }),
    ]);
  });

  test('has the bearer scheme, the error shapes, every route, and the policy answers', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['Error', 'RateLimited', 'SseError']);
    const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, m]) =>
      Object.entries(m).map(([method, op]) => ({ path, method, op })),
    );
    expect(ops.length).toBe(s.app.routes.routes().filter((r) => kindOf(r) !== 'websocket' && kindOf(r) !== 'fetch').length);
    expect(doc['x-mcp']).toEqual([
      ...['POST', 'GET', 'DELETE'].map((method) => ({ method, path: '/mcp', summary: expect.any(String) })),
      ...['POST', 'GET', 'DELETE'].map((method) => ({ method, path: '/mcp/ha/:key', summary: expect.any(String) })),
      { method: 'GET', path: '/sse', summary: expect.any(String) },
      { method: 'POST', path: '/messages', summary: expect.any(String) },
    ]);
    const control = doc.paths['/api/device/control'].post;
    expect(control.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(control.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '429', '503']);
    expect(control.requestBody.content['application/json'].schema.required).toEqual(['action']);
    // A body is required exactly where an absent one (checked as {}) would be refused.
    expect(control.requestBody.required).toBe(true);
    expect(doc.paths['/api/events/subscribe'].post.requestBody.required).toBe(false);
    expect(doc.paths['/api/events/unsubscribe'].delete.requestBody.required).toBe(false);
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(doc.paths['/api/scene'].post.responses['200'].links.read).toEqual({
      operationId: 'get_api_scene_by_scene_name',
      parameters: { scene_name: '$response.body#/id' },
    });
  });

  test('needs no token and shows nothing but the API’s shape', async () => {
    const res = await fetch(`${s.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const text = JSON.stringify(doc);
    for (const secret of [TEST_USER.username, TEST_USER.password, s.dataDir, s.token]) expect(text).not.toContain(secret);
  });
});

test('the API page’s overview names exactly the routes of the table', () => {
  const page = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const section = page.slice(0, page.indexOf('### Device control'));
  const rows = [...section.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
  const table = s.app.routes
    .routes()
    .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
    .sort();
  expect(rows).toEqual(table);
});

describe('the reference page', () => {
  test('is served with its assets from the package, with relative links and no external request', async () => {
    const page = await fetch(`${s.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const links = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
    expect(links).toEqual(['docs/swagger-ui.css', 'docs/swagger-ui-bundle.js', 'docs/start.js']);
    for (const link of links) {
      const res = await fetch(new URL(link, `${s.url}/api/docs`));
      expect(res.status, link).toBe(200);
      expect(res.headers.get('content-type'), link).toMatch(link.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
    }
    const start = await (await fetch(`${s.url}/api/docs/start.js`)).text();
    expect(start).toContain("url: 'openapi.json'");
    expect(start).toContain('validatorUrl: null');
    expect((await fetch(`${s.url}/api/docs/../../etc/passwd`)).status).toBe(404);
    expect((await fetch(`${s.url}/api/docs/toString`)).status).toBe(404);
  });
});

test('native routes are described too: a stream as text/event-stream, WebSocket routes in a section of their own', async () => {
  const own = await startTestServer(
    {},
    {
      extraRoutes: [
        {
          kind: 'stream',
          method: 'GET',
          path: '/api/test/events',
          summary: 'a test event stream',
          responses: { 200: { description: 'Server-Sent Events', contentType: 'text/event-stream' } },
          open: (_req, stream) => stream.end(),
        },
        { kind: 'websocket', method: 'GET', path: '/api/test/socket', summary: 'a test socket', socket: { message: () => undefined } },
      ],
    },
  );
  try {
    const d = (await (await fetch(`${own.url}/api/openapi.json`)).json()) as Record<string, any>;
    const op = d.paths['/api/test/events'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/event-stream']);
    expect(op['x-stream']).toMatch(/Server-Sent Events/);
    expect(d.paths['/api/test/socket']).toBeUndefined();
    expect(d['x-websockets']).toContainEqual({ path: '/api/test/socket', summary: 'a test socket', public: false, versioned: '/api/v1/test/socket' });
    const v = new Validator();
    expect((await v.validate(d)).valid).toBe(true);
  } finally {
    await own.close();
  }
});
