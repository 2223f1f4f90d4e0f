#!/usr/bin/env node
// Command line: `serve` (default) runs the bridge; `sim` runs the hub simulator on its own.
import { ConfigError, loadConfig } from './config/load.js';
import { startApp } from './app.js';

async function serve(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`home-mcp-bridge: configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const app = await startApp(config);
  const log = app.ctx.log;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const command = process.argv[2] ?? 'serve';
const run: Record<string, () => Promise<void>> = {
  serve,
  sim: async () => (await import('./sim/cli.js')).runSimCli(process.argv.slice(3)),
};

const fn = run[command];
if (!fn) {
  process.stderr.write(`usage: home-mcp-bridge [${Object.keys(run).join('|')}]\n`);
  process.exit(2);
}
fn().catch((err: unknown) => {
  process.stderr.write(`home-mcp-bridge: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
