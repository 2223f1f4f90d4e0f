// The composition root hands each part what it needs at construction (issue 37): no part gets a
// hook, a setter or a field set after it is made. Read from the source: app.ts assigns no part's
// field and calls no `use*`/`set*` on one, and no module outside the simulator offers a `use*`
// method or a setter beyond the few named here with their reason.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? (e === 'sim' ? [] : tsFiles(p)) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The code without comments or string literals, so words in them are not read as code. */
const code = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");

/** Statements of a composition that bind a part late: a part's field assigned, or a `use*`/`set*` call on it. */
function lateBindings(text: string): string[] {
  return [
    ...[...code(text).matchAll(/\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\s*(?:\?\?|\|\||&&)?=(?![=>])/g)].map((m) => m[0].trim()),
    ...[...code(text).matchAll(/\.\s*(?:use|set)[A-Z][\w$]*\s*\(/g)].map((m) => m[0].replace(/\s+/g, '')),
  ];
}

/** Methods named `use*` and setters a module offers: ways to bind a part after it is made. */
function hooksOffered(text: string): string[] {
  return [...code(text).matchAll(/^\s*(?:public\s+)?(?:(use[A-Z][\w$]*)\s*\(|set\s+([A-Za-z_$][\w$]*)\s*\()/gm)].map((m) => (m[1] ? m[1] : `set ${m[2]}`));
}

/**
 * Known and kept, with why: the HTTP response stand-ins copy Node's response API; the admin
 * service tells the config service how its kinds are restored (a loop between the two that a
 * later change may untie; issue 37's last late-bound registration).
 */
const KEPT: Record<string, string[]> = {
  'http/static-files.ts': ['set statusCode'],
  'ha-config/service.ts': ['useAdminKind'],
};

describe('the composition binds nothing late', () => {
  test('the checks see a late binding when there is one', () => {
    const sample = [
      'const store = openStore(file);',
      'store.streamStats.maxConnections = 5;',
      'base.commands.usePluginWords(words);',
      'services.mcp ??= make();',
      'if (a.b === c) f(() => x);',
      "// parts.x = 1 in a comment\nconst s = 'a.b = c';",
    ].join('\n');
    expect(lateBindings(sample)).toEqual(['store.streamStats.maxConnections =', 'services.mcp ??=', '.usePluginWords(']);
    expect(hooksOffered('class A {\n  useTools(call: C): void {}\n  set port(p: number) {}\n  run(): void {}\n}')).toEqual(['useTools', 'set port']);
  });

  test('app.ts assigns no part a field and calls no use*/set* on one after making it', () => {
    expect(lateBindings(readFileSync(join(SRC, 'app.ts'), 'utf8'))).toEqual([]);
  });

  test('no module offers a use* method or a setter beyond those kept with their reason', () => {
    const offered = Object.fromEntries(
      tsFiles(SRC)
        .map((f) => [relative(SRC, f), hooksOffered(readFileSync(f, 'utf8'))] as const)
        .filter(([, hooks]) => hooks.length > 0),
    );
    expect(offered).toEqual(KEPT);
  });
});
