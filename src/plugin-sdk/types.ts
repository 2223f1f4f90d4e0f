// What a plugin sees of the bridge: the shapes of the home and the context each tool, prompt and
// resource is called with. Declared here, apart from the bridge's own classes, so that the bridge
// can change inside without breaking a plugin. Nothing here can read a secret, mint a token or
// touch the store: a plugin acts on the home only through `home`, whose every change passes the
// bridge's policy checkpoint (read-only mode, allow/deny, exposure, confirmation, the caller's scope).
import type { CallToolResult, ElicitResult, PromptMessage as McpPromptMessage } from '@modelcontextprotocol/server';

/** What a tool answers: MCP's tool result. A business error is an `isError: true` result (or a thrown PluginError). */
export type ToolResult = CallToolResult;
/** One message of a filled-in prompt (MCP prompts/get). */
export type PromptMessage = McpPromptMessage;

/** An entity's state as the hub reports it. */
export interface EntityState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
}

export interface AreaInfo {
  area_id: string;
  name: string;
  floor_id?: string | null;
  aliases?: string[];
  labels?: string[];
}

export interface FloorInfo {
  floor_id: string;
  name: string;
  level?: number | null;
  aliases?: string[];
}

export interface DeviceInfo {
  id: string;
  name?: string | null;
  name_by_user?: string | null;
  area_id?: string | null;
  manufacturer?: string | null;
  model?: string | null;
  labels?: string[];
}

/** An entity's registry entry (names, aliases, area, whether it is hidden or a configuration entity). */
export interface EntityEntryInfo {
  entity_id: string;
  device_id?: string | null;
  area_id?: string | null;
  name?: string | null;
  original_name?: string | null;
  hidden_by?: string | null;
  entity_category?: string | null;
  aliases?: string[];
  labels?: string[];
}

export interface LabelInfo {
  label_id: string;
  name: string;
}

/** What the hub says of itself. */
export interface HubInfo {
  version: string;
  location_name?: string;
  time_zone?: string;
  unit_system?: Record<string, string>;
  language?: unknown;
  [k: string]: unknown;
}

/** A hub service as the hub describes it: its fields, and whether it takes a target or gives a response. */
export interface ServiceInfo {
  name?: string;
  description?: string;
  fields: Record<string, unknown>;
  target?: unknown;
  response?: { optional: boolean };
}

/** An action on entities of one domain, by id or by an area as a person says it. */
export interface ActRequest {
  /** The hub domain acted on (only its entities are answered). */
  domain: string;
  /** The hub's service in that domain (turn_on, lock, set_temperature, ...). */
  service: string;
  data?: Record<string, unknown>;
  entity_id?: string | string[];
  /** An area by id, name or alias. */
  area?: string;
  /** Only plan: say what would be done. */
  dry_run?: boolean;
  /** The person confirmed an action that needs it (unlock, disarm, open a garage door). */
  confirm?: boolean;
}

/** A service call as Home Assistant takes it (notify.send_message, script.turn_on, ...). */
export interface ServiceCall {
  domain: string;
  service: string;
  data?: Record<string, unknown>;
  target?: Partial<Record<'entity_id' | 'device_id' | 'area_id' | 'floor_id' | 'label_id', string | string[]>>;
  return_response?: boolean;
}

export interface CallAnswer {
  /** `domain.service`. */
  service: string;
  /** True when only planned. */
  dry_run: boolean;
  /** The data as it goes (or would go) to the hub, after the hub's own service description was checked. */
  data: Record<string, unknown>;
  /** Each entity the call acts on, with its state after it (null when planned). */
  entities: { entity_id: string; state: string | null; verified?: boolean }[];
  response?: unknown;
}

/** An event fired on the hub's bus, or only judged (dry_run). */
export interface EventAnswer {
  event_type: string;
  dry_run: boolean;
  fired: boolean;
}

/** A template as Home Assistant rendered it, and what it read. */
export interface TemplateAnswer {
  result: unknown;
  entities: string[];
  domains: string[];
  all_states: boolean;
  time: boolean;
  /** Cut at the bridge's TEMPLATE_MAX_OUTPUT. */
  truncated: boolean;
  warnings: string[];
}

/** A question to the hub that reads (history, logbook, statistics, traces, search). */
export interface HubQuestion {
  type: string;
  [field: string]: unknown;
}

