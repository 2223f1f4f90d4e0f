// The public plugin API (`home-mcp-bridge/plugin`). A plugin is one object, made with
// definePlugin, that says who it is, which part of the services it needs, and what it offers:
// tools now; prompts, resources and natural-language vocabulary are declared the same way. It also
// hands plugins the schema library the bridge validates with (`v`, valibot), so a plain
// JavaScript plugin needs nothing installed.
import * as v from 'valibot';
import type { Principal } from '../auth/tokens.js';
import type { Catalogued, Services } from '../services.js';

/** What a tool answers: MCP's tool result. Business errors are `isError: true` results, not throws. */
export interface ToolResult {
  content: ToolContent[];
  /** Data matching the tool's output schema, when it has one. */
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };

/** Hints for a client about what a tool does (MCP tool annotations). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a running tool may use: the services its plugin declared, and who is calling. */
/** The parts of the services a plugin may ask for. */
export type ServiceName = Exclude<keyof Services, Catalogued>;

/** Log levels a client filters by (MCP's, from syslog). */
export type ClientLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * The calling client, for what goes beyond answering: MCP gives these their real form; a caller
 * that cannot take them (the REST transport) gets progress and logs dropped, and an error from
 * `elicit` and `sample` that the tool may turn into its answer.
 */
export interface ClientChannel {
  /** Progress of this call (MCP notifications/progress, when the caller asked for it). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** A log message to the client (MCP notifications/message, filtered by the client's level). */
  log(level: ClientLogLevel, data: unknown): Promise<void>;
  /** Asks the user through the client (MCP elicitation/create). */
  elicit(params: { message: string; requestedSchema: Record<string, unknown> }): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>;
  /** Asks the client's model for a completion (MCP sampling/createMessage). */
  sample(params: { messages: { role: 'user' | 'assistant'; content: Record<string, unknown> }[]; maxTokens: number; [k: string]: unknown }): Promise<Record<string, unknown>>;
}

export interface ToolContext<K extends ServiceName = never> {
  services: Pick<Services, K>;
  principal?: Principal;
  /** The bridge's own log (not the client's). */
  log: Services['log'];
  client: ClientChannel;
}

export interface ToolDefinition<S extends v.GenericSchema = v.GenericSchema, K extends ServiceName = never> {
  /** Unique across plugins; at most 64 characters of letters, digits, `_` and `-`. */
  name: string;
  title: string;
  /** What the tool does, in words an assistant can act on. */
  description: string;
  /** The arguments, checked by the project's validator before `run`; published as JSON Schema. */
  input: S;
  /** The shape of `structuredContent`, for tools that return data. */
  output?: v.GenericSchema;
  annotations?: ToolAnnotations;
  run(args: v.InferOutput<S>, ctx: ToolContext<K>): ToolResult | Promise<ToolResult>;
}

/** One message of a filled-in prompt (MCP prompts/get). */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content:
    | { type: 'text'; text: string }
    | { type: 'image'; data: string; mimeType: string }
    | { type: 'audio'; data: string; mimeType: string }
    | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };
}

/** Suggests values for an argument from what has been typed so far (MCP completion/complete). */
export type Completer<K extends ServiceName = never> = (value: string, ctx: ToolContext<K>) => string[] | Promise<string[]>;

export interface PromptDefinition<K extends ServiceName = never> {
  name: string;
  title?: string;
  description: string;
  /** Named arguments a client fills in (all strings, as MCP has them). */
  arguments?: { name: string; description?: string; required?: boolean; complete?: Completer<K> }[];
  /** Fills the prompt from live hub data. */
  get(args: Record<string, string>, ctx: ToolContext<K>): { description?: string; messages: PromptMessage[] } | Promise<{ description?: string; messages: PromptMessage[] }>;
}

/** What reading a resource answers: its contents, and the entities it shows (so a subscriber hears when one changes). */
export interface ResourceContents {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
  entities: string[];
}

export interface ResourceDefinition<K extends ServiceName = never> {
  /** A URI, or a URI template with `{name}` parts (`home://entity/{entity_id}`). */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Reads it; `params` holds the template's parts. */
  read(params: Record<string, string>, ctx: ToolContext<K>): ResourceContents | Promise<ResourceContents>;
  /** For a template: suggestions for its `{name}` parts, by name. */
  complete?: Record<string, Completer<K>>;
  /** For a template: the concrete resources it stands for now. */
  list?(ctx: ToolContext<K>): { uri: string; name: string; description?: string }[];
}

/** Words a plugin teaches the command parser for its domains, per language. */
export type Vocabulary = Record<string, Record<string, unknown>>;

export interface PluginDefinition<K extends ServiceName = never> {
  /** Lower snake case, unique; PLUGINS_DISABLED names it. */
  name: string;
  version: string;
  description?: string;
  /** The parts of the services the plugin's tools use; nothing else reaches them. */
  needs?: readonly K[];
  /** The hub domains the plugin serves (light, climate, ...). */
  domains?: readonly string[];
  tools?: readonly ToolDefinition<any, K>[];
  prompts?: readonly PromptDefinition<K>[];
  resources?: readonly ResourceDefinition<K>[];
  vocabulary?: Vocabulary;
}

/** Declares a plugin (a typed identity: the checks happen when the loader loads it). */
export function definePlugin<K extends ServiceName = never>(def: PluginDefinition<K>): PluginDefinition<K> {
  return def;
}

/** Declarers of prompts and resources that see the declared services typed, like toolsWith. */
export function promptsWith<K extends ServiceName>(_needs: readonly K[]) {
  return (def: PromptDefinition<K>): PromptDefinition<K> => def;
}
export function resourcesWith<K extends ServiceName>(_needs: readonly K[]) {
  return (def: ResourceDefinition<K>): ResourceDefinition<K> => def;
}

/**
 * A tool declarer for a plugin that needs these parts of the services: its tools' `run` sees them
 * typed, and their arguments typed from the input schema.
 *   const tool = toolsWith(['hub']);  const search = tool({ name, input, run: (args, { services: { hub } }) => ... });
 */
export function toolsWith<K extends ServiceName>(_needs: readonly K[]) {
  return <S extends v.GenericSchema>(def: ToolDefinition<S, K>): ToolDefinition<S, K> => def;
}

export { v };
/** The project's error: a tool throws it for a business error (unknown entity, refused action), and the caller reads it as an isError result. */
export { AppError } from '../errors.js';

export { act, actOutput, areaIdOf, confirmField, targetFields, type ActRequest } from './act.js';
/** The natural-language command's input fields and result (services.commands.runCommand). */
export { commandFields, commandResult } from '../nlp/schema.js';

/** A text-only tool result. */
export const text = (message: string, isError = false): ToolResult => ({ content: [{ type: 'text', text: message }], ...(isError ? { isError } : {}) });
