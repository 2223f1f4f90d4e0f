// Addresses compared and judged by one spelling (src/ip-address.ts).
import { expect, test } from 'vitest';
import { canonicalAddress, isPrivateAddress } from '../../src/ip-address.js';

test.each([
  ['0000:0000:0000:0000:0000:0000:0000:0001', '::1'],
  ['::1', '::1'],
  ['[::1]', '::1'],
  ['FE80:0000:0000:0000:0000:0000:0000:0001%eth0', 'fe80::1'],
  ['2001:0db8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
  ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
  ['0000:0000:0000:0000:0000:ffff:ac1e:2002', '172.30.32.2'],
  ['::ffff:172.30.32.2', '172.30.32.2'],
  ['172.30.32.2', '172.30.32.2'],
  ['not an address', 'not an address'],
])('%s is spelt %s', (given, canonical) => {
  expect(canonicalAddress(given)).toBe(canonical);
});

test.each([
  '127.0.0.1',
  '10.1.2.3',
  '169.254.169.254',
  '172.16.0.1',
  '192.168.1.1',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '::1',
  '::',
  'fe80::1',
  'fd00::1',
  'fc00::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '0:0:0:0:0:ffff:7f00:1',
  // NAT64, 6to4, IPv4-compatible, Teredo, ISATAP and translated forms of private IPv4.
  '64:ff9b::7f00:1',
  '64:ff9b::10.0.0.1',
  '64:ff9b:1::a9fe:a9fe',
  '2002:7f00:1::',
  '2002:a00:1::1',
  '::127.0.0.1',
  '::8.8.8.8',
  '2001:0:4136:e378:8000:63bf:80ff:fffe',
  '2001:0:a00:1::1',
  'fe80::5efe:10.0.0.1',
  '2001:db8::5efe:c0a8:101',
  '::ffff:0:a00:1',
  '2001:db8::1',
  '100::1',
])('%s is private', (ip) => {
  expect(isPrivateAddress(ip)).toBe(true);
});

test.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '64:ff9b::808:808', '2002:808:808::1', '2a00:1450:4001:80b::200e'])('%s is public', (ip) => {
  expect(isPrivateAddress(ip)).toBe(false);
});

test('per-address limits group IPv6 by /64', async () => {
  const { addressGroup } = await import('../../src/ip-address.js');
  expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
  expect(addressGroup('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
  expect(addressGroup('::ffff:10.0.0.1')).toBe('10.0.0.1');
  expect(addressGroup('10.0.0.1')).toBe('10.0.0.1');
});
