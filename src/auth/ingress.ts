// Home Assistant ingress: the Supervisor's proxy has already signed the user in to Home Assistant
// and names them in X-Remote-User-* headers. Those headers are believed only from the proxy's own
// address (INGRESS_PROXY); from anywhere else they are ignored and the request needs a token.
import type { Principal } from './tokens.js';

const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_HEX = /^(?:0{1,4}:){5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** One spelling per address: IPv4-mapped IPv6 (`::ffff:a.b.c.d`, or uWS's long hex form) becomes `a.b.c.d`. */
export function canonicalAddress(ip: string): string {
  const a = ip.trim().toLowerCase();
  const dotted = MAPPED_DOTTED.exec(a);
  if (dotted) return dotted[1]!;
  const hex = MAPPED_HEX.exec(a);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return a;
}

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

  /** The Home Assistant user the proxy vouches for, or undefined (not the proxy, or no user named). */
  principal(ip: string, headers: Record<string, string>): Principal | undefined {
    const id = headers[INGRESS_HEADERS.userId];
    if (id === undefined || !this.fromProxy(ip)) return undefined;
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
