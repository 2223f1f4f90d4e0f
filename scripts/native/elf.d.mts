// Types for elf.mjs (plain JavaScript: it runs at install time, before anything is compiled).
export declare const C23_REDIRECTS: Readonly<Record<string, string>>;

export interface DynamicSymbol {
  index: number;
  name: string;
  nameOffset: number;
  undefined: boolean;
  version: string | undefined;
  file: string | undefined;
  versymOffset: number;
}

export interface NeededVersion {
  name: string;
  index: number;
  flags: number;
  file: string;
  auxOffset: number;
}

export interface DynamicInfo {
  machine: number;
  needs: { file: string; versions: NeededVersion[] }[];
  symbols: DynamicSymbol[];
  stringRefs: number[];
  dynstr: { offset: number; size: number };
  hashedFrom: number;
  hasGnuHash: boolean;
}

export declare function compareGlibc(a: string, b: string): number;
export declare function readDynamic(buf: Buffer): DynamicInfo;
export declare function glibcNeeds(info: DynamicInfo): string[];
export declare function redirectC23Imports(buf: Buffer, hostGlibc: string): { output: Buffer; renamed: { from: string; to: string }[]; weakened: string[] };
