// Health, configuration and the token endpoint.
import * as v from 'valibot';
import { AppError } from '../../errors.js';
import type { AppContext } from '../../context.js';
import { parseInput } from '../validate.js';

const tokenRequest = v.object({
  username: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(128, 'must be at most 128 characters')),
  password: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(1024, 'must be at most 1024 characters')),
});

export function healthBody(ctx: AppContext) {
  const hub = ctx.hub.status();
  return {
    status: hub.connected ? 'healthy' : 'degraded',
    version: ctx.version,
    uptime: Math.round((Date.now() - ctx.startedAt) / 1000),
    hub: { connected: hub.connected, version: hub.version ?? null },
  };
}

export function registerSystemRoutes(ctx: AppContext): void {
  const { routes, config } = ctx;

  routes.add({
    method: 'GET',
    path: '/health',
    summary: 'Service health and hub connection (uptime in seconds)',
    public: true,
    rateLimited: false,
    handler: () => healthBody(ctx),
  });

  routes.add({
    method: 'GET',
    path: '/api/health',
    summary: 'Health check for tool transports (same body as /health, behind a token)',
    handler: () => healthBody(ctx),
  });

  routes.add({
    method: 'GET',
    path: '/api/config',
    summary: 'Running configuration, without secrets',
    handler: () => {
      const hub = ctx.hub.status();
      return {
        server: { port: ctx.port(), host: config.host, version: ctx.version, engine: ctx.engine },
        hub: { url: hub.url, connected: hub.connected, version: hub.version ?? null, mode: hub.mode, simulator: hub.simulator ?? null, events: hub.events ?? null },
        features: ctx.features(),
        security: {
          rate_limit: { max: config.rateLimitMax, window_ms: config.rateLimitWindowMs },
          body_limit: config.bodyLimit,
          token_ttl: config.jwtTtl,
        },
      };
    },
  });

  routes.add({
    method: 'POST',
    path: '/auth/token',
    summary: 'Exchange {username, password} for a bearer token',
    public: true,
    handler: async (req) => {
      const { username, password } = parseInput(tokenRequest, req.body);
      if (!(await ctx.users.verify(username, password))) {
        throw new AppError('AUTHENTICATION_ERROR', 401, 'Invalid username or password');
      }
      return ctx.tokens.issue(username);
    },
  });
}
