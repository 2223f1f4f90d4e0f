// Imported first by main.ts, before anything loads a native module: uWebSockets.js and
// better-sqlite3 are built for one Node line, and on another they fail inside native code (or
// crash) without a word of why. The line is package.json's engines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './version.js';

/** Why this Node cannot run the bridge, or undefined when its major is the one `engines` names. */
export function nodeMismatch(version: string, engines: string): string | undefined {
  const wanted = /^(\d+)/.exec(engines)?.[1];
  const major = /^v?(\d+)\./.exec(version)?.[1];
  if (wanted !== undefined && major === wanted) return undefined;
  return (
    `this is Node ${version}; the bridge runs on Node ${wanted ?? engines} (package.json engines "${engines}"). ` +
    `The \`home-mcp-bridge\` command (dist/src/launcher.js) starts it on the Node ${wanted ?? ''} that npm installs beside it, and from a checkout \`npm start\` does.`
  );
}

const engines = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
const problem = nodeMismatch(process.version, engines);
if (problem) {
  process.stderr.write(`home-mcp-bridge: ${problem}\n`);
  process.exit(1);
}
