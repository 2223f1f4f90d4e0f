// MCP's HTTP+SSE transport of the 2024-11-05 revision, for clients that predate Streamable HTTP:
// GET /sse opens a stream whose first event names the endpoint for messages; POST /messages
// ?sessionId=... carries each client message (answered 202), and every server message goes down
// the stream.
import { randomUUID } from 'node:crypto';
import type { AuthInfo, JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

const encoder = new TextEncoder();
const KEEP_ALIVE_MS = 15_000;

export class LegacySseTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private controller?: ReadableStreamDefaultController<Uint8Array>;
  private keepAlive?: NodeJS.Timeout;
  private closed = false;
  /** The stream to answer GET /sse with. */
  readonly stream: ReadableStream<Uint8Array>;

  constructor(private readonly endpoint: string) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => this.finish(),
    });
  }

  private write(text: string): void {
    if (!this.closed) this.controller?.enqueue(encoder.encode(text));
  }

  async start(): Promise<void> {
    this.write(`event: endpoint\ndata: ${this.endpoint}?sessionId=${this.sessionId}\n\n`);
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the SSE stream is closed');
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** A message the client POSTed, with the credential it came with. */
  receive(message: JSONRPCMessage, authInfo?: AuthInfo): void {
    this.onmessage?.(message, authInfo ? { authInfo } : undefined);
  }

  async close(): Promise<void> {
    if (!this.closed) this.controller?.close();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.onclose?.();
  }
}
