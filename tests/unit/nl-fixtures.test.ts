// The case sets keep their held-out fifth apart by the stated rule (a hash of the sentence), so
// nobody moves a case between the parts to make a score; no sentence is printed.
import { readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { fixture, isHeldOut, readCases } from '../helpers/nl-cases.js';

const SETS = ['', 'de/', 'paraphrases/', 'paraphrases/de/'];

test.each(SETS)('%s: every held-out case hashes to the held-out part, and no dev case does', (dir) => {
  const files = readdirSync(fixture(dir || '.'));
  expect(files).toEqual(expect.arrayContaining(['dev.jsonl', 'held-out.jsonl']));
  const dev = readCases<{ command: string }>(`${dir}dev.jsonl`);
  const held = readCases<{ command: string }>(`${dir}held-out.jsonl`);
  expect(dev.filter((c) => isHeldOut(c.command)).length).toBe(0);
  expect(held.filter((c) => !isHeldOut(c.command)).length).toBe(0);
  expect(held.length / (dev.length + held.length)).toBeGreaterThan(0.15);
});
