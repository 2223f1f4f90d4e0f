// A latency histogram with log-spaced buckets (four per doubling, from 10 µs to about 100 s):
// recording is one array increment, and histograms of many intervals merge by adding.
const MIN_MS = 0.01;
const PER_DOUBLING = 4;
export const BUCKETS = 96;

export const newHistogram = (): number[] => new Array<number>(BUCKETS).fill(0);

export function bucketOf(ms: number): number {
  if (!(ms > MIN_MS)) return 0;
  return Math.min(BUCKETS - 1, Math.floor(PER_DOUBLING * Math.log2(ms / MIN_MS)));
}

/** The upper edge of a bucket, in ms. */
const upper = (i: number) => MIN_MS * 2 ** ((i + 1) / PER_DOUBLING);

export function record(h: number[], ms: number): void {
  h[bucketOf(ms)]!++;
}

export function merge(into: number[], h: readonly number[]): void {
  for (let i = 0; i < BUCKETS; i++) into[i]! += h[i] ?? 0;
}

/** The q-quantile (0..1) in ms, rounded to 3 decimals; 0 when empty. */
export function quantile(h: readonly number[], q: number): number {
  let total = 0;
  for (const n of h) total += n;
  if (total === 0) return 0;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    seen += h[i]!;
    if (seen >= rank) return Math.round(upper(i) * 1000) / 1000;
  }
  return Math.round(upper(BUCKETS - 1) * 1000) / 1000;
}

/**
 * Records, `n` times each, the latency at `now` of the arrivals `arrivals[from, to)`, which are in
 * order (oldest first). A backlog written at once is thousands of frames in a few buckets: each
 * bucket's run is found by halving, so the cost follows the buckets, not the frames, and the counts
 * are the ones a frame-by-frame loop would make.
 */
export function recordArrivals(h: number[], now: number, arrivals: readonly number[], from: number, to: number, n: number): void {
  let i = from;
  while (i < to) {
    const b = bucketOf(now - arrivals[i]!);
    // The last frame in bucket b: later arrivals are younger, so their buckets are b or lower.
    let lo = i;
    let hi = to - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (bucketOf(now - arrivals[mid]!) === b) lo = mid;
      else hi = mid - 1;
    }
    h[b]! += n * (lo - i + 1);
    i = lo + 1;
  }
}
