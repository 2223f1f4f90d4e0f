// The one registry of tools: every loaded plugin's tools, described as MCP describes them, and
// called with their arguments checked by the one validator. The REST tool transport and the MCP
// server both serve this registry.
import type { Principal } from '../auth/tokens.js';
import { AppError, notFound } from '../errors.js';
import type { ClientChannel, ToolAnnotations, ToolResult } from '../plugin-sdk/index.js';
import { InputNeeded } from './asking.js';
import type { BoundTool, LoadedPlugin } from './loader.js';
import { mayAdminister, mayControl, mayEditConfig } from '../policy/policy.js';
import { check, jsonSchemaOf } from '../validation.js';
import { jsonSchemaOfInput } from '../plugin-sdk/json-input.js';

/** A tool as a client sees it (MCP `tools/list`). */
export interface ToolInfo {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** Whether a call may run as an MCP task (io.modelcontextprotocol/tasks). */
  execution?: { taskSupport: 'optional' | 'required' };
  /** MCP Apps: the `ui://` resource that shows the tool's result. */
  _meta?: { ui: { resourceUri: string; visibility?: ('model' | 'app')[] } };
}

/** JSON Schema of a tool's object, without the dialect key (MCP tools carry 2020-12 by default). */
function objectSchema(schema: Parameters<typeof jsonSchemaOf>[0]): Record<string, unknown> {
  const written = jsonSchemaOfInput(schema);
  if (written) return written;
  const { $schema: _, ...rest } = jsonSchemaOf(schema) as Record<string, unknown>;
  return rest;
}

/** A business error as a tool result: the caller reads what went wrong and what to do next. */
export function errorResult(err: AppError): ToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: err.message }],
    structuredContent: { error: { code: err.code, message: err.message, details: err.details } },
  };
}

export interface CallOptions {
  /**
   * 'throw': a failure of the bridge or Home Assistant (an AppError of status 500 and up) is thrown,
   * not made the tool's error result: an MCP task reports it as failed (SEP-2663's protocol error).
   */
  internalErrors?: 'throw';
}

export class ToolRegistry {
  private readonly tools = new Map<string, BoundTool>();
  private infos?: ToolInfo[];

  /**
   * `visibleIds`: the entities callers see now (the policy's view of the home); `configEditing`:
   * whether CONFIG_EDITING is on; `adminTools`: whether ADMIN_TOOLS is on.
   */
  constructor(
    plugins: readonly LoadedPlugin[],
    private readonly visibleIds: () => Iterable<string> = () => [],
    private readonly configEditing: () => boolean = () => false,
    private readonly adminTools: () => boolean = () => false,
  ) {
    for (const p of plugins) for (const t of p.tools) this.tools.set(t.definition.name, t);
  }

  get size(): number {
    return this.tools.size;
  }

  /**
   * The tools this caller may use, by name: those of plugins available for the home as it is now
   * (see PluginDefinition.available); for an OAuth grant without control only those that read;
   * tools that change Home Assistant's config only while CONFIG_EDITING is on and to callers that
   * may edit config; admin tools only while ADMIN_TOOLS is on and to callers with the admin scope.
   */
  listFor(principal?: Principal): ToolInfo[] {
    const control = mayControl(principal);
    const editConfig = this.configEditing() && mayEditConfig(principal);
    const admin = this.mayUseAdmin(principal);
    let domains: Set<string> | undefined;
    const seen = () => (domains ??= new Set([...this.visibleIds()].map((id) => id.slice(0, id.indexOf('.')))));
    const offered = new Set<string>();
    const byPlugin = new Map<string, boolean>();
    for (const t of this.tools.values()) {
      let ok = byPlugin.get(t.plugin);
      if (ok === undefined) byPlugin.set(t.plugin, (ok = t.available(seen)));
      const edits = t.definition.edits;
      if (ok && (edits === 'config' ? editConfig : edits === 'admin' ? admin : true)) offered.add(t.definition.name);
    }
    // Config and admin tools have their own scope; control is not what they need.
    const ownScope = new Set([...this.tools.values()].filter((t) => t.definition.edits !== undefined).map((t) => t.definition.name));
    return this.list().filter((t) => offered.has(t.name) && (control || t.annotations?.readOnlyHint === true || ownScope.has(t.name)));
  }

