// Over stdio, standard output belongs to MCP alone: everything else that would write there (logs,
// a plugin's console.log, a library's notice) is sent to stderr.
import { Writable } from 'node:stream';

/** Keeps the real stdout for MCP (the returned stream) and sends every other write to stderr. */
export function claimStdout(): Writable {
  const write = process.stdout.write.bind(process.stdout) as (chunk: Buffer | string, cb?: (err?: Error | null) => void) => boolean;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  for (const k of ['log', 'info', 'debug'] as const) console[k] = console.error;
  return new Writable({
    write(chunk: Buffer, _enc, cb) {
      write(chunk, (err) => cb(err ?? null));
    },
  });
}
