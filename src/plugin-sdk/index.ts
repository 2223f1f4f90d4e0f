// home-mcp-bridge/plugin: everything a plugin needs, and nothing of the bridge's insides. A plugin is
// one object made with definePlugin: who it is, which bridge versions it works with, which parts of
// the context it uses, and what it offers (tools, prompts, resources, words for the command parser).
// The built-in plugins import this module exactly as a plugin of your own does.
import * as v from 'valibot';
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { AppError } from '../errors.js';
import type { ServiceInfo, ToolResult } from './types.js';
import type { PluginDefinition, PromptDefinition, ResourceDefinition, ToolDefinition, ToolInput } from './definition.js';

export type * from './types.js';
export type * from './definition.js';
export { jsonInput } from './json-input.js';
export { localTime, startOf, zonedInstant, type CalendarUnit } from './time.js';
export { HOME_APP_URI, homeApp, UI_EXTENSION, UI_MIME, type ResourceUi, type ToolUi } from './ui.js';
export type { ToolAnnotations };

/** Declares a plugin (a typed identity: the bridge checks it when it loads it). */
export const definePlugin = (def: PluginDefinition): PluginDefinition => def;
/** Declares a tool, its arguments typed from its input schema. */
export const tool = <S extends ToolInput>(def: ToolDefinition<S>): ToolDefinition<S> => def;
export const prompt = (def: PromptDefinition): PromptDefinition => def;
export const resource = (def: ResourceDefinition): ResourceDefinition => def;

/** The error a tool throws for a business error (an unknown entity, a refused action); the caller reads it as an isError result. */
export class PluginError extends AppError {
  constructor(
    message: string,
    details: Record<string, unknown> = {},
    /** AMBIGUOUS (status 409, `details.candidates`) when the request names several things where it means one and the client cannot be asked. */
    code: 'INVALID_PARAMETERS' | 'INVALID_ACTION' | 'INVALID_ENTITY' | 'NOT_FOUND' | 'FORBIDDEN' | 'HUB_ERROR' | 'AMBIGUOUS' = 'INVALID_PARAMETERS',
    status = code === 'AMBIGUOUS' ? 409 : 400,
  ) {
    super(code, status, message, details);
    this.name = 'PluginError';
  }
}

/** A text-only tool result. */
export const text = (message: string, isError = false): ToolResult => ({ content: [{ type: 'text', text: message }], ...(isError ? { isError } : {}) });

/** A result with text for the model and the same data as structuredContent. */
export const data = (message: string, structured: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: message }],
  structuredContent: structured,
});

/**
 * A result with an image (MCP image content: base64 data and its MIME type), after a line of text
 * for a model that reads no images, and optionally the same facts as structuredContent.
 */
export const image = (data: Uint8Array | string, mimeType: string, caption: string, structured?: Record<string, unknown>): ToolResult => ({
  content: [
    { type: 'text', text: caption },
    { type: 'image', data: typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'), mimeType },
  ],
  ...(structured ? { structuredContent: structured } : {}),
});

/**
 * Arguments that go only with some commands (`position` with set_position): the first one given
 * with another command, as an error result the tool returns instead of ignoring it.
 */
export function misplaced(args: Record<string, unknown>, command: string, only: Record<string, readonly string[]>): ToolResult | undefined {
  for (const [field, commands] of Object.entries(only)) {
    if (args[field] !== undefined && !commands.includes(command))
      return text(`${field} goes with ${commands.join(' or ')}, not with ${command}; leave it out or use that command.`, true);
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
  // A dry run: {effects: [{entity_id, service, via?, needs_confirmation?, cannot_tell?}], may_also_run:
  // [{automation, because}]} (one loose field: every acting tool lists this schema).
  preview: v.optional(v.record(v.string(), v.unknown())),
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

/** The data fields a hub service takes, as the hub describes them (the sections of newer hubs flattened). */
export function serviceFields(info: ServiceInfo): string[] {
  const out: string[] = [];
  const walk = (fields: Record<string, unknown>) => {
    for (const [name, f] of Object.entries(fields)) {
      const field = (f ?? {}) as { fields?: Record<string, unknown>; selector?: unknown };
      if (field.fields && !field.selector) walk(field.fields);
      else out.push(name);
    }
  };
  walk(info.fields ?? {});
  return out;
}

/**
 * Refuses data fields the hub does not describe for a service (INVALID_PARAMETERS naming the ones it
 * takes); the values are checked by the bridge against each field's selector when the call is planned.
 */
export function checkServiceFields(what: string, info: ServiceInfo, data: Record<string, unknown>): void {
  const accepted = serviceFields(info);
  const unknown = Object.keys(data).filter((k) => !accepted.includes(k));
  if (!unknown.length) return;
  throw new PluginError(`data.${unknown[0]} is not a field of ${what}; ${accepted.length ? `it takes: ${accepted.join(', ')}` : 'it takes no data'}`, {
    field: `data.${unknown[0]}`,
    accepted,
  });
}

/** The schema library the bridge validates with, so a plain JavaScript plugin needs nothing installed. */
export { v };

/** The natural-language command's input fields and result (the `command` tool publishes them). */
export { commandFields, commandResult } from '../nlp/schema.js';
/** @deprecated since 0.2: throw PluginError. */
export { AppError } from '../errors.js';
export { act, areaIdOf, promptsWith, resourcesWith, toolsWith } from './deprecated.js';
