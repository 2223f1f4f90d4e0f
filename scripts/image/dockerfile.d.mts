// Types for dockerfile.mjs.
export interface Step {
  op: 'WORKDIR' | 'ENV' | 'COPY' | 'RUN' | 'HEALTHCHECK' | 'LABEL' | 'ARG';
  text: string;
  from?: string;
  sources?: string[];
  dest?: string;
}
export interface Stage {
  from: string;
  image: string;
  name: string;
  steps: Step[];
}
export declare function parsePairs(text: string): [string, string][];
export declare function substitute(text: string, vars: Record<string, string>): string;
export declare function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] };
