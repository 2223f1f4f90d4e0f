// What every part of the running service can reach. Built once in src/app.ts.
import type { Config } from './config/load.js';
import type { Logger } from './log.js';
import type { RouteTable } from './http/routes.js';
import type { TokenService } from './auth/tokens.js';
import type { UserStore } from './auth/users.js';
import type { Engine } from './http/uws.js';
import type { HubStatus } from './hub/status.js';

export interface AppContext {
  config: Config;
  log: Logger;
  version: string;
  startedAt: number;
  engine: Engine;
  routes: RouteTable;
  tokens: TokenService;
  users: UserStore;
  hub: { status(): HubStatus };
  /** The port actually bound (differs from config.port when that is 0). */
  port(): number;
  /** Features that are present in this build and enabled. */
  features(): Record<string, boolean>;
}
