// The layers point one way, read from the source's own import lines: no import cycle outside the
// simulator (type imports included: a cycle of types is a cycle of ideas), the public plugin SDK
// reaches nothing that holds secrets, transports do not start the app, and the simulator is a
// package of its own: the product reaches it only through its public entry (as `#sim`), tests also through its
// testing entry, and it imports nothing of the product.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const SIM = join(SRC, 'sim');
const SIM_PACKAGE = JSON.parse(readFileSync(join(SIM, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every module a file names: static imports and re-exports, and dynamic import()s. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)].map(
    (m) => (m[1] ?? m[2] ?? m[3])!,
  );
}

/** Each source file's relative imports (and re-exports), as paths relative to src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map((m) =>
      relative(SRC, resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'))),
    );
    graph.set(relative(SRC, file), deps);
  }
  return graph;
}

/** Strongly connected groups of more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Every file a file reaches through its imports. */
function reach(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length) {
    const f = todo.pop()!;
    for (const d of graph.get(f) ?? []) {
      if (seen.has(d)) continue;
      seen.add(d);
      todo.push(d);
    }
  }
  return seen;
}

describe('layers', () => {
  const graph = importGraph();

  test('the check sees a cycle when there is one', () => {
    expect(
      cycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
          ['d.ts', ['a.ts']],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  test('no import cycle outside the simulator', () => {
    expect(cycles(graph).filter((group) => group.some((f) => !f.startsWith('sim/')))).toEqual([]);
  });

  test('the plugin SDK reaches nothing that holds secrets, tokens, users, the store or the services object', () => {
    const reached = [...reach(graph, 'plugin-sdk/index.ts')];
    const forbidden = reached.filter((f) => /^(config|auth|oauth|store)\/|^services\.ts$|^app\.ts$/.test(f));
    expect(forbidden).toEqual([]);
  });

  test('the store imports nothing above it: only itself, what an event filter is, and the error values', () => {
    const above = [...graph]
      .filter(([f]) => f.startsWith('store/'))
      .flatMap(([f, deps]) => deps.filter((d) => !/^(store|events)\/|^errors\.ts$/.test(d)).map((d) => `${f} -> ${d}`));
    expect(above).toEqual([]);
  });

  test('live events know no transport: stream/ imports nothing of src/http and never uWS', () => {
    const stream = [...graph].filter(([f]) => f.startsWith('stream/'));
    expect(stream.flatMap(([f, deps]) => deps.filter((d) => d.startsWith('http/')).map((d) => `${f} -> ${d}`))).toEqual([]);
    expect(stream.filter(([f]) => /uWebSockets/.test(readFileSync(join(SRC, f), 'utf8'))).map(([f]) => f)).toEqual([]);
  });

  test('the simulator is reached from the product only through its public entry (#sim), never by a path into it or by its package name', () => {
    // `#sim` (package.json "imports") resolves inside the package, so an installed copy of the bridge
    // finds the demo bundle without the simulator's unpublished package; it must mean that entry exactly.
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      imports: Record<string, Record<string, string>>;
      dependencies: Record<string, string>;
    };
    const entry = (SIM_PACKAGE as unknown as { exports: Record<string, Record<string, string>> }).exports['.']!;
    expect(root.imports['#sim']).toEqual({
      types: `./src/sim/${entry.types!.replace(/^\.\//, '')}`,
      default: `./src/sim/${entry.default!.replace(/^\.\//, '')}`,
    });
    expect(root.dependencies).not.toHaveProperty(SIM_PACKAGE.name);
    const product = [...tsFiles(SRC).filter((f) => !f.startsWith(`${SIM}/`)), ...tsFiles(join(ROOT, 'plugins'))];
    const wrong = product.flatMap((f) =>
      specifiers(f)
        .filter((s) =>
          s.startsWith('.') ? resolve(dirname(f), s).startsWith(`${SIM}/`) : s.startsWith(SIM_PACKAGE.name) || (s.startsWith('#') && s !== '#sim'),
        )
        .map((s) => `${relative(ROOT, f)} -> ${s}`),
    );
    expect(wrong).toEqual([]);
    // The check sees the entry it allows.
    expect(specifiers(join(SRC, 'app.ts'))).toContain('#sim');
  });

  test('tests reach the simulator through its package: the public or the testing entry, never a path into it', () => {
    const wrong = tsFiles(join(ROOT, 'tests')).flatMap((f) =>
      specifiers(f)
        .filter((s) =>
          s.startsWith('.')
            ? resolve(dirname(f), s).startsWith(`${SIM}/`)
            : s.startsWith(SIM_PACKAGE.name) && ![SIM_PACKAGE.name, `${SIM_PACKAGE.name}/testing`].includes(s),
        )
        .map((s) => `${relative(ROOT, f)} -> ${s}`),
    );
    expect(wrong).toEqual([]);
  });

  test("the simulator imports nothing of the product: only itself, node: and its package's dependencies (its tests also its dev dependencies)", () => {
    const wrong = tsFiles(SIM).flatMap((f) =>
      specifiers(f)
        .filter((s) => {
          if (s.startsWith('.')) return !resolve(dirname(f), s).startsWith(`${SIM}/`);
          const declared = f.startsWith(`${SIM}/tests/`) ? { ...SIM_PACKAGE.dependencies, ...SIM_PACKAGE.devDependencies } : SIM_PACKAGE.dependencies;
          return !s.startsWith('node:') && !(s in declared);
        })
        .map((s) => `${relative(ROOT, f)} -> ${s}`),
    );
    expect(wrong).toEqual([]);
  });

  test("demo mode reaches none of the simulator's test-only parts: the Supervisor, its API, the ingress proxy, the raw client", () => {
    const demo = reach(graph, 'sim/index.ts');
    const testOnly = ['sim/supervised.ts', 'sim/supervisor.ts', 'sim/supervisor-api.ts', 'sim/ingress-proxy.ts', 'sim/raw-client.ts', 'sim/testing.ts'];
    expect(testOnly.filter((f) => demo.has(f))).toEqual([]);
    // ...which the testing entry does reach.
    const testing = reach(graph, 'sim/testing.ts');
    expect(testOnly.filter((f) => f !== 'sim/testing.ts' && !testing.has(f))).toEqual([]);
  });

  test('only the action executor and the config service hold the hub that acts; every other module reads it through its read-only view', () => {
    // hub/acting.ts is the handle that sends service calls and commands that change the hub;
    // hub/client.ts and hub/rest.ts are the connections that make it. The composition root creates
    // them and hands the handle to exactly those two constructors; the hub's own modules define it.
    const holders = ['actions/executor.ts', 'ha-config/service.ts', 'app.ts'];
    const acting = ['hub/acting.ts', 'hub/client.ts', 'hub/rest.ts'];
    const wrong = [...graph]
      .filter(([f]) => !holders.includes(f) && !acting.includes(f))
      .flatMap(([f, deps]) => deps.filter((d) => acting.includes(d)).map((d) => `${f} -> ${d}`));
    expect(wrong).toEqual([]);
    // The connections themselves are the composition root's alone: a holder gets the handle, not the means to make one.
    expect(
      [...graph].filter(([f, deps]) => f !== 'app.ts' && !acting.includes(f) && deps.some((d) => d === 'hub/client.ts' || d === 'hub/rest.ts')).map(([f]) => f),
    ).toEqual([]);
    // ...and the check sees the holders it allows.
    expect(holders.filter((f) => !(graph.get(f) ?? []).includes('hub/acting.ts') && f !== 'app.ts')).toEqual([]);
  });

  test('no transport starts the app: only the command line composes it', () => {
    const starters = [...graph].filter(([, deps]) => deps.includes('app.ts')).map(([f]) => f);
    expect(starters).toEqual(['main.ts']);
  });
});
