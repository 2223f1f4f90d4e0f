// Users who may obtain tokens. Passwords are only ever kept as scrypt hashes; a generated admin
// password is shown once in the log and its hash stored in DATA_DIR/admin-user.json.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { User } from '../config/load.js';
import { writePrivateFile } from './files.js';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: ScryptOptions) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LEN = 32;

interface StoredUser {
  username: string;
  salt: string;
  hash: string;
}

async function hashPassword(username: string, password: string): Promise<StoredUser> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LEN, PARAMS);
  return { username, salt: salt.toString('base64'), hash: hash.toString('base64') };
}

export const GENERATED_ADMIN = 'admin';

export class UserStore {
  private readonly users = new Map<string, StoredUser>();
  /** A made-up user, so an unknown name costs as much time as a wrong password. */
  private decoy?: StoredUser;

  static async create(configured: User[], dataDir: string): Promise<{ store: UserStore; generatedPassword?: string }> {
    const store = new UserStore();
    let generatedPassword: string | undefined;
    if (configured.length) {
      for (const u of configured) store.users.set(u.username, await hashPassword(u.username, u.password));
    } else {
      const path = join(dataDir, 'admin-user.json');
      let admin: StoredUser | undefined;
      if (existsSync(path)) {
        const data = JSON.parse(readFileSync(path, 'utf8')) as StoredUser;
        if (data.username && data.salt && data.hash) admin = data;
      }
      if (!admin) {
        generatedPassword = randomBytes(18).toString('base64url');
        admin = await hashPassword(GENERATED_ADMIN, generatedPassword);
        writePrivateFile(path, `${JSON.stringify(admin)}\n`);
      }
      store.users.set(admin.username, admin);
    }
    store.decoy = await hashPassword('', randomBytes(16).toString('hex'));
    return { store, generatedPassword };
  }

  async verify(username: string, password: string): Promise<boolean> {
    const known = this.users.get(username);
    const user = known ?? this.decoy!;
    const hash = await scrypt(password, Buffer.from(user.salt, 'base64'), KEY_LEN, PARAMS);
    return timingSafeEqual(hash, Buffer.from(user.hash, 'base64')) && known !== undefined;
  }
}
