// A response body passed through as it is, which the bridge can also end itself (a credential
// ended, shutdown), with a last frame; `done` is called once, whoever ended it: read to the end,
// failed, cancelled by the client, or ended here.
const encoder = new TextEncoder();

export interface Endable {
  body: ReadableStream<Uint8Array>;
  /** Ends the stream now, after `last` when given. */
  end(last?: string): void;
}

export function endable(source: ReadableStream<Uint8Array>, done: () => void): Endable {
  const reader = source.getReader();
  let finished = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const finish = () => {
    if (finished) return false;
    finished = true;
    done();
    return true;
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    async pull(c) {
      try {
        const { value, done: end } = await reader.read();
        if (finished) return;
        if (end) {
          finish();
          c.close();
        } else c.enqueue(value);
      } catch (err) {
        if (finish()) c.error(err);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  return {
    body,
    end(last) {
      if (!finish()) return;
      try {
        if (last) controller.enqueue(encoder.encode(last));
        controller.close();
      } catch {
        // The reader went away meanwhile.
      }
      void reader.cancel().catch(() => undefined);
    },
  };
}
