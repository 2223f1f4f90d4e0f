// The statistics of the live streams: a live view from the fan-out, and samples written every
// interval so a period's metrics survive a restart.
import { fromCursor, toCursor } from '../cursor.js';
import { notFound } from '../errors.js';
import type { StreamStatsStore, Sample } from '../store/stream-stats.js';
import type { ConnectionInfo } from './connection.js';
import type { FanOut } from './fan-out.js';
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

export class StreamMetrics {
  private timer?: NodeJS.Timeout;
  private lastSampleAt = Date.now();
  private lastCpu = process.cpuUsage();
  private cpuNow = 0;
  private lastStatsCpu = { at: performance.now(), usage: process.cpuUsage() };

  constructor(
    private readonly fanOut: FanOut,
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
    const s: Sample = { at: now, connections: this.fanOut.size, events: this.fanOut.deliveredSinceSample, seconds, cpu: this.cpuNow, memory, latency: this.fanOut.latency };
    this.fanOut.latency = newHistogram();
    this.fanOut.deliveredSinceSample = 0;
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
      total_events_sent: this.fanOut.delivered,
      events_per_second: this.fanOut.ratePerSecond(),
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
    const live: Sample = { at: now, connections: this.fanOut.size, events: this.fanOut.deliveredSinceSample, seconds: Math.max(0.001, (now - this.lastSampleAt) / 1000), cpu: this.cpuSinceLastCall(), memory: process.memoryUsage.rss(), latency: this.fanOut.latency };
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
        events: { total: events, rate: { current: this.fanOut.ratePerSecond(), max: round(rateMax), average: round(events / seconds) } },
        latency: { p50: quantile(latency, 0.5), p95: quantile(latency, 0.95), p99: quantile(latency, 0.99) },
        resources: { memory: { current: live.memory, max: max((s) => s.memory) }, cpu: { current: live.cpu, max: max((s) => s.cpu), average: avg((s) => s.cpu) } },
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