/** A camera's picture now, from Home Assistant's camera proxy. */
export interface CameraSnapshot {
  entity_id: string;
  /** image/jpeg, image/png, ... as the camera gives it. */
  mime_type: string;
  data: Uint8Array;
  bytes: number;
  width?: number;
  height?: number;
  /** Set when the first image was over the bridge's cap (CAMERA_SNAPSHOT_MAX_BYTES) and Home Assistant was asked for a smaller one. */
  scaled_from?: { bytes: number; width: number; height: number };
}

/**
 * The home as this caller may see it, and the ways to act on it. Entities the bridge hides
 * (TOOLS_EXPOSED_ONLY) are absent from every list; every change passes the policy checkpoint.
 */
export interface Home {
  /** Whether the hub is connected now (while it is not, states are the last known ones). */
  readonly connected: boolean;
  readonly config: HubInfo | undefined;
  state(entityId: string): EntityState | undefined;
  has(entityId: string): boolean;
  /** Every visible state, or those of one domain. */
  states(domain?: string): EntityState[];
  ids(): string[];
  areas(): AreaInfo[];
  floors(): FloorInfo[];
  devices(): DeviceInfo[];
  labels(): LabelInfo[];
  area(areaId: string): AreaInfo | undefined;
  floor(floorId: string): FloorInfo | undefined;
  device(deviceId: string): DeviceInfo | undefined;
  entry(entityId: string): EntityEntryInfo | undefined;
  /** An entity's area: its own, else its device's. */
  areaOf(entityId: string): AreaInfo | undefined;
  /** The area a person's word names: its id, name or one of its aliases. */
  areaIdFor(word: string): string | undefined;
  services(domain: string): Record<string, ServiceInfo>;
  /** The actions an entity supports (its domain's services that take it, and generic ones such as toggle). */
  supportedActions(entityId: string): string[];
  /** Acts on entities of one domain, answered as a tool result with each entity's new state and whether it shows what was asked. */
  act(request: ActRequest): Promise<ToolResult>;
  /**
   * Waits until `done` holds for these entities' states (looked at now and at each change; `changed`
   * hears each), the signal aborts or `timeoutMs` passes; answers whether it held. For a long
   * operation's end: a cover's travel, a vacuum's run.
   */
  waitFor(
    entityIds: readonly string[],
    done: (states: (EntityState | undefined)[]) => boolean,
    opts: { timeoutMs: number; signal?: AbortSignal; changed?: (states: (EntityState | undefined)[]) => void },
  ): Promise<boolean>;
  /** Any service call, checked against the hub's description of it; `dry_run` only plans. */
  call(call: ServiceCall, opts?: { dry_run?: boolean; confirm?: boolean }): Promise<CallAnswer>;
  /**
   * Fires an event on the hub's bus: an action, judged as `fire_event.<event_type>` (read-only mode,
   * the caller's scope and the lists refuse it); Home Assistant's own event types are refused.
   */
  fireEvent(event: { event_type: string; event_data?: Record<string, unknown> }, opts?: { dry_run?: boolean; confirm?: boolean }): Promise<EventAnswer>;
  /** Renders a Home Assistant template once, read-only, within `timeout` seconds; refused when it reads what this caller may not see. */
  renderTemplate(template: string, opts?: { timeout?: number }): Promise<TemplateAnswer>;
  /**
   * Asks a service that only reads and answers (calendar.get_events, todo.get_items,
   * weather.get_forecasts): allowed in read-only mode; its entities must be visible. Answers the
   * hub's response, by entity id.
   */
  ask(call: ServiceCall): Promise<Record<string, unknown>>;
  /**
   * A WebSocket command that changes something where the hub offers no service
   * (calendar/event/create, calendar/event/update, calendar/event/delete, todo/item/move), judged by
   * the same checkpoint as `call` as an action on the entity it names; `dry_run` only checks.
   */
  send(
    message: HubQuestion & { entity_id: string },
    opts?: { dry_run?: boolean; confirm?: boolean },
  ): Promise<{ type: string; entity_id: string; dry_run: boolean; result?: unknown }>;
  /** Asks the hub something that reads: history/, logbook/, recorder/ statistics, trace/, search/, todo/item/list, calendar/event/subscribe (its first message), energy/get_prefs. Entities named must be visible. */
  read<T = unknown>(question: HubQuestion): Promise<T>;
  /** A camera's snapshot (a read), within the bridge's size cap; a larger one is refused (PAYLOAD_TOO_LARGE). */
  snapshot(cameraId: string): Promise<CameraSnapshot>;
  /** The error for an entity this caller cannot see or the hub does not have, naming the closest ones. */
  unknownEntity(entityId: string): Error;
  /** DEVICE_NOT_FOUND for a device id the hub does not have (details.device_id, the closest known devices). */
  unknownDevice(deviceId: string): Error;
}

