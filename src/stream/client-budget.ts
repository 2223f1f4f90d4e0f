// Per-client delivery budget: at most `limit` events per window; the rest are dropped, counted,
// and announced once per window.
export interface Budget {
  windowStart: number;
  delivered: number;
  dropped: number;
  announced: boolean;
}

export type Verdict = 'deliver' | 'drop' | 'drop_and_announce';

export class ClientBudgets {
  private readonly budgets = new Map<string, Budget>();

  constructor(
    private readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Decides for one event to one client. */
  take(client: string, now: number): Verdict {
    if (this.limit <= 0) return 'deliver';
    let b = this.budgets.get(client);
    if (!b || now - b.windowStart >= this.windowMs) {
      b = { windowStart: now, delivered: 0, dropped: 0, announced: false };
      this.budgets.set(client, b);
    }
    if (b.delivered < this.limit) {
      b.delivered++;
      return 'deliver';
    }
    b.dropped++;
    if (b.announced) return 'drop';
    b.announced = true;
    return 'drop_and_announce';
  }

  /** The notice a client gets when its budget runs out. */
  notice(client: string): { limit: number; window_seconds: number; reset: number } {
    const b = this.budgets.get(client)!;
    return { limit: this.limit, window_seconds: this.windowMs / 1000, reset: Math.ceil((b.windowStart + this.windowMs) / 1000) };
  }

  /** When the client's current window ends (epoch ms). */
  windowEnd(client: string, now = Date.now()): number {
    const b = this.budgets.get(client);
    return b ? b.windowStart + this.windowMs : now;
  }

  /** Forgets clients whose window is over (called now and then, so the map stays small). */
  sweep(now: number): void {
    for (const [k, b] of this.budgets) if (now - b.windowStart >= this.windowMs) this.budgets.delete(k);
  }
}
