// The composition root: builds one services object from the config, hands it to every route
// registrar, starts the parts in order and stops them in reverse.
import { RestartClock } from './ha-admin/restart-clock.js';
import { AdminService } from './ha-admin/service.js';
import { SystemService } from './ha-admin/system.js';
import { ActionExecutor } from './actions/executor.js';
import { loadOrCreateJwtSecret, ensureDataDir } from './auth/files.js';
import { TokenService } from './auth/tokens.js';
import { credentialRules } from './auth/credential-rules.js';
import { BridgeTokens } from './auth/bridge-tokens.js';
import { IngressTrust } from './auth/ingress.js';
import { IngressAccess, parseIngressRule } from './auth/ingress-access.js';
import { UserStore } from './auth/users.js';
import { createBus, HUB_CONNECTED, type Bus } from './bus.js';
import type { Config } from './config/load.js';
import { resetPasswordCommand } from './config/data-dir.js';
import { GroupService } from './groups/service.js';
import { createAdmission } from './http/admission.js';
import { OAuthService } from './oauth/service.js';
import { Cors } from './http/cors.js';
import { registerDeviceRoutes } from './http/api/devices.js';
import { registerDocsRoutes } from './http/api/docs.js';
import { registerEventRoutes } from './http/api/events.js';
import { registerStreamStatsRoutes } from './http/api/sse.js';
import { registerMcpRoutes } from './http/api/mcp.js';
import { registerCommandRoutes } from './http/api/command.js';
import { BUILT_IN_LANGUAGES } from './nlp/language.js';
import { CommandService } from './nlp/service.js';
import { McpHttp } from './mcp/http.js';
import { registerToolRoutes } from './http/api/tools.js';
import { registerTokenRoutes } from './http/api/tokens.js';
import { registerPanelRoutes } from './http/api/panel.js';
import { registerOAuthRoutes } from './http/api/oauth.js';
import { registerDiscoveryLinkRoutes } from './http/api/discovery-link.js';
import { registerOAuthClientRoutes } from './http/api/oauth-clients.js';
import { registerGroupRoutes } from './http/api/groups.js';
import { registerSceneRoutes } from './http/api/scenes.js';
import { registerHaConfigRoutes } from './http/api/ha-config.js';
import { registerSystemRoutes } from './http/api/system.js';
import { RateLimiter } from './http/rate-limit.js';
import { RouteTable, type Route } from './http/routes.js';
import { startHttpServer } from './http/server.js';
import { ListeningPort } from './http/listening.js';
import { App, binary, engine } from './http/uws.js';
import type { ActingHub } from './hub/acting.js';
import { HubClient, type HubClientOptions } from './hub/client.js';
import type { HubReader, HubRestReader } from './hub/reader.js';
import { openHubRest } from './hub/rest.js';
import { HaConfigService } from './ha-config/service.js';
import { CameraSnapshots } from './hub/camera-proxy.js';
import { websocketUrl } from './hub/socket.js';
import { Exposure } from './hub/exposure.js';
import { HubConfigs, hubConfigSource } from './hub/configs.js';
import { EffectResolver } from './policy/effects.js';
import { SupervisorApi } from './hub/supervisor.js';
import { DiscoveryLink } from './auth/discovery-link.js';
import { createLogger, type Logger } from './log.js';
import { SceneService } from './scenes/service.js';
import type { Catalogued, Registrar, Services } from './services.js';
// The simulator is loaded only when no hub is configured: the add-on never carries it in memory.
import type { Simulator } from '#sim';
import { HomeView } from './policy/home-view.js';
import { Policy } from './policy/policy.js';
import { bindPlugins, closePlugins, readPlugins } from './plugin-host/loader.js';
import { TemplateRenderer } from './templates/render.js';
import { PromptCatalog, ResourceCatalog } from './plugin-host/tool-catalog.js';
import { ToolRegistry } from './plugin-host/tool-registry.js';
import { openStore, storeFile } from './store/index.js';
import { takeBackupCopy } from './store/backup.js';
import { LiveEvents } from './stream/live-events.js';
import { CredentialChanges, Credentials } from './auth/credentials.js';
import { StreamMetrics } from './stream/metrics.js';
import { SocketChannel } from './stream/socket-channel.js';
import { messageAuthenticator, topicPublisher } from './http/stream-sinks.js';
import { VERSION } from './version.js';

