import pino, { type Logger } from 'pino';

export type { Logger };

/** stdout belongs to the protocol in MCP stdio mode, so logs then go to stderr. */
export function createLogger(level: string, stream: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    { level, base: { service: 'home-mcp-bridge' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: stream === 'stderr' ? 2 : 1, sync: true }),
  );
}
