// Where the browser tests put their screenshots. The tracked ones (the docs pages show them) are rewritten
// only when asked, with UPDATE_SCREENSHOTS=1; otherwise a temporary folder takes them (or
// SCREENSHOT_DIR), so a test run leaves the tree as it found it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TRACKED = join(import.meta.dirname, '..', 'browser', 'screenshots');

export function screenshotDir(): { dir: string; done(): void } {
  if (process.env.SCREENSHOT_DIR) {
    mkdirSync(process.env.SCREENSHOT_DIR, { recursive: true });
    return { dir: process.env.SCREENSHOT_DIR, done: () => undefined };
  }
  if (process.env.UPDATE_SCREENSHOTS === '1') return { dir: TRACKED, done: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'hmb-screenshots-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}
