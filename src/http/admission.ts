// The one admission path: every request on every transport (polka JSON routes, native SSE
// streams, WebSocket upgrades, MCP) passes `admit` before anything else runs. It decides who the
// caller is, whether the rate limit lets it through, and which headers go with the answer.
import { AppError, toAppError, unauthorized } from '../errors.js';
import type { Principal, TokenService } from '../auth/tokens.js';
import { bearerToken } from '../auth/tokens.js';
import type { IngressTrust } from '../auth/ingress.js';
import type { RateDecision, RateLimiter } from './rate-limit.js';

/** What a route declares about who may call it. */
export interface AdmissionPolicy {
  /** Reachable without a token. */
  public?: boolean;
  /** Counted by the rate limiter (default true). */
  rateLimited?: boolean;
  /** Also takes the token from the `token` query parameter (only where a route declares it). */
  queryToken?: boolean;
  /** The token may come after admission (a WebSocket's first message); one that comes now must be valid. */
  tokenLater?: boolean;
  /** An OAuth resource (MCP): takes access tokens issued to OAuth clients, and its 401s point at the resource metadata. */
  oauth?: boolean;
  /**
   * A capability link: the credential is the path's `key` parameter (the address announced to Home
   * Assistant), nothing else is looked at, and whatever does not fit is answered 404 like a path
   * that does not exist, so nothing confirms the link is there.
   */
  capability?: boolean;
}

/** The parts of a request admission reads, whatever the transport. */
export interface Caller {
  headers: Record<string, string>;
  ip: string;
  query?: Record<string, string | string[] | undefined>;
  /** The request's URL as sent: the query token is looked for by its literal name there. */
  originalUrl?: string;
  /** The route's path parameters (a capability link's key). */
  params?: Record<string, string>;
  method?: string;
  path?: string;
  /** When the request arrived (Date.now()), if the transport read the clock already. */
  arrived?: number;
}

export interface Admitted {
  principal?: Principal;
  /** The rate limiter's count for this request, which the answer's X-RateLimit headers carry (absent: not counted). */
  rate?: RateDecision;
}

export type Admit = (caller: Caller, policy: AdmissionPolicy) => Admitted | Promise<Admitted>;

// A client sends the same Authorization header request after request: the token taken from the
// last one is handed on as the same string, which the token cache then compares by identity.
let lastHeader: string | undefined;
let lastToken: string | undefined;

function tokenOf(caller: Caller, policy: AdmissionPolicy): string | AppError | undefined {
  const header = caller.headers.authorization;
  if (header !== undefined) {
    if (header === lastHeader) return lastToken!;
    const token = bearerToken(header);
    if (token === undefined) return unauthorized('The Authorization header must be "Bearer <token>"');
    lastHeader = header;
    lastToken = token;
    return token;
  }
  if (policy.queryToken) {
    // Only `token=` as written: a percent-encoded name (%74oken) is another parameter, which the
    // log's redaction would not know to hide.
    const q = caller.originalUrl !== undefined ? literalParam(caller.originalUrl, 'token') : caller.query?.token;
    const token = Array.isArray(q) ? q[0] : q;
    if (token) return token;
  }
  return undefined;
}

/**
 * A token's budget key, made once per verified token: the token cache hands back the same
 * principal for it, so the key (and the hash the limiter's map keeps on it) is not rebuilt per
 * request from a token of some hundred characters.
 */
const budgets = new WeakMap<Principal, string>();
function budgetOf(principal: Principal, token: string): string {
  let key = budgets.get(principal);
  if (key === undefined) budgets.set(principal, (key = `t:${token}`));
  return key;
}

/** The X-RateLimit headers of a count, for answers made here (a refusal). */
const rateHeaders = (d: RateDecision | undefined): Record<string, string> =>
  d ? { 'X-RateLimit-Limit': d.limitText, 'X-RateLimit-Remaining': String(d.remaining), 'X-RateLimit-Reset': d.resetText } : {};

