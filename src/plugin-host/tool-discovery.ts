// What tools/list shows one caller, within the budget an assistant's context allows (issue 35):
// every tool the caller may use when they all fit; otherwise the tools plugins mark `core` (and
// those only an MCP App calls), plus
// `find_tools` (the other tools' full definitions, by name or words) and `call_tool` (calls one by
// name, for clients that only call what tools/list showed). Both answer from the registry's own
// listFor, so what a caller can find and call is exactly what the registry offers that caller.
// Stateless on purpose: nothing is remembered between requests, so it works the same in the
// 2026-07-28 era (no session, no list_changed) and in a 2025 session. See docs/tool-list.md.
import * as v from 'valibot';
import type { Principal } from '../auth/tokens.js';
import { AppError, notFound } from '../errors.js';
import type { ClientChannel, ToolResult } from '../plugin-sdk/index.js';
import { anyObject, check, jsonSchemaOf } from '../validation.js';
import { compactSchema } from './compact-schema.js';
import { errorResult, type CallOptions, type ToolInfo, type ToolRegistry } from './tool-registry.js';

/** The most of an assistant's context tools/list may take, in tokens (JSON characters / 4). */
export const TOOL_BUDGET_TOKENS = 6000;

/** A list's size as the budget counts it: its JSON's characters / 4, rounded up. */
export const tokensOf = (tools: unknown): number => Math.ceil(JSON.stringify(tools).length / 4);

export const FIND_TOOLS = 'find_tools';
export const CALL_TOOL = 'call_tool';
/** The most definitions one find_tools answer carries (each is a few hundred tokens). */
const MAX_FOUND = 5;

const findInput = v.strictObject({
  query: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200))),
  names: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(64))), v.minLength(1), v.maxLength(MAX_FOUND))),
});
const callInput = v.strictObject({
  name: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64)),
  arguments: v.optional(anyObject),
});
const published = (s: v.GenericSchema) => {
  const { $schema: _, ...rest } = jsonSchemaOf(s) as Record<string, unknown>;
  return compactSchema(rest);
};
const FIND_SCHEMA = published(findInput);
const CALL_INFO: ToolInfo = {
  name: CALL_TOOL,
  title: 'Call a tool',
  description: `Calls a tool find_tools returned, by name, with its arguments; answers what that tool answers.`,
  inputSchema: published(callInput),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
};

const byRegistry = new WeakMap<ToolRegistry, ToolDiscovery>();
/** The one discovery over a registry (its answers are kept per shape of caller). */
export function discoveryOf(registry: ToolRegistry): ToolDiscovery {
  let d = byRegistry.get(registry);
  if (!d) byRegistry.set(registry, (d = new ToolDiscovery(registry)));
  return d;
}

/** Words too short to tell tools apart ("a", "to", "on"). */
const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2);

/** The words a tool is found by: its name's parts, title and description, lower case. */
const wordsOf = (t: ToolInfo) => new Set(words(`${t.name.replaceAll('_', ' ')} ${t.title} ${t.description}`));

/**
 * A tool only an MCP App calls (`visibility: ["app"]`): the app calls it through its host, which
 * allows only listed tools, and no model looks for it, so it is always listed.
 */
const appOnly = (t: ToolInfo) => t._meta?.ui.visibility !== undefined && !t._meta.ui.visibility.includes('model');

/** What one caller is shown: the list, and whether the rest is behind find_tools. */
interface Shown {
  listed: ToolInfo[];
  deferred: boolean;
}

