// The bridge's own HS256 check must accept exactly what jose's jwtVerify accepted for it, and
// refuse every token jose would: another algorithm, another key, a changed byte, a critical
// extension, another issuer, a missing claim, not yet valid, expired.
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { JwtInvalid, verifyHs256 } from '../../src/auth/hs256.js';

const key = new TextEncoder().encode('a-secret-of-at-least-thirty-two-characters!');
const other = new TextEncoder().encode('another-secret-of-at-least-thirty-two-chars');
const ISS = 'home-mcp-bridge';
const now = 2_000_000_000;
const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }, k = key) => {
  const h = Buffer.from(JSON.stringify(header)).toString('base64url');
  const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${h}.${p}.${createHmac('sha256', k).update(`${h}.${p}`).digest('base64url')}`;
};
const good = { iss: ISS, sub: 'admin', aud: 'home-mcp-bridge', iat: now - 10, exp: now + 60 };
const refused = (token: string, at = now) => {
  try {
    verifyHs256(token, key, ISS, at);
  } catch (e) {
    return e instanceof JwtInvalid ? (e.expired ? 'expired' : 'invalid') : 'threw something else';
  }
  return 'accepted';
};

describe('verifyHs256', () => {
  test('a token jose signed is accepted with its claims', async () => {
    const t = await new SignJWT({ kind: 'bridge' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('admin')
      .setIssuer(ISS)
      .setAudience('home-mcp-bridge')
      .setJti('t1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect(verifyHs256(t, key, ISS)).toMatchObject({ sub: 'admin', kind: 'bridge', jti: 't1', aud: 'home-mcp-bridge' });
    expect(verifyHs256(sign(good), key, ISS, now)).toMatchObject({ sub: 'admin' });
    expect(verifyHs256(sign({ ...good, aud: ['x', 'home-mcp-bridge'] }, { alg: 'HS256', typ: 'at+jwt' }), key, ISS, now).aud).toEqual(['x', 'home-mcp-bridge']);
  });

  test('signature, algorithm and header are held', () => {
    const t = sign(good);
    const [h, p, s] = t.split('.');
    expect(refused(sign(good, undefined, other))).toBe('invalid');
    expect(refused(`${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BA' : 'AA'}`)).toBe('invalid');
    expect(refused(`${h}.${Buffer.from(JSON.stringify({ ...good, sub: 'root' })).toString('base64url')}.${s}`)).toBe('invalid');
    expect(refused(`${h}.${p}.`)).toBe('invalid');
    expect(refused(sign(good, { alg: 'none' }))).toBe('invalid');
    expect(refused(sign(good, { alg: 'HS512' }))).toBe('invalid');
    expect(refused(sign(good, { alg: 'HS256', crit: ['exp'], exp: 1 }))).toBe('invalid');
    expect(refused(sign(good, { alg: 'HS256', b64: false }))).toBe('invalid');
    expect(refused(`${h}.${p}`)).toBe('invalid');
    expect(refused(`${h}.${p}.${s}.x`)).toBe('invalid');
    expect(refused(`${h}.${p}.${s}=`)).toBe('invalid');
    expect(refused('not a token')).toBe('invalid');
    const arr = Buffer.from('[]').toString('base64url');
    expect(refused(`${arr}.${p}.${s}`)).toBe('invalid');
  });

  test('claims: issuer, the required ones, not before and expiry', () => {
    expect(refused(sign({ ...good, iss: 'someone-else' }))).toBe('invalid');
    for (const claim of ['sub', 'iat', 'exp', 'aud'] as const) {
      const { [claim]: _, ...rest } = good;
      expect(refused(sign(rest)), claim).toBe('invalid');
    }
    expect(refused(sign({ ...good, exp: String(now + 60) }))).toBe('invalid');
    expect(refused(sign({ ...good, aud: 7 }))).toBe('invalid');
    expect(refused(sign({ ...good, nbf: now + 5 }))).toBe('invalid');
    expect(refused(sign({ ...good, nbf: now }))).toBe('accepted');
    expect(refused(sign({ ...good, exp: now }))).toBe('expired');
    expect(refused(sign(good), now + 60)).toBe('expired');
    expect(refused(sign(good), now + 59)).toBe('accepted');
  });
});
