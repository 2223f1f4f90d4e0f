// Python's difflib.get_close_matches, which 2026.11's validator (probatio) uses for its "did you
// mean ...?" on an unknown key: the same Ratcliff/Obershelp ratio, cutoffs and tie order, so the
// simulator suggests what the hub suggests. No junk heuristics: keys are far shorter than the
// 200 characters where difflib starts treating popular characters as junk.

/** SequenceMatcher(None, a, b).get_matching_blocks(): the sum of the matched lengths. */
function matchedLength(a: string, b: string): number {
  const b2j = new Map<string, number[]>();
  for (let j = 0; j < b.length; j++) {
    const list = b2j.get(b[j]!);
    if (list) list.push(j);
    else b2j.set(b[j]!, [j]);
  }
  /** find_longest_match within a[alo:ahi], b[blo:bhi]: the earliest longest block. */
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = next;
    }
    return [besti, bestj, bestsize];
  };
  let total = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    total += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return total;
}

/** The ratio of SequenceMatcher(None, a, b): 2 * matches / (len(a) + len(b)). */
export function ratio(a: string, b: string): number {
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * matchedLength(a, b)) / total;
}

/** difflib.get_close_matches(word, possibilities, n, cutoff): best first, ties by the larger string. */
export function getCloseMatches(word: string, possibilities: readonly string[], n = 3, cutoff = 0.6): string[] {
  const scored: [number, string][] = [];
  for (const x of possibilities) {
    // SequenceMatcher(None, x, word): the possibility is a, the word b.
    const score = ratio(x, word);
    if (score >= cutoff) scored.push([score, x]);
  }
  // heapq.nlargest over (score, x) tuples.
  scored.sort((p, q) => q[0] - p[0] || (q[1] > p[1] ? 1 : q[1] < p[1] ? -1 : 0));
  return scored.slice(0, n).map(([, x]) => x);
}
