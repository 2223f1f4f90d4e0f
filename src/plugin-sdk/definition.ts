// What a plugin declares: its tools, prompts, resources, words and itself. Types only; the
// declarers and helpers are in ./index.ts.
import type * as v from 'valibot';
import type { GetPromptResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Home, LifecycleContext, Need, PluginContext, ToolResult } from './types.js';
import type { ResourceUi, ToolUi } from './ui.js';
import type { JsonInput } from './json-input.js';

/** A tool's arguments: an object schema. Arguments it does not name are refused, never ignored. */
export type ToolInput =
  | JsonInput
  | v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>
  | v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>;

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
  /** The app (MCP Apps) that shows this tool's result: a `ui://` resource of a plugin. */
  ui?: ToolUi;
  /**
   * 'config': the tool changes Home Assistant's configuration (through the context's `config`). It
   * is offered only while CONFIG_EDITING is on, and only to callers that may edit config (a scoped
   * credential needs the `config` scope).
   * 'admin': the tool looks after Home Assistant itself (registries, zones, health, integrations).
   * It is offered, and runs, only while ADMIN_TOOLS is on and for callers with the `admin` scope
   * (neither `control` nor `config` gives it), whether it reads or changes.
   */
  edits?: 'config' | 'admin';
  /**
   * For a tool that reads and changes by its `operation` argument: the operations that only read.
   * A caller that may only read (a `read` grant, Home Assistant's read-only link) is offered the
   * tool and may call it with one of these; any other operation is refused before the tool runs.
   * What the tool then does is still judged by the checkpoint.
   */
  readOperations?: readonly string[];
  /**
   * Listed to every client even when the whole list would exceed the bridge's budget for an
   * assistant's context; the other tools are then found through `find_tools` and called directly
   * or through `call_tool` (docs/tool-list.md). For the few tools an assistant needs first.
   */
  core?: boolean;
  /**
   * The call can take long and may run as an MCP task (io.modelcontextprotocol/tasks) once it calls
   * `client.background()`: 'optional', clients without the extension wait for the result as
   * before; 'required', they are refused (-32021, naming the extension).
   */
  task?: 'optional' | 'required';
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
  /** For an app's `ui://` resource: its security declarations (MCP Apps). */
  ui?: ResourceUi;
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
  /**
   * Whether the plugin's tools are offered to a caller now. Default: when it names no domains, or
   * the caller sees an entity of one of them (a home without locks lists no lock tool, and one
   * whose locks Home Assistant stops exposing loses it; clients hear that the list changed).
   */
  available?(home: Home): boolean;
  /** Runs once when the bridge starts, before any call; a throw skips the plugin. */
  setup?(ctx: LifecycleContext): void | Promise<void>;
  /** Runs once when the bridge stops. */
  close?(): void | Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: a plugin lists tools of different input types; each is typed by its own defineTool call
  tools?: readonly ToolDefinition<any>[];
  prompts?: readonly PromptDefinition[];
  resources?: readonly ResourceDefinition[];
  /** Words for the command parser: per language, or the folder (a file: URL) holding one `<language>.json` each. */
  words?: Words | URL;
}