export interface StartOptions {
  log?: Logger;
  logStream?: 'stdout' | 'stderr';
  /** The command that starts the app (`stdio` keeps its data elsewhere): the banner names the matching reset-password. */
  command?: 'serve' | 'stdio';
  /**
   * Where plain words for a person go (the first start's password banner). By default the log's
   * stream, unless logging is silent; a caller that brings its own logger and no `say` gets none.
   */
  say?: (text: string) => void;
  /** Routes added after the built-in ones (tests use this for paths the product lacks, such as a failing one). */
  extraRoutes?: Route[];
  /** Folders of command-parser languages read after the built-in src/nlp/lang (a test's made-up language). */
  languageDirs?: string[];
}

export interface RunningApp {
  port: number;
  url: string;
  services: Services;
  routes: RouteTable;
  hub: HubReader;
  bus: Bus;
  /** The embedded simulator, when no hub is configured. */
  simulator?: Simulator;
  close(): Promise<void>;
}

/** Every registrar, in the order their routes are added. */
const REGISTRARS: Registrar[] = [
  registerSystemRoutes,
  registerDeviceRoutes,
  registerSceneRoutes,
  registerGroupRoutes,
  registerHaConfigRoutes,
  registerCommandRoutes,
  registerToolRoutes,
  registerEventRoutes,
  registerStreamStatsRoutes,
  registerMcpRoutes,
  registerTokenRoutes,
  registerDiscoveryLinkRoutes,
  registerOAuthRoutes,
  registerOAuthClientRoutes,
  registerPanelRoutes,
  registerDocsRoutes,
];

function passwordBanner(password: string, dataDir: string, reset: string): string {
  return [
    '',
    '  Home MCP Bridge: no user is configured, so this one was made:',
    '    user: admin',
    `    password: ${password}`,
    `  It is shown only this once; only its hash is kept, in ${dataDir}/admin-user.json.`,
    `  Lost it? ${reset} prints a new one.`,
    '',
    '',
  ].join('\n');
}

interface ConnectedHub {
  /** The connection, for starting and stopping it; to every other part it is the read-only view. */
  hub: HubClient;
  /** The hub that acts: handed to the action executor and the config service, and to nothing else. */
  acting: ActingHub;
  rest: HubRestReader;
  simulator?: Simulator;
}

/** One hub's WebSocket and REST connections, and the acting handle they make together. */
function openHub(opts: Omit<HubClientOptions, 'bus' | 'log'>, restBase: string, bus: Bus, log: Logger): Omit<ConnectedHub, 'simulator'> {
  const { hub, acting } = HubClient.open({ ...opts, bus, log: log.child({ part: 'hub' }) });
  const { rest, write } = openHubRest(restBase, opts.token);
  return { hub, rest, acting: { ...acting, rest: write } };
}

/** Chooses the hub: HASS_URL, else the Supervisor's proxy inside the add-on, else the built-in simulator. */
async function connectHub(config: Config, bus: Bus, log: Logger): Promise<ConnectedHub> {
  if (config.hassUrl) {
    const token = (config.hassToken ?? config.supervisorToken)!;
    return openHub({ wsUrl: websocketUrl(config.hassUrl), token, displayUrl: config.hassUrl, mode: 'home_assistant' }, config.hassUrl, bus, log);
  }
  if (config.supervisorToken) {
    // The Supervisor proxies Home Assistant's WebSocket and REST APIs at /core and takes its own token.
    const core = `${config.supervisorUrl.replace(/\/+$/, '')}/core`;
    return openHub({ wsUrl: `${core.replace(/^http/i, 'ws')}/websocket`, token: config.supervisorToken, displayUrl: core, mode: 'supervisor' }, core, bus, log);
  }
  const { startSimulator } = await import('#sim');
  const simulator = await startSimulator({ home: config.simHome, host: '127.0.0.1', port: 0, logger: log.child({ part: 'sim' }) });
  log.info(
    `no hub configured (HASS_URL unset): using the built-in hub simulator with the ${config.simHome === 'demo' ? 'demo home' : `home ${config.simHome}`} at ${simulator.url}`,
  );
  const opened = openHub(
    { wsUrl: websocketUrl(simulator.url), token: simulator.token, displayUrl: simulator.url, mode: 'simulator', simulator: { home: config.simHome } },
    simulator.url,
    bus,
    log,
  );
  return { ...opened, simulator };
}