export interface SceneInfo {
  id: string;
  name: string;
  description: string | null;
  actions: { entity_id: string; action: string; parameters: Record<string, unknown> }[];
}

export interface BatchAnswer {
  success: boolean;
  results: { entity_id: string; action: string; status: 'completed' | 'failed'; state?: string | null; error?: { code: string; message: string } }[];
}

/** The bridge's own scenes. */
export interface Scenes {
  list(): SceneInfo[];
  get(nameOrKey: string): SceneInfo;
  activate(nameOrKey: string, opts?: { confirm?: boolean }): Promise<BatchAnswer & { scene: string; name: string }>;
  capture(def: { name: string; entities: string[]; description?: string }, opts?: { replace?: boolean }): { scene: SceneInfo; created: boolean };
}

export interface GroupInfo {
  id: string;
  name: string;
  entities: string[];
  expanded_entities: string[];
}

/** The bridge's own groups. */
export interface Groups {
  list(): { id: string; name: string; entities: string[] }[];
  view(nameOrKey: string): GroupInfo;
  control(
    nameOrKey: string,
    command: { action: string; parameters?: Record<string, unknown> },
    opts?: { confirm?: boolean },
  ): Promise<BatchAnswer & { group: string; action: string }>;
}

export interface CommandInput {
  command: string;
  context?: { area?: string };
  dry_run?: boolean;
  language?: string;
  confirm?: boolean;
}

/** The bridge's natural-language commands. */
export interface Commands {
  run(input: CommandInput): Promise<{ success: boolean; message: string; [k: string]: unknown }>;
}

/** The kinds of Home Assistant config the bridge reads and changes. */
export type ConfigKind = 'automation' | 'script' | 'helper' | 'dashboard';

/** A change to one config item, previewed with dry_run and applied only when confirmed. */
export interface ConfigChangeRequest {
  kind: ConfigKind;
  op: 'create' | 'update' | 'delete';
  /** automation: its id or entity id; script: its key or entity id; helper: type.id (the type alone to create); dashboard: "default" or its url_path. */
  id?: string;
  /** The whole new item (a card or a view for those changes of a dashboard). */
  config?: Record<string, unknown>;
  /** Dashboards: a view by index, path or title. */
  view?: number | string;
  /** Dashboards: a card by its index in the view. */
  card?: number;
  dry_run?: boolean;
  /** The person confirmed (a client that can be asked is asked instead). */
  confirm?: boolean;
  /** Why: kept with the version; required when applying. */
  reason?: string;
  /** Apply only if the change is still the one this preview showed. */
  preview_id?: string;
}

/** What a change did, or would do (dry_run): the diff in words and lines, and what needs confirming. */
export interface ConfigOutcome {
  kind: ConfigKind | AdminKind | SystemKind;
  id: string;
  entity_id: string | null;
  change: 'created' | 'updated' | 'deleted' | 'restored' | 'found' | 'unchanged';
  dry_run: boolean;
  applied: boolean;
  summary: string;
  words: string[];
  /** Unified diff of the YAML Home Assistant keeps. */
  diff: string;
  needs_confirmation: string[];
  preview_id: string;
  /** The kept version that holds the result. */
  version?: number;
  restored_from?: number;
}

export interface ConfigItemSummary {
  kind: ConfigKind;
  id: string;
  entity_id: string | null;
  name: string;
  state?: string;
  last_triggered?: string | null;
  mode?: string;
  editable: boolean;
}

export interface ConfigItem {
  kind: ConfigKind;
  id: string;
  entity_id: string | null;
  config: Record<string, unknown>;
  /** The same as Home Assistant's YAML. */
  yaml: string;
  /** Dashboards: storage or yaml. */
  mode?: string;
  filename?: string;
}

