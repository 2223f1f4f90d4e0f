// Reads the Dockerfile into stages of steps, for the rehearsal (rehearse.mjs) to play. Only the
// instructions the image uses are understood; anything else is an error, so a new kind of step
// in the Dockerfile cannot be skipped silently by the rehearsal.

const STEPS = new Set(['WORKDIR', 'ENV', 'COPY', 'RUN', 'HEALTHCHECK', 'LABEL', 'ARG']);

/** Splits `a=b c="d e"` (ENV, LABEL) into pairs, honouring double quotes and backslashes. */
export function parsePairs(text) {
  const pairs = [];
  let i = 0;
  const word = () => {
    let out = '';
    while (i < text.length && !/\s/.test(text[i])) {
      if (text[i] === '"') {
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\' && i + 1 < text.length) i++;
          out += text[i++];
        }
        i++;
      } else if (text[i] === '\\' && i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
      } else out += text[i++];
    }
    return out;
  };
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    const w = word();
    const eq = w.indexOf('=');
    if (eq <= 0) throw new Error(`expected NAME=value, got ${JSON.stringify(w)}`);
    pairs.push([w.slice(0, eq), w.slice(eq + 1)]);
  }
  return pairs;
}

/** Replaces ${NAME} and $NAME with values from `vars`; an unknown name is an error. */
export function substitute(text, vars) {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => {
    const name = a ?? b;
    if (!(name in vars)) throw new Error(`\${${name}} has no value`);
    return vars[name];
  });
}

/** Joins continued lines and drops comments and blank lines. */
function logicalLines(text) {
  const out = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '' || line.trimStart().startsWith('#')) {
      if (!current) continue;
      if (line.trimStart().startsWith('#')) continue; // a comment inside a continued instruction
    }
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    if (current.trim()) out.push(current.trim());
    current = '';
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * The Dockerfile as { args: global ARG defaults, stages: [{ from, image, name, steps }] }, where
 * image is `from` with the global ARGs filled in and each step is { op, text } (COPY steps also
 * { from, sources, dest }).
 */
export function parseDockerfile(text) {
  const args = {};
  const stages = [];
  for (const line of logicalLines(text)) {
    const m = /^(\w+)\s+([\s\S]*)$/.exec(line);
    if (!m) throw new Error(`Dockerfile: cannot read ${JSON.stringify(line)}`);
    const op = m[1].toUpperCase();
    const rest = m[2].trim();
    const stage = stages.at(-1);
    if (op === 'FROM') {
      const f = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      if (!f) throw new Error(`Dockerfile: cannot read FROM ${rest}`);
      stages.push({ from: f[1], image: substitute(f[1], args), name: f[2] ?? String(stages.length), steps: [] });
      continue;
    }
    if (op === 'ARG' && !stage) {
      const [name, value] = rest.split('=');
      args[name] = value ?? '';
      continue;
    }
    if (!STEPS.has(op)) throw new Error(`Dockerfile: ${op} is not a step the rehearsal plays (it plays ${[...STEPS].join(', ')})`);
    if (!stage) throw new Error(`Dockerfile: ${op} before the first FROM`);
    const step = { op, text: rest };
    if (op === 'COPY') {
      const words = rest.split(/\s+/);
      const flags = words.filter((w) => w.startsWith('--'));
      const paths = words.filter((w) => !w.startsWith('--'));
      for (const f of flags) if (!f.startsWith('--from=')) throw new Error(`Dockerfile: COPY ${f} is not played by the rehearsal`);
      if (paths.length < 2) throw new Error(`Dockerfile: COPY needs a source and a destination: ${rest}`);
      step.from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
      step.dest = paths.at(-1);
      step.sources = paths.slice(0, -1);
    }
    stage.steps.push(step);
  }
  if (stages.length === 0) throw new Error('Dockerfile: no FROM');
  return { args, stages };
}
