// How long Home Assistant was away the last time the bridge saw it go: from the connection's loss
// to the connection being back with Home Assistant running again (its `hub_connected`, then
// ready). A restart's preview says this figure; a restart the bridge asked for waits on it.
import { HUB_CONNECTED, HUB_DISCONNECTED, type Bus } from '../bus.js';
import type { HubReader } from '../hub/reader.js';

/** Longer than any restart: a hub not back by then is said to be still away. */
const BACK_WITHIN_MS = 15 * 60_000;

export interface Downtime {
  ms: number;
  /** When Home Assistant was running again (ISO). */
  at: string;
}

export class RestartClock {
  private downSince: number | undefined;
  private last: Downtime | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(bus: Bus, reader: Pick<HubReader, 'ready'>) {
    bus.on('event', (e) => {
      if (e.event_type === HUB_DISCONNECTED && this.downSince === undefined) {
        this.downSince = Date.now();
        this.tell();
      } else if (e.event_type === HUB_CONNECTED && this.downSince !== undefined) {
        const since = this.downSince;
        reader.ready(BACK_WITHIN_MS).then(
          () => {
            if (this.downSince !== since) return;
            this.last = { ms: Date.now() - since, at: new Date().toISOString() };
            this.downSince = undefined;
            this.tell();
          },
          () => undefined,
        );
      }
    });
  }

  private tell(): void {
    for (const l of [...this.listeners]) l();
  }

  /** The last measured time away, if the bridge has seen one since it started. */
  get lastMeasured(): Downtime | undefined {
    return this.last;
  }

  /** Home Assistant is away now (disconnected, or connected and still starting). */
  get away(): boolean {
    return this.downSince !== undefined;
  }

  /** In words, for a restart's preview. */
  describe(): string {
    if (!this.last) return 'for a time not yet measured (the bridge has not seen a restart since it started)';
    return `for about ${Math.max(1, Math.round(this.last.ms / 1000))} s (the last restart the bridge saw, ${this.last.at})`;
  }

  /**
   * Resolves with the time away once Home Assistant went away after `since` (epoch ms) and is back
   * running; null when it did not go away within `goneWithinMs` or `signal` was aborted.
   */
  awaitRestart(since: number, opts: { goneWithinMs: number; signal: AbortSignal; changed?: (away: boolean) => void }): Promise<Downtime | null> {
    return new Promise((resolve) => {
      let wentAway = this.downSince !== undefined && this.downSince >= since;
      const finish = (v: Downtime | null) => {
        this.listeners.delete(check);
        clearTimeout(timer);
        opts.signal.removeEventListener('abort', aborted);
        resolve(v);
      };
      const check = () => {
        if (this.downSince !== undefined && this.downSince >= since && !wentAway) {
          wentAway = true;
          opts.changed?.(true);
        }
        if (wentAway && this.downSince === undefined && this.last) finish(this.last);
      };
      const aborted = () => finish(null);
      let timer = setTimeout(() => {
        if (!wentAway) finish(null);
        else timer = setTimeout(() => finish(null), BACK_WITHIN_MS);
      }, opts.goneWithinMs);
      this.listeners.add(check);
      opts.signal.addEventListener('abort', aborted);
      if (opts.signal.aborted) aborted();
    });
  }
}
