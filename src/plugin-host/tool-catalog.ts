// The prompts and resources of every plugin, as MCP lists and serves them; the REST tool
// transport and the MCP server both use these.
import type { Principal } from '../auth/tokens.js';
import { invalidParameters, notFound } from '../errors.js';
import type { ClientChannel, PromptMessage, ResourceContents } from '../plugin-sdk/index.js';
import type { LoadedPlugin } from './loader.js';

type Bound<K extends 'prompts' | 'resources'> = LoadedPlugin[K][number];

export interface PromptInfo {
  name: string;
  title?: string;
  description: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

export class PromptCatalog {
  private readonly prompts = new Map<string, Bound<'prompts'>>();

  constructor(plugins: readonly LoadedPlugin[]) {
    for (const p of plugins) for (const b of p.prompts) this.prompts.set(b.definition.name, b);
  }

  list(): PromptInfo[] {
    return [...this.prompts.values()].map(({ definition: d }) => ({
      name: d.name,
      ...(d.title ? { title: d.title } : {}),
      description: d.description,
      arguments: (d.arguments ?? []).map(({ name, description, required }) => ({
        name,
        ...(description ? { description } : {}),
        ...(required ? { required } : {}),
      })),
    }));
  }

  async get(
    name: string,
    args: Record<string, string>,
    principal?: Principal,
    client?: ClientChannel,
  ): Promise<{ description?: string; messages: PromptMessage[] }> {
    const b = this.prompts.get(name);
    if (!b) throw notFound(`No prompt ${name.slice(0, 64)}; GET /api/prompts lists them`, { prompt: name.slice(0, 64) });
    for (const a of b.definition.arguments ?? []) {
      if (a.required && !args[a.name]) throw invalidParameters(`arguments.${a.name}: is required by the prompt ${name}`, { field: `arguments.${a.name}` });
    }
    return b.definition.get(args, b.context(principal, client));
  }

  /** Suggestions for one argument of a prompt from what has been typed (empty when it offers none). */
  async complete(name: string, argument: string, value: string, principal?: Principal): Promise<string[]> {
    const b = this.prompts.get(name);
    if (!b) throw notFound(`No prompt ${name.slice(0, 64)}`, { prompt: name.slice(0, 64) });
    const complete = b.definition.arguments?.find((a) => a.name === argument)?.complete;
    return complete ? complete(value, b.context(principal)) : [];
  }
}

/** A URI template's parts: `home://entity/{entity_id}` matches `home://entity/light.kitchen`. */
function matcher(template: string): ((uri: string) => Record<string, string> | undefined) | undefined {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (!names.length) return undefined;
  const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)')}$`);
  return (uri) => {
    const m = re.exec(uri);
    if (!m) return undefined;
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
  };
}

export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export class ResourceCatalog {
  private readonly resources: { bound: Bound<'resources'>; match?: (uri: string) => Record<string, string> | undefined }[] = [];

  constructor(plugins: readonly LoadedPlugin[]) {
    for (const p of plugins) for (const bound of p.resources) this.resources.push({ bound, match: matcher(bound.definition.uri) });
  }

  /** Static resources, and what each template stands for now. */
  list(principal?: Principal): ResourceInfo[] {
    const out: ResourceInfo[] = [];
    for (const { bound, match } of this.resources) {
      const d = bound.definition;
      const base = { ...(d.title ? { title: d.title } : {}), ...(d.mimeType ? { mimeType: d.mimeType } : {}) };
      if (!match) out.push({ uri: d.uri, name: d.name, ...(d.description ? { description: d.description } : {}), ...base });
      else for (const r of d.list?.(bound.context(principal)) ?? []) out.push({ ...r, ...base });
    }
    return out;
  }

  /** The templates, as MCP's resources/templates/list has them. */
  templates(): { uriTemplate: string; name: string; description?: string; mimeType?: string }[] {
    return this.resources
      .filter((r) => r.match)
      .map(({ bound: { definition: d } }) => ({
        uriTemplate: d.uri,
        name: d.name,
        ...(d.description ? { description: d.description } : {}),
        ...(d.mimeType ? { mimeType: d.mimeType } : {}),
      }));
  }

  async read(uri: string, principal?: Principal, client?: ClientChannel): Promise<ResourceContents> {
    for (const { bound, match } of this.resources) {
      const params = match ? match(uri) : bound.definition.uri === uri ? {} : undefined;
      if (!params) continue;
      const read = await bound.definition.read(params, bound.context(principal, client));
      const ui = bound.definition.ui;
      // An app's declarations travel with its content (MCP Apps: the host reads them there).
      return ui ? { ...read, contents: read.contents.map((c) => ({ ...c, _meta: { ui } })) } : read;
    }
    throw notFound(`No resource ${uri.slice(0, 200)}; GET /api/resources/list lists them`, { uri: uri.slice(0, 200) });
  }

  /** Suggestions for one `{name}` part of a resource template (empty when it offers none). */
  async complete(uriTemplate: string, argument: string, value: string, principal?: Principal): Promise<string[]> {
    const r = this.resources.find((x) => x.bound.definition.uri === uriTemplate);
    if (!r) throw notFound(`No resource template ${uriTemplate.slice(0, 200)}`, { uri: uriTemplate.slice(0, 200) });
    const complete = r.bound.definition.complete?.[argument];
    return complete ? complete(value, r.bound.context(principal)) : [];
  }
}
