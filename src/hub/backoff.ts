// Reconnect delays: exponential, capped, with "full jitter" so many bridges restarting together
// do not knock on the hub in lockstep.

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 30_000 };

/** Delay before attempt `attempt` (0-based): uniform in [cap/2, cap], cap = min(max, base * 2^attempt). */
export function backoffDelay(attempt: number, opts: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const cap = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(cap / 2 + random() * (cap / 2));
}