/** The first value of a query parameter whose name is written exactly `name` (not percent-encoded). */
function literalParam(url: string, name: string): string | undefined {
  const q = url.indexOf('?');
  if (q === -1) return undefined;
  for (const part of url.slice(q + 1).split('&')) {
    if (!part.startsWith(`${name}=`)) continue;
    try {
      return decodeURIComponent(part.slice(name.length + 1).replace(/\+/g, ' '));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** RFC 6750: a bare challenge when no token came, `invalid_token` when one did. */
function challenge(e: AppError, tokenGiven: boolean): Record<string, string> {
  if (e.status !== 401 || e.headers['WWW-Authenticate']) return e.headers;
  return { ...e.headers, 'WWW-Authenticate': tokenGiven ? 'Bearer error="invalid_token"' : 'Bearer' };
}

/** Why a verified principal is no longer welcome here (a changed password, a revoked token, a token for another resource), or undefined. */
export type Refusal = (p: Principal, caller: Caller, policy: AdmissionPolicy) => AppError | undefined;

/**
 * Builds the admission function. It stays synchronous while nothing needs to wait (no token, or
 * one already verified), so most answers are written inside uWS's own handler call.
 */
/** Whether a Home Assistant user that came through ingress may come in (INGRESS_USERS). */
export type IngressCheck = (p: Principal) => AppError | undefined | Promise<AppError | undefined>;

export interface AdmissionOptions {
  ingressCheck?: IngressCheck;
  /** The protected resource metadata URL an OAuth route's 401 names (RFC 9728). */
  resourceMetadata?: (caller: Caller) => string;
  /** Who a capability link's key and the caller's address make the caller, if anyone. */
  capability?: (key: string | undefined, ip: string) => Principal | undefined;
}

export function createAdmission(tokens: TokenService, limiter: RateLimiter, refusal: Refusal, ingress: IngressTrust, opts: AdmissionOptions = {}): Admit {
  const ingressCheck = opts.ingressCheck ?? (() => undefined);
  const decide = (
    caller: Caller,
    policy: AdmissionPolicy,
    token: string | AppError | undefined,
    verified: Principal | AppError | undefined,
    now: number,
  ): Admitted => {
    // A signed token whose user is gone, whose password changed since, or that was revoked, is no better than a forged one.
    // (Ingress and capability principals were checked where they were made.)
    const auth =
      verified instanceof AppError || verified === undefined || verified.via === 'ingress' || verified.via === 'discovery'
        ? verified
        : (refusal(verified, caller, policy) ?? verified);
    const principal = auth instanceof AppError ? undefined : auth;
    let rate: RateDecision | undefined;
    if (policy.rateLimited !== false && limiter.enabled) {
      // Each token has its own budget (two assistants of one user do not share one); no token, the address.
      const d = (rate = limiter.hit(
        principal?.via === 'ingress' || principal?.via === 'discovery'
          ? `u:${principal.sub}`
          : principal && typeof token === 'string'
            ? budgetOf(principal, token)
            : `ip:${caller.ip}`,
        now,
      ));
      if (d.limited) {
        const retry = String(Math.max(1, d.reset - Math.floor(now / 1000)));
        throw new AppError(
          'RATE_LIMITED',
          429,
          'Too many requests, retry after the reset time',
          { reset: d.reset },
          { ...rateHeaders(d), 'Retry-After': retry },
        );
      }
    }
    const required = !policy.public && !(policy.tokenLater && token === undefined);
    // The same answer as any path that does not exist.
    if (policy.capability && !principal) throw new AppError('NOT_FOUND', 404, `No route for ${caller.method ?? 'GET'} ${(caller.path ?? '').slice(0, 200)}`);
    if (required && !principal) {
      const e = auth instanceof AppError ? auth : unauthorized();
      const c = challenge(e, token !== undefined);
      // An MCP client that holds no (good) token learns where to get one.
      if (policy.oauth && opts.resourceMetadata && e.status === 401 && !c['WWW-Authenticate']?.includes('resource_metadata')) {
        c['WWW-Authenticate'] = `${c['WWW-Authenticate'] ?? 'Bearer'}${token !== undefined ? ',' : ''} resource_metadata="${opts.resourceMetadata(caller)}"`;
      }
      throw new AppError(e.code, e.status, e.message, e.details, { ...rateHeaders(rate), ...c });
    }
    return { principal, rate };
  };

  return (caller, policy) => {
    // One clock read serves the token cache, the rate limiter and the server's books.
    const now = caller.arrived ?? Date.now();
    // A capability link: the key in the path is the only credential looked at.
    if (policy.capability) return decide(caller, policy, undefined, opts.capability?.(caller.params?.key, caller.ip), now);
    // Through ingress, Home Assistant has signed the user in; the proxy's headers are the credential.
    const viaIngress = ingress.principal(caller);
    if (viaIngress) {
      const refused = ingressCheck(viaIngress);
      if (refused instanceof Promise) return refused.then((e) => decide(caller, policy, undefined, e ?? viaIngress, Date.now()));
      return decide(caller, policy, undefined, refused ?? viaIngress, now);
    }
    const token = tokenOf(caller, policy);
    if (token === undefined || token instanceof AppError) return decide(caller, policy, token, token, now);
    // Checked on this turn, cache or not: admission by token never waits.
    let verified: Principal | AppError;
    try {
      verified = tokens.verifyNow(token, now);
    } catch (err) {
      verified = toAppError(err);
    }
    return decide(caller, policy, token, verified, now);
  };
}
