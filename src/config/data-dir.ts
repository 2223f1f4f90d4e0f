// Where the bridge keeps its data when DATA_DIR is not set. The add-on keeps /data (backed up by
// the Supervisor). A desktop assistant starts `stdio` in whatever folder it likes, so stdio keeps
// its data in the user's own data folder, as the platform names it; `serve` keeps ./data.
import { homedir } from 'node:os';
import { isAbsolute, posix, win32 } from 'node:path';

const NAME = 'home-mcp-bridge';

/** The per-user data folder: $XDG_DATA_HOME (or ~/.local/share), ~/Library/Application Support, %LOCALAPPDATA%. */
export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (platform === 'win32') return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), NAME);
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', NAME);
  // The XDG Base Directory specification: a relative path in XDG_DATA_HOME is to be ignored.
  const xdg = env.XDG_DATA_HOME && posix.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : posix.join(home, '.local', 'share');
  return posix.join(xdg, NAME);
}

export function defaultDataDir(
  command: 'serve' | 'stdio',
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home?: string,
): string {
  if (env.SUPERVISOR_TOKEN) return '/data';
  return command === 'stdio' ? userDataDir(env, platform, home) : './data';
}

/**
 * The command that gives the generated user a new password in `dataDir`, as a person types it
 * (the first start's banner says it): `reset-password` finds the data the same way `command` did.
 */
export function resetPasswordCommand(command: 'serve' | 'stdio', dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const base = `home-mcp-bridge reset-password${command === 'stdio' ? ' --stdio' : ''}`;
  if (dataDir !== defaultDataDir(command, env)) return `DATA_DIR=${/^[\w@%+=:,./-]+$/.test(dataDir) ? dataDir : `'${dataDir.replace(/'/g, `'\\''`)}'`} ${base}`;
  // ./data is where serve was started: the command finds it from the same folder.
  return isAbsolute(dataDir) ? base : `${base} (from this folder; npm run reset-password in a checkout)`;
}
