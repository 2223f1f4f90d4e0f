// Types for rehearse.mjs (plain JavaScript: it runs before anything is compiled).
import type { Emulator } from './binfmt.mjs';
export declare const REPO: string;
export declare const CACHE: string;
export declare const DEFAULT_PATH: string;
export interface Lane {
  arch: string;
  debian: string;
  node: string;
  qemu: string;
  /** This host runs the lane under qemu-user. */
  emulated: boolean;
}
export declare const LANES: Record<string, { debian: string; node: string; qemu: string }>;
export declare function lane(arch: string): Lane;
export declare function archArgument(argv: string[]): { arch: string; rest: string[] };
export declare const HA_BASE: { packages: string[]; env: Record<string, string> };
export interface StandIn {
  image: string;
  kind: 'node' | 'ha-base';
  suite: string;
  node?: string;
  packages: string[];
  env: Record<string, string>;
}
export declare function standIn(image: string): StandIn;
export declare function bundledNpm(changelog: string, version: string): string;
export interface Rehearsal {
  arch: string;
  /** The binfmt_misc interpreter the lane ran under (its registered path, the file it is), or null. */
  emulator: { interpreter: string; executable: string; flags: string } | null;
  root: string;
  image: string;
  env: Record<string, string>;
  workdir: string;
  healthcheck: { options: string; command: string[] } | undefined;
  labels: Record<string, string>;
  stages: { image: string; root: string; npm?: string }[];
}
export declare function rehearse(opts: { workspace: string; arch?: string; version?: string; emulator?: Emulator }): Promise<Rehearsal>;
export declare function withEmulation<T>(arch: string, fn: (emulator: Emulator | undefined) => Promise<T>): Promise<T>;
export declare function withLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
export declare function sweepWorkspaces(): void;
export declare function newWorkspace(): string;
