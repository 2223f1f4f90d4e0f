// Writes scenes and groups into a store file through the built store module (dist/), one
// committed transaction per write, printing "ack <n>" only after both of write n committed.
// The durability test kills this process with SIGKILL mid-stream.
// Usage: node tests/helpers/scene-writer.mjs <db file> [first write number]
import { openStore } from '../../dist/src/store/index.js';
import { groupFor, sceneFor } from './durability-data.mjs';

const file = process.argv[2];
if (!file) throw new Error('usage: scene-writer.mjs <db file> [first]');
const store = openStore(file);
process.stdout.write('ready\n');
for (let n = Number(process.argv[3] ?? 0); ; n++) {
  store.scenes.put(sceneFor(n));
  store.groups.save(groupFor(n), 'put');
  // A pipe's stdout is written synchronously on Linux: once this returns, the parent can read it.
  process.stdout.write(`ack ${n}\n`);
}
