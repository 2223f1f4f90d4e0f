// An unknown key in the add-on's options does not stop the service: it starts and says so.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { expect, test } from 'vitest';
import { startApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';

test('an unknown options key starts the service with a warning naming it and the nearest known key', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hmb-options-'));
  const options = join(dataDir, 'options.json');
  writeFileSync(options, JSON.stringify({ log_level: 'info', rate_limt_max: 5, auth_username: 'ha', auth_password: 'long enough' }));
  const lines: string[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write: (chunk, _e, cb) => {
        lines.push(String(chunk));
        cb();
      },
    }),
  );
  const config = loadConfig({ env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir }, addonOptionsFile: options });
  const app = await startApp(config, { log });
  try {
    const health = await fetch(`${app.url}/health`);
    expect(health.status).toBe(200);
    const warning = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.includes('rate_limt_max'));
    expect(warning).toMatchObject({ level: 40, msg: `unknown setting "rate_limt_max" in ${options} (ignored); did you mean "rate_limit_max"?` });
    // The known keys of the same file were used.
    expect(config.users).toEqual([{ username: 'ha', password: 'long enough' }]);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
