// HS256 access tokens. Verified tokens are cached until they expire, so the hot path is one Map lookup.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { unauthorized } from '../errors.js';
import { JwtInvalid, verifyHs256 } from './hs256.js';

export const ISSUER = 'home-mcp-bridge';
/**
 * What a principal with scopes may do: read; control devices; change Home Assistant's config
 * (config); look after Home Assistant itself: registries, zones, health, integrations (admin).
 */
export const SCOPES = ['read', 'control', 'config', 'admin'] as const;
/** What a request that names no scope gets: never admin, which must be asked for by name. */
export const DEFAULT_SCOPES = ['read', 'control', 'config'] as const satisfies readonly Scope[];
export type Scope = (typeof SCOPES)[number];
export const AUDIENCE = 'home-mcp-bridge';
const CACHE_MAX = 10_000;

export interface Principal {
  sub: string;
  /** Issued-at, seconds since the epoch. */
  iat: number;
  /**
   * How the caller got in, the principal's kind: a bridge user's sign-in (absent: the default), a
   * named bridge token made for an assistant, a Home Assistant user vouched for by the ingress
   * proxy, an OAuth client's grant, or Home Assistant itself through the link announced to it.
   */
  via?: 'token' | 'ingress' | 'oauth' | 'discovery';
  /** The named bridge token's id (its jti), when via is 'token'. */
  tokenId?: string;
  /** An OAuth grant's id, when via is 'oauth'. */
  grantId?: string;
  /** What the principal may do (read, control) when it is limited: OAuth grants and Home Assistant's link. Absent: not limited by scope. */
  scope?: readonly string[];
  /** The resource an OAuth access token is for. */
  audience?: string;
  /** The Home Assistant user, when via is 'ingress'. */
  haUser?: { id: string; name: string; displayName: string };
  /** When the token expires (epoch ms); absent where nothing expires (ingress). */
  expMs?: number;
}

/** The claim that marks a named bridge token (revocable, checked against the store on every use). */
const BRIDGE_KIND = 'bridge';
/** The claim that marks an access token issued to an OAuth client (audience: the MCP resource). */
const OAUTH_KIND = 'oauth';

export class TokenService {
  private readonly key: Uint8Array;
  private readonly cache = new Map<string, Principal & { expMs: number }>();
  private lastToken?: string;
  private lastHit?: Principal & { expMs: number };

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(sub: string, bridge?: { id: string; ttlSeconds: number }): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
    const ttl = bridge?.ttlSeconds ?? this.ttlSeconds;
    const token = await new SignJWT(bridge ? { kind: BRIDGE_KIND } : {})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      // Each token is its own (rate-limit budget, revocation), even two issued in one second.
      .setJti(bridge?.id ?? randomUUID())
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ttl}s`)
      .sign(this.key);
    return { access_token: token, token_type: 'Bearer', expires_in: ttl };
  }

  /** An OAuth access token: for one grant, its scopes, and the resource (audience) it was asked for. */
  async issueOAuth(grantId: string, scope: readonly string[], resource: string, ttlSeconds: number): Promise<string> {
    return new SignJWT({ kind: OAUTH_KIND, gid: grantId, scope: scope.join(' ') })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(`oauth:${grantId}`)
      .setJti(randomUUID())
      .setIssuer(ISSUER)
      .setAudience(resource)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** Returns the principal from a cached verification, or undefined when the token must be verified. */
  cached(token: string, now = Date.now()): Principal | undefined {
    // The same token as the last request's (an assistant's calls come in runs): compared, not hashed again.
    const hit = token === this.lastToken ? this.lastHit : this.cache.get(token);
    if (!hit) return undefined;
    if (hit.expMs > now) {
      this.lastToken = token;
      this.lastHit = hit;
      return hit;
    }
    this.cache.delete(token);
    this.lastToken = undefined;
    return undefined;
  }

  async verify(token: string): Promise<Principal> {
    return this.verifyNow(token);
  }

  /** Verifies at once (no promise): a cache hit, or the token checked here and cached. Throws 401s. */
  verifyNow(token: string, now = Date.now()): Principal {
    const hit = this.cached(token, now);
    if (hit) return hit;
    let payload: ReturnType<typeof verifyHs256>;
    try {
      payload = verifyHs256(token, this.key, ISSUER);
    } catch (err) {
      throw unauthorized(err instanceof JwtInvalid && err.expired ? 'The access token has expired' : 'The access token is invalid');
    }
    // OAuth tokens are for the resource they were asked for (checked against the request by
    // admission); every other token is for the bridge itself.
    const oauth = payload.kind === OAUTH_KIND && typeof payload.gid === 'string' && typeof payload.aud === 'string';
    if (!oauth && payload.aud !== AUDIENCE && !(Array.isArray(payload.aud) && payload.aud.includes(AUDIENCE)))
      throw unauthorized('The access token is invalid');
    const bridge = payload.kind === BRIDGE_KIND && typeof payload.jti === 'string';
    const extra: Partial<Principal> = oauth
      ? {
          via: 'oauth',
          grantId: payload.gid as string,
          scope: String(payload.scope ?? '')
            .split(' ')
            .filter(Boolean),
          audience: payload.aud as string,
        }
      : bridge
        ? { via: 'token', tokenId: payload.jti as string }
        : {};
    const entry: Principal & { expMs: number } = { sub: payload.sub, iat: payload.iat, expMs: payload.exp * 1000, ...extra };
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(token, entry);
    return entry;
  }
}

/** Pulls the token out of `Authorization: Bearer <token>`; anything else is undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header || header.length < 8) return undefined;
  // Nearly every client writes the scheme as RFC 6750 does; any other case is taken too.
  if (!header.startsWith('Bearer ') && header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = header.slice(7).trim();
  return token || undefined;
}

/** The user an action is done for, as event contexts carry it: Home Assistant's own id through ingress. */
export const actingUserId = (p: Principal): string => (p.via === 'ingress' && p.haUser ? p.haUser.id : p.sub);

/** Who did it, for records and logs: the bridge user, the Home Assistant user, or the token's name. */
export function actorName(p: Principal): string {
  if (p.via === 'ingress' && p.haUser) return `ha:${p.haUser.name || p.haUser.id}`;
  return p.sub;
}

/** A person (a bridge user, or a Home Assistant user through ingress), as opposed to an assistant or Home Assistant itself. */
export const isPerson = (p: Principal | undefined): p is Principal => p !== undefined && (p.via === undefined || p.via === 'ingress');
