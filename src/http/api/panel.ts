// The panel: static pages at / (Home Assistant's ingress opens it in its sidebar, under a path
// prefix; on the add-on's own port it asks for a sign-in), and /api/me, which tells the page who
// it serves and how assistants reach this bridge. The pages call the same API as everyone else.
import * as v from 'valibot';
import { notFound } from '../../errors.js';
import type { Services } from '../../services.js';
import type { RouteTable } from '../routes.js';
import { packageFolder, staticFiles } from '../static-files.js';

const who = v.object({
  name: v.string(),
  via: v.picklist(['user', 'token', 'ingress']),
  home_assistant_user: v.nullable(v.object({ id: v.string(), name: v.string(), display_name: v.string() })),
  may_manage_tokens: v.boolean(),
  ingress_path: v.nullable(v.string()),
  port: v.number(),
  mcp_path: v.string(),
  version: v.string(),
});

const session = v.object({ signed_in: v.boolean(), ingress: v.boolean() });

export function registerPanelRoutes(routes: RouteTable, s: Services): void {
  const serve = staticFiles(packageFolder('src', 'panel'));
  const missing = (path: string) => () => {
    throw notFound(`No file ${path} in the panel`);
  };
  const page = {
    200: { description: 'The file', contentType: 'text/html' },
    304: { description: 'Not modified (ETag)' },
    404: { description: 'No such file' },
  };

  routes.add({
    kind: 'stream',
    method: 'GET',
    path: '/',
    summary: 'The panel (HTML): hub status, entities, live events, scenes and groups, commands, stream statistics, connecting an assistant',
    public: true,
    // Files anyone may have are not worth a request budget; the API calls they make are counted.
    rateLimited: false,
    headers: 'panel',
    longLived: false,
    responses: page,
    open: (req, res) => serve('/index.html', req.headers, res, missing('/')),
  });

  routes.add({
    kind: 'stream',
    method: 'GET',
    path: '/panel/:file',
    summary: 'The panel’s scripts, styles and images',
    public: true,
    // Files anyone may have are not worth a request budget; the API calls they make are counted.
    rateLimited: false,
    headers: 'panel',
    longLived: false,
    params: v.object({ file: v.pipe(v.string(), v.regex(/^[\w.-]{1,64}$/, 'must be a file name')) }),
    responses: page,
    open: (req, res) => serve(`/${req.params.file}`, req.headers, res, missing(req.params.file)),
  });

  routes.add({
    method: 'GET',
    path: '/api/session',
    summary:
      'Whether this request is signed in (a token, or Home Assistant through ingress), never 401: what the panel asks first, so a signed-out page load logs no error',
    public: true,
    responses: { 200: { description: 'Signed in or not, and whether it came through ingress', schema: session } },
    handler: (req) => ({ signed_in: req.principal !== undefined, ingress: s.ingress.principal(req) !== undefined }),
  });

  routes.add({
    method: 'GET',
    path: '/api/me',
    summary: 'Who this request is (a bridge user, an assistant token, or a Home Assistant user through ingress) and where MCP is served',
    responses: { 200: { description: 'The caller and the MCP endpoint', schema: who } },
    handler: (req) => {
      const p = req.principal!;
      const via = p.via ?? 'user';
      return {
        name: via === 'ingress' ? p.haUser!.displayName || p.haUser!.name : via === 'token' ? (s.bridgeTokens.nameOf(p.tokenId) ?? p.sub) : p.sub,
        via,
        home_assistant_user: p.haUser ? { id: p.haUser.id, name: p.haUser.name, display_name: p.haUser.displayName } : null,
        may_manage_tokens: via !== 'token',
        ingress_path: s.ingress.prefix(req.ip, req.headers) || null,
        port: s.port(),
        mcp_path: '/mcp',
        version: s.version,
      };
    },
  });
}