/** "Why (didn't) it run?", from Home Assistant's traces. */
export interface ConfigExplanation {
  entity_id: string | null;
  state: string | null;
  last_triggered: string | null;
  why: string;
  /** Newest first. */
  runs: { run_id: string; started: string; trigger: string | null; outcome: string; detail: string }[];
}

/** One kept version of a config item (or, for the admin part, of a registry item or setting). */
export interface ConfigVersionInfo {
  id: number;
  kind: ConfigKind | AdminKind | SystemKind;
  item: string;
  /** null: the item did not exist. */
  config: unknown;
  change: string;
  actor_kind: string | null;
  actor: string | null;
  reason: string | null;
  /** The change in one sentence. */
  summary: string | null;
  restored_from: number | null;
  created_at: string;
  /** From the version before it. */
  diff: string;
  words: string[];
}

/**
 * Home Assistant's automations, scripts, helpers and dashboards, through the bridge's one config
 * service: no raw way to write. Every change passes the policy checkpoint (the config scope,
 * read-only, CONFIG_EDITING, allow/deny and exposure of the item and of every entity and action in
 * what is written), is shown as a diff first (dry_run), needs the person's confirmation (asked of a
 * client that can be asked; `confirm: true` otherwise) and is kept as a version.
 */
export interface HomeConfig {
  /** Whether changes are allowed at all (CONFIG_EDITING). */
  readonly editing: boolean;
  list(kind: ConfigKind): Promise<ConfigItemSummary[]>;
  get(kind: ConfigKind, id: string): Promise<ConfigItem>;
  trace(kind: 'automation' | 'script', id: string, runId?: string): Promise<ConfigExplanation>;
  change(request: ConfigChangeRequest): Promise<ConfigOutcome>;
  /** Versions, newest first: of one item, or the latest changes of all. */
  history(kind?: ConfigKind, id?: string, limit?: number): ConfigVersionInfo[];
  version(id: number): ConfigVersionInfo;
  /** Puts a kept version back (itself kept as a new version). */
  restore(version: number, opts?: { dry_run?: boolean; confirm?: boolean; reason?: string; preview_id?: string }): Promise<ConfigOutcome>;
}

/** Changes to Home Assistant as a whole (backups, updates, the core, apps): confirmed, never versioned. */
export type SystemKind = 'backup' | 'update' | 'core' | 'app';

/** What the admin part looks after: registry items, zones, integrations' state, repairs. */
export type AdminKind = 'area' | 'floor' | 'label' | 'device' | 'entity' | 'zone' | 'integration' | 'repair';

/**
 * A change to Home Assistant itself. `fields` by kind: area {name, aliases, icon, floor_id, labels};
 * floor {name, aliases, icon, level}; label {name, icon, color, description}; device {name_by_user,
 * area_id, labels, disabled}; entity {name, icon, aliases, area_id, labels, disabled, hidden,
 * exposed}; zone {name, latitude, longitude, radius, icon, passive}; integration {disabled};
 * repair {ignored}. Update changes the fields given and keeps the others.
 */
export interface AdminChangeRequest {
  kind: AdminKind;
  op: 'create' | 'update' | 'delete' | 'reload';
  /** The item's id (an area_id, a device id, an entity id, a zone id, a config entry id, domain/issue_id); none to create. */
  id?: string;
  fields?: Record<string, unknown>;
  dry_run?: boolean;
  confirm?: boolean;
  reason?: string;
  preview_id?: string;
}

/** One registry item, zone, integration or repair as the admin part shows it. */
export interface AdminItem {
  kind: AdminKind;
  id: string;
  name: string;
  /** The fields a change takes, as they are now. */
  fields: Record<string, unknown>;
  /** What else is worth knowing (an integration's state and why, a device's maker, a zone's being the home). */
  info?: Record<string, unknown>;
}

/** Home Assistant's health in one answer. */
export interface HealthReport {
  system: Record<string, Record<string, unknown>>;
  repairs: { domain: string; issue_id: string; severity: string; ignored: boolean; explanation: string; learn_more_url: string | null; created: string }[];
  /** The error log by integration, most lines first; each with its newest lines. */
  log: { integration: string; errors: number; warnings: number; count: number; newest: { level: string; when: string; message: string; source: string }[] }[];
  /** Integrations that are not running as they should (failed, retrying, disabled). */
  troubled: AdminItem[];
}