  /** Admin tools exist for a caller only while ADMIN_TOOLS is on and it holds the admin scope (unscoped callers do). */
  private mayUseAdmin(principal?: Principal): boolean {
    return this.adminTools() && mayAdminister(principal);
  }

  /** Whether a tool this caller may call can run as an MCP task; undefined for any other tool. */
  taskSupport(name: string, principal?: Principal): 'optional' | 'required' | undefined {
    return this.usable(name, principal)?.definition.task;
  }

  /** An admin tool the caller may not use is not there for it, as in its list. */
  private usable(name: string, principal?: Principal): BoundTool | undefined {
    const tool = this.tools.get(name);
    return tool && (tool.definition.edits !== 'admin' || this.mayUseAdmin(principal)) ? tool : undefined;
  }

  /** Every tool a caller may know of (GET /api/tools): all but the admin tools it may not use. */
  catalogFor(principal?: Principal): ToolInfo[] {
    if (this.mayUseAdmin(principal)) return this.list();
    return this.list().filter((t) => this.tools.get(t.name)?.definition.edits !== 'admin');
  }

  /** Every tool's description, made once. */
  list(): ToolInfo[] {
    return (this.infos ??= [...this.tools.values()]
      .map(({ definition: d }) => ({
        name: d.name,
        title: d.title,
        description: d.description,
        inputSchema: objectSchema(d.input),
        ...(d.output ? { outputSchema: objectSchema(d.output) } : {}),
        ...(d.annotations ? { annotations: d.annotations } : {}),
        ...(d.task ? { execution: { taskSupport: d.task } } : {}),
        ...(d.ui ? { _meta: { ui: { resourceUri: d.ui.resourceUri, ...(d.ui.visibility ? { visibility: d.ui.visibility } : {}) } } } : {}),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)));
  }

  /**
   * Calls a tool. An unknown tool (404) and arguments that do not fit its schema (400, naming the
   * field) are the caller's mistakes and throw; what goes wrong inside the tool is its answer.
   */
  async call(name: string, args: unknown, principal?: Principal, client?: ClientChannel, opts: CallOptions = {}): Promise<ToolResult> {
    const tool = this.usable(name, principal);
    if (!tool) throw notFound(`No tool ${name.slice(0, 64)}; GET /api/tools lists them`, { tool: name.slice(0, 64) });
    const checked = checkArguments(tool, args ?? {});
    try {
      return await tool.run(checked, principal, client);
    } catch (err) {
      // A question to the caller leaves the tool this way; its transport asks it.
      if (err instanceof InputNeeded) throw err;
      if (opts.internalErrors === 'throw' && err instanceof AppError && err.status >= 500) throw err;
      if (err instanceof AppError) return errorResult(err);
      // A tool that throws still answers (MCP: errors of a tool are results the model can read);
      // the plugin's own message is its author's words, the stack stays in the log.
      tool.log.warn({ err, tool: name }, 'tool failed');
      return { isError: true, content: [{ type: 'text', text: `The tool ${name} failed: ${err instanceof Error ? err.message : String(err)}` }] };
    }
  }
}

/**
 * A tool's arguments, checked; an argument the tool does not take is refused naming it and the ones
 * it does take, so an assistant that guessed a name (`action` for `command`) learns the right one.
 */
function checkArguments(tool: BoundTool, args: unknown): unknown {
  try {
    return check(tool.definition.input, args, { what: 'arguments' });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const issues = (err.details.issues ?? []) as { field: string | null; message: string }[];
    const unknown = issues.filter((i) => i.message === 'unknown field').map((i) => i.field);
    if (!unknown.length) throw err;
    const accepted = Object.keys(
      (tool.definition.input as { entries?: Record<string, unknown> }).entries ??
        (jsonSchemaOfInput(tool.definition.input)?.properties as Record<string, unknown> | undefined) ??
        {},
    );
    throw new AppError(
      'INVALID_PARAMETERS',
      400,
      `${unknown.join(', ')}: ${unknown.length > 1 ? 'are not arguments' : 'is not an argument'} of ${tool.definition.name}; it takes ${accepted.join(', ')}`,
      {
        ...err.details,
        field: unknown[0],
        unknown_fields: unknown,
        accepted_fields: accepted,
      },
    );
  }
}
