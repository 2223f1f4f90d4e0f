// Fixed-window request counting per client. A window opens at a client's first request.

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window ends. */
  reset: number;
  limited: boolean;
  /** `limit` and `reset` as header text, made once per limiter and per window. */
  limitText: string;
  resetText: string;
}

interface Window {
  count: number;
  resetAt: number;
  resetText: string;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limitText: string;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {
    this.limitText = String(max);
    // Forget closed windows so memory follows the number of recent clients, not all clients ever.
    this.sweeper = setInterval(() => this.sweep(Date.now()), Math.min(windowMs, 60_000));
    this.sweeper.unref();
  }

  get enabled(): boolean {
    return this.max > 0;
  }

  hit(key: string, now = Date.now()): RateDecision {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      const resetAt = now + this.windowMs;
      w = { count: 0, resetAt, resetText: String(Math.ceil(resetAt / 1000)) };
      this.windows.set(key, w);
    }
    w.count++;
    return {
      limit: this.max,
      remaining: Math.max(0, this.max - w.count),
      reset: Math.ceil(w.resetAt / 1000),
      limited: w.count > this.max,
      limitText: this.limitText,
      resetText: w.resetText,
    };
  }

  sweep(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
