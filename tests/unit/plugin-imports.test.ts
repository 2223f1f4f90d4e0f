// A built-in plugin is an example a user can copy: it imports the public SDK (`home-mcp-bridge/plugin`)
// and its own files, nothing else, so a copy of its folder placed anywhere loads as it is. Read from
// each plugin's source with TypeScript's own pre-parser (static imports, re-exports, import() and
// require), and the folders it names by URL (`new URL('./words/', import.meta.url)`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SDK = 'home-mcp-bridge/plugin';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|mts|js|mjs)$/.test(e) && !e.endsWith('.d.ts') ? [p] : [];
  });
}

/** What a file names outside itself: modules it imports, and paths it resolves against its own URL. */
function reaches(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const modules = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  const urls = [...text.matchAll(/new URL\(\s*['"`]([^'"`]+)['"`]\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[1]!);
  return [...modules, ...urls];
}

/** The problems of one plugin folder: anything but the SDK, and relative paths that leave the folder. */
function outsiders(folder: string): string[] {
  const out: string[] = [];
  for (const file of sources(folder)) {
    for (const name of reaches(file)) {
      if (name === SDK) continue;
      const inside = name.startsWith('.') && !relative(folder, resolve(file, '..', name)).startsWith('..');
      if (!inside) out.push(`${relative(ROOT, file).split(sep).join('/')} imports ${name}`);
    }
  }
  return out;
}

const folders = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((e) => statSync(join(ROOT, dir, e)).isDirectory())
    .map((e) => join(ROOT, dir, e));

describe('a plugin imports only the SDK and its own files', () => {
  test('the reader sees every kind of import, and a path that leaves the folder', () => {
    const probe = join(ROOT, 'plugins', 'lights', 'index.ts');
    expect(reaches(probe)).toContain(SDK);
    expect(
      ts
        .preProcessFile(`import a from '../app/uri.js'; export * from 'node:fs'; const m = await import('valibot'); require('x');`, true, true)
        .importedFiles.map((f) => f.fileName),
    ).toEqual(['../app/uri.js', 'node:fs', 'valibot', 'x']);
  });

  test.each([...folders('plugins'), ...folders('examples')].map((f) => [relative(ROOT, f).split(sep).join('/'), f]))('%s', (_name, folder) => {
    expect(outsiders(folder)).toEqual([]);
  });
});
