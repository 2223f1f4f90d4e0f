// What a plugin learns of its caller: the principal's kind as it is (Home Assistant's link is its
// own kind, not a bridge user), and a name for wording and records.
import { expect, test } from 'vitest';
import { callerInfo } from '../../src/plugin-host/build-context.js';

test('every kind of principal keeps its kind', () => {
  const iat = 0;
  expect(callerInfo(undefined)).toEqual({ kind: 'local', name: 'local user' });
  expect(callerInfo({ sub: 'tester', iat })).toEqual({ kind: 'user', name: 'tester' });
  expect(callerInfo({ sub: 'token:1', iat, via: 'token', tokenId: '1' })).toEqual({ kind: 'token', name: 'token:1' });
  expect(callerInfo({ sub: 'oauth:g', iat, via: 'oauth', grantId: 'g', scope: ['read'] })).toEqual({ kind: 'oauth', name: 'oauth:g' });
  expect(callerInfo({ sub: 'discovery:home-assistant', iat, via: 'discovery', scope: ['read', 'control'] })).toEqual({
    kind: 'discovery',
    name: 'discovery:home-assistant',
  });
  expect(callerInfo({ sub: 'ha:abc', iat, via: 'ingress', haUser: { id: 'abc', name: 'anna', displayName: 'Anna' } })).toEqual({
    kind: 'ingress',
    name: 'ha:anna',
  });
});