/** An update Home Assistant offers (an update.* entity). */
export interface UpdateInfo {
  entity_id: string;
  title: string;
  installed_version: string | null;
  latest_version: string | null;
  available: boolean;
  in_progress: boolean;
  skipped_version: string | null;
  release_summary: string | null;
  /** The release notes' link. */
  release_url: string | null;
  /** Home Assistant can install it. */
  can_install: boolean;
  /** Home Assistant makes a backup itself when installing it (otherwise the bridge makes one first). */
  backs_up: boolean;
  /** Full release notes can be read (releaseNotes). */
  has_release_notes: boolean;
}

/** An installed app (add-on), through the Supervisor. */
export interface AppStatus {
  slug: string;
  name: string;
  state: string;
  version: string;
  version_latest: string | null;
  update_available: boolean;
}

/**
 * A change to Home Assistant as a whole: a backup (name; homeassistant, apps, folders: what it
 * holds, default everything), installing an update (entity_id, version) after a fresh backup,
 * restarting or reloading the core, starting, stopping or restarting an app (app: its slug).
 * Never versioned (none can be put back); the long ones are followed to their end.
 */
export interface SystemChangeRequest {
  op: 'backup' | 'install' | 'restart_core' | 'reload_core' | 'start_app' | 'stop_app' | 'restart_app';
  entity_id?: string;
  version?: string;
  app?: string;
  name?: string;
  homeassistant?: boolean;
  apps?: string[];
  folders?: string[];
  dry_run?: boolean;
  confirm?: boolean;
  reason?: string;
  preview_id?: string;
}

/**
 * Looking after Home Assistant itself (the admin tools): registries, zones, health, integrations,
 * blueprints. Only while ADMIN_TOOLS is on and for callers with the `admin` scope; every change is
 * previewed (dry_run), confirmed through the same asking flow as config editing and, where Home
 * Assistant can take it back, kept as a version that `restore` puts back.
 */
export interface HomeAdmin {
  list(kind: AdminKind): Promise<AdminItem[]>;
  change(request: AdminChangeRequest): Promise<ConfigOutcome>;
  history(kind?: AdminKind, id?: string, limit?: number): ConfigVersionInfo[];
  restore(version: number, opts?: { dry_run?: boolean; confirm?: boolean; reason?: string; preview_id?: string }): Promise<ConfigOutcome>;
  health(): Promise<HealthReport>;
  /** Blueprints Home Assistant has, by path. */
  blueprints(domain: 'automation' | 'script'): Promise<{ path: string; name: string; description: string | null; inputs: Record<string, unknown> }[]>;
  /** Updates Home Assistant offers, available ones first. */
  updates(): UpdateInfo[];
  /** An update's full release notes (Markdown; null when it has none: its release_url and summary say it). */
  releaseNotes(entityId: string): Promise<{ update: UpdateInfo; notes: string | null }>;
  /** Installed apps (inside the add-on only). */
  apps(): Promise<AppStatus[]>;
  /** The last restart's measured time away, and the last reload's. */
  downtime(): { restart: { ms: number; at: string } | null; reload_ms: number | null; away_now: boolean };
  /** A change to Home Assistant as a whole, confirmed like the others; a long one (backup, update, restart) is followed to its end (a task, where the client takes one). */
  system(request: SystemChangeRequest): Promise<ConfigOutcome & { result?: Record<string, unknown> }>;
}

/** Log levels a client filters by (MCP's, from syslog). */
export type ClientLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** One question for the client to answer: MCP's input requests (elicitation, sampling, roots). */
export type InputRequest =
  | { method: 'elicitation/create'; params: { message: string; requestedSchema: Record<string, unknown>; [k: string]: unknown } }
  | {
      method: 'sampling/createMessage';
      params: { messages: { role: 'user' | 'assistant'; content: Record<string, unknown> }[]; maxTokens: number; [k: string]: unknown };
    }
  | { method: 'roots/list'; params?: Record<string, never> };

/** What a client can be asked, as it declared it. */
export type AskKind = 'elicitation' | 'sampling' | 'roots';

/** One option of `client.choose`. */
export interface Choice {
  value: string;
  /** What the person reads ("Desk lamp (Office)"). */
  label: string;
}

