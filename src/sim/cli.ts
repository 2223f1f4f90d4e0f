// `home-mcp-bridge sim`: runs the hub simulator on its own until SIGINT/SIGTERM.
import pino from 'pino';
import type { Logger } from './hub.js';
import { type Simulator, type SimulatorOptions, startSimulator } from './server.js';

const USAGE = `usage: home-mcp-bridge sim [options]
  --home FILE|demo       home to load (default: demo)
  --port N               port to listen on (default: 8123; 0 picks a free one)
  --host H               address to listen on (default: 127.0.0.1)
  --token T              accepted access token (default: sim-token)
  --user-token T         a second token, for a user who is not an administrator
  --ha-version V         ha_version to report (default: 2026.11.0, or 2024.3.3 with --legacy)
  --legacy               behave like a hub before 2024.4 (older shapes and messages;
                         floors and labels only from 2024.3, so --ha-version 2024.2.5 has none)
  --cover-travel-ms N    simulated cover travel time (default: 300)
  --load-entities N      add N synthetic sensors (sensor.load_0...) ...
  --load-rate M          ... and change them M times per second in total
  --log-level L          pino level (default: info)
  --help                 this text
`;

export interface SimCliOptions {
  /** Aborting stops the simulator as a signal would (for tests and embedding). */
  signal?: AbortSignal;
  onReady?: (sim: Simulator) => void;
  /** Where the URL and token lines go; default process.stderr. */
  out?: { write(text: string): unknown };
}

interface Parsed {
  sim: SimulatorOptions;
  loadEntities?: number;
  loadRate?: number;
  logLevel: string;
  help: boolean;
}

function parseArgs(argv: string[]): Parsed {
  const out: Parsed = { sim: { port: 8123 }, logLevel: 'info', help: false };
  const timing: Record<string, number> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`sim: ${flag} needs a value\n${USAGE}`);
      return v;
    };
    const int = (min: number): number => {
      const raw = value();
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min) throw new Error(`sim: ${flag} must be a whole number of at least ${min}, not ${raw}`);
      return n;
    };
    switch (flag) {
      case '--home':
        out.sim.home = value();
        break;
      case '--port': {
        const port = int(0);
        if (port > 65535) throw new Error(`sim: --port must be at most 65535`);
        out.sim.port = port;
        break;
      }
      case '--host':
        out.sim.host = value();
        break;
      case '--token':
        out.sim.token = value();
        break;
      case '--user-token':
        out.sim.userToken = value();
        break;
      case '--ha-version':
        out.sim.version = value();
        break;
      case '--legacy':
        out.sim.legacy = true;
        break;
      case '--cover-travel-ms':
        timing.coverTravelMs = int(0);
        break;
      case '--load-entities':
        out.loadEntities = int(1);
        break;
      case '--load-rate':
        out.loadRate = int(1);
        break;
      case '--log-level':
        out.logLevel = value();
        break;
      case '--help':
      case '-h':
        out.help = true;
        break;
      default:
        throw new Error(`sim: unknown option ${arg}\n${USAGE}`);
    }
  }
  if ((out.loadEntities === undefined) !== (out.loadRate === undefined)) {
    throw new Error('sim: --load-entities and --load-rate go together');
  }
  if (Object.keys(timing).length) out.sim.timing = timing;
  return out;
}

export async function runSimCli(argv: string[], opts: SimCliOptions = {}): Promise<void> {
  const out = opts.out ?? process.stderr;
  const args = parseArgs(argv);
  if (args.help) {
    out.write(USAGE);
    return;
  }
  const logger: Logger = pino({ level: args.logLevel, base: { service: 'hub-sim' } }, pino.destination({ dest: 2, sync: true }));
  const sim = await startSimulator({ ...args.sim, logger });
  out.write(`hub simulator: ${sim.url} (WebSocket ${sim.wsUrl}), ha_version ${sim.version}${sim.legacy ? ' (legacy)' : ''}\n`);
  out.write(`access token: ${sim.token}\n`);
  if (args.loadEntities !== undefined && args.loadRate !== undefined) {
    sim.startLoad({ entities: args.loadEntities, rate: args.loadRate });
    out.write(`load: ${args.loadEntities} entities, ${args.loadRate} changes/s\n`);
  }
  opts.onReady?.(sim);

  await new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      opts.signal?.removeEventListener('abort', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    if (opts.signal?.aborted) done();
    else opts.signal?.addEventListener('abort', done);
  });
  await sim.stop();
  out.write('hub simulator stopped\n');
}
