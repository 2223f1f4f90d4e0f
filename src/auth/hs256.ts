// Verifies a compact HS256 JWT at once (no promise): the bridge checks every token it meets on a
// request's own turn, so admission never waits and a WebSocket upgrade is always made inside uWS's
// handler (an upgrade after a wait trips uWS 20.57's cork bug, uNetworking/uWebSockets#1929).
// The same rules as jose's jwtVerify with { algorithms: ['HS256'], issuer, requiredClaims }.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class JwtInvalid extends Error {
  constructor(readonly expired = false) {
    super(expired ? 'expired' : 'invalid');
  }
}

export type JwtPayload = Record<string, unknown> & { sub: string; iat: number; exp: number; aud: string | string[] };

const B64URL = /^[A-Za-z0-9_-]*$/;

function json(part: string): Record<string, unknown> {
  if (!B64URL.test(part)) throw new JwtInvalid();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new JwtInvalid();
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new JwtInvalid();
  return v as Record<string, unknown>;
}

/** The payload of `token` if it is an HS256 JWT signed with `key`, from `issuer`, unexpired; else JwtInvalid. */
export function verifyHs256(token: string, key: Uint8Array, issuer: string, nowSeconds = Math.floor(Date.now() / 1000)): JwtPayload {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtInvalid();
  const [h, p, s] = parts as [string, string, string];
  const header = json(h);
  // No other algorithm, no critical extensions, no unencoded payloads.
  if (header.alg !== 'HS256' || header.crit !== undefined || header.b64 !== undefined) throw new JwtInvalid();
  if (!B64URL.test(s)) throw new JwtInvalid();
  const given = Buffer.from(s, 'base64url');
  const want = createHmac('sha256', key).update(`${h}.${p}`).digest();
  if (given.length !== want.length || !timingSafeEqual(given, want)) throw new JwtInvalid();
  const payload = json(p);
  if (payload.iss !== issuer) throw new JwtInvalid();
  const { sub, iat, exp, nbf, aud } = payload;
  if (typeof sub !== 'string' || typeof iat !== 'number' || typeof exp !== 'number' || aud === undefined) throw new JwtInvalid();
  if (typeof aud !== 'string' && !(Array.isArray(aud) && aud.every((a) => typeof a === 'string'))) throw new JwtInvalid();
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds)) throw new JwtInvalid();
  if (exp <= nowSeconds) throw new JwtInvalid(true);
  return payload as JwtPayload;
}
