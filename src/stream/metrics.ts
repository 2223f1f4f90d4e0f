// The statistics of the live streams: the delivery counters (written by delivery as it goes, read
// and reset per sample only here), a live view of the connections, and samples written every
// interval so a period's metrics survive a restart.
import { fromCursor, toCursor } from '../cursor.js';
import { notFound } from '../errors.js';
import type { StreamStatsStore, Sample } from '../store/stream-stats.js';
import type { ConnectionInfo, StreamConnection } from './connection.js';
import { merge, newHistogram, quantile } from './histogram.js';

export const PERIODS = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type Period = keyof typeof PERIODS;

export interface StreamStats {
  active_connections: number;
  total_events_sent: number;
  events_per_second: number;
  memory_usage: number;
  cpu_usage: number;
  uptime: string;
  event_backlog: number;
}

/** An ISO 8601 duration (PT1H2M3S) of whole seconds. */
export function isoDuration(ms: number): string {
  let s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const time = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
  return `P${d ? `${d}D` : ''}T${time}`;
}

const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;

/** What delivery has done: events written to connections, and how long they took to get there. */
export class DeliveryCounters {
  /** Events written to connections since start. */
  delivered = 0;
  /** Events written since the last sample. */
  private sinceSample = 0;
  /** Latency of the open sampling interval (event arrival → write to the socket), a histogram. */
  private interval = newHistogram();
  private readonly secondBuckets = new Float64Array(10);
  private bucketSecond = 0;

  /** The open interval's latency histogram: delivery records into it. */
  get latency(): number[] {
    return this.interval;
  }

  /** `n` events were written to connections. */
  count(n: number): void {
    this.delivered += n;
    this.sinceSample += n;
    const sec = Math.floor(Date.now() / 1000);
    if (sec !== this.bucketSecond) {
      // Clear the buckets of the seconds that passed without deliveries.
      for (let s = Math.max(this.bucketSecond + 1, sec - 9); s <= sec; s++) this.secondBuckets[s % 10] = 0;
      this.bucketSecond = sec;
    }
    this.secondBuckets[sec % 10]! += n;
  }

  /** The open interval's figures, leaving it open. */
  current(): { events: number; latency: number[] } {
    return { events: this.sinceSample, latency: this.interval };
  }

  /** Closes the interval: its figures, and fresh counters for the next. */
  takeInterval(): { events: number; latency: number[] } {
    const out = this.current();
    this.interval = newHistogram();
    this.sinceSample = 0;
    return out;
  }

  /** Deliveries per second over the last ten seconds. */
  ratePerSecond(): number {
    const sec = Math.floor(Date.now() / 1000);
    if (sec - this.bucketSecond >= 10) return 0;
    let sum = 0;
    // Only the buckets of the last ten seconds that were written since.
    for (let s = sec - 9; s <= sec; s++) if (s <= this.bucketSecond) sum += this.secondBuckets[((s % 10) + 10) % 10]!;
    return Math.round((sum / 10) * 100) / 100;
  }
}

/** The connections as the statistics read them (the fan-out). */
export interface StreamView {
  readonly size: number;
  readonly counters: DeliveryCounters;
  list(): StreamConnection[];
  find(id: string): StreamConnection | undefined;
  info(c: StreamConnection): ConnectionInfo;
  /** Events queued and not yet written. */
  backlog(): number;
}

export class StreamMetrics {
  private timer?: NodeJS.Timeout;
  private lastSampleAt = Date.now();
  private lastCpu = process.cpuUsage();
  private cpuNow = 0;
  private lastStatsCpu = { at: performance.now(), usage: process.cpuUsage() };

  constructor(
    private readonly fanOut: StreamView,
    private readonly store: StreamStatsStore,
    private readonly startedAt: number,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.sample();
  }

