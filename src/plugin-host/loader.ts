// Finds and loads plugins at start, in two steps: readPlugins imports and checks the built-in ones
// compiled beside this build (dist/plugins/), then the user's own from PLUGINS_DIR (.js/.mjs files,
// folders with an index.js/.mjs/.ts), with their words, and needs none of the bridge's parts (so the
// command service can be made with those words); bindPlugins then lends each the parts. Each is
// checked; a plugin that throws on import or in setup, has a bad definition, asks for a bridge
// version this is not, asks for what plugins may not have, or repeats a plugin's name is logged with
// the reason and skipped; the rest load. A tool or prompt name an earlier plugin holds is offered as
// `<plugin>__<name>` (a copy of a built-in loads beside it, and neither hides the other); a resource
// URI an earlier plugin serves stays with it. Both are said in the log and in the report.
// Plugins written before the SDK (no `bridge` range) still load, with a deprecation warning.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as v from 'valibot';
import type { Principal } from '../auth/tokens.js';
import type { Logger } from '../log.js';
import { jsonSchemaOf, validate } from '../validation.js';
import { homeAssistantSchemaProblems } from './ha-schema.js';
import { jsonSchemaOfInput } from '../plugin-sdk/json-input.js';
import type { ClientChannel, Need, PluginContext, PluginLog } from '../plugin-sdk/types.js';
import type { PluginDefinition, PromptDefinition, ResourceDefinition, ToolDefinition, ToolResult, Words } from '../plugin-sdk/index.js';
import { NO_CLIENT } from './client.js';
import { pluginContext, pluginLog, type PluginParts } from './build-context.js';
import { LEGACY_NEEDS, legacyServices, type LegacyNeed } from './legacy-services.js';
import { pluginWordsOf } from '../nlp/language.js';
import { parseRange, satisfies } from './semver.js';
import { strictInput } from './strict-input.js';

export const PLUGIN_NAME = /^[a-z][a-z0-9_]{0,63}$/;
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const NEEDS: readonly Need[] = ['home', 'scenes', 'groups', 'commands', 'config', 'admin'];

const isSchema = (x: unknown) => typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'schema';
const isObjectSchema = (x: unknown) => isSchema(x) && ['object', 'strict_object', 'loose_object'].includes(String((x as { type?: unknown }).type));

const toolShape = v.object({
  name: v.pipe(v.string(), v.regex(TOOL_NAME, 'must be 1 to 64 letters, digits, _ or -')),
  title: v.pipe(v.string(), v.nonEmpty()),
  description: v.pipe(v.string(), v.nonEmpty()),
  input: v.custom(isObjectSchema, 'must be a valibot object schema (v.object({...}))'),
  output: v.optional(v.custom(isSchema, 'must be a valibot schema')),
  core: v.optional(v.boolean('must be true or false')),
  // A list, never a string: `includes` on a string would match parts of a name.
  readOperations: v.optional(v.array(v.pipe(v.string(), v.nonEmpty()), 'must be a list of operation names')),
  run: v.function('must be a function'),
});

const wordsShape = v.union(
  [v.instance(URL), v.record(v.string(), v.record(v.string(), v.unknown()))],
  'must be {<language>: {...}} or the URL of a folder of <language>.json files',
);

const pluginShape = v.object({
  name: v.pipe(v.string(), v.regex(PLUGIN_NAME, 'must be lower snake case, starting with a letter, at most 64 characters')),
  version: v.pipe(v.string(), v.nonEmpty()),
  description: v.optional(v.string()),
  bridge: v.optional(
    v.pipe(
      v.string(),
      v.check((r) => parseRange(r) !== undefined, 'must be a semver range such as ^0.2.0'),
    ),
  ),
  needs: v.optional(v.array(v.string())),
  domains: v.optional(v.array(v.string())),
  setup: v.optional(v.function('must be a function')),
  available: v.optional(v.function('must be a function')),
  close: v.optional(v.function('must be a function')),
  tools: v.optional(v.array(toolShape)),
  prompts: v.optional(
    v.array(
      v.object({
        name: v.pipe(v.string(), v.regex(TOOL_NAME, 'must be 1 to 64 letters, digits, _ or -')),
        description: v.string(),
        get: v.function('must be a function'),
      }),
    ),
  ),
  resources: v.optional(
    v.array(
      v.object({
        uri: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/, 'must be a URI such as home://areas')),
        name: v.string(),
        read: v.function('must be a function'),
      }),
    ),
  ),
  words: v.optional(wordsShape),
  vocabulary: v.optional(v.record(v.string(), v.record(v.string(), v.unknown()))),
});

