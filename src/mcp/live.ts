// What MCP clients hear from the home as it changes: a resource someone follows was updated (a state
// it shows changed), the resource list changed (an entity came or went), the tool list changed (a
// plugin's tools came or went with the home, or Home Assistant's exposure settings changed what
// callers see). One follower for the whole bridge; every era's way of listening reads from it:
// subscriptions/listen (2026-07-28, HTTP and stdio) and a 2025 session's resources/subscribe and
// unsolicited list_changed.
import type { Principal } from '../auth/tokens.js';
import { HUB_CONNECTED } from '../bus.js';
import type { HubEvent } from '../hub/types.js';
import type { McpServices } from './server.js';

export type LiveEvent = { kind: 'tools_list_changed' } | { kind: 'resources_list_changed' } | { kind: 'resource_updated'; uri: string };

/** Something that tells when what callers may see changed without a state changing (Home Assistant's exposure settings). */
export interface VisibilitySource {
  onChange(listener: () => void): () => void;
}

interface Watch {
  count: number;
  principal?: Principal;
  entities: Set<string>;
}

const READ_ONLY: Principal = { sub: 'mcp-live-read', iat: 0, scope: ['read'] };

export class McpLive {
  private readonly watched = new Map<string, Watch>();
  private readonly byEntity = new Map<string, Set<string>>();
  private readonly listeners = new Set<(e: LiveEvent) => void>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private toolLists: string;
  private readonly stopVisibility?: () => void;

  constructor(
    private readonly s: McpServices,
    private readonly debounceMs: number,
    visibility?: VisibilitySource,
  ) {
    this.toolLists = this.toolSignature();
    s.bus.on('event', this.onEvent);
    s.bus.on('tools_changed', this.onToolsChanged);
    this.stopVisibility = visibility?.onChange(() => this.later('lists', () => this.listsMayHaveChanged(true)));
  }

  /** Hears every change; returns how to stop. */
  on(listener: (e: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows a resource (counted: each follower releases once); its entities are learned by reading it. */
  watch(uri: string, principal: Principal | undefined): () => void {
    let w = this.watched.get(uri);
    if (!w) {
      w = { count: 0, principal, entities: new Set() };
      this.watched.set(uri, w);
      void this.follow(uri);
    }
    w.count++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const cur = this.watched.get(uri);
      if (!cur || --cur.count > 0) return;
      for (const e of cur.entities) this.byEntity.get(e)?.delete(uri);
      this.watched.delete(uri);
    };
  }

  /** Reads a resource to learn the entities it shows (they may change with the state: an entity joins an area). */
  async follow(uri: string): Promise<void> {
    const w = this.watched.get(uri);
    if (!w) return;
    let entities: string[] = [];
    try {
      entities = (await this.s.resources.read(uri, w.principal)).entities;
    } catch {
      // A resource that cannot be read now (unknown, the hub away) shows nothing to follow yet.
    }
    if (this.watched.get(uri) !== w) return;
    for (const e of w.entities) this.byEntity.get(e)?.delete(uri);
    w.entities = new Set(entities);
    for (const e of entities) {
      let uris = this.byEntity.get(e);
      if (!uris) this.byEntity.set(e, (uris = new Set()));
      uris.add(uri);
    }
  }

  /** Something other than the home may have changed which tools are offered (a plugin said so). */
  recheckTools(): void {
    this.later('tools', () => this.listsMayHaveChanged(false));
  }

  private readonly onToolsChanged = () => this.recheckTools();

  close(): void {
    this.s.bus.off('event', this.onEvent);
    this.s.bus.off('tools_changed', this.onToolsChanged);
    this.stopVisibility?.();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.listeners.clear();
  }

  private emit(e: LiveEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        this.s.log.warn({ err }, 'an MCP listener failed');
      }
    }
  }

  /** At most one run per key per debounce period. */
  private later(key: string, run: () => void): void {
    if (this.timers.has(key)) return;
    const t = setTimeout(() => {
      this.timers.delete(key);
      run();
    }, this.debounceMs);
    t.unref();
    this.timers.set(key, t);
  }

  /** The tool lists of a caller with control and one with read only, as names. */
  private toolSignature(): string {
    return `${this.s.tools
      .listFor(undefined)
      .map((t) => t.name)
      .join(',')}|${this.s.tools
      .listFor(READ_ONLY)
      .map((t) => t.name)
      .join(',')}`;
  }

  private listsMayHaveChanged(resources: boolean): void {
    if (resources) this.emit({ kind: 'resources_list_changed' });
    const now = this.toolSignature();
    if (now !== this.toolLists) {
      this.toolLists = now;
      this.emit({ kind: 'tools_list_changed' });
    }
  }

  private readonly onEvent = (e: HubEvent) => {
    if (e.event_type === HUB_CONNECTED) {
      this.later('lists', () => this.listsMayHaveChanged(true));
      return;
    }
    if (e.event_type !== 'state_changed') return;
    // An entity that appears or goes away changes the resource list (one per entity, per area...) and maybe the tools.
    if (!e.data.old_state || !e.data.new_state) this.later('lists', () => this.listsMayHaveChanged(true));
    const uris = this.byEntity.get(e.data.entity_id as string);
    if (!uris) return;
    for (const uri of uris) {
      this.later(`uri:${uri}`, () => {
        if (!this.watched.has(uri)) return;
        this.emit({ kind: 'resource_updated', uri });
        void this.follow(uri);
      });
    }
  };
}
