// Types for ha.mjs, so that TypeScript tests can import it (through ha-control.ts).

export interface HaState {
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
  /** Home Assistant's console output, appended across restarts. */
  log: string;
  stateFile: string;
  python: string;
  /** Seconds from spawn to "demo entities exist" of the latest start. */
  startSeconds: number | null;
}

export const HA_VERSION: string;
export const DEMO_ENTITIES: readonly string[];

export function cacheDir(): string;
export function venvDir(): string;
export function isInstalled(): boolean;
export function installHa(opts?: { force?: boolean }): Promise<string>;

export function defaultStateFile(): string | null;
export function readState(stateFile?: string | null): HaState;
export function tail(file: string, lines?: number): string;
export function logTail(lines?: number, stateFile?: string | null): string;

export function createHa(opts?: { dir?: string; stateFile?: string | null; timeoutMs?: number }): Promise<HaState>;
export function startHa(opts?: { stateFile?: string | null; timeoutMs?: number }): Promise<HaState>;
export function stopHa(opts?: { stateFile?: string | null; graceMs?: number }): Promise<HaState>;
export function restartHa(opts?: { stateFile?: string | null; timeoutMs?: number; graceMs?: number }): Promise<HaState>;
