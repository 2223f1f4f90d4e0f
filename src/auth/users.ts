// Users who may obtain tokens. Passwords are only ever kept as scrypt hashes, each with the time
// the password last changed: a token issued before that, or for a user no longer configured, is
// refused. Configured users' hashes live in DATA_DIR/users.json (so a changed password is noticed
// at the next start); a generated admin's in DATA_DIR/admin-user.json, which `reset-password`
// rewrites and a running service reloads at once.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { User } from '../config/load.js';
import { AppError } from '../errors.js';
import type { CredentialEnd } from './credentials.js';
import { writePrivateFile } from './files.js';
import type { Principal } from './tokens.js';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: ScryptOptions) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LEN = 32;

interface StoredUser {
  username: string;
  salt: string;
  hash: string;
  /** ISO time the password was set; tokens issued before it are refused. */
  password_changed_at?: string;
}

export const GENERATED_ADMIN = 'admin';
export const ADMIN_FILE = 'admin-user.json';
const CONFIGURED_FILE = 'users.json';

async function hashPassword(username: string, password: string): Promise<StoredUser> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LEN, PARAMS);
  return { username, salt: salt.toString('base64'), hash: hash.toString('base64'), password_changed_at: new Date().toISOString() };
}

async function matches(user: StoredUser, password: string): Promise<boolean> {
  const hash = await scrypt(password, Buffer.from(user.salt, 'base64'), KEY_LEN, PARAMS);
  return timingSafeEqual(hash, Buffer.from(user.hash, 'base64'));
}

function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

const isStored = (x: unknown): x is StoredUser =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as StoredUser).username === 'string' &&
  typeof (x as StoredUser).salt === 'string' &&
  typeof (x as StoredUser).hash === 'string';

/** The seconds since the epoch before which a user's tokens are refused. */
const notBefore = (u: StoredUser) => (u.password_changed_at ? Math.floor(Date.parse(u.password_changed_at) / 1000) : 0);

export class UserStore {
  private readonly users = new Map<string, StoredUser>();
  private readonly cutoffs = new Map<string, number>();
  /** A made-up user, so an unknown name costs as much time as a wrong password. */
  private decoy?: StoredUser;
  private watcher?: FSWatcher;
  /** Told when users or passwords change while running (credentials may have ended). */
  private changed: () => void = () => undefined;

  static async create(configured: User[], dataDir: string, opts: { changed?: () => void } = {}): Promise<{ store: UserStore; generatedPassword?: string }> {
    const store = new UserStore();
    if (opts.changed) store.changed = opts.changed;
    let generatedPassword: string | undefined;
    if (configured.length) {
      const path = join(dataDir, CONFIGURED_FILE);
      const before = readJson<Record<string, unknown>>(path) ?? {};
      const kept: Record<string, StoredUser> = {};
      for (const u of configured) {
        const prev = before[u.username];
        // The same password keeps its record (and its tokens); a changed one starts anew.
        kept[u.username] = isStored(prev) && (await matches(prev, u.password)) ? prev : await hashPassword(u.username, u.password);
        store.set(kept[u.username]!);
      }
      writePrivateFile(path, `${JSON.stringify(kept)}\n`);
    } else {
      const path = join(dataDir, ADMIN_FILE);
      let admin = readJson<unknown>(path);
      if (!isStored(admin)) {
        generatedPassword = newPassword();
        admin = await hashPassword(GENERATED_ADMIN, generatedPassword);
        writePrivateFile(path, `${JSON.stringify(admin)}\n`);
      }
      store.set(admin as StoredUser);
      store.watchAdmin(dataDir);
    }
    store.decoy = await hashPassword('', randomBytes(16).toString('hex'));
    return { store, generatedPassword };
  }

  private set(u: StoredUser): void {
    this.users.set(u.username, u);
    this.cutoffs.set(u.username, notBefore(u));
  }

  /** `reset-password` in another process rewrites the file; the new password and cutoff apply at once. */
  private watchAdmin(dataDir: string): void {
    try {
      this.watcher = watch(dataDir, (_event, file) => {
        if (file !== ADMIN_FILE) return;
        const admin = readJson<unknown>(join(dataDir, ADMIN_FILE));
        if (!isStored(admin)) return;
        this.users.clear();
        this.cutoffs.clear();
        this.set(admin);
        this.changed();
      });
      this.watcher.unref();
    } catch {
      // No inotify (some containers): a reset then applies at the next start.
    }
  }

  async verify(username: string, password: string): Promise<boolean> {
    const known = this.users.get(username);
    return (await matches(known ?? this.decoy!, password)) && known !== undefined;
  }

  has(username: string): boolean {
    return this.users.has(username);
  }

  /** Whether a signed-in user's token has ended: its user is gone, or the password changed since it was issued. */
  ended(p: Principal): CredentialEnd | undefined {
    const cutoff = this.cutoffs.get(p.sub);
    if (cutoff === undefined) return { reason: 'user_removed', message: `The access token's user ${JSON.stringify(p.sub.slice(0, 64))} no longer exists` };
    if (p.iat < cutoff) return { reason: 'password_changed', message: 'The access token was issued before the password last changed; get a new one' };
    return undefined;
  }

  /** Why a verified token's principal is no longer welcome, or undefined when it is. */
  refusal(p: Principal): AppError | undefined {
    const end = this.ended(p);
    return end && invalidToken(end.message);
  }

  close(): void {
    this.watcher?.close();
  }
}

const invalidToken = (message: string) => new AppError('AUTHENTICATION_ERROR', 401, message, {}, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });

const newPassword = () => randomBytes(18).toString('base64url');

/**
 * Sets a new random password for the generated admin (no users configured) and returns it; only
 * its hash is kept. Tokens issued before it are refused from then on.
 */
export async function resetPassword(dataDir: string, configured: User[], username = GENERATED_ADMIN): Promise<string> {
  if (configured.length) {
    const names = configured.map((u) => u.username);
    throw new Error(
      names.includes(username)
        ? `the password of ${username} comes from the configuration (users, AUTH_PASSWORD or the add-on options); change it there and restart`
        : `no user ${username}: users come from the configuration (${names.join(', ')})`,
    );
  }
  const current = readJson<unknown>(join(dataDir, ADMIN_FILE));
  if (isStored(current) && current.username !== username) throw new Error(`no user ${username}: the generated user is ${current.username}`);
  const password = newPassword();
  writePrivateFile(join(dataDir, ADMIN_FILE), `${JSON.stringify(await hashPassword(username, password))}\n`);
  return password;
}
