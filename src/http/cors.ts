// Cross-origin calls from browsers (MCP inspectors, dashboards): only for origins the user allows
// in ALLOWED_ORIGINS; none by default. Answers preflights and marks the answers to allowed origins.

/** Headers a browser page may read from an answer. */
const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'MCP-Session-Id',
  'MCP-Protocol-Version',
  'WWW-Authenticate',
  'Location',
].join(', ');
/** Headers a page may send. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Last-Event-ID', 'MCP-Session-Id', 'MCP-Protocol-Version', 'X-Request-Id'].join(', ');
const MAX_AGE = '600';

export class Cors {
  private readonly any: boolean;
  private readonly origins: Set<string>;

  constructor(allowed: readonly string[]) {
    this.any = allowed.includes('*');
    this.origins = new Set(allowed.map((o) => o.toLowerCase().replace(/\/+$/, '')));
  }

  get enabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  /** Whether a page of this origin may call the API (MCP refuses other origins outright). */
  allows(origin: string | undefined): origin is string {
    return origin !== undefined && (this.any || this.origins.has(origin.toLowerCase()));
  }

  /** Headers for an answer to `origin`, or undefined when that origin is not allowed. */
  answer(origin: string | undefined): Record<string, string> | undefined {
    if (!this.allows(origin)) return undefined;
    return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED, Vary: 'Origin' };
  }

  /** Headers for a preflight from `origin` for a path with these methods, or undefined when not allowed. */
  preflight(origin: string | undefined, methods: readonly string[]): Record<string, string> | undefined {
    const base = this.answer(origin);
    if (!base) return undefined;
    return { ...base, 'Access-Control-Allow-Methods': methods.join(', '), 'Access-Control-Allow-Headers': ALLOWED_HEADERS, 'Access-Control-Max-Age': MAX_AGE };
  }
}