/**
 * The calling client, for what goes beyond answering: progress, logs, and questions to the person
 * (elicitation) or the client's model (sampling). A question does not hold the call open: the
 * bridge answers "input required" (MCP 2026-07-28; on a 2025 session it asks the client over the
 * session), and when the client comes back with the answer the tool runs again from the start, and
 * this time the same question returns the answer at once. So ask before you act, keep a tool's
 * steps before a question free of changes, and never swallow what a question throws (it is how the
 * question leaves the tool). Answers count only for questions the bridge asked in this call; the
 * request state that carries them is sealed and used once.
 *
 * A caller that cannot be asked (the REST transport, a client without the capability) answers
 * `can()` false; asking it anyway is refused (UNSUPPORTED_BY_CLIENT over REST, MCP's missing-capability
 * error over MCP).
 */
export interface ClientChannel {
  progress(progress: number, total?: number, message?: string): Promise<void>;
  log(level: ClientLogLevel, data: unknown): Promise<void>;
  /** Whether the client declared it can be asked this way. */
  can(kind: AskKind): boolean;
  /** Asks several questions at once, each under its own key; resolves with every answer (MCP's bare results). */
  ask(questions: Record<string, InputRequest>): Promise<Record<string, unknown>>;
  /** Asks the person through the client (an MCP elicitation form); `key` names the question (default "elicit"). */
  elicit(params: { message: string; requestedSchema: Record<string, unknown> }, key?: string): Promise<ElicitResult>;
  /** Asks the client's model for a completion (MCP sampling). */
  sample(
    params: { messages: { role: 'user' | 'assistant'; content: Record<string, unknown> }[]; maxTokens: number; [k: string]: unknown },
    key?: string,
  ): Promise<Record<string, unknown>>;
  /** The client's roots (MCP roots/list). */
  roots(key?: string): Promise<{ roots: { uri: string; name?: string }[] }>;
  /** A yes/no question to the person; true only on an explicit yes. */
  confirm(question: string): Promise<boolean>;
  /** The person picks one option; undefined when they decline. */
  choose(question: string, options: readonly Choice[]): Promise<string | undefined>;
  /**
   * Says the rest of this call takes long (a backup, an update, a restart, a vacuum's run). For a
   * tool declaring `task` support, a client with MCP's tasks extension is answered with a task at
   * once and follows the call there (questions asked after this are asked on the task): answers
   * true. Any other caller keeps waiting for the result, with progress: answers false, so a tool
   * may answer such a caller sooner (a cover once it moves, rather than once it arrived).
   */
  background(): boolean;
  /** Aborted when the caller cancels the call (MCP tasks/cancel): stop what Home Assistant can stop, then return. */
  signal: AbortSignal;
}

/** The plugin's own log lines (the bridge's log, tagged with the plugin's name). */
export interface PluginLog {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/** Who is calling, as far as a plugin needs to know: for wording and records, never for deciding. */
export interface CallerInfo {
  /** A bridge user, an assistant's token, an OAuth client, a Home Assistant user through ingress, Home Assistant itself through its link (discovery), or the local stdio user. */
  kind: 'user' | 'token' | 'oauth' | 'ingress' | 'discovery' | 'local';
  name: string;
}

/** The parts of the context a plugin declares in `needs`. */
export type Need = 'home' | 'scenes' | 'groups' | 'commands' | 'config' | 'admin';

/**
 * What a tool, prompt or resource is called with. `home`, `scenes`, `groups`, `commands` and
 * `config` are there when the plugin declared them in `needs`; reading an undeclared one throws, saying so.
 */
export interface PluginContext {
  home: Home;
  scenes: Scenes;
  groups: Groups;
  commands: Commands;
  /** Home Assistant's automations, scripts, helpers and dashboards. */
  config: HomeConfig;
  /** Home Assistant itself: registries, zones, health, integrations, blueprints (admin tools only). */
  admin: HomeAdmin;
  log: PluginLog;
  client: ClientChannel;
  caller: CallerInfo;
}

/** What setup() gets: the plugin's log, and a way to say its tools changed. */
export interface LifecycleContext {
  log: PluginLog;
  /** Call when what `available()` answers may have changed for a reason the home does not show: MCP clients are told the tool list changed. */
  toolsChanged(): void;
}
