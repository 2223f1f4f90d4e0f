#!/usr/bin/env node
// Command line: `serve` (default) runs the bridge; `sim` runs the hub simulator on its own.
import { ConfigError, loadConfig } from './config/load.js';
import { startApp, type RunningApp } from './app.js';

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
  // Handlers first: a signal during start-up waits for the start to finish, then stops cleanly.
  let starting: Promise<RunningApp> | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping || !starting) return;
    stopping = true;
    starting
      .then(async (app) => {
        app.services.log.info({ signal }, 'shutting down');
        await app.close();
        process.exit(0);
      })
      .catch((err: unknown) => {
        process.stderr.write(`home-mcp-bridge: shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  starting = startApp(config);
  await starting;
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
