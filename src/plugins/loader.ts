// Finds and loads plugins at start: the built-in ones compiled beside this build (dist/plugins/),
// then the user's own from PLUGINS_DIR (plain .js/.mjs). Each is checked; a plugin that throws on
// import, has a bad definition or repeats a name is logged with the reason and skipped, and the
// rest load. A loaded plugin's tools are bound to the part of the services it declared.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as v from 'valibot';
import type { Principal } from '../auth/tokens.js';
import type { Logger } from '../log.js';
import type { Catalogued, Services } from '../services.js';
import { jsonSchemaOf, validate } from '../validation.js';
import { homeAssistantSchemaProblems } from '../tools/ha-schema.js';
import type { ClientChannel, PluginDefinition, PromptDefinition, ResourceDefinition, ServiceName, ToolContext, ToolDefinition, ToolResult } from './api.js';
import { NO_CLIENT } from './client.js';

export const PLUGIN_NAME = /^[a-z][a-z0-9_]{0,63}$/;
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const isSchema = (x: unknown) => typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'schema';

const toolShape = v.object({
  name: v.pipe(v.string(), v.regex(TOOL_NAME, 'must be 1 to 64 letters, digits, _ or -')),
  title: v.pipe(v.string(), v.nonEmpty()),
  description: v.pipe(v.string(), v.nonEmpty()),
  input: v.custom(isSchema, 'must be a valibot schema'),
  output: v.optional(v.custom(isSchema, 'must be a valibot schema')),
  run: v.function('must be a function'),
});

const pluginShape = (serviceNames: readonly string[]) =>
  v.object({
    name: v.pipe(v.string(), v.regex(PLUGIN_NAME, 'must be lower snake case, starting with a letter, at most 64 characters')),
    version: v.pipe(v.string(), v.nonEmpty()),
    description: v.optional(v.string()),
    needs: v.optional(v.array(v.picklist(serviceNames, `each must be one of ${serviceNames.join(', ')}`))),
    domains: v.optional(v.array(v.string())),
    tools: v.optional(v.array(toolShape)),
    prompts: v.optional(v.array(v.object({ name: v.pipe(v.string(), v.regex(TOOL_NAME, 'must be 1 to 64 letters, digits, _ or -')), description: v.string(), get: v.function('must be a function') }))),
    resources: v.optional(v.array(v.object({ uri: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/, 'must be a URI such as home://areas')), name: v.string(), read: v.function('must be a function') }))),
    vocabulary: v.optional(v.record(v.string(), v.record(v.string(), v.unknown()))),
  });

/** A tool bound to its plugin's services part; the tool registry checks its arguments and calls `run`. */
export interface BoundTool {
  plugin: string;
  definition: ToolDefinition;
  /** Runs the tool on arguments already checked against its input schema. */
  run(args: unknown, principal?: Principal, client?: ClientChannel): Promise<ToolResult>;
  /** Its plugin's log. */
  log: Logger;
}

/** A plugin's prompts and resources, bound to its services part like its tools. */
export interface Bound<D> {
  plugin: string;
  definition: D;
  context(principal?: Principal, client?: ClientChannel): ToolContext<ServiceName>;
}

export interface LoadedPlugin {
  name: string;
  version: string;
  source: 'builtin' | 'user';
  path: string;
  definition: PluginDefinition<ServiceName>;
  tools: BoundTool[];
  prompts: Bound<PromptDefinition<ServiceName>>[];
  resources: Bound<ResourceDefinition<ServiceName>>[];
}

export interface PluginReport {
  loaded: { name: string; version: string; source: 'builtin' | 'user'; path: string; tools: string[] }[];
  failed: { path: string; name?: string; reason: string }[];
  disabled: string[];
}

export interface LoadOptions {
  /** Built-in plugins: folders with an index module. Default: the plugins compiled beside this build. */
  builtinDir?: string;
  /** The user's plugins (PLUGINS_DIR). */
  userDir?: string;
  disabled: readonly string[];
  services: Omit<Services, Catalogued>;
  log: Logger;
}

/** dist/src/plugins/loader.js -> dist/plugins (and src/plugins/loader.ts -> plugins/ under the test runner). */
export const BUILTIN_DIR = fileURLToPath(new URL('../../plugins/', import.meta.url));

const INDEX = ['index.js', 'index.mjs', 'index.ts'];

/** Entry modules in a folder: `name/index.*` folders, and with `files`, loose .js/.mjs files too. */
function entries(dir: string, files: boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const item of readdirSync(dir).sort()) {
    const path = join(dir, item);
    if (statSync(path).isDirectory()) {
      const index = INDEX.map((i) => join(path, i)).find(existsSync);
      if (index) out.push(index);
    } else if (files && /\.(m?js)$/.test(item)) {
      out.push(path);
    }
  }
  return out;
}

