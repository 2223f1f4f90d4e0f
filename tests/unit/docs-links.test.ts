// README and the reference pages under docs/ link to each other by file and heading; a section moved or
// renamed leaves a dead link nobody clicks in review. Every relative link must name a file that exists
// and, with #anchor, a heading of that file (GitHub's anchor rule: lower case, punctuation dropped,
// spaces to hyphens).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const pages = [
  'README.md',
  'DOCS.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (file: string) => new Set([...withoutCode(readFileSync(join(ROOT, file), 'utf8')).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));

test('the anchor rule is GitHub’s', () => {
  expect(anchor("Home Assistant's own MCP path")).toBe('home-assistants-own-mcp-path');
  expect(anchor('Status rules for activation and group control')).toBe('status-rules-for-activation-and-group-control');
});

test('every relative link of README and docs/ names a file that exists and a heading it has', () => {
  const dead: string[] = [];
  for (const page of pages) {
    const text = withoutCode(readFileSync(join(ROOT, page), 'utf8'));
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, hash] = target!.split('#') as [string, string | undefined];
      const file = path ? relative(ROOT, join(ROOT, dirname(page), path)) : page;
      if (!existsSync(join(ROOT, file))) dead.push(`${page}: ${target} (no file)`);
      else if (hash && file.endsWith('.md') && !anchorsOf(file).has(hash)) dead.push(`${page}: ${target} (no heading)`);
    }
  }
  expect(dead).toEqual([]);
});
