// Lovelace dashboards as Home Assistant 2026.11 keeps them: the default one (url_path null) and
// the ones listed by lovelace/dashboards/list, each in storage mode (its config saved with
// lovelace/config/save) or YAML mode (read from a file, saving refused with "Not supported").
// A storage dashboard nobody has saved yet has no config ("No config found.").
import type { Hub } from '../hub.js';

export interface DashboardSeed {
  url_path: string;
  title: string;
  mode: 'storage' | 'yaml';
  filename?: string;
  icon?: string;
  config?: Record<string, unknown>;
}

interface Dashboard {
  /** What lovelace/dashboards/list shows (nothing for the default one). */
  meta?: Record<string, unknown>;
  mode: 'storage' | 'yaml';
  config?: unknown;
}

export class LovelaceError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'LovelaceError';
  }
}

export class Lovelace {
  /** By url_path; '' is the default dashboard. */
  private readonly dashboards = new Map<string, Dashboard>([['', { mode: 'storage' }]]);

  constructor(private readonly hub: Hub) {}

  seed(list: readonly DashboardSeed[]): void {
    for (const d of list) {
      const meta: Record<string, unknown> =
        d.mode === 'yaml'
          ? {
              mode: 'yaml',
              title: d.title,
              filename: d.filename ?? `${d.url_path}.yaml`,
              ...(d.icon ? { icon: d.icon } : {}),
              require_admin: false,
              show_in_sidebar: true,
              url_path: d.url_path,
            }
          : {
              id: d.url_path.replace(/-/g, '_'),
              url_path: d.url_path,
              title: d.title,
              ...(d.icon ? { icon: d.icon } : {}),
              require_admin: false,
              show_in_sidebar: true,
              mode: 'storage',
            };
      this.dashboards.set(d.url_path, { meta, mode: d.mode, ...(d.config ? { config: structuredClone(d.config) } : {}) });
    }
  }

  list(): Record<string, unknown>[] {
    return [...this.dashboards.values()].filter((d) => d.meta).map((d) => ({ ...d.meta }));
  }

  /** url_path absent or null: the one named "lovelace" when there is such a dashboard, else the default. */
  private find(urlPath: string | null | undefined): Dashboard {
    const key = urlPath ?? (this.dashboards.has('lovelace') ? 'lovelace' : '');
    const d = this.dashboards.get(key);
    if (!d) throw new LovelaceError('config_not_found', `Unknown config specified: ${urlPath}`);
    return d;
  }

  config(urlPath: string | null | undefined): unknown {
    const d = this.find(urlPath);
    if (d.config === undefined) throw new LovelaceError('config_not_found', 'No config found.');
    return structuredClone(d.config);
  }

  save(urlPath: string | null | undefined, config: unknown): void {
    const d = this.find(urlPath);
    if (d.mode === 'yaml') throw new LovelaceError('error', 'Not supported');
    d.config = structuredClone(config);
    this.hub.bus.fire('lovelace_updated', { url_path: urlPath ?? null });
  }

  delete(urlPath: string | null | undefined): void {
    const d = this.find(urlPath);
    if (d.mode === 'yaml') throw new LovelaceError('error', 'Not supported');
    delete d.config;
    this.hub.bus.fire('lovelace_updated', { url_path: urlPath ?? null });
  }
}
