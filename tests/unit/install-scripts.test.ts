// What `npm ci` may run: install scripts of dependencies only where package.json says so, and
// nothing that reports the install over the network (@scarf/scarf, pulled in by swagger-ui-dist).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean>; scarfSettings?: { enabled?: boolean } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

test('every dependency with an install script is allowed or refused by name, and the telemetry one is refused', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([path, p]) => path && p.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  expect(withScripts).toContain('@scarf/scarf');
  for (const name of withScripts) expect(typeof pkg.allowScripts?.[name], `allowScripts has no entry for ${name}`).toBe('boolean');
  expect(pkg.allowScripts?.['@scarf/scarf']).toBe(false);
});

// npm before 11's allow-list (the add-on image's build, a user's older npm) runs install scripts
// anyway; scarf reads the root package's scarfSettings and stays quiet.
test.skipIf(!existsSync(join(root, 'node_modules', '@scarf', 'scarf', 'report.js')))(
  'scarf, run as its postinstall would be, finds this project opted out',
  () => {
    const run = spawnSync(process.execPath, ['report.js'], {
      cwd: join(root, 'node_modules', '@scarf', 'scarf'),
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? root, INIT_CWD: root, SCARF_VERBOSE: 'true' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const out = `${run.stdout}${run.stderr}`;
    expect(out).not.toContain('Scarf payload');
    expect(out).toMatch(/Scarf has been disabled|User has opted out/);
    expect(pkg.scarfSettings?.enabled).toBe(false);
  },
);
