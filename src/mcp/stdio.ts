// `home-mcp-bridge stdio`: the MCP server over standard input and output, for desktop assistants
// that start their servers as child processes. Standard output belongs to MCP alone: everything
// else that would write there (logs, a plugin's console.log, a library's notice) goes to stderr.
import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createMcpSession, type McpServices } from './server.js';

/** The running bridge, as far as stdio needs it (src/main.ts starts it). */
export interface StdioApp {
  services: McpServices & { config: { mcpResourceDebounce: number } };
  close(): Promise<void>;
}

/** Serves MCP on stdin and `out` (the real standard output, claimed before anything could write to it). */
export async function serveStdio(app: StdioApp, out: Writable): Promise<void> {
  const session = createMcpSession(app.services, { sub: 'stdio', iat: Math.floor(Date.now() / 1000) }, app.services.config.mcpResourceDebounce);
  const transport = new StdioServerTransport(process.stdin, out);
  let closing = false;
  const stop = async (code: number) => {
    if (closing) return;
    closing = true;
    session.close();
    await session.server.close().catch(() => undefined);
    await app.close();
    process.exit(code);
  };
  transport.onclose = () => void stop(0);
  process.stdin.on('end', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  await session.server.connect(transport);
  app.services.log.info('MCP over stdio: ready');
}
