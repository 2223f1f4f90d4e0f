// `home-mcp-bridge stdio`: the MCP server over standard input and output, for desktop assistants
// that start their servers as child processes. Standard output belongs to MCP alone: everything
// else that would write there (logs, a plugin's console.log, a library's notice) goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { startApp } from '../app.js';
import type { Config } from '../config/load.js';
import { createMcpSession } from './server.js';
import { claimStdout } from './stdout.js';

export async function runStdio(config: Config, portGiven: boolean): Promise<void> {
  const out = claimStdout();
  // The HTTP side still runs (SSE, WebSocket, the panel), but never takes a port another bridge may hold.
  const app = await startApp(portGiven ? config : { ...config, host: '127.0.0.1', port: 0 }, { logStream: 'stderr' });
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
