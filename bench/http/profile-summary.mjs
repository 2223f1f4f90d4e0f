#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `run.mjs --profile DIR`): where the bridge's CPU time goes, by
// package/file and by function, self and inclusive. Usage: node bench/http/profile-summary.mjs FILE [N]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/http/profile-summary.mjs FILE.cpuprofile [top N, default 25]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

function area(url) {
  if (!url) return '(native/vm)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const dist = url.match(/\/dist\/(.+)$/);
  if (dist) return `dist/${dist[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url;
}
const frameKey = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${area(f.url)}:${f.lineNumber + 1}` : area(f.url);
  return `${f.functionName || '(anonymous)'} ${where}`;
};

const self = new Map();
const inclusive = new Map();
const areas = new Map();
let total = 0;
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  const node = byId.get(profile.samples[i]);
  if (!node) continue;
  total += dt;
  add(self, frameKey(node), dt);
  const fn = node.callFrame.functionName;
  add(areas, fn.startsWith('(') ? fn : area(node.callFrame.url), dt);
  // Count each frame once per sample, even under recursion.
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const k = frameKey(byId.get(id));
    if (!seen.has(k)) {
      seen.add(k);
      add(inclusive, k, dt);
    }
  }
}

const pct = (v) => `${((v / total) * 100).toFixed(1)}%`;
const table = (title, m, n) => {
  const rows = [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  process.stdout.write(`\n#### ${title}\n\n| share | where |\n| ---: | --- |\n`);
  for (const [k, v] of rows) process.stdout.write(`| ${pct(v)} | ${k.replace(/\|/g, '\\|')} |\n`);
};
process.stdout.write(`profile ${file}: ${(total / 1e6).toFixed(1)} s sampled\n`);
table('self time by package / file', areas, top);
table('self time by function', self, top);
table('inclusive time by function', inclusive, top);
