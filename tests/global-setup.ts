import { execFileSync } from 'node:child_process';

/** Process-level tests run the built service, so build it first when sources changed. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
}
