// A small Server-Sent Events client over fetch, for tests: parses frames as they arrive and lets a
// test wait for the next frames that satisfy a condition.
export interface SseFrame {
  id?: string;
  event: string;
  data: string;
  /** `data` parsed as JSON, when it is JSON. */
  json?: any;
  /** Comment lines (`: keep-alive`) come as frames of event "comment". */
}

export interface SseClient {
  status: number;
  headers: Headers;
  frames: SseFrame[];
  /** Resolves with the frames (from the start) once `done(frames)` is true; rejects after `ms`. */
  until(done: (frames: SseFrame[]) => boolean, ms?: number): Promise<SseFrame[]>;
  /** Frames of event "message" (the events) parsed. */
  events(): any[];
  closed: Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const stop = new AbortController();
  const res = await fetch(url, { headers, signal: stop.signal });
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let ended = false;
  const closed = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const frame: SseFrame = { event: 'message', data: '' };
          const data: string[] = [];
          let comment = true;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            comment = false;
            const i = line.indexOf(':');
            const field = i === -1 ? line : line.slice(0, i);
            const value = i === -1 ? '' : line.slice(i + 1).replace(/^ /, '');
            if (field === 'data') data.push(value);
            else if (field === 'id') frame.id = value;
            else if (field === 'event') frame.event = value;
            else if (field === 'retry') frame.event = 'retry';
          }
          if (comment) frame.event = 'comment';
          frame.data = data.join('\n');
          try {
            frame.json = JSON.parse(frame.data);
          } catch {
            // not JSON
          }
          frames.push(frame);
        }
        for (const w of waiters) w();
      }
    } catch {
      // aborted
    } finally {
      ended = true;
      for (const w of waiters) w();
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    frames,
    closed,
    events: () => frames.filter((f) => f.event === 'message').map((f) => f.json),
    until(done, ms = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (done(frames)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(frames);
          } else if (ended) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream ended before the condition held; frames: ${JSON.stringify(frames.slice(-5))}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${ms} ms; ${frames.length} frames: ${JSON.stringify(frames.slice(-5))}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => stop.abort(),
  };
}
