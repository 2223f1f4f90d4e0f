// The Supervisor's REST API, as the add-on sees it (SUPERVISOR_TOKEN, http://supervisor): who the
// add-on is, and the discovery message that makes Home Assistant offer to add the bridge (what it
// announces, and when, is src/auth/discovery-link.ts).

/** The service name the add-on declares in config.yaml's `discovery`. */
export const DISCOVERY_SERVICE = 'mcp';
const REQUEST_TIMEOUT_MS = 10_000;

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

export class SupervisorApi {
  private readonly abort = new AbortController();

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
    const text = await res.text();
    let parsed: Envelope<T> | undefined;
    try {
      parsed = JSON.parse(text) as Envelope<T>;
    } catch {
      parsed = undefined;
    }
    if (!res.ok || parsed?.result !== 'ok') throw new Error(`${method} ${path}: ${res.status} ${parsed?.message ?? text.slice(0, 200)}`);
    return parsed.data as T;
  }

  addonInfo(): Promise<AddonInfo> {
    return this.request<AddonInfo>('GET', '/addons/self/info');
  }

  /** One discovery message (the Supervisor keeps one per add-on and service: a new config replaces the old under the same uuid). */
  discover(service: string, config: Record<string, unknown>): Promise<{ uuid: string }> {
    return this.request<{ uuid: string }>('POST', '/discovery', { service, config });
  }

  stop(): void {
    this.abort.abort();
  }
}
