// Home Assistant ingress: the Supervisor's proxy has already signed the user in to Home Assistant
// and names them in X-Remote-User-* headers. Those headers are believed only from the proxy's own
// address (INGRESS_PROXY); from anywhere else they are ignored and the request needs a token.
import { canonicalAddress } from '../ip-address.js';
import type { Principal } from './tokens.js';

// One spelling per address: uWS reports IPv6 peers in full (0000:...:0001), settings say ::1.
export { canonicalAddress };

export const INGRESS_HEADERS = {
  userId: 'x-remote-user-id',
  userName: 'x-remote-user-name',
  displayName: 'x-remote-user-display-name',
  path: 'x-ingress-path',
} as const;

const USER_ID = /^[0-9a-f]{32}$/i;

export class IngressTrust {
  private readonly proxy: string;

  constructor(proxyAddress: string) {
    this.proxy = canonicalAddress(proxyAddress);
  }

  /** True when the request comes from the ingress proxy itself. */
  fromProxy(ip: string): boolean {
    return canonicalAddress(ip) === this.proxy;
  }

  /**
   * The Home Assistant user the proxy vouches for, or undefined (not the proxy, or no user named).
   * The caller's address is read only when the user header is there (reading it costs a call into uWS).
   */
  principal(caller: { readonly ip: string; readonly headers: Record<string, string> }): Principal | undefined {
    const headers = caller.headers;
    const id = headers[INGRESS_HEADERS.userId];
    if (id === undefined || !this.fromProxy(caller.ip)) return undefined;
    // Home Assistant's user ids are 32 hex digits; anything else is not from its ingress.
    if (!USER_ID.test(id)) return undefined;
    const name = (headers[INGRESS_HEADERS.userName] ?? '').slice(0, 128);
    const displayName = (headers[INGRESS_HEADERS.displayName] ?? name).slice(0, 128);
    return { sub: `ha:${id.toLowerCase()}`, iat: Math.floor(Date.now() / 1000), via: 'ingress', haUser: { id: id.toLowerCase(), name, displayName } };
  }

  /** The path prefix the panel and MCP answers live under, when the request came through ingress. */
  prefix(ip: string, headers: Record<string, string>): string {
    const path = headers[INGRESS_HEADERS.path];
    if (path === undefined || !this.fromProxy(ip)) return '';
    // Only a plain absolute path is echoed into pages and URLs.
    return /^\/[A-Za-z0-9/_\-.~%]*$/.test(path) ? path.replace(/\/+$/, '') : '';
  }
}
