// Secrets the service generates for itself live in DATA_DIR, readable by the owner only.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/** Writes via a temporary file and rename, so a crash never leaves half a secret behind. */
export function writePrivateFile(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, path);
}

export function loadOrCreateJwtSecret(dataDir: string): { secret: string; created: boolean } {
  const path = join(dataDir, 'jwt-secret');
  if (existsSync(path)) {
    const secret = readFileSync(path, 'utf8').trim();
    if (secret.length >= 32) return { secret, created: false };
  }
  const secret = randomBytes(48).toString('base64url');
  writePrivateFile(path, `${secret}\n`);
  return { secret, created: true };
}
