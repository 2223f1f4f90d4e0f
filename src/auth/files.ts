// Secrets the service generates for itself live in DATA_DIR, readable by the owner only.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** DATA_DIR cannot be made or written: the start stops with this one line. */
export class DataDirError extends Error {
  override name = 'DataDirError';
}

const WHY: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file',
  ENOSPC: 'no space left',
};
const why = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return `${WHY[code] ?? (err as Error).message}${code ? ` (${code})` : ''}`;
};

/** Makes DATA_DIR (owner only) and checks it can be written, or says why not. */
export function ensureDataDir(dataDir: string): void {
  const dir = resolve(dataDir);
  const fail = (reason: string) => new DataDirError(`DATA_DIR ${dir} cannot be used: ${reason}`);
  // One level at a time: Node's recursive mkdir loops forever where a parent exists but mkdir
  // answers ENOENT (under /proc), so the folders to make are found first.
  const missing: string[] = [];
  for (let p = dir; ; p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) throw fail(p === dir ? 'it is a file, not a folder' : `${p} is a file, not a folder`);
      break;
    } catch (err) {
      if (err instanceof DataDirError) throw err;
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(p) === p) throw fail(`cannot look at ${p}: ${why(err)}`);
      missing.unshift(p);
    }
  }
  for (const p of missing) {
    try {
      mkdirSync(p, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw fail(`cannot create ${p}: ${why(err)}`);
    }
  }
  const probe = join(dir, `.write-test-${process.pid}`);
  try {
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (err) {
    throw fail(`cannot write in it: ${why(err)}`);
  }
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
