// Types for ha.mjs, so that TypeScript tests can import it (through ha-control.ts).

export interface HaState {
  /** The Home Assistant release, one of RELEASES. */
  version: string;
  /** http://127.0.0.1:<port> */
  url: string;
  /** ws://127.0.0.1:<port>/api/websocket */
  wsUrl: string;
  port: number;
  /** Long-lived access token of the owner user "e2e". */
  token: string;
  /** Process id of the running Home Assistant, or null when stopped. */
  pid: number | null;
  /** Run directory: state.json, hass.log and config/. */
  dir: string;
  configDir: string;
  /** The config dir as Home Assistant sees it (inside the Debian root: below its mount point). */
  haConfigDir: string;
  /** The Debian root it runs in, or null when it runs on this machine's Python. */
  root: string | null;
  /** Home Assistant's console output, appended across restarts. */
  log: string;
  stateFile: string;
  python: string;
  /** Seconds from spawn to "demo entities exist" of the latest start. */
  startSeconds: number | null;
}

export interface Release {
  python: RegExp;
  pythonVersion: string;
  lockPython: string;
  root: boolean;
  lockIn: string;
  lock: string;
  lockExcludeNewer: string;
  hashes: boolean;
  buildTools: string[];
  httpTrial: boolean;
}
export const RELEASES: Readonly<Record<string, Release>>;
export const CURRENT_VERSION: string;
export const OLDEST_VERSION: string;
export function selectedVersion(v?: string): string;
export function demoEntities(version: string): readonly string[];

export interface ListeningSocket {
  proto: 'tcp' | 'udp';
  address: string;
  port: number;
  loopback: boolean;
}
/** TCP sockets listening and UDP sockets bound by a process and its process group (from /proc). */
export function listeningSockets(pid: number): ListeningSocket[];

export function cacheDir(version?: string): string;
export function venvDir(version?: string): string;
export function isInstalled(version?: string): boolean;
export function installHa(opts?: { version?: string; force?: boolean }): Promise<string>;

export function defaultStateFile(): string | null;
export function readState(stateFile?: string | null): HaState;
export function tail(file: string, lines?: number): string;
export function logTail(lines?: number, stateFile?: string | null): string;

export function createHa(opts?: { version?: string; dir?: string; stateFile?: string | null; timeoutMs?: number }): Promise<HaState>;
export function startHa(opts?: { stateFile?: string | null; timeoutMs?: number }): Promise<HaState>;
export function stopHa(opts?: { stateFile?: string | null; graceMs?: number }): Promise<HaState>;
export function restartHa(opts?: { stateFile?: string | null; timeoutMs?: number; graceMs?: number }): Promise<HaState>;
