// What the fan-out writes to. stream/ knows no HTTP and no uWS: the transport layer (src/http/)
// adapts an SSE response or a WebSocket to this, and hands the fan-out its topic publisher.

/** One open connection as the fan-out sees it. */
export interface Sink {
  /**
   * Writes bytes now: an SSE chunk, or one WebSocket message. False when the client is behind:
   * the transport keeps what it took and calls the listener's `drained` once it can take more.
   */
  write(bytes: Buffer | string): boolean;
  /** Runs `fn` with the connection corked, so its writes leave in one go. */
  cork(fn: () => void): void;
  /** Bytes the transport holds that the client has not taken yet. */
  buffered(): number;
  /**
   * Ends the connection after a last frame (framed for the transport: an SSE `event: close` frame,
   * a WebSocket message) and, where the transport has one, a close code and reason. False when the
   * last frame does not fit in what the transport may hold for the client yet: call again after
   * the next `drained`.
   */
  close(last: string, code: number, reason: string): boolean;
  /** Where the transport delivers to topics itself (a uWS WebSocket): joins and leaves one. */
  subscribe?(topic: string): void;
  unsubscribe?(topic: string): void;
  /** Told when the client can take more, and once when the connection is gone. */
  listener?: SinkListener;
}

export interface SinkListener {
  /** The client took what was held; more may be written. */
  drained(): void;
  /** The connection is gone (the client left, or the close finished). */
  gone(): void;
}

/** Sends one message to every sink subscribed to a topic, in the transport's own loop (uWS's App.publish). */
export interface TopicPublisher {
  publish(topic: string, message: Buffer | string): void;
}
