import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { settingsTable } from '../../src/config/settings-table.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const settingsPage = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');

test('the settings page carries the settings table as the settings module describes it', () => {
  expect(settingsPage).toContain(settingsTable());
});

test('README quick start has the two commands', () => {
  expect(readme).toMatch(/npm ci && npm start/);
  expect(readme).toMatch(/npm test/);
});
