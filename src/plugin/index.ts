// home-mcp-bridge/plugin: everything a plugin needs, and nothing of the bridge's insides. A plugin is
// one object made with definePlugin: who it is, which bridge versions it works with, which parts of
// the context it uses, and what it offers (tools, prompts, resources, words for the command parser).
// The built-in plugins import this module exactly as a plugin of your own does.
import * as v from 'valibot';
import type { GetPromptResult, ToolAnnotations } from '@modelcontextprotocol/server';
import { AppError } from '../errors.js';
import type { LifecycleContext, Need, PluginContext, ToolResult } from './context.js';

export type * from './context.js';
export type { ToolAnnotations };

/** A tool's arguments: an object schema. Arguments it does not name are refused, never ignored. */
export type ToolInput = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined> | v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>;

export interface ToolDefinition<S extends ToolInput = ToolInput> {
  /** Unique across plugins; at most 64 letters, digits, `_` and `-`. */
  name: string;
  title: string;
  /** What the tool does, in words an assistant can act on. */
  description: string;
  /** The arguments, checked by the bridge before `run` (unknown ones refused, naming the accepted ones); published as JSON Schema. */
  input: S;
  /** The shape of `structuredContent`, for tools that return data. */
  output?: v.GenericSchema;
  annotations?: ToolAnnotations;
  run(args: v.InferOutput<S>, ctx: PluginContext): ToolResult | Promise<ToolResult>;
}

/** Suggests values for an argument from what has been typed so far (MCP completion). */
export type Completer = (value: string, ctx: PluginContext) => string[] | Promise<string[]>;

export interface PromptDefinition {
  name: string;
  title?: string;
  description: string;
  /** Named arguments a client fills in (all strings, as MCP has them). */
  arguments?: { name: string; description?: string; required?: boolean; complete?: Completer }[];
  /** Fills the prompt from the home as it is now. */
  get(args: Record<string, string>, ctx: PluginContext): GetPromptResult | Promise<GetPromptResult>;
}

/** What reading a resource answers: its contents, and the entities it shows (a subscriber hears when one changes). */
export interface ResourceContents {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
  entities: string[];
}

export interface ResourceDefinition {
  /** A URI, or a URI template with `{name}` parts (`home://entity/{entity_id}`). */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(params: Record<string, string>, ctx: PluginContext): ResourceContents | Promise<ResourceContents>;
  /** For a template: suggestions for its `{name}` parts, by name. */
  complete?: Record<string, Completer>;
  /** For a template: the concrete resources it stands for now. */
  list?(ctx: PluginContext): { uri: string; name: string; description?: string }[];
}

/** Words a plugin teaches the command parser, per language (`{en: {...}, de: {...}}`). */
export type Words = Record<string, Record<string, unknown>>;

export interface PluginDefinition {
  /** Lower snake case, unique; PLUGINS_DISABLED names it. */
  name: string;
  version: string;
  description?: string;
  /** The bridge versions the plugin works with, as a semver range (`^0.2.0`); a bridge outside it skips the plugin, saying why. */
  bridge: string;
  /** The parts of the context the plugin uses; the others are absent from it. */
  needs?: readonly Need[];
  /** The hub domains the plugin serves (light, climate, ...). */
  domains?: readonly string[];
  /** Runs once when the bridge starts, before any call; a throw skips the plugin. */
  setup?(ctx: LifecycleContext): void | Promise<void>;
  /** Runs once when the bridge stops. */
  close?(): void | Promise<void>;
  tools?: readonly ToolDefinition<any>[];
  prompts?: readonly PromptDefinition[];
  resources?: readonly ResourceDefinition[];
  /** Words for the command parser: per language, or the folder (a file: URL) holding one `<language>.json` each. */
  words?: Words | URL;
}

/** Declares a plugin (a typed identity: the bridge checks it when it loads it). */
export const definePlugin = (def: PluginDefinition): PluginDefinition => def;
/** Declares a tool, its arguments typed from its input schema. */
export const tool = <S extends ToolInput>(def: ToolDefinition<S>): ToolDefinition<S> => def;
export const prompt = (def: PromptDefinition): PromptDefinition => def;
export const resource = (def: ResourceDefinition): ResourceDefinition => def;

/** The error a tool throws for a business error (an unknown entity, a refused action); the caller reads it as an isError result. */
export class PluginError extends AppError {
  constructor(message: string, details: Record<string, unknown> = {}, code: 'INVALID_PARAMETERS' | 'INVALID_ACTION' | 'INVALID_ENTITY' | 'NOT_FOUND' | 'FORBIDDEN' | 'HUB_ERROR' = 'INVALID_PARAMETERS', status = 400) {
    super(code, status, message, details);
    this.name = 'PluginError';
  }
}

/** A text-only tool result. */
export const text = (message: string, isError = false): ToolResult => ({ content: [{ type: 'text', text: message }], ...(isError ? { isError } : {}) });

/** A result with text for the model and the same data as structuredContent. */
export const data = (message: string, structured: Record<string, unknown>): ToolResult => ({ content: [{ type: 'text', text: message }], structuredContent: structured });

/**
 * Arguments that go only with some commands (`position` with set_position): the first one given
 * with another command, as an error result the tool returns instead of ignoring it.
 */
export function misplaced(args: Record<string, unknown>, command: string, only: Record<string, readonly string[]>): ToolResult | undefined {
  for (const [field, commands] of Object.entries(only)) {
    if (args[field] !== undefined && !commands.includes(command)) return text(`${field} goes with ${commands.join(' or ')}, not with ${command}; leave it out or use that command.`, true);
  }
  return undefined;
}

/** The input fields every acting tool shares: which entities (by id, or an area as a person says it) and dry_run. */
export function targetFields(domain: string) {
  const id = v.pipe(v.string(), v.regex(new RegExp(`^${domain}\\.[a-z0-9_]+$`), `must be a ${domain} entity id such as ${domain}.kitchen`));
  return {
    entity_id: v.optional(v.union([id, v.pipe(v.array(id), v.minLength(1), v.maxLength(100))])),
    area: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
    dry_run: v.optional(v.boolean()),
  };
}

/** `confirm`, for tools whose actions may open the home. */
export const confirmField = { confirm: v.optional(v.boolean()) };

/** What `home.act` answers in structuredContent. */
export const actOutput = v.object({
  service: v.string(),
  dry_run: v.boolean(),
  entities: v.array(
    v.object({
      entity_id: v.string(),
      state: v.nullable(v.string()),
      verified: v.optional(v.boolean()),
      pending: v.optional(v.boolean()),
      needs_confirmation: v.optional(v.boolean()),
      expected: v.optional(v.record(v.string(), v.unknown())),
      actual: v.optional(v.record(v.string(), v.unknown())),
    }),
  ),
});

/** The schema library the bridge validates with, so a plain JavaScript plugin needs nothing installed. */
export { v };

/** The natural-language command's input fields and result (the `command` tool publishes them). */
export { commandFields, commandResult } from '../nlp/schema.js';
/** @deprecated since 0.2: throw PluginError. */
export { AppError } from '../errors.js';
export { act, areaIdOf, promptsWith, resourcesWith, toolsWith } from './legacy.js';
