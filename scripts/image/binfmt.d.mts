// Types for binfmt.mjs.
export declare const BINFMT_DIR: string;
export declare const BINFMT_CONFS: string;
export declare function parseRegistration(text: string): { name: string; interpreter: string; flags: string; line: string };
export declare function parseEntry(text: string): { enabled: boolean; interpreter: string; flags: string };
export interface Emulator {
  name: string;
  /** The interpreter's path as registered (what the kernel puts in argv[0]). */
  interpreter: string;
  /** The file it is (symlinks resolved: what /proc/PID/exe shows). */
  executable: string;
  flags: string;
  registered: boolean;
  mounted: boolean;
  release(): void;
}
export declare function enableEmulation(qemuArch: string, opts: { claimFile: string; log?: (line: string) => void }): Emulator;
