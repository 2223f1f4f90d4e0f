// A change to a stored config shown two ways: in words (what was added, removed or changed, key by
// key) and as a unified diff of the YAML Home Assistant keeps. Pure functions.
import { stringify } from 'yaml';

/** The YAML of a config as Home Assistant's files hold it (keys in their order); empty for none. */
export function toYaml(config: unknown): string {
  if (config === null || config === undefined) return '';
  return stringify(config, { lineWidth: 0, aliasDuplicateObjects: false });
}

const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** The line operations from a to b (a longest common subsequence, common ends trimmed first). */
function lineOps(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
  const lcs: Uint32Array[] = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: Op[] = a.slice(0, start).map((line) => ({ kind: ' ', line }));
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      ops.push({ kind: ' ', line: x[i]! });
      i++;
      j++;
    } else if (i < x.length && (j === y.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // Removals before additions, as diff writes them.
      ops.push({ kind: '-', line: x[i++]! });
    } else {
      ops.push({ kind: '+', line: y[j++]! });
    }
  }
  for (const line of a.slice(endA)) ops.push({ kind: ' ', line });
  return ops;
}

const lines = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** A unified diff (3 lines of context) from `before` to `after`; '' when they are the same. */
export function unifiedDiff(before: string, after: string, name: string): string {
  const a = lines(before);
  const b = lines(after);
  const ops = lineOps(a, b);
  if (!ops.some((o) => o.kind !== ' ')) return '';
  const out = [`--- ${a.length ? `a/${name}` : '/dev/null'}`, `+++ ${b.length ? `b/${name}` : '/dev/null'}`];
  // Positions of each op in a and b (1-based), to write the hunk headers.
  let ai = 0;
  let bi = 0;
  const pos = ops.map((o) => {
    const p = { a: ai, b: bi };
    if (o.kind !== '+') ai++;
    if (o.kind !== '-') bi++;
    return p;
  });
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.kind === ' ') {
      k++;
      continue;
    }
    const from = Math.max(0, k - CONTEXT);
    let to = k;
    // A hunk runs on while the next change is within twice the context.
    for (;;) {
      while (to < ops.length && ops[to]!.kind !== ' ') to++;
      let next = to;
      while (next < ops.length && ops[next]!.kind === ' ') next++;
      if (next < ops.length && next - to <= CONTEXT * 2) to = next;
      else break;
    }
    const end = Math.min(ops.length, to + CONTEXT);
    const hunk = ops.slice(from, end);
    const aLen = hunk.filter((o) => o.kind !== '+').length;
    const bLen = hunk.filter((o) => o.kind !== '-').length;
    const aStart = aLen ? pos[from]!.a + 1 : pos[from]!.a;
    const bStart = bLen ? pos[from]!.b + 1 : pos[from]!.b;
    out.push(`@@ -${aStart},${aLen} +${bStart},${bLen} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    k = end;
  }
  return `${out.join('\n')}\n`;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const short = (x: unknown) => {
  const s = typeof x === 'string' ? JSON.stringify(x) : (JSON.stringify(x) ?? 'nothing');
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What changed, key by key, in words: "alias: "A" → "B"; actions: 1 changed, 1 added". */
export function changeWords(before: unknown, after: unknown): string[] {
  if (same(before, after)) return ['no change'];
  if (before === null || before === undefined) return ['new'];
  if (after === null || after === undefined) return ['removed'];
  if (!isObject(before) || !isObject(after)) return [`${short(before)} → ${short(after)}`];
  const out: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const b = before[key];
    const a = after[key];
    if (same(a, b)) continue;
    if (b === undefined) out.push(`${key}: added${Array.isArray(a) ? ` (${plural(a.length, 'item')})` : ` (${short(a)})`}`);
    else if (a === undefined) out.push(`${key}: removed`);
    else if (Array.isArray(a) && Array.isArray(b)) {
      const n = Math.min(a.length, b.length);
      let changed = 0;
      for (let i = 0; i < n; i++) if (!same(a[i], b[i])) changed++;
      const parts = [
        changed ? `${changed} changed` : '',
        a.length > b.length ? `${a.length - b.length} added` : '',
        b.length > a.length ? `${b.length - a.length} removed` : '',
      ].filter(Boolean);
      out.push(`${key}: ${parts.join(', ')}`);
    } else if (isObject(a) || isObject(b)) out.push(`${key}: changed`);
    else out.push(`${key}: ${short(b)} → ${short(a)}`);
  }
  return out;
}