export class ToolDiscovery {
  /** The last answers by the offered tools' names (a few shapes of caller: full, read-only, config). */
  private readonly shown = new Map<string, Shown>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly budget = TOOL_BUDGET_TOKENS,
  ) {}

  /** What tools/list shows this caller. */
  listedFor(principal?: Principal): ToolInfo[] {
    return this.show(this.registry.listFor(principal)).listed;
  }

  private show(offered: ToolInfo[]): Shown {
    const key = offered.map((t) => t.name).join(',');
    let s = this.shown.get(key);
    if (s) return s;
    if (tokensOf(offered) <= this.budget) s = { listed: offered, deferred: false };
    else {
      const first = (t: ToolInfo) => (this.registry.isCore(t.name) || appOnly(t)) && t.name !== FIND_TOOLS && t.name !== CALL_TOOL;
      const core = offered.filter(first);
      const rest = offered.filter((t) => !first(t)).map((t) => t.name);
      const find: ToolInfo = {
        name: FIND_TOOLS,
        title: 'Find tools',
        description: `More tools, not listed here: ${rest.join(', ')}. Answers the full definitions of those named, or of those matching words (what you want to do); call one directly or through call_tool.`,
        inputSchema: FIND_SCHEMA,
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      };
      s = { listed: [...core, find, CALL_INFO], deferred: true };
    }
    if (this.shown.size > 16) this.shown.clear();
    this.shown.set(key, s);
    return s;
  }

  /**
   * Calls a tool: find_tools and call_tool here while they are listed for this caller, any other
   * name in the registry (a tool found through find_tools is called directly too).
   */
  async call(name: string, args: unknown, principal?: Principal, client?: ClientChannel, opts: CallOptions = {}): Promise<ToolResult> {
    if (name !== FIND_TOOLS && name !== CALL_TOOL) return this.registry.call(name, args, principal, client, opts);
    const offered = this.registry.listFor(principal);
    if (!this.show(offered).deferred) return this.registry.call(name, args, principal, client, opts);
    if (name === FIND_TOOLS) return this.find(check(findInput, args ?? {}, { what: 'arguments' }), offered);
    const { name: target, arguments: inner } = check(callInput, args ?? {}, { what: 'arguments' });
    if (!offered.some((t) => t.name === target))
      return errorResult(notFound(`No tool ${target} for this caller; find_tools lists the ones there are`, { tool: target }));
    try {
      return await this.registry.call(target, inner ?? {}, principal, client, opts);
    } catch (err) {
      // The inner tool's arguments are call_tool's: a mistake there is a result the model reads.
      if (err instanceof AppError && err.status < 500) return errorResult(err);
      throw err;
    }
  }

  /** The definitions of the tools named, or of those whose words match most of the query's. */
  private find(args: v.InferOutput<typeof findInput>, offered: ToolInfo[]): ToolResult {
    if (!args.query && !args.names) throw new AppError('INVALID_PARAMETERS', 400, 'arguments: give query (words) or names', { field: 'query' });
    let found: ToolInfo[];
    if (args.names) {
      const unknown = args.names.filter((n) => !offered.some((t) => t.name === n));
      if (unknown.length)
        return errorResult(
          notFound(`No tool ${unknown.join(', ')} for this caller; the ones there are: ${offered.map((t) => t.name).join(', ')}`, { tools: unknown }),
        );
      found = offered.filter((t) => args.names!.includes(t.name));
    } else {
      const asked = [...new Set(words(args.query!))];
      found = offered
        .map((t) => {
          const has = wordsOf(t);
          // A word counts when a tool's word starts with it (light finds lights), twice in the name.
          const score = asked.reduce((n, a) => n + ([...has].some((w) => w.startsWith(a)) ? 1 : 0) + (t.name.includes(a) ? 2 : 0), 0);
          return { t, score };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || (a.t.name < b.t.name ? -1 : 1))
        .slice(0, MAX_FOUND)
        .map((x) => x.t);
    }
    const tools = found.map(({ _meta: _, ...t }) => t);
    const text = tools.length ? JSON.stringify(tools) : `No tool matches "${args.query}"; the ones there are: ${offered.map((t) => t.name).join(', ')}`;
    return { content: [{ type: 'text', text }], structuredContent: { tools } };
  }
}
