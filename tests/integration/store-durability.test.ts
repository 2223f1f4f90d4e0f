// Crash durability: a child process writes through the built store and acknowledges each commit;
// it is killed with SIGKILL mid-stream, and every acknowledged write must be there afterwards.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { groupFor, sceneFor } from '../helpers/durability-data.mjs';

const writer = fileURLToPath(new URL('../helpers/scene-writer.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'hmb-durability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer from `first` until `killAfter` acks arrived, kills it, returns the acked numbers. */
function writeAndKill(file: string, first: number, killAfter: number): Promise<{ acked: number[]; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, file, String(first)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    let pending = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      pending += c.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!; // a line without its newline is not an ack yet
      for (const line of lines) {
        const m = /^ack (\d+)$/.exec(line);
        if (m) acked.push(Number(m[1]));
      }
      if (acked.length >= killAfter && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    child.on('error', reject);
    // 'close' waits for stdout to be drained, so acks still in the pipe are counted.
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer ended with ${code ?? signal} before it was killed: ${stderr}`));
      else resolve({ acked, signal });
    });
  });
}

test('every acknowledged write survives SIGKILL, and the file stays intact, over repeated crashes', async () => {
  const file = join(dir, 'bridge.db');
  let next = 0;
  const all: number[] = [];
  for (const killAfter of [1, 250, 2000]) {
    const { acked } = await writeAndKill(file, next, killAfter);
    expect(acked.length).toBeGreaterThanOrEqual(killAfter);
    expect(acked[0]).toBe(next);
    all.push(...acked);
    next = acked.at(-1)! + 1;
    // The kill leaves a write-ahead log that the next open must recover from.
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);

    const store = openStore(file);
    try {
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(store.db.pragma('foreign_key_check')).toEqual([]);
      for (const n of all) {
        const want = sceneFor(n);
        expect(store.scenes.get(want.id)).toMatchObject({ name: want.name, description: want.description, actions: want.actions });
        expect(store.groups.get(groupFor(n).id)?.entities).toEqual(groupFor(n).entities);
      }
    } finally {
      store.close();
    }
  }
  expect(all.length).toBeGreaterThan(2250);
});
