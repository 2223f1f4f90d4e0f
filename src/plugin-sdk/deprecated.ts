// Names the plugin API had before the SDK (0.1): they keep working for one release so that
// existing plugins load, each with a deprecation warning from the loader. New plugins use
// definePlugin with `bridge`, `needs` of the context, `ctx.home` and `words`.
import { areaIdFor } from '../hub/areas.js';
import type { ActRequest, ToolResult } from './types.js';
import type { PromptDefinition, ResourceDefinition, ToolDefinition, ToolInput } from './definition.js';

/** Where a legacy `services` object keeps the caller's home.act. */
export const LEGACY_ACT = Symbol('home-mcp-bridge.legacy-act');

/** @deprecated since 0.2: declare tools with `tool()`; their context is the same for every plugin. */
export const toolsWith =
  (_needs: readonly string[]) =>
  <S extends ToolInput>(def: ToolDefinition<S>) =>
    def;
/** @deprecated since 0.2: use `prompt()`. */
export const promptsWith = (_needs: readonly string[]) => (def: PromptDefinition) => def;
/** @deprecated since 0.2: use `resource()`. */
export const resourcesWith = (_needs: readonly string[]) => (def: ResourceDefinition) => def;

/** @deprecated since 0.2: use `ctx.home.act(request)`. */
export function act(services: object, request: ActRequest): Promise<ToolResult> {
  const own = (services as Record<symbol, ((r: ActRequest) => Promise<ToolResult>) | undefined>)[LEGACY_ACT];
  if (!own) throw new Error('act(services, ...) needs the services of a legacy plugin; use ctx.home.act(...)');
  return own(request);
}

/** @deprecated since 0.2: use `ctx.home.areaIdFor(word)`. */
export function areaIdOf(hub: { registries: { areas: Map<string, { area_id: string; name: string; aliases?: string[] }> } }, area: string): string {
  return areaIdFor(hub.registries.areas.values(), area) ?? area;
}