/** Makes a part once the plugins are set up; if it cannot be made (a bad COMMAND_LANGUAGE), they are closed before the start fails. */
async function madeAfterPlugins<T>(plugins: Parameters<typeof closePlugins>[0], log: Logger, make: () => T): Promise<T> {
  try {
    return make();
  } catch (err) {
    await closePlugins(plugins, log);
    throw err;
  }
}

export async function startApp(config: Config, opts: StartOptions = {}): Promise<RunningApp> {
  const log = opts.log ?? createLogger(config.logLevel, opts.logStream, config.logFormat);
  if (engine !== 'native') throw new Error(`uWebSockets.js from ${binary.file} is not native code: the bridge does not run on a stand-in`);
  if (binary.redirected) log.info({ file: binary.file }, 'uWebSockets.js: the copy checked at install for this glibc (C23 imports redirected)');
  for (const warning of config.warnings) log.warn(warning);
  ensureDataDir(config.dataDir);

  let secret = config.jwtSecret;
  if (!secret) {
    const generated = loadOrCreateJwtSecret(config.dataDir);
    secret = generated.secret;
    if (generated.created) log.info(`generated a JWT signing secret in ${config.dataDir}/jwt-secret`);
  }
  // Auth says here when a credential may have ended; the registry of open connections (made once
  // auth's rule exists) listens.
  const credentialChanges = new CredentialChanges();
  const changed = credentialChanges.changed;
  const { store: users, generatedPassword } = await UserStore.create(config.users, config.dataDir, { changed });
  if (generatedPassword) {
    // The password goes only into the plain banner, beside the log: never into a log line, which
    // may be collected and kept elsewhere.
    const say =
      opts.say ??
      (!opts.log && config.logLevel !== 'silent'
        ? (text: string) => void (opts.logStream === 'stderr' ? process.stderr : process.stdout).write(text)
        : undefined);
    const reset = resetPasswordCommand(opts.command ?? 'serve', config.dataDir);
    if (say) {
      say(passwordBanner(generatedPassword, config.dataDir, reset));
      log.warn(
        `no users configured: created user admin; its password is shown once, in the banner beside this log (only its hash is kept in ${config.dataDir}/admin-user.json)`,
      );
    } else log.warn(`no users configured: created user admin; its password was shown nowhere (logging is off): ${reset} gives a new one`);
  }

  const restored = takeBackupCopy(config.dataDir);
  if (restored) log.info(restored);
  const store = openStore(storeFile(config.dataDir), { streamHistoryMaxRows: config.streamHistoryMaxRows });
  const bus = createBus();
  const { hub, acting, rest, simulator } = await connectHub(config, bus, log);
  const exposure = config.toolsExposedOnly ? new Exposure(hub, bus, log.child({ part: 'exposure' })) : undefined;
  // What scripts, automations and scenes do, read from the hub once and kept until it reloads them.
  const hubConfigs = new HubConfigs(hubConfigSource(hub, rest), bus);
  const effects = new EffectResolver(hub, hubConfigs);
  const policy = new Policy(
    {
      readOnly: config.toolsReadOnly,
      allow: config.toolsAllow,
      deny: config.toolsDeny,
      requireConfirmation: config.requireConfirmation,
      exposedOnly: config.toolsExposedOnly,
      configEditing: config.configEditing,
      adminTools: config.adminTools,
    },
    exposure,
    effects,
  );
  // Read them once the hub is there, so the first action does not wait for them.
  bus.on('event', (e) => {
    // On a reconnect what was kept may be stale: Home Assistant may have reloaded meanwhile.
    if (e.event_type === HUB_CONNECTED) hubConfigs.invalidate();
    if (e.event_type === HUB_CONNECTED)
      void effects
        .warm()
        .catch((err: unknown) => log.warn({ err }, 'reading the scripts, automations and scenes of Home Assistant failed; they are read when used'));
  });
  const home = new HomeView(hub, policy);
  const actions = new ActionExecutor(hub, acting, policy, effects);
  const tokens = new TokenService(secret, config.jwtTtl);
  const limits = new RateLimiter(config.rateLimitMax, config.rateLimitWindowMs);
  const bridgeTokens = new BridgeTokens(store.tokens, tokens, { creatorGone: (by) => !users.has(by), changed });
  const ingress = new IngressTrust(config.ingressProxy);
  const ingressAccess = new IngressAccess(parseIngressRule(config.ingressUsers), hub);
  const oauth = new OAuthService(
    store.oauth,
    tokens,
    users,
    {
      publicUrl: config.publicUrl,
      registration: config.oauthRegistration,
      allowPrivateMetadata: config.oauthMetadataPrivate,
      accessTtl: config.oauthAccessTtl,
      refreshDays: config.oauthRefreshDays,
    },
    log.child({ part: 'oauth' }),
    changed,
  );
  const rules = credentialRules({ users, bridgeTokens, oauth });
  // Open streams and sockets by credential, with the same rule as admission's: a credential ends when its refusal would say so.
  const credentials = new Credentials(rules.ended, credentialChanges);
  const supervisor = config.supervisorToken ? new SupervisorApi(config.supervisorUrl, config.supervisorToken) : undefined;
  const listening = new ListeningPort(config.port);
  const discoveryLink = new DiscoveryLink(config.dataDir, config.discoveryPeers, supervisor, log.child({ part: 'supervisor' }), listening);
  const admit = createAdmission(tokens, limits, rules.refusal, ingress, {
    ingressCheck: (p) => ingressAccess.check(p),
    resourceMetadata: (caller) => oauth.resourceMetadataUrl(caller.headers),
    capability: (key, ip) => discoveryLink.principal(key, ip),
  });
  const startedAt = Date.now();
  // The transport, made before what publishes on it; it listens once the routes are mounted.
  const app = App();
  const events = new LiveEvents({
    publisher: topicPublisher(app),
    bus,
    store,
    log: log.child({ part: 'events' }),
    visible: (entityId) => policy.maySee(entityId),
    credentials,
    limits: {
      maxSubscriptions: config.eventSubMaxSubscriptions,
      rateLimit: config.eventSubRateLimit,
      rateWindowMs: config.eventSubRateWindow * 1000,
      maxSseConnections: config.sseMaxConnections,
      bufferLimit: config.streamBufferLimit,
      historyDays: config.eventHistoryDays,
      historyMaxRows: config.eventHistoryMaxRows,
    },
  });
  const streamMetrics = new StreamMetrics(events.fanOut, store.streamStats, startedAt, config.streamSampleInterval * 1000);
  const sockets = new SocketChannel({
    fanOut: events.fanOut,
    metrics: streamMetrics,
    authenticate: messageAuthenticator(admit),
    log: log.child({ part: 'ws' }),
  });
  const scenes = new SceneService({ hub, actions, policy, store, bus });
  const haConfig = new HaConfigService({
    hub,
    acting,
    hubConfigs,
    policy,
    actions,
    versions: store.configVersions,
    keep: config.configVersionsMax,
    who: rules.who,
    log: log.child({ part: 'ha-config' }),
  });
  const admin = new AdminService({
    hub: haConfig.adminHub,
    policy,
    config: haConfig,
    ...(exposure ? { exposure } : {}),
    state: (id) => hub.cache.get(id),
  });
  const system = new SystemService({
    hub: haConfig.adminHub,
    reader: hub,
    policy,
    config: haConfig,
    clock: new RestartClock(bus, hub),
    ...(supervisor ? { supervisor } : {}),
  });
  const groups = new GroupService({ hub, actions, policy, store });
  exposure?.start();
  // Delivery listens before the hub connects, so its first events are kept too.
  events.start();
  streamMetrics.start();
  hub.start();

  // Plugins are read before MCP exists; what they say of their tools reaches it through the bus.
  const read = await readPlugins({
    toolsChanged: () => bus.emit('tools_changed', undefined),
    userDir: config.pluginsDir,
    disabled: config.pluginsDisabled,
    version: VERSION,
    log: log.child({ part: 'plugins' }),
  });
  // The one loop among the parts: a sentence may ask a plugin's tool ("add milk to the shopping
  // list") and a plugin's tool may run a command. The function closes it; it runs only on a request,
  // long after `tools` below is made.
  const commands = await madeAfterPlugins(
    read.plugins,
    log,
    () =>
      new CommandService({
        hub,
        home,
        actions,
        policy,
        scenes,
        groups,
        bus,
        maxLength: config.commandMaxLength,
        language: config.commandLanguage,
        languageDirs: [BUILT_IN_LANGUAGES, ...(opts.languageDirs ?? [])],
        pluginWords: read.plugins.map((p) => p.words),
        tools: (name, args, principal) => tools.call(name, args, principal),
      }),
  );
  const plugins = bindPlugins(read.plugins, {
    hub,
    bus,
    home,
    actions,
    policy,
    scenes,
    groups,
    commands,
    haConfig,
    admin,
    system,
    templates: new TemplateRenderer(hub, policy, { maxOutput: config.templateMaxOutput }),
    snapshots: new CameraSnapshots(rest, config.cameraSnapshotMaxBytes),
  });
  const tools = new ToolRegistry(
    plugins,
    () => home.ids(),
    () => policy.configEditing,
    () => policy.adminTools,
  );

  const base: Omit<Services, Catalogued> = {
    config,
    log,
    version: VERSION,
    startedAt,
    engine,
    bus,
    hub,
    store,
    actions,
    scenes,
    groups,
    haConfig,
    users,
    tokens,
    bridgeTokens,
    oauth,
    discoveryLink,
    ingress,
    limits,
    admit,
    exposure,
    events,
    credentials,
    streamMetrics,
    sockets,
    policy,
    home,
    commands,
    port: () => listening.port,
    features: () => ({ nlp: true, scenes: true, groups: true, events: true, config_editing: policy.configEditing }),
  };
  const catalogued = {
    ...base,
    plugins: { list: plugins, report: read.report },
    tools,
    prompts: new PromptCatalog(plugins),
    resources: new ResourceCatalog(plugins),
  };
  const cors = new Cors(config.allowedOrigins);
  const services: Services = {
    ...catalogued,
    mcp: new McpHttp(catalogued, {
      idleMs: config.mcpSessionIdle * 1000,
      maxPerClient: config.mcpMaxSessions,
      reserveStream: () => events.fanOut.reserveSse(),
      credentials,
      debounceMs: config.mcpResourceDebounce,
      cors,
      allowedHosts: config.mcpAllowedHosts,
      log: log.child({ part: 'mcp' }),
      visibility: exposure,
    }),
  };

  const routes = new RouteTable();
  for (const register of REGISTRARS) register(routes, services);
  for (const r of opts.extraRoutes ?? []) routes.add(r);

  const server = await startHttpServer({
    app,
    host: config.host,
    port: config.port,
    routes,
    admit: services.admit,
    cors,
    bodyLimit: config.bodyLimit,
    log,
  });
  const port = server.port;
  listening.listened(port);
  void discoveryLink.announce();

  let closing: Promise<void> | undefined;
  return {
    port,
    // A wildcard address is not one to connect to; an IPv6 one needs brackets.
    url: `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    services,
    routes,
    hub,
    bus,
    simulator,
    close: () =>
      (closing ??= (async () => {
        // Streams get their last frame and history its last batch before the port closes.
        discoveryLink.stop();
        supervisor?.stop();
        services.mcp.close();
        exposure?.stop();
        events.close();
        streamMetrics.stop();
        await server.close(config.shutdownTimeoutMs);
        await closePlugins(plugins, log);
        credentials.close();
        bridgeTokens.close();
        oauth.close();
        store.close();
        services.limits.close();
        users.close();
        await hub.close();
        await simulator?.stop();
        log.info('stopped');
      })()),
  };
}
