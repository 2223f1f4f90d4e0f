// The one services object: built once in src/app.ts and handed to every route registrar.
// Operations live in the services; transports only adapt. Plugins never see it: they get the
// narrow context of src/plugin-sdk/types.ts.
import type { ActionExecutor } from './actions/executor.js';
import type { TokenService } from './auth/tokens.js';
import type { BridgeTokens } from './auth/bridge-tokens.js';
import type { IngressTrust } from './auth/ingress.js';
import type { DiscoveryLink } from './auth/discovery-link.js';
import type { OAuthService } from './oauth/service.js';
import type { UserStore } from './auth/users.js';
import type { Bus } from './bus.js';
import type { Config } from './config/load.js';
import type { GroupService } from './groups/service.js';
import type { HaConfigService } from './ha-config/service.js';
import type { HomeView } from './policy/home-view.js';
import type { Policy } from './policy/policy.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { RouteTable } from './http/routes.js';
import type { Admit } from './http/admission.js';
import type { Engine } from './http/uws.js';
import type { HubReader } from './hub/reader.js';
import type { Exposure } from './hub/exposure.js';
import type { Logger } from './log.js';
import type { LoadedPlugin, PluginReport } from './plugin-host/loader.js';
import type { SceneService } from './scenes/service.js';
import type { Store } from './store/index.js';
import type { LiveEvents } from './stream/live-events.js';
import type { Credentials } from './auth/credentials.js';
import type { StreamMetrics } from './stream/metrics.js';
import type { SocketChannel } from './stream/socket-channel.js';
import type { McpHttp } from './mcp/http.js';
import type { CommandService } from './nlp/service.js';
import type { PromptCatalog, ResourceCatalog } from './plugin-host/tool-catalog.js';
import type { ToolRegistry } from './plugin-host/tool-registry.js';

export interface Services {
  config: Config;
  log: Logger;
  version: string;
  /** Epoch milliseconds of the start. */
  startedAt: number;
  /** Which uWebSockets.js build serves the port. */
  engine: Engine;
  bus: Bus;
  /** The hub, read only (src/hub/reader.ts): the handle that acts is the executor's and the config service's alone. */
  hub: HubReader;
  store: Store;
  actions: ActionExecutor;
  scenes: SceneService;
  groups: GroupService;
  /** Home Assistant's automations, scripts, helpers and dashboards: read, traced, changed safely, every version kept. */
  haConfig: HaConfigService;
  /** Natural-language commands: plan, guard, run (REST, the WebSocket `command` message, the MCP tool). */
  commands: CommandService;
  users: UserStore;
  tokens: TokenService;
  /** Named long-lived tokens for assistants, revocable at once. */
  bridgeTokens: BridgeTokens;
  /** The bridge as OAuth authorization server for hosted assistants (/mcp). */
  oauth: OAuthService;
  /** The MCP link announced to Home Assistant (Supervisor discovery): its key, scope and announcement. */
  discoveryLink: DiscoveryLink;
  /** Which requests come through Home Assistant's ingress, and as whom. */
  ingress: IngressTrust;
  limits: RateLimiter;
  /** The one admission function, for transports that authenticate after their start (a WebSocket's first message). */
  admit: Admit;
  /** Live events: the history, stored subscriptions, and the SSE and WebSocket fan-out. */
  events: LiveEvents;
  /**
   * Open connections by credential: each registers with `credentials.onEnd(principal, close)` and
   * is closed, with the reason, when its token is revoked, its password changes, its user is
   * removed, its OAuth grant ends, or it expires.
   */
  credentials: Credentials;
  /** Statistics and metrics of the live streams. */
  streamMetrics: StreamMetrics;
  /** The WebSocket channel's message types (parts add theirs, e.g. `command`). */
  sockets: SocketChannel;
  /** MCP over Streamable HTTP: its sessions. */
  mcp: McpHttp;
  /** The port actually bound (differs from config.port when that is 0). */
  port(): number;
  /** Features that are present in this build and enabled. */
  features(): Record<string, boolean>;
  /** What the hub exposes to its own assistant; present when TOOLS_EXPOSED_ONLY is on. */
  exposure?: Exposure;
  /** The one checkpoint for what a caller may see and do (read-only, allow/deny, exposure, confirmation, scope). */
  policy: Policy;
  /** The hub as callers may see it: every read of entities goes through this. */
  home: HomeView;
  /** The plugins loaded at start, their tools bound, and what was skipped and why. */
  plugins: { list: LoadedPlugin[]; report: PluginReport };
  /** Every tool of every plugin, for the REST tool transport and MCP. */
  tools: ToolRegistry;
  prompts: PromptCatalog;
  resources: ResourceCatalog;
}

/** The parts made from the loaded plugins. */
export type Catalogued = 'plugins' | 'tools' | 'prompts' | 'resources' | 'mcp';

/** Every route registrar has this one signature. */
export type Registrar = (routes: RouteTable, services: Services) => void;
