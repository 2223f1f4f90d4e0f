// Health, configuration and the token endpoint.
import { relative, resolve, sep } from 'node:path';
import * as v from 'valibot';
import { AppError } from '../../errors.js';
import type { Services } from '../../services.js';
import { jsonMemo, jsonRoute, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';

const tokenRequest = v.object({
  username: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(128, 'must be at most 128 characters')),
  password: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(1024, 'must be at most 1024 characters')),
});

export function healthBody(s: Pick<Services, 'hub' | 'version' | 'startedAt'>) {
  const hub = s.hub.status();
  return {
    status: hub.connected ? 'healthy' : 'degraded',
    version: s.version,
    uptime: Math.round((Date.now() - s.startedAt) / 1000),
    hub: { connected: hub.connected, version: hub.version ?? null },
  };
}

/**
 * The plugin report as /api/health shows it: each plugin by its place in its own folder
 * (`lights/index.js`, `counter.mjs`) and reasons without absolute paths, so the answer does not
 * tell where the bridge is installed or where the user keeps files.
 */
function pluginReportView(report: Services['plugins']['report'], userDir: string | undefined) {
  const place = (path: string) =>
    (userDir && path.startsWith(userDir + sep) ? relative(userDir, path) : path.split(sep).slice(-2).join('/')).split(sep).join('/');
  const noDirs = (text: string) => text.replace(/(?:file:\/\/)?(?:\/[^\s/'"`:]+)+\/([^\s/'"`:]+)/g, '$1');
  return {
    loaded: report.loaded.map((p) => ({ ...p, path: place(p.path) })),
    failed: report.failed.map((f) => ({ ...f, path: place(f.path), reason: noDirs(f.reason) })),
    disabled: report.disabled,
  };
}

export function registerSystemRoutes(routes: RouteTable, s: Services): void {
  const { config } = s;

  routes.add({
    method: 'GET',
    path: '/health',
    summary: 'Service health and hub connection (uptime in seconds)',
    public: true,
    rateLimited: false,
    responses: { 200: { description: 'Health (uptime in seconds); degraded while the hub is away', schema: shape.health } },
    handler: () => healthBody(s),
  });

  routes.add({
    method: 'GET',
    path: '/api/health',
    summary: 'Health check for tool transports: the /health body, plus the plugins loaded, skipped (with reasons) and disabled, and the tool count',
    responses: { 200: { description: 'Health, plugins and tool count', schema: shape.toolHealth } },
    handler: () => ({
      ...healthBody(s),
      plugins: pluginReportView(s.plugins.report, s.config.pluginsDir && resolve(s.config.pluginsDir)),
      tools: s.plugins.list.reduce((n, p) => n + p.tools.length, 0),
      mcp: { sessions: s.mcp.size },
    }),
  });

  routes.add({
    method: 'GET',
    path: '/api/config',
    summary: 'Running configuration, without secrets',
    responses: { 200: { description: 'The configuration', schema: shape.config } },
    // Kept as text until a value in it changes (the hub's connection and event counts, the port,
    // a feature): the same bytes are sent again rather than built and serialised per request.
    handler: jsonMemo(
      () => {
        const hub = s.hub.status();
        const values: unknown[] = [
          s.port(),
          hub.url,
          hub.mode,
          hub.simulator?.home,
          hub.connected,
          hub.version,
          hub.events?.received,
          hub.events?.state_changed,
        ];
        const features = s.features();
        for (const k in features) values.push(k, features[k]);
        return values;
      },
      () => {
        const hub = s.hub.status();
        return {
          server: { port: s.port(), host: config.host, version: s.version, engine: s.engine },
          hub: {
            url: hub.url,
            connected: hub.connected,
            version: hub.version ?? null,
            mode: hub.mode,
            simulator: hub.simulator ?? null,
            events: hub.events ?? null,
          },
          features: s.features(),
          security: {
            rate_limit: { max: config.rateLimitMax, window_ms: config.rateLimitWindowMs },
            body_limit: config.bodyLimit,
            token_ttl: config.jwtTtl,
          },
        };
      },
    ),
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/auth/token',
      summary: 'Exchange {username, password} for a bearer token',
      public: true,
      body: tokenRequest,
      responses: { 200: { description: 'A bearer token', schema: shape.token }, 401: { description: 'Wrong username or password' } },
      handler: async (req) => {
        const { username, password } = req.body;
        if (!(await s.users.verify(username, password))) {
          throw new AppError('AUTHENTICATION_ERROR', 401, 'Invalid username or password');
        }
        return s.tokens.issue(username);
      },
    }),
  );
}
