// The Supervisor's REST API, as the add-on sees it (SUPERVISOR_TOKEN, http://supervisor): who the
// add-on is, the discovery message that makes Home Assistant offer to add the bridge (what it
// announces, and when, is src/auth/discovery-link.ts), and for the admin tools (src/ha-admin/system.ts)
// the installed apps, backups and the jobs that make them. Paths and shapes are the Supervisor's v1 API
// (supervisor/api/__init__.py, apps.py, backups.py, jobs.py); apps and backups need config.yaml's
// `hassio_api: true` and `hassio_role: manager` (supervisor/api/middleware/security.py).

/** The service name the add-on declares in config.yaml's `discovery`. */
export const DISCOVERY_SERVICE = 'mcp';
const REQUEST_TIMEOUT_MS = 10_000;
/** Starting or stopping an app waits for its container; the Supervisor answers when it is done. */
const APP_ACTION_TIMEOUT_MS = 120_000;

interface Envelope<T> {
  result: 'ok' | 'error';
  data?: T;
  message?: string;
}

export interface AddonInfo {
  slug?: string;
  hostname?: string;
  ingress_url?: string | null;
}

/** The Supervisor said no: its status, and its own message when it sent one. */
export class SupervisorError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly reason: string | undefined,
  ) {
    super(message);
  }
}

/** One installed app (add-on) as GET /addons lists it. */
export interface AppInfo {
  name: string;
  slug: string;
  description?: string;
  state: string;
  version: string;
  version_latest?: string;
  update_available?: boolean;
}

/** What a backup holds (POST /backups/new/partial's body; no `addons`: every app; no `folders`: none). */
export interface BackupRequest {
  name: string;
  homeassistant: boolean;
  addons?: string[];
  folders?: string[];
}

/** A job of the Supervisor's (GET /jobs/{uuid}): a backup's `reference` is its slug. */
export interface SupervisorJob {
  uuid: string;
  name: string | null;
  reference: string | null;
  progress: number;
  stage: string | null;
  done: boolean | null;
  errors: { type: string; message: string }[];
}

/** GET /backups/{slug}/info: what a backup holds. */
export interface BackupInfo {
  slug: string;
  name: string;
  date: string;
  type: string;
  /** In MB, as the Supervisor says it (size_bytes has the bytes). */
  size: number;
  homeassistant: string | null;
  addons: { slug: string; name: string; version: string }[];
  folders: string[];
}

export class SupervisorApi {
  private readonly abort = new AbortController();

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(timeoutMs)]),
    });
    const text = await res.text();
    let parsed: Envelope<T> | undefined;
    try {
      parsed = JSON.parse(text) as Envelope<T>;
    } catch {
      parsed = undefined;
    }
    if (!res.ok || parsed?.result !== 'ok')
      throw new SupervisorError(`${method} ${path}: ${res.status} ${parsed?.message ?? text.slice(0, 200)}`, res.status, parsed?.message);
    return parsed.data as T;
  }

  addonInfo(): Promise<AddonInfo> {
    return this.request<AddonInfo>('GET', '/addons/self/info');
  }

  /** One discovery message (the Supervisor keeps one per add-on and service: a new config replaces the old under the same uuid). */
  discover(service: string, config: Record<string, unknown>): Promise<{ uuid: string }> {
    return this.request<{ uuid: string }>('POST', '/discovery', { service, config });
  }

  apps(): Promise<AppInfo[]> {
    return this.request<{ addons: AppInfo[] }>('GET', '/addons').then((d) => d.addons);
  }

  /** Starts, stops or restarts an app; the Supervisor answers once it is done. Never uninstalls. */
  async appAction(slug: string, action: 'start' | 'stop' | 'restart'): Promise<void> {
    await this.request('POST', `/addons/${encodeURIComponent(slug)}/${action}`, undefined, APP_ACTION_TIMEOUT_MS);
  }

  /** Starts a backup in the background; answers its job's id (followed with job()). */
  async newBackup(req: BackupRequest): Promise<string> {
    const full = req.homeassistant && req.addons === undefined && req.folders === undefined;
    const body = full ? { name: req.name, background: true } : { ...req, background: true };
    const r = await this.request<{ job_id: string }>('POST', full ? '/backups/new/full' : '/backups/new/partial', body);
    return r.job_id;
  }

  job(uuid: string): Promise<SupervisorJob> {
    return this.request<SupervisorJob>('GET', `/jobs/${encodeURIComponent(uuid)}`);
  }

  backupInfo(slug: string): Promise<BackupInfo> {
    return this.request<BackupInfo>('GET', `/backups/${encodeURIComponent(slug)}/info`);
  }

  stop(): void {
    this.abort.abort();
  }
}
