// The Supervisor's REST API, as the add-on sees it (SUPERVISOR_TOKEN, http://supervisor): who the
// add-on is, and the discovery message that makes Home Assistant offer to add the bridge.
import { hostname } from 'node:os';
import type { Logger } from '../log.js';
import { backoffDelay } from './backoff.js';

/** The service name the add-on declares in config.yaml's `discovery`. */
export const DISCOVERY_SERVICE = 'mcp';
const ATTEMPTS = 8;
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
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly log: Logger,
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

  /**
   * Announces the MCP endpoint so Home Assistant offers to add it. The Supervisor may still be
   * starting with the add-on, so failures are retried with backoff; giving up only costs the offer.
   */
  async announce(port: number): Promise<{ uuid: string; url: string } | undefined> {
    for (let attempt = 0; attempt < ATTEMPTS && !this.stopped; attempt++) {
      try {
        // Home Assistant reaches the add-on by its host name on the Supervisor's network.
        const host = (await this.addonInfo()).hostname || hostname();
        const url = `http://${host}:${port}/mcp`;
        const { uuid } = await this.request<{ uuid: string }>('POST', '/discovery', { service: DISCOVERY_SERVICE, config: { url, host, port, path: '/mcp' } });
        this.log.info(`announced the MCP endpoint ${url} to Home Assistant (discovery ${uuid})`);
        return { uuid, url };
      } catch (err) {
        if (this.stopped) break;
        const delay = backoffDelay(attempt, { baseMs: 1000, maxMs: 30_000 });
        this.log.warn(`discovery through the Supervisor failed (${(err as Error).message}); trying again in ${Math.round(delay / 1000)} s`);
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
    if (!this.stopped) this.log.warn('gave up announcing the MCP endpoint; Home Assistant will not offer to add it (the bridge itself works)');
    return undefined;
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }
}
