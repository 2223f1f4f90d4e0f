// "Did you mean": ranks known entity ids by closeness to an unknown one, for INVALID_ENTITY details.

function bigrams(s: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const A = bigrams(a);
  const B = bigrams(b);
  let common = 0;
  for (const [g, n] of A) common += Math.min(n, B.get(g) ?? 0);
  return (2 * common) / (a.length - 1 + (b.length - 1));
}

/** Up to `limit` ids, closest first; the same domain counts for more than a similar name. */
export function closestEntities(query: string, candidates: Iterable<string>, limit = 10): string[] {
  const dot = query.indexOf('.');
  const domain = dot > 0 ? query.slice(0, dot) : '';
  const object = dot > 0 ? query.slice(dot + 1) : query;
  const scored: { id: string; score: number }[] = [];
  for (const id of candidates) {
    const d = id.indexOf('.');
    const score = similarity(object, id.slice(d + 1)) + (domain && id.slice(0, d) === domain ? 0.5 : 0);
    scored.push({ id, score });
  }
  scored.sort((x, y) => y.score - x.score || x.id.localeCompare(y.id));
  return scored.slice(0, limit).map((s) => s.id);
}

/** Up to `limit` ids, closest first, by the id or any of its names (areas, floors, devices and labels by name). */
export function closestIds(query: string, candidates: Iterable<{ id: string; names: readonly (string | null | undefined)[] }>, limit = 10): string[] {
  const q = query.toLowerCase();
  const scored: { id: string; score: number }[] = [];
  for (const c of candidates) {
    let score = similarity(q, c.id.toLowerCase());
    for (const name of c.names) if (name) score = Math.max(score, similarity(q, name.toLowerCase()));
    scored.push({ id: c.id, score });
  }
  scored.sort((x, y) => y.score - x.score || x.id.localeCompare(y.id));
  return scored.slice(0, limit).map((s) => s.id);
}
