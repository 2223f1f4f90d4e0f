// Home Assistant's REST API, for what its WebSocket API does not offer (the config API's
// automation and script views). Same hub, same token as the WebSocket: HASS_URL, the Supervisor's
// /core proxy inside the add-on, or the embedded simulator. Opened by the composition root as a
// reader anyone may hold and a writer that joins the acting hub (src/hub/acting.ts).
import { hubUnavailable } from '../errors.js';
import type { ActingHub } from './acting.js';
import type { BytesAnswer, HubRestReader, RestAnswer } from './reader.js';
export type { BytesAnswer } from './reader.js';

/** The REST API as a reader (GET only) and the writer the acting hub carries. */
export function openHubRest(base: string, token: string, timeoutMs?: number): { rest: HubRestReader; write: ActingHub['rest'] } {
  const api = new HubRest(base, token, timeoutMs);
  return {
    rest: { get: (path) => api.request('GET', path), getBytes: (path, limit) => api.getBytes(path, limit) },
    write: (method, path, body) => api.request(method, path, body),
  };
}

class HubRest {
  constructor(
    /** The hub's base URL (http://homeassistant.local:8123, http://supervisor/core). */
    private readonly base: string,
    private readonly token: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async request(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<RestAnswer> {
    let res: Response;
    try {
      res = await fetch(`${this.base.replace(/\/+$/, '')}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      throw hubUnavailable(
        timedOut ? `Home Assistant did not answer ${method} ${path} within ${this.timeoutMs} ms` : `Home Assistant could not be reached for ${method} ${path}`,
      );
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }

  /**
   * A GET whose body is bytes (a camera image). Reading stops at `limit` bytes, so a huge body
   * costs no more memory than that: `bytes` is then undefined and `size` says how far it got.
   */
  async getBytes(path: string, limit: number): Promise<BytesAnswer> {
    let res: Response;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      res = await fetch(`${this.base.replace(/\/+$/, '')}${path}`, { headers: { authorization: `Bearer ${this.token}` }, signal });
    } catch (err) {
      throw this.unreachable(err, path);
    }
    const contentType = res.headers.get('content-type') ?? '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body ?? []) {
        size += chunk.byteLength;
        if (size > limit) {
          await res.body?.cancel().catch(() => undefined);
          return { status: res.status, contentType, size, bytes: undefined };
        }
        chunks.push(chunk);
      }
    } catch (err) {
      throw this.unreachable(err, path);
    }
    return { status: res.status, contentType, size, bytes: Buffer.concat(chunks) };
  }

  private unreachable(err: unknown, path: string) {
    const timedOut = (err as Error).name === 'TimeoutError';
    return hubUnavailable(
      timedOut ? `Home Assistant did not answer GET ${path} within ${this.timeoutMs} ms` : `Home Assistant could not be reached for GET ${path}`,
    );
  }
}
