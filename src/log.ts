import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_FORMATS = ['plain', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The bridge's logger. `plain` (the default) writes one line a person reads, on a terminal and in
 * the add-on's Log tab; `json` writes pino's own JSON lines, for log collectors. stdout belongs to
 * the protocol in MCP stdio mode, so logs then go to stderr.
 */
export function createLogger(level: string, stream: 'stdout' | 'stderr' = 'stdout', format: LogFormat = 'plain'): Logger {
  const out = pino.destination({ dest: stream === 'stderr' ? 2 : 1, sync: true });
  const options = { level, base: { service: 'home-mcp-bridge' }, timestamp: pino.stdTimeFunctions.isoTime };
  // Formatted in this thread, as each line is written: a transport's worker thread costs several MiB (bench/log).
  return pino(options, format === 'json' ? out : plainDestination(out, { stacks: level === 'debug' || level === 'trace' }));
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** Said by every line, or by the line's place: not repeated after the message. */
const OMITTED = new Set(['time', 'level', 'msg', 'service', 'pid', 'hostname', 'part']);
const LONGEST_VALUE = 200;

/** A destination that turns each JSON line pino writes into a plain one and writes that to `out`. */
export function plainDestination(out: { write(line: string): unknown }, opts: { stacks?: boolean } = {}): DestinationStream {
  return { write: (line: string) => void out.write(plainLine(line, opts)) };
}

/**
 * `2026-11-27 23:01:20.109Z INFO  [hub] hub connected: Home Assistant 2026.11.0 areas=8 floors=2`:
 * time (UTC), level, the part of the bridge, the message, then the fields the message does not
 * already say, and an error's message (its stack too, on the lines below, when `stacks`).
 */
export function plainLine(json: string, opts: { stacks?: boolean } = {}): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  const time = typeof entry.time === 'string' ? entry.time.replace('T', ' ') : new Date(Number(entry.time)).toISOString().replace('T', ' ');
  let line = `${time} ${LEVELS[entry.level as number] ?? String(entry.level)}${typeof entry.part === 'string' ? ` [${entry.part}]` : ''} ${oneLine(msg)}`;
  let stack = '';
  for (const key of Object.keys(entry)) {
    if (OMITTED.has(key)) continue;
    const value = entry[key];
    if (key === 'err' && value && typeof value === 'object') {
      const err = value as { message?: unknown; stack?: unknown };
      line += ` err=${quote(String(err.message ?? ''))}`;
      if (opts.stacks && typeof err.stack === 'string')
        stack = `${err.stack
          .split('\n')
          .slice(1)
          .map((l) => `    ${l.trim()}`)
          .join('\n')}\n`;
      continue;
    }
    if ((typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && mentions(msg, String(value))) continue;
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    line += ` ${key}=${render(value)}`;
  }
  return `${line}\n${stack}`;
}

/** Whether `msg` already says `text` as a word of its own (45 in "45 entities", not 2 in "2026"). */
function mentions(msg: string, text: string): boolean {
  if (text === '') return true;
  const word = /\w/;
  for (let at = msg.indexOf(text); at >= 0; at = msg.indexOf(text, at + 1)) {
    const before = msg[at - 1];
    const after = msg[at + text.length];
    if ((before === undefined || !word.test(before) || !word.test(text[0]!)) && (after === undefined || !word.test(after) || !word.test(text.at(-1)!)))
      return true;
  }
  return false;
}

function render(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return quote(value.join(','));
  return clip(JSON.stringify(value) ?? String(value));
}

/** A value as is when it is one plain word, else in JSON quotes; long ones cut. */
function quote(text: string): string {
  const cut = clip(text);
  return /^[^\s"=]+$/.test(cut) ? cut : JSON.stringify(cut);
}

function clip(text: string): string {
  return text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE)}…` : text;
}

function oneLine(text: string): string {
  return text.includes('\n') ? text.replace(/\r?\n\s*/g, ' | ') : text;
}
