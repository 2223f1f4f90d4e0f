// What answers give away: the API reference is not kept by caches, and the health report names
// plugins without the folders the bridge is installed in.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
let s: TestServer;
let pluginsDir: string;
beforeAll(async () => {
  pluginsDir = mkdtempSync(join(tmpdir(), 'hmb-disclosure-plugins-'));
  cpSync(join(ROOT, 'tests', 'fixtures', 'plugins'), pluginsDir, { recursive: true });
  s = await startTestServer({ PLUGINS_DIR: pluginsDir });
});
afterAll(async () => {
  await s?.close();
  rmSync(pluginsDir, { recursive: true, force: true });
});

describe('caching', () => {
  test.each(['/api/docs', '/api/docs/start.js', '/api/openapi.json'])('%s: Cache-Control no-store', async (path) => {
    const res = await fetch(`${s.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('/api/health', () => {
  test('names plugins by their place in their folder, not by where the bridge or the user keeps them', async () => {
    const res = await s.api('/api/health');
    const text = await res.text();
    const body = JSON.parse(text) as { plugins: { loaded: { name: string; path: string }[]; failed: { path: string; reason: string }[] } };
    expect(body.plugins.loaded.find((p) => p.name === 'lights')?.path).toMatch(/^lights\/index\.(js|ts)$/);
    expect(body.plugins.loaded.find((p) => p.name === 'greeter')?.path).toBe('greeter.mjs');
    expect(body.plugins.failed.map((f) => f.path)).toContain('throws-on-load.mjs');
    for (const secret of [pluginsDir, ROOT, tmpdir(), '/dist/', 'node_modules']) expect(text).not.toContain(secret);
  });
});
