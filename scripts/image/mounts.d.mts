// Types for mounts.mjs (the parts the image tests use).
export declare class Mounts {
  /** The host's `source` seen at `target` (inside a root). */
  bind(source: string, target: string, opts?: { readOnly?: boolean }): void;
  /** A fresh /proc for a root. */
  proc(target: string): void;
  release(): void;
}
export declare function mountsUnder(dir: string): string[];
export declare function releaseAll(): void;
export declare function removeRoot(dir: string): void;