  /** Closes the interval: one row with what it saw, and a fresh latency histogram. */
  sample(now = Date.now()): Sample {
    const seconds = Math.max(0.001, (now - this.lastSampleAt) / 1000);
    const cpu = process.cpuUsage(this.lastCpu);
    this.lastCpu = process.cpuUsage();
    this.cpuNow = round(((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100);
    const memory = process.memoryUsage.rss();
    const { events, latency } = this.fanOut.counters.takeInterval();
    const s: Sample = { at: now, connections: this.fanOut.size, events, seconds, cpu: this.cpuNow, memory, latency };
    this.lastSampleAt = now;
    this.store.addSample(s);
    return s;
  }

  /** The process's CPU share (percent of one core) since the last call, at least a second apart. */
  private cpuSinceLastCall(): number {
    const at = performance.now();
    const elapsed = at - this.lastStatsCpu.at;
    if (elapsed < 1000) return this.cpuNow;
    const used = process.cpuUsage(this.lastStatsCpu.usage);
    this.lastStatsCpu = { at, usage: process.cpuUsage() };
    this.cpuNow = round(((used.user + used.system) / 1000 / elapsed) * 100);
    return this.cpuNow;
  }

  stats(): StreamStats {
    return {
      active_connections: this.fanOut.size,
      total_events_sent: this.fanOut.counters.delivered,
      events_per_second: this.fanOut.counters.ratePerSecond(),
      memory_usage: process.memoryUsage.rss(),
      cpu_usage: this.cpuSinceLastCall(),
      uptime: isoDuration(Date.now() - this.startedAt),
      event_backlog: this.fanOut.backlog(),
    };
  }

  connections(): ConnectionInfo[] {
    return this.fanOut.list().map((c) => this.fanOut.info(c));
  }

  connection(id: string): ConnectionInfo {
    const c = this.fanOut.find(id);
    if (!c) throw notFound(`No open connection ${id.slice(0, 64)}`, { connection_id: id.slice(0, 64) });
    return this.fanOut.info(c);
  }

  metrics(period: Period, now = Date.now()) {
    const samples = this.store.samplesSince(now - PERIODS[period]);
    // The interval still open counts too, so a fresh start has figures at once.
    const open = this.fanOut.counters.current();
    const live: Sample = {
      at: now,
      connections: this.fanOut.size,
      events: open.events,
      seconds: Math.max(0.001, (now - this.lastSampleAt) / 1000),
      cpu: this.cpuSinceLastCall(),
      memory: process.memoryUsage.rss(),
      latency: open.latency,
    };
    const all = [...samples, live];
    const latency = newHistogram();
    let events = 0;
    let seconds = 0;
    let rateMax = 0;
    for (const s of all) {
      merge(latency, s.latency);
      events += s.events;
      seconds += s.seconds;
      rateMax = Math.max(rateMax, s.events / s.seconds);
    }
    const avg = (f: (s: Sample) => number) => round(all.reduce((a, s) => a + f(s), 0) / all.length);
    const max = (f: (s: Sample) => number) => all.reduce((a, s) => Math.max(a, f(s)), 0);
    return {
      metrics: {
        connections: { current: live.connections, max: max((s) => s.connections), average: avg((s) => s.connections) },
        events: { total: events, rate: { current: this.fanOut.counters.ratePerSecond(), max: round(rateMax), average: round(events / seconds) } },
        latency: { p50: quantile(latency, 0.5), p95: quantile(latency, 0.95), p99: quantile(latency, 0.99) },
        resources: {
          memory: { current: live.memory, max: max((s) => s.memory) },
          cpu: { current: live.cpu, max: max((s) => s.cpu), average: avg((s) => s.cpu) },
        },
      },
      period,
      timestamp: new Date(now).toISOString(),
    };
  }

  /** Connections that have ended, newest first, a page at a time. */
  history(limit: number, cursor?: string) {
    const position = cursor ? fromCursor(cursor, ['string', 'string']) : undefined;
    const before = position ? { at: position[0] as string, id: position[1] as string } : undefined;
    const rows = this.store.pastConnections(limit + 1, before);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { connections: page, next_cursor: rows.length > limit && last ? toCursor([last.disconnected_at, last.id]) : null };
  }
}
