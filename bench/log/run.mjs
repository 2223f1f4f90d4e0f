#!/usr/bin/env node
// bench/log: what a log line costs in each way the bridge could write it, and what each way holds
// in memory. Rows: pino's JSON (LOG_FORMAT=json), the plain lines of src/log.ts formatted in this
// thread (the default), and the same JSON through a pino transport, which runs its destination in
// a worker thread (the way a formatter such as pino-pretty is usually attached). Each row runs in a
// fresh Node process that writes to /dev/null: CPU time per line over --lines lines, and resident
// memory (RSS, after garbage collection) before the logger exists and after it has written 1,000. Prints a markdown table.
// Run with `npm run bench:log` (builds dist/ first); `node bench/log/run.mjs --lines N`.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: { lines: { type: 'string', default: '200000' }, row: { type: 'string' }, help: { type: 'boolean', default: false } },
});
if (opt.help) {
  process.stdout.write('usage: node bench/log/run.mjs [--lines N]   (lines written per row, default 200000)\n');
  process.exit(0);
}
const lines = Number(opt.lines);

if (opt.row) {
  // One row, in its own process.
  const { openSync } = await import('node:fs');
  const pino = (await import('pino')).default;
  const { plainDestination } = await import('../../dist/src/log.js');
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 50));
    }
    return process.memoryUsage().rss;
  };
  const rssBefore = await settle();
  const devNull = openSync('/dev/null', 'w');
  const options = { level: 'info', base: { service: 'home-mcp-bridge' }, timestamp: pino.stdTimeFunctions.isoTime };
  const out = pino.destination({ dest: devNull, sync: true });
  const log =
    opt.row === 'json'
      ? pino(options, out)
      : opt.row === 'plain'
        ? pino(options, plainDestination(out))
        : pino(options, pino.transport({ target: 'pino/file', options: { destination: '/dev/null' } }));
  const hub = log.child({ part: 'hub' });
  const write = (i) => hub.info({ version: '2026.11.0', entities: 45, areas: 8, floors: 2, n: i }, 'hub connected: Home Assistant 2026.11.0, 45 entities');
  const flush = () => (opt.row === 'transport' ? new Promise((resolve) => log[pino.symbols.streamSym].flush(resolve)) : undefined);
  // Memory: the logger made and 1,000 lines through it, garbage collected.
  for (let i = 0; i < 1000; i++) write(i);
  await flush();
  const rssAfter = await settle();
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < lines; i++) write(i);
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  // A transport writes in its worker: wait until it has taken every line, then count its CPU too (cpuUsage is per process).
  await flush();
  const cpuAll = process.cpuUsage(cpu0);
  process.stdout.write(
    JSON.stringify({ row: opt.row, wall, cpuMain: (cpu.user + cpu.system) / 1000, cpuAll: (cpuAll.user + cpuAll.system) / 1000, rssBefore, rssAfter }),
  );
  process.exit(0);
}

const script = fileURLToPath(import.meta.url);
const load0 = os.loadavg()[0];
const rows = ['json', 'plain', 'transport'].map((row) =>
  JSON.parse(execFileSync(process.execPath, ['--expose-gc', script, '--row', row, '--lines', String(lines)], { encoding: 'utf8' })),
);
const load1 = os.loadavg()[0];
const mib = (b) => (b / 1024 ** 2).toFixed(1);
const name = {
  json: 'pino JSON (LOG_FORMAT=json)',
  plain: 'plain, formatted in this thread (default)',
  transport: 'pino JSON through a transport (worker thread)',
};
const out = [
  `Log lines: ${lines.toLocaleString('en')} lines a row, each in a fresh process writing to /dev/null`,
  `${os.cpus()[0]?.model?.trim() ?? 'unknown CPU'}, ${os.availableParallelism()} cores, Node ${process.version}, load ${load0.toFixed(2)} before, ${load1.toFixed(2)} after`,
  '',
  '| Way | CPU per line (µs, all threads) | wall per line (µs, caller) | RSS before the logger (MiB) | RSS with it, 1,000 lines written (MiB) | grown (MiB) |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${name[r.row]} | ${((r.cpuAll * 1000) / lines).toFixed(2)} | ${((r.wall * 1000) / lines).toFixed(2)} | ${mib(r.rssBefore)} | ${mib(r.rssAfter)} | ${mib(r.rssAfter - r.rssBefore)} |`,
  ),
];
process.stdout.write(`${out.join('\n')}\n`);