/** A tool bound to its plugin; the tool registry checks its arguments and calls `run`. */
export interface BoundTool {
  plugin: string;
  definition: ToolDefinition;
  /** Runs the tool on arguments already checked against its input schema. */
  run(args: unknown, principal?: Principal, client?: ClientChannel): Promise<ToolResult>;
  /** Whether its plugin's tools are offered for the home as it is now; `domains` gives the domains callers see entities of (computed once per list). */
  available(domains: () => ReadonlySet<string>): boolean;
  /** Its plugin's log. */
  log: Logger;
}

/** A plugin's prompts and resources, bound to it like its tools. */
export interface Bound<D> {
  plugin: string;
  definition: D;
  context(principal?: Principal, client?: ClientChannel): PluginContext;
}

export interface LoadedPlugin {
  name: string;
  version: string;
  source: 'builtin' | 'user';
  path: string;
  definition: PluginDefinition;
  /** Written before the SDK: loads with a deprecation warning. */
  legacy: boolean;
  /** The plugin's words for the command parser, per language. */
  words: Words;
  tools: BoundTool[];
  prompts: Bound<PromptDefinition>[];
  resources: Bound<ResourceDefinition>[];
}

export interface PluginReport {
  loaded: {
    name: string;
    version: string;
    source: 'builtin' | 'user';
    path: string;
    tools: string[];
    deprecated?: string;
    renamed?: Record<string, string>;
    withheld?: string[];
  }[];
  failed: { path: string; name?: string; reason: string }[];
  disabled: string[];
}

/** A plugin read and checked, with its words and the names it is offered under; not yet lent any part. */
export interface ReadPlugin {
  name: string;
  version: string;
  source: 'builtin' | 'user';
  path: string;
  definition: PluginDefinition;
  legacy: boolean;
  /** What it asked for (`needs`). */
  needs: readonly string[];
  /** The plugin's words for the command parser, per language. */
  words: Words;
  renamed: Record<'tool' | 'prompt', Map<string, string>>;
  withheld: string[];
  log: Logger;
}

export interface ReadOptions {
  /** Built-in plugins: folders with an index module. Default: the plugins compiled beside this build. */
  builtinDir?: string;
  /** The user's plugins (PLUGINS_DIR). */
  userDir?: string;
  disabled: readonly string[];
  /** The bridge's version, matched against each plugin's `bridge` range. */
  version: string;
  log: Logger;
  /** A plugin said its tools changed (LifecycleContext.toolsChanged). */
  toolsChanged?: () => void;
}