let hookRegistered = false;
/** Lets plugins outside this package import `home-mcp-bridge/plugin` (compiled builds only). */
function registerApiHook(): void {
  if (hookRegistered) return;
  hookRegistered = true;
  const hook = new URL('./resolve-hook.js', import.meta.url);
  if (!existsSync(fileURLToPath(hook))) return;
  register(hook, { data: { api: new URL('./api.js', import.meta.url).href } });
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

export async function loadPlugins(opts: LoadOptions): Promise<{ plugins: LoadedPlugin[]; report: PluginReport }> {
  const { services, log } = opts;
  const report: PluginReport = { loaded: [], failed: [], disabled: [] };
  const plugins: LoadedPlugin[] = [];
  const owners: Owners = { tool: new Map(), prompt: new Map(), resource: new Map() };
  const shape = pluginShape(Object.keys(services));
  const candidates = [
    ...entries(opts.builtinDir ?? BUILTIN_DIR, false).map((path) => ({ path, source: 'builtin' as const })),
    ...(opts.userDir ? entries(opts.userDir, true).map((path) => ({ path, source: 'user' as const })) : []),
  ];
  if (opts.userDir) {
    if (!existsSync(opts.userDir)) log.warn({ dir: opts.userDir }, `PLUGINS_DIR ${opts.userDir} does not exist; no user plugins loaded`);
    registerApiHook();
  }

  for (const { path, source } of candidates) {
    const fail = (reason: string, name?: string) => {
      report.failed.push({ path, ...(name ? { name } : {}), reason });
      log.warn({ plugin: name ?? basename(path), path, reason }, `plugin skipped: ${reason}`);
    };
    let exported: unknown;
    try {
      const mod = (await import(pathToFileURL(path).href)) as { default?: unknown; plugin?: unknown };
      exported = mod.default ?? mod.plugin;
    } catch (err) {
      fail(`it failed to load: ${reasonOf(err)}`);
      continue;
    }
    const checked = validate(shape, exported);
    if (!checked.ok) {
      const name = typeof (exported as { name?: unknown })?.name === 'string' ? (exported as { name: string }).name : undefined;
      fail(`its definition is not valid: ${checked.issues.map((i) => `${i.field ?? 'plugin'}: ${i.message}`).join('; ')}`, name);
      continue;
    }
    const def = exported as PluginDefinition<ServiceName>;
    if (opts.disabled.includes(def.name)) {
      report.disabled.push(def.name);
      log.info({ plugin: def.name }, `plugin ${def.name} is disabled (PLUGINS_DISABLED)`);
      continue;
    }
    if (plugins.some((p) => p.name === def.name)) {
      fail(`another plugin is named ${def.name}`, def.name);
      continue;
    }
    const clash = firstClash(def, owners);
    if (clash) {
      fail(clash, def.name);
      continue;
    }
    const part = Object.fromEntries((def.needs ?? []).map((k) => [k, services[k]])) as Pick<Services, ServiceName>;
    const pluginLog = log.child({ plugin: def.name });
    const context = (principal?: Principal, client: ClientChannel = NO_CLIENT): ToolContext<ServiceName> => ({ services: part, principal, log: pluginLog, client });
    const tools = (def.tools ?? []).map((t): BoundTool => ({
      plugin: def.name,
      definition: t as ToolDefinition,
      log: pluginLog,
      run: async (args, principal, client) => t.run(args, context(principal, client)),
    }));
    claim(def, owners);
    warnUnconvertible(tools, pluginLog);
    const prompts = (def.prompts ?? []).map((definition) => ({ plugin: def.name, definition, context }));
    const resources = (def.resources ?? []).map((definition) => ({ plugin: def.name, definition, context }));
    plugins.push({ name: def.name, version: def.version, source, path, definition: def, tools, prompts, resources });
    report.loaded.push({ name: def.name, version: def.version, source, path, tools: tools.map((t) => t.definition.name) });
  }
  log.info({ loaded: report.loaded.map((p) => p.name), failed: report.failed.length, disabled: report.disabled }, `plugins: ${report.loaded.length} loaded, ${report.failed.length} skipped, ${report.disabled.length} disabled`);
  return { plugins, report };
}

/** Home Assistant's `mcp` integration refuses a whole server when one tool's schema does not convert: say which, at once. */
function warnUnconvertible(tools: BoundTool[], log: Logger): void {
  for (const t of tools) {
    let problems: string[];
    try {
      problems = homeAssistantSchemaProblems(jsonSchemaOf(t.definition.input));
    } catch {
      continue;
    }
    if (problems.length) log.warn({ tool: t.definition.name, problems }, `tool ${t.definition.name}: Home Assistant's mcp integration cannot convert its input schema (${problems[0]}); it will refuse this whole server`);
  }
}

/** Who holds each tool name, prompt name and resource URI, so no two plugins share one. */
type Owners = Record<'tool' | 'prompt' | 'resource', Map<string, string>>;

const namesOf = (def: PluginDefinition<ServiceName>) => ({
  tool: (def.tools ?? []).map((t) => t.name),
  prompt: (def.prompts ?? []).map((p) => p.name),
  resource: (def.resources ?? []).map((r) => r.uri),
});

function firstClash(def: PluginDefinition<ServiceName>, owners: Owners): string | undefined {
  for (const [kind, names] of Object.entries(namesOf(def)) as [keyof Owners, string[]][]) {
    for (const [i, name] of names.entries()) {
      if (owners[kind].has(name)) return `the ${kind} name ${name} is taken by the plugin ${owners[kind].get(name)}`;
      if (names.indexOf(name) !== i) return `the ${kind} name ${name} is taken twice in this plugin`;
    }
  }
  return undefined;
}

function claim(def: PluginDefinition<ServiceName>, owners: Owners): void {
  for (const [kind, names] of Object.entries(namesOf(def)) as [keyof Owners, string[]][]) for (const name of names) owners[kind].set(name, def.name);
}
