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
import type { Services } from '../services.js';
import { validate } from '../validation.js';
import type { PluginDefinition, ServiceName, ToolDefinition, ToolResult } from './api.js';

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
    prompts: v.optional(v.array(v.object({ name: v.string(), description: v.string() }))),
    resources: v.optional(v.array(v.object({ uri: v.string(), name: v.string() }))),
    vocabulary: v.optional(v.record(v.string(), v.record(v.string(), v.unknown()))),
  });

/** A tool bound to its plugin's services part; the tool registry checks its arguments and calls `run`. */
export interface BoundTool {
  plugin: string;
  definition: ToolDefinition;
  /** Runs the tool on arguments already checked against its input schema. */
  run(args: unknown, principal?: Principal): Promise<ToolResult>;
}

export interface LoadedPlugin {
  name: string;
  version: string;
  source: 'builtin' | 'user';
  path: string;
  definition: PluginDefinition<ServiceName>;
  tools: BoundTool[];
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
  services: Omit<Services, 'plugins' | 'tools'>;
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
  const toolOwners = new Map<string, string>();
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
    const clash = (def.tools ?? []).find((t) => toolOwners.has(t.name) || (def.tools ?? []).filter((u) => u.name === t.name).length > 1);
    if (clash) {
      fail(`the tool name ${clash.name} is taken${toolOwners.has(clash.name) ? ` by the plugin ${toolOwners.get(clash.name)}` : ' twice in this plugin'}`, def.name);
      continue;
    }
    const part = Object.fromEntries((def.needs ?? []).map((k) => [k, services[k]])) as Pick<Services, ServiceName>;
    const tools = (def.tools ?? []).map((t): BoundTool => ({
      plugin: def.name,
      definition: t as ToolDefinition,
      run: async (args, principal) => t.run(args, { services: part, principal, log: log.child({ plugin: def.name, tool: t.name }) }),
    }));
    for (const t of tools) toolOwners.set(t.definition.name, def.name);
    plugins.push({ name: def.name, version: def.version, source, path, definition: def, tools });
    report.loaded.push({ name: def.name, version: def.version, source, path, tools: tools.map((t) => t.definition.name) });
  }
  log.info({ loaded: report.loaded.map((p) => p.name), failed: report.failed.length, disabled: report.disabled }, `plugins: ${report.loaded.length} loaded, ${report.failed.length} skipped, ${report.disabled.length} disabled`);
  return { plugins, report };
}
