// Types for rehearse.mjs (plain JavaScript: it runs before anything is compiled).
export declare const REPO: string;
export declare const CACHE: string;
export declare const DEFAULT_PATH: string;
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
  root: string;
  image: string;
  env: Record<string, string>;
  workdir: string;
  healthcheck: { options: string; command: string[] } | undefined;
  labels: Record<string, string>;
  stages: { image: string; root: string; npm?: string }[];
}
export declare function rehearse(opts: { workspace: string; arch?: string; version?: string }): Promise<Rehearsal>;
export declare function withLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
export declare function sweepWorkspaces(): void;
export declare function newWorkspace(): string;
