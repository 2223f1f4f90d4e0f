// Types for container.mjs (plain JavaScript, shared by the rehearsal and its tests).
import type { ChildProcess } from 'node:child_process';
import type { Rehearsal } from './rehearse.mjs';

export declare const RUN_SCRIPT: string;
export interface RunScript {
  env: Record<string, string>;
  cwd: string;
  argv: string[];
  logs: string[];
}
export declare function parseRunScript(text: string): RunScript;
export interface Container {
  child: ChildProcess;
  run: RunScript;
  env: Record<string, string>;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined>;
}
export declare function startContainer(opts: {
  rehearsal: Rehearsal;
  dataDir: string;
  supervisor: { token: string; hosts?: Record<string, string> };
  timezone?: string;
}): Container;
