// The API describes itself: the OpenAPI document (made from the route table once, on first
// request, when every registrar has added its routes) and a reference page served from the
// swagger-ui-dist package, with no CDN or external font, so it works offline in the add-on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as v from 'valibot';
import { notFound } from '../../errors.js';
import type { Services } from '../../services.js';
import { openApiDocument } from '../openapi.js';
import { jsonRoute, RawReply, type RouteTable } from '../routes.js';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Home MCP Bridge API</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/start.js"></script>
</body>
</html>
`;

// Relative URLs throughout, so the page works under an ingress path prefix too; no validator badge (an external request).
const START = `window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#ui', validatorUrl: null, deepLinking: false });\n`;

/** The files the page needs, read from the package once, on first use. */
const ASSETS: Record<string, { file?: string; body?: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'start.js': { body: START, type: 'text/javascript; charset=utf-8' },
};

let packageDir: string | undefined;
const cache = new Map<string, string>();
function asset(name: string): string {
  let body = cache.get(name);
  if (body === undefined) {
    const a = ASSETS[name]!;
    packageDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    body = a.body ?? readFileSync(join(packageDir, a.file!), 'utf8');
    cache.set(name, body);
  }
  return body;
}

export function registerDocsRoutes(routes: RouteTable, s: Services): void {
  let document: string | undefined;

  routes.add({
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'The OpenAPI 3.1 document of this API (no token needed; it shows only the API’s shape)',
    public: true,
    responses: { 200: { description: 'The OpenAPI document', schema: v.record(v.string(), v.unknown()) } },
    handler: () =>
      new RawReply(200, (document ??= JSON.stringify(openApiDocument(routes.routes(), { version: s.version }))), 'application/json; charset=utf-8'),
  });

  routes.add({
    method: 'GET',
    path: '/api/docs',
    summary: 'A readable API reference (HTML), made from the OpenAPI document',
    public: true,
    headers: 'docs',
    responses: { 200: { description: 'The reference page', contentType: 'text/html' } },
    handler: () => new RawReply(200, PAGE, 'text/html; charset=utf-8'),
  });

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/docs/:file',
      summary: 'Scripts and styles of the API reference page',
      public: true,
      headers: 'docs',
      params: v.object({ file: v.pipe(v.string(), v.maxLength(64)) }),
      responses: {
        200: { description: 'The file', contentType: 'text/plain' },
        404: { description: 'No such file' },
      },
      handler: (req) => {
        const a = ASSETS[req.params.file];
        if (!a || !Object.hasOwn(ASSETS, req.params.file)) throw notFound(`No file ${req.params.file} in the API reference`);
        return new RawReply(200, asset(req.params.file), a.type);
      },
    }),
  );
}
