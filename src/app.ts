// The composition root: builds every part from the config, starts them in order, stops them in reverse.
import { loadOrCreateJwtSecret, ensureDataDir } from './auth/files.js';
import { TokenService } from './auth/tokens.js';
import { UserStore } from './auth/users.js';
import type { Config } from './config/load.js';
import type { AppContext } from './context.js';
import { registerSystemRoutes } from './http/api/system.js';
import { RateLimiter } from './http/rate-limit.js';
import { RouteTable, type Route } from './http/routes.js';
import { startHttpServer, type HttpServer } from './http/server.js';
import { engine } from './http/uws.js';
import type { HubStatus } from './hub/status.js';
import { createLogger, type Logger } from './log.js';
import { VERSION } from './version.js';

export interface StartOptions {
  log?: Logger;
  logStream?: 'stdout' | 'stderr';
  /** Routes added after the built-in ones (tests use this for paths the product lacks, such as a failing one). */
  extraRoutes?: Route[];
}

export interface RunningApp {
  port: number;
  url: string;
  ctx: AppContext;
  close(): Promise<void>;
}

export async function startApp(config: Config, opts: StartOptions = {}): Promise<RunningApp> {
  const log = opts.log ?? createLogger(config.logLevel, opts.logStream);
  ensureDataDir(config.dataDir);

  let secret = config.jwtSecret;
  if (!secret) {
    const generated = loadOrCreateJwtSecret(config.dataDir);
    secret = generated.secret;
    if (generated.created) log.info(`generated a JWT signing secret in ${config.dataDir}/jwt-secret`);
  }
  const { store: users, generatedPassword } = await UserStore.create(config.users, config.dataDir);
  if (generatedPassword) {
    log.warn(`no users configured: created user "admin" with password ${generatedPassword} (shown once; only its hash is kept in ${config.dataDir}/admin-user.json)`);
  }

  const hubStatus: HubStatus = { connected: false, url: config.hassUrl ?? 'simulator', mode: config.hassUrl ? 'home_assistant' : 'simulator' };
  const routes = new RouteTable();
  const limiter = new RateLimiter(config.rateLimitMax, config.rateLimitWindowMs);
  let server: HttpServer | undefined;

  const ctx: AppContext = {
    config,
    log,
    version: VERSION,
    startedAt: Date.now(),
    engine,
    routes,
    tokens: new TokenService(secret, config.jwtTtl),
    users,
    hub: { status: () => hubStatus },
    port: () => server?.port ?? config.port,
    features: () => ({ nlp: false, scenes: false, groups: false }),
  };
  if (engine === 'fallback') log.warn('uWebSockets.js native engine did not load: running the slower pure-JS fallback');

  registerSystemRoutes(ctx);
  for (const r of opts.extraRoutes ?? []) routes.add(r);

  server = await startHttpServer({
    host: config.host,
    port: config.port,
    router: routes.toRouter({ tokens: ctx.tokens, limiter, bodyLimit: config.bodyLimit, log }),
    log,
  });
  const port = server.port;

  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`,
    ctx,
    close: () =>
      (closing ??= (async () => {
        await server!.close(config.shutdownTimeoutMs);
        limiter.close();
        log.info('stopped');
      })()),
  };
}
