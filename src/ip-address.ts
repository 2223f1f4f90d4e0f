// IP addresses as the bridge compares and judges them: one spelling per address (uWS reports IPv6
// peers in full, `0000:...:0001`; settings say `::1`), and whether an address is one a public
// metadata document could live at, seeing through the ways IPv6 carries an IPv4 address.
import { isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part allowed), or undefined. */
export function ipv6Groups(text: string): number[] | undefined {
  let a = text
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);
  if (isIP(a) !== 6) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [x, y, z, w] = dotted.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, dotted.index)}${((x << 8) | y).toString(16)}:${((z << 8) | w).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') : [a, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  const groups = [...left, ...fill, ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

const dottedOf = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * One spelling per address: IPv4 as dotted quad; IPv4-mapped IPv6 (`::ffff:a.b.c.d`, in any
 * spelling) as that IPv4 address; other IPv6 in RFC 5952's short form.
 */
export function canonicalAddress(ip: string): string {
  const a = ip.trim().toLowerCase();
  if (isIP(a) === 4) return a;
  const g = ipv6Groups(a);
  if (!g) return a;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return dottedOf(g[6]!, g[7]!);
  // The longest run of two or more zero groups becomes "::" (the first, on a tie).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best === -1) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/**
 * The IPv4 address an IPv6 address carries, where it is one that reaches (or stands for) that IPv4
 * host: IPv4-mapped ::ffff:0:0/96 and IPv4-translated ::ffff:0:0:0/96, IPv4-compatible ::/96,
 * NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32 (the client, and the
 * server), ISATAP (interface id ::5efe:a.b.c.d).
 */
export function embeddedIPv4(groups: number[]): string[] {
  const g = groups;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const out: string[] = [];
  if (zeros(0, 5) && g[5] === 0xffff) out.push(dottedOf(g[6]!, g[7]!));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) out.push(dottedOf(g[6]!, g[7]!));
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) out.push(dottedOf(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && (zeros(2, 6) || g[2] === 1)) out.push(dottedOf(g[6]!, g[7]!));
  if (g[0] === 0x2002) out.push(dottedOf(g[1]!, g[2]!));
  if (g[0] === 0x2001 && g[1] === 0) out.push(dottedOf(g[2]!, g[3]!), dottedOf(g[6]! ^ 0xffff, g[7]! ^ 0xffff));
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe) out.push(dottedOf(g[6]!, g[7]!));
  return out;
}

function privateIPv4(a: string): boolean {
  const [x, y, z] = a.split('.').map(Number) as [number, number, number];
  return (
    x === 0 ||
    x === 10 ||
    x === 127 ||
    x >= 224 ||
    (x === 100 && y >= 64 && y <= 127) ||
    (x === 169 && y === 254) ||
    (x === 172 && y >= 16 && y <= 31) ||
    (x === 192 && y === 0 && (z === 0 || z === 2)) ||
    (x === 192 && y === 88 && z === 99) ||
    (x === 192 && y === 168) ||
    (x === 198 && (y === 18 || y === 19)) ||
    (x === 198 && y === 51 && z === 100) ||
    (x === 203 && y === 0 && z === 113)
  );
}

/** True for addresses no public metadata document lives at, IPv4 carried inside IPv6 included. */
export function isPrivateAddress(ip: string): boolean {
  const a = canonicalAddress(ip);
  if (isIP(a) === 4) return privateIPv4(a);
  const g = ipv6Groups(a);
  if (!g) return true;
  const [g0 = 0, g1 = 0] = g;
  if (g.every((x) => x === 0) || (g.slice(0, 7).every((x) => x === 0) && g[7] === 1)) return true;
  // Unique local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8,
  // discard-only 100::/64, documentation 2001:db8::/32 and 3fff::/20.
  if ((g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0 || (g0 & 0xff00) === 0xff00) return true;
  if (g0 === 0x100 && g.slice(1, 4).every((x) => x === 0)) return true;
  if ((g0 === 0x2001 && g1 === 0xdb8) || (g0 & 0xfff0) === 0x3ff0) return true;
  // IPv4-compatible ::a.b.c.d is obsolete: never a public address. Other IPv4 carried inside IPv6
  // (NAT64, 6to4, Teredo, ISATAP, translated) is judged as that IPv4 address.
  if (g.slice(0, 6).every((x) => x === 0)) return true;
  return embeddedIPv4(g).some(privateIPv4);
}

/**
 * Who a caller is for per-address limits: an IPv4 address, or an IPv6 /64 (one home or one host
 * is given a whole /64, so single IPv6 addresses would be no limit at all).
 */
export function addressGroup(ip: string): string {
  const a = canonicalAddress(ip);
  const g = isIP(a) === 6 ? ipv6Groups(a) : undefined;
  return g
    ? `${g
        .slice(0, 4)
        .map((x) => x.toString(16))
        .join(':')}::/64`
    : a;
}
