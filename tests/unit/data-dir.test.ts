// Where the bridge keeps its data when DATA_DIR is not set (src/config/data-dir.ts).
import { expect, test } from 'vitest';
import { defaultDataDir, userDataDir } from '../../src/config/data-dir.js';

test.each([
  ['linux', { HOME: '/home/ann' }, '/home/ann', '/home/ann/.local/share/home-mcp-bridge'],
  ['linux', { XDG_DATA_HOME: '/srv/xdg' }, '/home/ann', '/srv/xdg/home-mcp-bridge'],
  // The XDG specification: a relative XDG_DATA_HOME is ignored.
  ['linux', { XDG_DATA_HOME: 'rel/xdg' }, '/home/ann', '/home/ann/.local/share/home-mcp-bridge'],
  ['freebsd', {}, '/home/ann', '/home/ann/.local/share/home-mcp-bridge'],
  ['darwin', { XDG_DATA_HOME: '/srv/xdg' }, '/Users/ann', '/Users/ann/Library/Application Support/home-mcp-bridge'],
  ['win32', { LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'C:\\Users\\ann', 'C:\\Users\\ann\\AppData\\Local\\home-mcp-bridge'],
  ['win32', {}, 'C:\\Users\\ann', 'C:\\Users\\ann\\AppData\\Local\\home-mcp-bridge'],
] as const)('per-user data folder on %s with %o', (platform, env, home, expected) => {
  expect(userDataDir(env, platform, home)).toBe(expected);
});

test('the add-on keeps /data; stdio a per-user folder; serve ./data', () => {
  expect(defaultDataDir('stdio', { SUPERVISOR_TOKEN: 't' }, 'linux', '/root')).toBe('/data');
  expect(defaultDataDir('serve', { SUPERVISOR_TOKEN: 't' }, 'linux', '/root')).toBe('/data');
  expect(defaultDataDir('stdio', {}, 'linux', '/home/ann')).toBe('/home/ann/.local/share/home-mcp-bridge');
  expect(defaultDataDir('serve', {}, 'linux', '/home/ann')).toBe('./data');
});
