// The admin gate: a tool that looks after Home Assistant itself (edits: 'admin') is listed and
// callable only while ADMIN_TOOLS is on and for callers holding the admin scope; neither control nor
// config gives it. Unscoped callers (a bridge user, the local user) hold every scope.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Principal } from '../../src/auth/tokens.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PLUGINS_DIR = join(import.meta.dirname, '..', 'fixtures', 'admin-plugin');
const grant = (scope: string[]): Principal => ({ sub: 'client', iat: 0, via: 'oauth', scope });

describe('with ADMIN_TOOLS on', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ADMIN_TOOLS: 'true', PLUGINS_DIR });
  });
  afterAll(() => s?.close());

  test('listed and callable with the admin scope; control and config do not give it', async () => {
    const names = (scope: string[]) => s.app.services.tools.listFor(grant(scope)).map((t) => t.name);
    expect(names(['read', 'admin'])).toContain('admin_probe');
    for (const scope of [['read'], ['read', 'control'], ['read', 'config'], ['read', 'control', 'config']]) {
      expect(names(scope)).not.toContain('admin_probe');
      await expect(s.app.services.tools.call('admin_probe', {}, grant(scope))).rejects.toMatchObject({ status: 404 });
    }
    const ok = await s.app.services.tools.call('admin_probe', {}, grant(['admin']));
    expect(ok.content?.[0]).toMatchObject({ text: 'admin tools reached' });
  });

  test('a bridge user (unscoped) sees and calls it over REST', async () => {
    const list = (await (await s.api('/api/tools')).json()) as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toContain('admin_probe');
    const res = await s.api('/api/tools/call', { method: 'POST', json: { name: 'admin_probe', arguments: {} } });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('admin tools reached');
  });

  test('OAuth metadata offers the admin scope', async () => {
    const meta = (await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json()) as { scopes_supported: string[] };
    expect(meta.scopes_supported).toEqual(['read', 'control', 'config', 'admin']);
  });
});

describe('with ADMIN_TOOLS off (the default)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ PLUGINS_DIR });
  });
  afterAll(() => s?.close());

  test('not listed and not callable, even for a caller holding every scope', async () => {
    expect(s.app.services.tools.listFor(grant(['read', 'control', 'config', 'admin'])).map((t) => t.name)).not.toContain('admin_probe');
    const list = (await (await s.api('/api/tools')).json()) as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).not.toContain('admin_probe');
    const res = await s.api('/api/tools/call', { method: 'POST', json: { name: 'admin_probe', arguments: {} } });
    expect(res.status).toBe(404);
  });
});
