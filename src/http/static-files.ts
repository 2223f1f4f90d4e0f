// Static files (the panel) through sirv on the uWS front: sirv writes to a node-style response and
// pipes file streams into it, so it gets a small Writable that forwards to the route's response,
// waiting for uWS to drain when the client is behind.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderValue, ResponseAdapter } from './adapter.js';

class SirvResponse extends Writable {
  constructor(private readonly out: ResponseAdapter) {
    super();
  }
  get statusCode(): number {
    return this.out.statusCode;
  }
  set statusCode(code: number) {
    this.out.statusCode = code;
  }
  getHeader(name: string): HeaderValue | undefined {
    return this.out.getHeader(name);
  }
  setHeader(name: string, value: HeaderValue): this {
    this.out.setHeader(name, value);
    return this;
  }
  writeHead(status: number, headers?: Record<string, HeaderValue>): this {
    this.out.writeHead(status, headers);
    return this;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error) => void): void {
    if (this.out.aborted) return done(new Error('client went away'));
    if (this.out.write(chunk)) done();
    else this.out.onDrain(() => done());
  }
  override _final(done: () => void): void {
    this.out.end();
    done();
  }
}

export type StaticHandler = (path: string, headers: Record<string, string>, out: ResponseAdapter, notFound: () => void) => void;

/** Serves the files of `dir` (read once at start; ETags, so a reload asks only "changed?"). */
export function staticFiles(dir: string): StaticHandler {
  // no-cache: the browser asks each time (a 304 when unchanged), so an updated add-on shows at once.
  const handler = sirv(dir, { etag: true, dev: false, extensions: [], dotfiles: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  return (path, headers, out, notFound) => {
    const res = new SirvResponse(out);
    res.on('error', () => out.end());
    handler({ url: path, headers } as unknown as IncomingMessage, res as unknown as ServerResponse, notFound);
  };
}

/** A folder of the package (src/panel), found from this module in src/ and in dist/src alike. */
export function packageFolder(...parts: string[]): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above the service');
    dir = up;
  }
  return join(dir, ...parts);
}
