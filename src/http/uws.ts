// The only module that loads uWebSockets.js. It loads the binary for this platform and Node ABI
// itself: the package's own binary, or, on the one glibc it was made and checked for at install
// (scripts/native/install.mjs), the copy whose C23 imports were redirected for a glibc older than
// the binary needs. Whatever loads must be native code: the bridge refuses to run on anything else.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RecognizedString, TemplatedApp, us_listen_socket } from 'uWebSockets.js';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket, WebSocket, WebSocketBehavior, us_socket_context_t } from 'uWebSockets.js';
type Uws = typeof import('uWebSockets.js');

// The binary has these (uWS_WebSocket_sendFirstFragment, ...); the package's typings leave them out.
declare module 'uWebSockets.js' {
  interface WebSocket<UserData> {
    /** Starts a message made of fragments; returns 1 sent, 0 buffered (backpressure), 2 dropped. */
    sendFirstFragment(message: RecognizedString, isBinary?: boolean, compress?: boolean): number;
    /** Ends a message started with sendFirstFragment. */
    sendLastFragment(message: RecognizedString, compress?: boolean): number;
  }
}

export type Engine = 'native' | 'fallback';

interface NativeRecord {
  abi: string;
  glibc: string | null;
  uws: { copy: string | null };
}

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('uWebSockets.js'));
const stateDir = join(packageDir, '..', '.home-mcp-bridge');
const binaryName = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;

function readRecord(): NativeRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(stateDir, 'native.json'), 'utf8')) as NativeRecord;
  } catch {
    return undefined;
  }
}

function hostGlibc(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  // The network part of a report can take seconds (DNS); only the header is wanted.
  (process.report as unknown as { excludeNetwork: boolean }).excludeNetwork = true;
  const report = process.report.getReport() as { header: { glibcVersionRuntime?: string } };
  return report.header.glibcVersionRuntime;
}

/** The file to load: the checked copy only where install made it (same ABI, same glibc). */
function chooseBinary(): { file: string; redirected: boolean } {
  const record = readRecord();
  if (record?.uws.copy && record.abi === process.versions.modules && record.glibc !== null && record.glibc === hostGlibc()) {
    return { file: join(stateDir, record.uws.copy), redirected: true };
  }
  return { file: join(packageDir, binaryName), redirected: false };
}

/**
 * How large a request's line and headers may be. uWS reads it once, when the binary loads, and
 * otherwise allows 4 KiB (431 beyond): too little for long entity ids in paths or a browser's
 * cookies through ingress. 16 KiB is Node's own http limit.
 */
export const MAX_HEADERS_SIZE = 16 * 1024;

function load(): { uws: Uws; file: string; redirected: boolean } {
  const chosen = chooseBinary();
  process.env.UWS_HTTP_MAX_HEADERS_SIZE = String(MAX_HEADERS_SIZE);
  try {
    return { uws: require(chosen.file) as Uws, ...chosen };
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new Error(
      `uWebSockets.js did not load (${chosen.file}): ${reason}. ` +
        'Run `npm ci` (with its install scripts): it checks the binaries and, on a glibc older than 2.38, makes the copy that loads there.',
    );
  }
}

/** 'native' when a module's App constructor is native code; anything else is refused at start (src/app.ts). */
export function engineOf(mod: { App?: unknown }): Engine {
  const fn = mod.App;
  return typeof fn === 'function' && /\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(fn)) ? 'native' : 'fallback';
}

const loaded = load();
export const engine: Engine = engineOf(loaded.uws);
/** Which binary runs, for the start-up log. */
export const binary = { file: loaded.file, redirected: loaded.redirected };
export const { App, us_listen_socket_close, us_socket_local_port } = loaded.uws;

/**
 * Listens with the port to ourselves. uSockets otherwise sets SO_REUSEPORT, so a second process
 * on a taken port starts too and the kernel splits the connections between the two.
 */
export function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (socket: us_listen_socket | false) => void): void {
  // The native build takes (host, port, options, cb); the typings only know (port, options, cb).
  const listen = app.listen.bind(app) as unknown as (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => void;
  listen(host, port, (loaded.uws as { LIBUS_LISTEN_EXCLUSIVE_PORT?: number }).LIBUS_LISTEN_EXCLUSIVE_PORT ?? 1, cb);
}
