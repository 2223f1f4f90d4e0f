// What every benchmark needs around the processes it starts: they die with it (also on Ctrl-C),
// and its scratch folder, when it asks for one, is removed on the way out.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/** A set to add child processes to; each is SIGKILLed when this process exits. */
export function ownedChildren({ scratchPrefix } = {}) {
  const children = new Set();
  const work = scratchPrefix ? mkdtempSync(join(os.tmpdir(), scratchPrefix)) : undefined;
  process.on('exit', () => {
    for (const c of children) c.kill('SIGKILL');
    if (work) rmSync(work, { recursive: true, force: true });
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
  return { children, work };
}
