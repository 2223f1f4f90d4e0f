#!/usr/bin/env node
// Command line: `serve` (default) runs the bridge; the other commands are listed in HELP.
import './node-check.js';
import { ConfigError, loadConfig, type Config, type LoadOptions } from './config/load.js';
import { defaultDataDir } from './config/data-dir.js';
import { startApp, type RunningApp } from './app.js';

const HELP = `usage: home-mcp-bridge [command]

commands:
  serve                  run the bridge (the default): REST, SSE, WebSocket and MCP on PORT
  stdio                  the MCP server over standard input and output (for desktop assistants);
                         logs go to standard error
  connect --home-assistant URL
                         standard input and output to the add-on's MCP through Home Assistant's own
                         address and sign-in (an administrator's token in HASS_TOKEN); no extra port
  connect URL            standard input and output to a remote bridge's /mcp (token in BRIDGE_TOKEN);
                         both reconnect when the other side restarts
  sim [options]          run the Home Assistant simulator on its own (sim --help for options)
  reset-password [--stdio] [USER]
                         give the generated user (default admin) a new password, printed once;
                         tokens issued before it stop working (--stdio: the stdio server's data)
  backup prepare|finish [--data DIR]
                         before a Home Assistant backup, write a consistent copy of the database
                         (the add-on's backup_pre); after it, remove the copy (backup_post)
  help, --help, -h       show this help

Settings come from the environment, CONFIG_FILE and /data/options.json; see docs/settings.md.
`;

function loadOrExit(opts: LoadOptions = {}): Config {
  try {
    return loadConfig(opts);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`home-mcp-bridge: configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

async function resetPassword(args: string[]): Promise<void> {
  const { ensureDataDir } = await import('./auth/files.js');
  const { resetPassword: reset } = await import('./auth/users.js');
  // --stdio: the data of the stdio server, which lives in the per-user data folder.
  const stdio = args[0] === '--stdio';
  const c = loadOrExit({ dataDirDefault: defaultDataDir(stdio ? 'stdio' : 'serve') });
  ensureDataDir(c.dataDir);
  const user = (stdio ? args[1] : args[0]) ?? 'admin';
  const password = await reset(c.dataDir, c.users, user);
  process.stdout.write(`new password for ${user}: ${password}\n(shown once; only its hash is kept in ${c.dataDir})\n`);
}

async function serve(): Promise<void> {
  const config = loadOrExit({ dataDirDefault: defaultDataDir('serve') });
  // Handlers first: a signal during start-up waits for the start to finish, then stops cleanly.
  let starting: Promise<RunningApp> | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (!starting) return;
    // A second signal while a start or a stop hangs ends the process at once.
    if (stopping) {
      process.stderr.write(`home-mcp-bridge: ${signal} again: stopping at once\n`);
      process.exit(1);
    }
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

/** MCP over standard input and output; standard output is claimed first, so nothing else writes there. */
async function stdio(): Promise<void> {
  const { claimStdout } = await import('./mcp/stdout.js');
  const out = claimStdout();
  const config = loadOrExit({ dataDirDefault: defaultDataDir('stdio') });
  // The HTTP side still runs (SSE, WebSocket, the panel), but never takes a port another bridge may hold.
  const portGiven = process.env.PORT !== undefined;
  const app = await startApp(portGiven ? config : { ...config, host: '127.0.0.1', port: 0 }, { logStream: 'stderr', command: 'stdio' });
  // A desktop assistant lists the tools once, at once, and the tools that act on the home are
  // listed only where the hub shows their domain: serve after the hub's first sync, or after 10 s
  // without it (those tools then follow, with a list-changed notification).
  await app.services.hub
    .ready(10_000)
    .catch(() => app.services.log.warn('MCP over stdio: no hub after 10 s; serving, and the tools that need it follow when it connects'));
  await (await import('./mcp/stdio.js')).serveStdio(app, out);
}

/** `backup prepare|finish [--data DIR]`: the add-on's backup_pre and backup_post (src/store/backup.ts). */
async function backup(args: string[]): Promise<void> {
  const { finishBackup, prepareBackup } = await import('./store/backup.js');
  const at = args.indexOf('--data');
  const dataDir = at >= 0 ? args[at + 1] : (process.env.DATA_DIR ?? './data');
  if (!dataDir || !['prepare', 'finish'].includes(args[0] ?? '')) {
    process.stderr.write('usage: home-mcp-bridge backup prepare|finish [--data DIR]\n');
    process.exit(2);
  }
  process.stdout.write(`${args[0] === 'prepare' ? await prepareBackup(dataDir) : finishBackup(dataDir)}\n`);
}

const command = process.argv[2] ?? 'serve';
const help = async () => void process.stdout.write(HELP);
const run: Record<string, () => Promise<void>> = {
  serve,
  sim: async () => (await import('#sim')).runSimCli(process.argv.slice(3)),
  stdio,
  connect: async () => (await import('./mcp/connect.js')).runConnect(process.argv.slice(3)),
  'reset-password': () => resetPassword(process.argv.slice(3)),
  backup: () => backup(process.argv.slice(3)),
  help,
  '--help': help,
  '-h': help,
};

const fn = run[command];
if (!fn) {
  process.stderr.write(`home-mcp-bridge: unknown command ${JSON.stringify(command.slice(0, 40))}\n\n${HELP}`);
  process.exit(2);
}
fn().catch((err: unknown) => {
  process.stderr.write(`home-mcp-bridge: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
