// MCP Apps (the io.modelcontextprotocol/ui extension): a tool names a `ui://` resource in its
// `_meta.ui.resourceUri`, and a host that supports the extension renders that resource (HTML, in a
// sandboxed frame) with the tool's input and result.

/** The extension's name, as servers advertise it in their capabilities. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an app's HTML. */
export const UI_MIME = 'text/html;profile=mcp-app';

/** The home app's address (the built-in `app` plugin serves it): the page that shows a tool's entities with their controls. */
export const HOME_APP_URI = 'ui://home/app';
/** What a tool says to show its result in the home app (`ui: homeApp`). */
export const homeApp = { resourceUri: HOME_APP_URI } as const;

/** What a tool says of its app (published as the tool's `_meta.ui`). */
export interface ToolUi {
  /** A `ui://` resource of a plugin. */
  resourceUri: string;
  /** Who may call the tool: the model, the app, or both (default). */
  visibility?: ('model' | 'app')[];
}

/** What an app's resource declares of itself (published as the content's `_meta.ui`). */
export interface ResourceUi {
  /** The origins the app may reach; none means none (the host's sandbox enforces it). */
  csp?: { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] };
  /** Whether the host should draw a border around the app. */
  prefersBorder?: boolean;
}
