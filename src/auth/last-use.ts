// When each token or grant was last used: noted in memory on every request, written in one
// transaction at most once a minute (and at shutdown), so a busy assistant costs no write per request.
const FLUSH_MS = 60_000;

export class LastUse {
  private readonly used = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly write: (batch: Map<string, string>) => void) {
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Notes a use now; answers the time noted. */
  note(id: string): string {
    const now = new Date().toISOString();
    this.used.set(id, now);
    return now;
  }

  forget(id: string): void {
    this.used.delete(id);
  }

  flush(): void {
    if (!this.used.size) return;
    const batch = new Map(this.used);
    this.used.clear();
    this.write(batch);
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
