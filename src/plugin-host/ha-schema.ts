// What Home Assistant's `mcp` integration cannot take in a tool's input schema. It turns every
// tool's JSON Schema into its own validator (probatio's `from_openapi`, Home Assistant 2026.11)
// and one schema it refuses fails the whole integration entry, not just that tool. The converter
// fails closed on constraints it cannot keep; these are the ones a tool schema can meet:
// - an open tuple: `prefixItems` without `items: false` (say a fixed length with `items` and
//   `minItems`/`maxItems`, or close the tuple);
// - the positional `items: [...]` form;
// - keywords it does not evaluate (`if`, `patternProperties`, `dependentSchemas`, ...);
// - `$ref` outside the document;
// - a `pattern` Python's `re` cannot compile (named groups `(?<name>`, `\p{...}`, `\k<name>`).
// The end-to-end suite runs Home Assistant's own converter on every tool; this is the rule as
// code, so a plugin learns at load time and the unit tests need no Python.

const UNSUPPORTED = [
  'if',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$recursiveRef',
];
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
// JavaScript-only regular expression syntax that Python's `re` refuses.
const JS_ONLY_PATTERN: [RegExp, string][] = [
  [/\(\?<(?![=!])/, 'a named group (?<name>...) (Python spells it (?P<name>...))'],
  [/\\[pP]\{/, 'a Unicode property escape \\p{...}'],
  [/\\k</, 'a named backreference \\k<name>'],
  [/\\u\{/, 'a code point escape \\u{...}'],
];

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Every place in `schema` Home Assistant's converter refuses, each as "where: why"; empty when it converts. */
export function homeAssistantSchemaProblems(schema: unknown, at = 'inputSchema'): string[] {
  const problems: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'boolean') return;
    if (!isObject(node)) {
      problems.push(`${path}: a schema must be an object or a boolean`);
      return;
    }
    for (const k of UNSUPPORTED) if (k in node) problems.push(`${path}: "${k}" is not supported`);
    if ('prefixItems' in node && node.items !== false)
      problems.push(`${path}: an open tuple (prefixItems without "items": false); use items with minItems/maxItems, or close it`);
    if (Array.isArray(node.items)) problems.push(`${path}: the positional "items": [...] form is not supported`);
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) problems.push(`${path}: $ref ${JSON.stringify(node.$ref)} points outside the document`);
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    for (const t of types) if (typeof t !== 'string' || !TYPES.has(t)) problems.push(`${path}: ${JSON.stringify(t)} is not a JSON Schema type`);
    if (typeof node.pattern === 'string') {
      for (const [re, what] of JS_ONLY_PATTERN) if (re.test(node.pattern)) problems.push(`${path}: its pattern uses ${what}`);
    }
    if (isObject(node.dependentRequired)) {
      const deps = node.dependentRequired as Record<string, unknown>;
      for (const [name, needs] of Object.entries(deps)) {
        for (const other of Array.isArray(needs) ? needs : []) {
          const back = deps[String(other)];
          if (!Array.isArray(back) || !back.includes(name))
            problems.push(`${path}: dependentRequired must be symmetric (${name} needs ${String(other)}, not the reverse)`);
        }
      }
    }
    if (isObject(node.properties)) for (const [k, sub] of Object.entries(node.properties)) walk(sub, `${path}.${k}`);
    for (const k of ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'] as const) {
      if (isObject(node[k])) walk(node[k], `${path}.${k}`);
    }
    for (const k of ['prefixItems', 'anyOf', 'oneOf', 'allOf'] as const) {
      const list = node[k];
      if (Array.isArray(list))
        list.forEach((sub, i) => {
          walk(sub, `${path}.${k}[${i}]`);
        });
    }
    for (const k of ['$defs', 'definitions'] as const) {
      if (isObject(node[k])) for (const [name, sub] of Object.entries(node[k])) walk(sub, `${path}.${k}.${name}`);
    }
  };
  walk(schema, at);
  return problems;
}
