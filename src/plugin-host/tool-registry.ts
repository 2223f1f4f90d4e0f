// The one registry of tools: every loaded plugin's tools, described as MCP describes them, and
// called with their arguments checked by the one validator. The REST tool transport and the MCP
// server both serve this registry.
import type { Principal } from '../auth/tokens.js';
import { AppError, notFound } from '../errors.js';
import type { ClientChannel, ToolAnnotations, ToolResult } from '../plugin-sdk/index.js';
import { InputNeeded } from './asking.js';
import { compactAnnotations, compactSchema } from './compact-schema.js';
import type { BoundTool, LoadedPlugin } from './loader.js';
import { configEditingOff, configScopeRefusal, controlScopeRefusal, mayAdminister, mayControl, mayEditConfig } from '../policy/policy.js';
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
   * The one rule of what a caller is offered, for listFor and call alike: why this caller may not
   * use this tool now, or undefined when it may. A tool is offered when its plugin is available
   * for the home as the caller sees it (PluginDefinition.available); a tool that changes Home
   * Assistant's config only while CONFIG_EDITING is on and to callers that may edit config; an
   * admin tool only while ADMIN_TOOLS is on and to callers with the admin scope (its own scope:
   * control is not what it needs); any other tool that does not only read (readOnlyHint) only to
   * callers with control, except for the operations it declares read only (readOperations): a call
   * (`args` given) with one of those, and the listing (no `args`), where some are there to use.
   */
  private withheld(t: BoundTool, principal: Principal | undefined, available: (t: BoundTool) => boolean, args?: unknown): Withheld | undefined {
    if (!available(t)) return 'unavailable';
    const d = t.definition;
    if (d.edits === 'config') return !this.configEditing() ? 'config_editing' : mayEditConfig(principal) ? undefined : 'config_scope';
    if (d.edits === 'admin') return this.mayUseAdmin(principal) ? undefined : 'admin';
    if (mayControl(principal) || d.annotations?.readOnlyHint === true) return undefined;
    const reads = d.readOperations;
    if (!reads?.length) return 'control_scope';
    if (args === undefined) return undefined;
    const op = typeof args === 'object' && args !== null ? (args as { operation?: unknown }).operation : undefined;
    return typeof op === 'string' && reads.includes(op) ? undefined : 'control_scope';
  }

  /** Whether a tool's plugin is available now, asked once per plugin and the visible domains read once. */
  private availability(): (t: BoundTool) => boolean {
    let domains: Set<string> | undefined;
    const seen = () => (domains ??= new Set([...this.visibleIds()].map((id) => id.slice(0, id.indexOf('.')))));
    const byPlugin = new Map<string, boolean>();
    return (t) => {
      let ok = byPlugin.get(t.plugin);
      if (ok === undefined) byPlugin.set(t.plugin, (ok = t.available(seen)));
      return ok;
    };
  }

  /** The tools this caller may use now (see withheld). */
  listFor(principal?: Principal): ToolInfo[] {
    const available = this.availability();
    return this.list().filter((info) => this.withheld(this.tools.get(info.name)!, principal, available) === undefined);
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

  /** Whether the tool's plugin marks it core (listed first; see tool-discovery.ts). */
  isCore(name: string): boolean {
    return this.tools.get(name)?.definition.core === true;
  }

  /** Every tool's description, made once. */
  list(): ToolInfo[] {
    return (this.infos ??= [...this.tools.values()]
      .map(({ definition: d }) => ({
        name: d.name,
        title: d.title,
        description: d.description,
        inputSchema: compactSchema(objectSchema(d.input)),
        ...(d.output ? { outputSchema: compactSchema(objectSchema(d.output)) } : {}),
        ...(d.annotations ? { annotations: compactAnnotations(d.annotations) } : {}),
        ...(d.task ? { execution: { taskSupport: d.task } } : {}),
        ...(d.ui ? { _meta: { ui: { resourceUri: d.ui.resourceUri, ...(d.ui.visibility ? { visibility: d.ui.visibility } : {}) } } } : {}),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)));
  }

  /**
   * Calls a tool. An unknown tool (404) and arguments that do not fit its schema (400, naming the
   * field) are the caller's mistakes and throw; what goes wrong inside the tool is its answer. A
   * tool this caller is not offered (listFor's rule) answers FORBIDDEN saying why, as an isError
   * result like the checkpoint's own refusals, and does not run.
   */
  async call(name: string, args: unknown, principal?: Principal, client?: ClientChannel, opts: CallOptions = {}): Promise<ToolResult> {
    const tool = this.usable(name, principal);
    // An admin tool the caller may not use is not there for it, as in its catalogue.
    if (!tool) throw notFound(`No tool ${name.slice(0, 64)}; GET /api/tools lists them`, { tool: name.slice(0, 64) });
    const available = this.availability();
    const offered = this.withheld(tool, principal, available);
    if (offered) return errorResult(refusalOf(offered, name, principal));
    const checked = checkArguments(tool, args ?? {});
    // Offered for the operations that read: the operation asked, as checked, decides.
    const withheld = this.withheld(tool, principal, available, checked);
    if (withheld) {
      const op = (checked as { operation?: unknown }).operation;
      return errorResult(refusalOf(withheld, name, principal, { ops: tool.definition.readOperations ?? [], op: typeof op === 'string' ? op : undefined }));
    }
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

/** Why a tool is not offered to a caller. */
type Withheld = 'unavailable' | 'config_editing' | 'config_scope' | 'control_scope' | 'admin';

/** A withheld tool's refusal, in the checkpoint's words where the checkpoint has them. */
function refusalOf(why: Withheld, name: string, principal: Principal | undefined, reads?: { ops: readonly string[]; op?: string }): AppError {
  const what =
    reads && why === 'control_scope' ? `${reads.op ?? 'this operation'} with the tool ${name} (only ${reads.ops.join(', ')} read)` : `the tool ${name}`;
  const refusal =
    why === 'control_scope'
      ? controlScopeRefusal(principal, what)
      : why === 'config_scope'
        ? configScopeRefusal(principal, what)
        : why === 'config_editing'
          ? configEditingOff(what)
          : why === 'admin'
            ? new AppError('FORBIDDEN', 403, `${what} looks after Home Assistant itself: it needs ADMIN_TOOLS on and the admin scope`)
            : new AppError('FORBIDDEN', 403, `${what} is not offered now: the home has nothing it acts on that this caller may see`);
  return new AppError(refusal.code, refusal.status, refusal.message, {
    ...refusal.details,
    tool: name,
    // A tool with operations that read is still offered to a caller that may only read.
    offered: why === 'control_scope' && reads !== undefined,
    ...(reads && why === 'control_scope' ? { read_operations: reads.ops } : {}),
  });
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