/** dist/src/plugin-host/loader.js -> dist/plugins (and src/plugin-host/loader.ts -> plugins/ under the test runner). */
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
  register(hook, { data: { api: new URL('../plugin-sdk/index.js', import.meta.url).href } });
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/** A plugin's words: given inline, or read from a folder of `<language>.json` files. */
function readWords(words: Words | URL | undefined): Words {
  if (!(words instanceof URL)) return words ?? {};
  const dir = fileURLToPath(words);
  const out: Words = {};
  for (const file of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const m = /^([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.json$/.exec(file);
    if (m) out[m[1]!] = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
  }
  return out;
}

/** Imports, checks and sets up every plugin, and reads its words; the report says what loaded and why the rest did not. */
export async function readPlugins(opts: ReadOptions): Promise<{ plugins: ReadPlugin[]; report: PluginReport }> {
  const { log } = opts;
  const report: PluginReport = { loaded: [], failed: [], disabled: [] };
  const plugins: ReadPlugin[] = [];
  const owners: Owners = { tool: new Map(), prompt: new Map(), resource: new Map() };
  const candidates = [
    ...entries(opts.builtinDir ?? BUILTIN_DIR, false).map((path) => ({ path, source: 'builtin' as const })),
    ...(opts.userDir ? entries(opts.userDir, true).map((path) => ({ path, source: 'user' as const })) : []),
  ];
  if (opts.userDir) {
    // Said, not warned: the add-on's default folder is there only once its user makes it for a plugin.
    if (!existsSync(opts.userDir)) log.info({ dir: opts.userDir }, `PLUGINS_DIR ${opts.userDir} does not exist; no user plugins loaded`);
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
    const checked = validate(pluginShape, exported);
    if (!checked.ok) {
      const name = typeof (exported as { name?: unknown })?.name === 'string' ? (exported as { name: string }).name : undefined;
      fail(`its definition is not valid: ${checked.issues.map((i) => `${i.field ?? 'plugin'}: ${i.message}`).join('; ')}`, name);
      continue;
    }
    const def = exported as PluginDefinition & { vocabulary?: Words };
    if (opts.disabled.includes(def.name)) {
      report.disabled.push(def.name);
      log.info({ plugin: def.name }, `plugin ${def.name} is disabled (PLUGINS_DISABLED)`);
      continue;
    }
    const legacy = def.bridge === undefined;
    const needs = def.needs ?? [];
    const allowed: readonly string[] = legacy ? LEGACY_NEEDS : NEEDS;
    const refused = needs.filter((n) => !allowed.includes(n));
    if (refused.length) {
      fail(
        `it asks for ${refused.join(', ')}, which plugins cannot have (only ${allowed.join(', ')}: nothing that holds secrets, mints tokens or touches the store)`,
        def.name,
      );
      continue;
    }
    if (!legacy && !satisfies(opts.version, def.bridge)) {
      fail(`it works with bridge ${def.bridge}, and this bridge is ${opts.version}`, def.name);
      continue;
    }
    if (plugins.some((p) => p.name === def.name)) {
      fail(`another plugin is named ${def.name}`, def.name);
      continue;
    }
    const naming = nameAgainst(def, owners);
    if (typeof naming === 'string') {
      fail(naming, def.name);
      continue;
    }
    const { renamed, withheld } = naming;
    let words: Words;
    try {
      words = readWords(def.words ?? def.vocabulary);
      // The same shape the parser reads, checked here so a bad file names its plugin and language.
      for (const [code, w] of Object.entries(words)) words[code] = pluginWordsOf(w, `words ${code}:`) as Record<string, unknown>;
    } catch (err) {
      fail(`its words could not be read: ${reasonOf(err)}`, def.name);
      continue;
    }
    const pluginLogger = log.child({ plugin: def.name });
    const plog = pluginLog(pluginLogger);
    if (def.setup) {
      try {
        await def.setup({ log: plog, toolsChanged: () => opts.toolsChanged?.() });
      } catch (err) {
        fail(`its setup failed: ${reasonOf(err)}`, def.name);
        continue;
      }
    }
    const deprecated = legacy ? deprecation(def) : undefined;
    if (deprecated) log.warn({ plugin: def.name, path }, `plugin ${def.name} uses the plugin API before 0.2: ${deprecated}`);
    const names = offered(def, renamed, withheld);
    claim(def.name, names.tools, names.prompts, names.resources, owners);
    warnUnconvertible(def, renamed, pluginLogger);
    const renames = Object.fromEntries([...renamed.tool, ...renamed.prompt]);
    for (const kind of ['tool', 'prompt'] as const) {
      for (const [was, now] of renamed[kind])
        log.warn(
          { plugin: def.name, [kind]: was, offered_as: now },
          `plugin ${def.name}: the ${kind} name ${was} is taken by the plugin ${owners[kind].get(was)}, so it is offered as ${now}`,
        );
    }
    for (const uri of withheld)
      log.warn(
        { plugin: def.name, uri },
        `plugin ${def.name}: the resource ${uri} is served by the plugin ${owners.resource.get(uri)}, so this plugin's is not offered`,
      );
    plugins.push({ name: def.name, version: def.version, source, path, definition: def, legacy, needs, words, renamed, withheld, log: pluginLogger });
    report.loaded.push({
      name: def.name,
      version: def.version,
      source,
      path,
      tools: names.tools,
      ...(deprecated ? { deprecated } : {}),
      ...(Object.keys(renames).length ? { renamed: renames } : {}),
      ...(withheld.length ? { withheld } : {}),
    });
  }
  log.info(
    { loaded: report.loaded.map((p) => p.name), failed: report.failed.length, disabled: report.disabled },
    `plugins: ${report.loaded.length} loaded, ${report.failed.length} skipped, ${report.disabled.length} disabled`,
  );
  return { plugins, report };
}

/** The names a plugin's tools, prompts and resources are offered under. */
function offered(def: PluginDefinition, renamed: ReadPlugin['renamed'], withheld: readonly string[]) {
  return {
    tools: (def.tools ?? []).map((t) => renamed.tool.get(t.name) ?? t.name),
    prompts: (def.prompts ?? []).map((p) => renamed.prompt.get(p.name) ?? p.name),
    resources: (def.resources ?? []).map((r) => r.uri).filter((uri) => !withheld.includes(uri)),
  };
}

/** Lends the plugins read the bridge's parts: their tools, prompts and resources, each run with a context for its caller. */
export function bindPlugins(read: readonly ReadPlugin[], parts: PluginParts): LoadedPlugin[] {
  return read.map((p) => {
    const { definition: def, legacy, renamed, withheld } = p;
    const plog = pluginLog(p.log);
    const sdkNeeds = (legacy ? NEEDS : p.needs) as readonly Need[];
    const context = (principal?: Principal, client: ClientChannel = NO_CLIENT): PluginContext => {
      const ctx = pluginContext(parts, { name: def.name, needs: sdkNeeds, log: plog }, principal, client);
      return legacy ? Object.assign(ctx, { services: legacyServices(parts, p.needs as LegacyNeed[], principal, ctx.home), log: p.log }) : ctx;
    };
    const available = availability(def, parts, plog);
    const prompts = (def.prompts ?? []).map((pr) => ({
      plugin: def.name,
      definition: renamed.prompt.has(pr.name) ? { ...pr, name: renamed.prompt.get(pr.name)! } : pr,
      context,
    }));
    const resources = (def.resources ?? []).filter((r) => !withheld.includes(r.uri)).map((definition) => ({ plugin: def.name, definition, context }));
    const tools = (def.tools ?? []).map((t): BoundTool => {
      const definition = { ...t, name: renamed.tool.get(t.name) ?? t.name, input: strictInput(t.input) } as ToolDefinition;
      return {
        plugin: def.name,
        definition,
        log: p.log,
        available,
        run: async (args, principal, client) => t.run(args as never, context(principal, client)),
      };
    });
    return { name: p.name, version: p.version, source: p.source, path: p.path, definition: def, legacy, words: p.words, tools, prompts, resources };
  });
}

/** Whether a plugin's tools are offered now: its own rule, else whether any of its domains has a visible entity. */
function availability(def: PluginDefinition, parts: PluginParts, log: PluginLog): (seen: () => ReadonlySet<string>) => boolean {
  if (def.available) {
    const home = pluginContext(parts, { name: def.name, needs: ['home'], log }, undefined, NO_CLIENT).home;
    return () => {
      try {
        return def.available!(home) === true;
      } catch (err) {
        log.warn('available() failed; its tools are offered', { err: reasonOf(err) });
        return true;
      }
    };
  }
  const domains = def.domains ?? [];
  if (!domains.length) return () => true;
  return (seen) => domains.some((d) => seen().has(d));
}

/** Home Assistant's `mcp` integration refuses a whole server when one tool's schema does not convert: say which, at once. */
function warnUnconvertible(def: PluginDefinition, renamed: ReadPlugin['renamed'], log: Logger): void {
  for (const t of def.tools ?? []) {
    const name = renamed.tool.get(t.name) ?? t.name;
    const input = strictInput(t.input);
    let problems: string[];
    try {
      problems = homeAssistantSchemaProblems(jsonSchemaOfInput(input) ?? jsonSchemaOf(input));
    } catch {
      continue;
    }
    if (problems.length)
      log.warn(
        { tool: name, problems },
        `tool ${name}: Home Assistant's mcp integration cannot convert its input schema (${problems[0]}); it will refuse this whole server`,
      );
  }
}

/** What an old plugin should change, in words (it keeps loading for this release). */
function deprecation(def: PluginDefinition & { vocabulary?: unknown }): string {
  const changes = [
    'declare the bridge versions it works with (bridge: "^0.2.0")',
    'declare needs from home, scenes, groups, commands and use ctx.home instead of services',
  ];
  if (def.vocabulary !== undefined) changes.push('rename vocabulary to words');
  return `${changes.join('; ')}. It loads for now; a later release will skip it.`;
}

/** Runs every loaded plugin's close(), in reverse order; a failing one is logged and the rest still close. */
export async function closePlugins(plugins: readonly Pick<LoadedPlugin, 'name' | 'definition'>[], log: Logger): Promise<void> {
  for (const p of [...plugins].reverse()) {
    try {
      await p.definition.close?.();
    } catch (err) {
      log.warn({ plugin: p.name, err: reasonOf(err) }, `plugin ${p.name} failed to close`);
    }
  }
}

/** Who holds each tool name, prompt name and resource URI, so no two plugins share one. */
type Owners = Record<'tool' | 'prompt' | 'resource', Map<string, string>>;

const namesOf = (def: PluginDefinition) => ({
  tool: (def.tools ?? []).map((t) => t.name),
  prompt: (def.prompts ?? []).map((p) => p.name),
  resource: (def.resources ?? []).map((r) => r.uri),
});

/**
 * The names a plugin's offers get beside those loaded before it: a name repeated inside the plugin
 * is a fault (its reason returned); a tool or prompt name another plugin holds becomes
 * `<plugin>__<name>` (a fault when that too is taken or longer than a tool name may be); a resource
 * URI another plugin serves is withheld, since the plugin's own tools and pages link to it by that URI.
 */
function nameAgainst(def: PluginDefinition, owners: Owners): string | { renamed: Record<'tool' | 'prompt', Map<string, string>>; withheld: string[] } {
  const renamed = { tool: new Map<string, string>(), prompt: new Map<string, string>() };
  const withheld: string[] = [];
  for (const [kind, names] of Object.entries(namesOf(def)) as [keyof Owners, string[]][]) {
    for (const [i, name] of names.entries()) {
      if (names.indexOf(name) !== i) return `the ${kind} name ${name} is taken twice in this plugin`;
      if (!owners[kind].has(name)) continue;
      if (kind === 'resource') {
        withheld.push(name);
        continue;
      }
      const offered = `${def.name}__${name}`;
      if (!TOOL_NAME.test(offered))
        return `the ${kind} name ${name} is taken by the plugin ${owners[kind].get(name)}, and ${offered} is longer than 64 characters`;
      if (owners[kind].has(offered) || names.includes(offered))
        return `the ${kind} name ${name} is taken by the plugin ${owners[kind].get(name)}, and so is ${offered}`;
      renamed[kind].set(name, offered);
    }
  }
  return { renamed, withheld };
}

function claim(plugin: string, tools: string[], prompts: string[], resources: string[], owners: Owners): void {
  for (const name of tools) owners.tool.set(name, plugin);
  for (const name of prompts) owners.prompt.set(name, plugin);
  for (const uri of resources) owners.resource.set(uri, plugin);
}
