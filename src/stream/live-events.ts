// Live events put together: every bus event is numbered by the history, noted by the stored
// subscriptions it matches, and handed to the fan-out. Routes, the WebSocket channel and the
// statistics use the three parts directly; this only wires them and starts and stops them.
import type { Credentials } from '../auth/credentials.js';
import type { Bus } from '../bus.js';
import type { HubEvent } from '../hub/types.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { FanOut, type FanOutLimits } from './fan-out.js';
import type { TopicPublisher } from './sink.js';
import { EventHistory, type HistoryLimits } from './history.js';
import { StoredSubscriptions } from './stored-subscriptions.js';
import { SubscriptionCap } from './subscription-cap.js';

export interface LiveEventLimits extends FanOutLimits, HistoryLimits {
  maxSubscriptions: number;
}

export class LiveEvents {
  readonly history: EventHistory;
  readonly subscriptions: StoredSubscriptions;
  readonly fanOut: FanOut;
  private started = false;

  constructor(
    private readonly deps: {
      bus: Bus;
      store: Store;
      log: Logger;
      /** Whether callers may see an entity (Policy.maySee): events of hidden ones are neither delivered nor read back. */
      visible: (entityId: string) => boolean;
      credentials?: Credentials;
      limits: LiveEventLimits;
      /** The transport's publish, for WebSocket topics. */
      publisher?: TopicPublisher;
    },
  ) {
    const { store, log, visible, limits } = deps;
    const cap = new SubscriptionCap(limits.maxSubscriptions);
    this.history = new EventHistory({ store, log, visible, limits });
    this.subscriptions = new StoredSubscriptions({ store, cap, visible, log });
    this.fanOut = new FanOut({
      history: this.history,
      subscriptions: this.subscriptions,
      cap,
      stats: store.streamStats,
      credentials: deps.credentials,
      visible,
      log,
      limits,
      publisher: deps.publisher,
    });
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.deps.bus.on('event', this.onEvent);
    this.history.start();
    this.fanOut.start();
  }

  private readonly onEvent = (e: HubEvent): void => {
    const ev = this.history.record(e);
    this.subscriptions.saw(ev.keys, ev.time_fired);
    this.fanOut.deliver(ev);
  };

  /** Stops taking events, closes every stream with a last frame, writes what is queued. */
  close(): void {
    this.deps.bus.off('event', this.onEvent);
    this.fanOut.close();
    this.history.stop();
    this.subscriptions.flush();
  }
}
