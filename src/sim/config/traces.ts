// Traces of automation and script runs, kept as Home Assistant keeps them (trace/list, trace/get):
// per item, the last few runs in memory, each a map of step paths ("trigger/0", "condition/0",
// "action/0") to what happened there, and a summary with how the run ended.
import type { Context } from '../context.js';
import { hexId, isoFromMicros, nowMicros } from '../time.js';

/** Home Assistant's default `stored_traces`. */
export const STORED_TRACES = 5;

export type ScriptExecution = 'running' | 'finished' | 'failed_conditions' | 'failed_single' | 'error' | 'aborted' | 'cancelled';

export interface TraceStep {
  path: string;
  timestamp: string;
  changed_variables?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: string;
}

export class TraceRun {
  readonly runId = hexId();
  readonly start = isoFromMicros(nowMicros());
  finish: string | null = null;
  execution: ScriptExecution = 'running';
  error: string | undefined;
  lastStep: string | null = null;
  readonly steps = new Map<string, TraceStep[]>();

  constructor(
    readonly domain: 'automation' | 'script',
    readonly itemId: string,
    readonly config: Record<string, unknown>,
    readonly context: Context,
    /** The trigger's description ("state of input_boolean.x"), null when an action ran it; automations only. */
    readonly trigger?: string | null,
  ) {}

  /** Records a step; the latest one is the run's last_step. */
  step(path: string, entry: Omit<TraceStep, 'path' | 'timestamp'>): TraceStep {
    const s: TraceStep = { path, timestamp: isoFromMicros(nowMicros()), ...entry };
    const list = this.steps.get(path) ?? [];
    list.push(s);
    this.steps.set(path, list);
    this.lastStep = path;
    return s;
  }

  end(execution: ScriptExecution, error?: string): void {
    this.execution = execution;
    if (error !== undefined) this.error = error;
    this.finish = isoFromMicros(nowMicros());
  }

  summary(): Record<string, unknown> {
    return {
      last_step: this.lastStep,
      run_id: this.runId,
      state: this.finish ? 'stopped' : 'running',
      script_execution: this.execution,
      timestamp: { start: this.start, finish: this.finish },
      domain: this.domain,
      item_id: this.itemId,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(this.trigger !== undefined ? { trigger: this.trigger } : {}),
    };
  }

  full(): Record<string, unknown> {
    return {
      ...this.summary(),
      trace: Object.fromEntries(this.steps),
      config: this.config,
      blueprint_inputs: null,
      context: this.context,
    };
  }
}

/** Every item's recent runs, oldest first. */
export class TraceStore {
  private readonly runs = new Map<string, TraceRun[]>();

  private key(domain: string, itemId: string): string {
    return `${domain}.${itemId}`;
  }

  add(run: TraceRun): void {
    const k = this.key(run.domain, run.itemId);
    const list = this.runs.get(k) ?? [];
    list.push(run);
    while (list.length > STORED_TRACES) list.shift();
    this.runs.set(k, list);
  }

  list(domain: string, itemId?: string): TraceRun[] {
    if (itemId !== undefined) return [...(this.runs.get(this.key(domain, itemId)) ?? [])];
    return [...this.runs.entries()].filter(([k]) => k.startsWith(`${domain}.`)).flatMap(([, v]) => v);
  }

  get(domain: string, itemId: string, runId: string): TraceRun | undefined {
    return this.runs.get(this.key(domain, itemId))?.find((r) => r.runId === runId);
  }
}
