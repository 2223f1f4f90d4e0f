// The built service as a user runs it: `node dist/src/main.js`.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');

function run(env: Record<string, string>, onStdout?: (text: string, child: ReturnType<typeof spawn>) => void) {
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
    onStdout?.(stdout, child);
  });
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const dataDir = () => mkdtempSync(join(tmpdir(), 'hmb-proc-'));

test.each([
  [{ PORT: 'eighty' }, 'PORT (environment): must be a number (got "eighty")'],
  [{ RATE_LIMIT_MAX: '-1' }, 'RATE_LIMIT_MAX (environment): must be at least 0 (got -1)'],
  [{ HASS_URL: 'http://hub.local:8123' }, 'HASS_TOKEN: must be set when HASS_URL is set'],
])('a bad setting %o stops the start with one line naming it', async (env, message) => {
  const out = await run({ DATA_DIR: dataDir(), ...env });
  expect(out.code).toBe(1);
  const lines = out.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(message);
  expect(out.stdout).toBe('');
});

test('SIGTERM during start-up also ends in a clean stop', async () => {
  const out = await run({ DATA_DIR: dataDir(), PORT: '0', HOST: '127.0.0.1', AUTH_USERNAME: 'u', AUTH_PASSWORD: 'password1' }, (text, child) => {
    if (/ INFO {2}generated a JWT/.test(text) && !child.killed) child.kill('SIGTERM');
  });
  expect(out.code).toBe(0);
  expect(out.stdout).toMatch(/ INFO {2}stopped$/m);
});

test('SIGTERM stops the service with exit code 0', async () => {
  const out = await run({ DATA_DIR: dataDir(), PORT: '0', HOST: '127.0.0.1', AUTH_USERNAME: 'u', AUTH_PASSWORD: 'password1' }, (text, child) => {
    if (/ INFO {2}listening on [^\n]*uWebSockets/.test(text) && !child.killed) child.kill('SIGTERM');
  });
  expect(out.code).toBe(0);
  expect(out.stdout).toMatch(/ INFO {2}shutting down signal=SIGTERM$/m);
  expect(out.stdout).toMatch(/ INFO {2}stopped$/m);
});
