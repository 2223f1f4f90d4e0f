// Whether a version lies in a semver range, for a plugin's `bridge` field: `^0.2.0`, `~1.4`,
// `>=0.2.0 <1`, `1.x`, `*`, `1.2.3 - 1.4`, alternatives with `||`. Pre-release tags are not taken.

type Triple = [number, number, number];

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)$/;
const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/;

function parseVersion(s: string): Triple | undefined {
  const m = VERSION.exec(s.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

const cmp = (a: Triple, b: Triple) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** A partial version: the numbers given, and how many (x and * count as not given). */
function partial(s: string): { n: Triple; given: number } | undefined {
  const m = PARTIAL.exec(s);
  if (!m) return undefined;
  const parts = [m[1], m[2], m[3]];
  const given = parts.findIndex((p) => p === undefined || /^[xX*]$/.test(p));
  const count = given === -1 ? 3 : given;
  return { n: [0, 1, 2].map((i) => (i < count ? Number(parts[i]) : 0)) as Triple, given: count };
}

type Test = (v: Triple) => boolean;

/** The version just above everything that starts with the given numbers (1.2 -> 1.3.0). */
function bump(p: { n: Triple; given: number }, at: number): Triple {
  const n: Triple = [...p.n];
  n[at] = n[at]! + 1;
  for (let i = at + 1; i < 3; i++) n[i] = 0;
  return n;
}

function comparator(token: string): Test | undefined {
  const m = /^(\^|~|>=|<=|>|<|=)?(.+)$/.exec(token);
  if (!m) return undefined;
  const op = m[1] ?? '';
  const p = partial(m[2]!);
  if (!p) return undefined;
  const lo = p.n;
  switch (op) {
    case '':
    case '=':
      if (p.given === 0) return () => true;
      if (p.given === 3) return (v) => cmp(v, lo) === 0;
      return (v) => cmp(v, lo) >= 0 && cmp(v, bump(p, p.given - 1)) < 0;
    case '>=':
      return (v) => cmp(v, lo) >= 0;
    case '>':
      return p.given === 3 ? (v) => cmp(v, lo) > 0 : (v) => cmp(v, bump(p, Math.max(p.given - 1, 0))) >= 0;
    case '<':
      return (v) => cmp(v, lo) < 0;
    case '<=':
      return p.given === 3 ? (v) => cmp(v, lo) <= 0 : (v) => cmp(v, bump(p, Math.max(p.given - 1, 0))) < 0;
    case '~':
      return (v) => cmp(v, lo) >= 0 && cmp(v, bump(p, p.given >= 2 ? 1 : 0)) < 0;
    case '^': {
      // The first non-zero part given may not change; 0.0.x and 0.x stay within their own.
      const at = lo[0] !== 0 || p.given === 1 ? 0 : lo[1] !== 0 || p.given === 2 ? 1 : 2;
      return (v) => cmp(v, lo) >= 0 && cmp(v, bump(p, at)) < 0;
    }
  }
  return undefined;
}

/** The range as tests, or undefined when it is not a range this understands. */
export function parseRange(range: string): Test | undefined {
  const alternatives = range.split('||').map((alt) => {
    const hyphen = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(alt);
    const tokens = hyphen ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`] : alt.trim().split(/\s+/).filter(Boolean);
    if (!tokens.length) return undefined;
    const tests = tokens.map(comparator);
    return tests.every(Boolean) ? (v: Triple) => tests.every((t) => t!(v)) : undefined;
  });
  if (!alternatives.every(Boolean)) return undefined;
  return (v) => alternatives.some((t) => t!(v));
}

/** Whether `version` (x.y.z) lies in `range`; false for a version or range this cannot read. */
export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  const test = parseRange(range);
  if (v === undefined || test === undefined) return false;
  return test(v);
}
