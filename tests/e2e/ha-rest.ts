// Reading the real Home Assistant directly over its REST API, for end-to-end checks of what the
// bridge did, and waiting for a state that takes time to arrive (covers travel, locks lock).
import { expect } from 'vitest';

export const HASS_URL = process.env.HASS_URL ?? '';
export const HASS_TOKEN = process.env.HASS_TOKEN ?? '';
if (!HASS_URL || !HASS_TOKEN) throw new Error('HASS_URL and HASS_TOKEN are not set: run this suite with `npm run test:e2e`');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function ha(path: string): Promise<any> {
  const res = await fetch(`${HASS_URL}${path}`, { headers: { authorization: `Bearer ${HASS_TOKEN}` } });
  expect(res.status, `${path} on Home Assistant`).toBe(200);
  return res.json();
}

export const haStateOf = (id: string) => ha(`/api/states/${id}`);

export async function eventually<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: last seen ${JSON.stringify(v)}`);
    await sleep(150);
  }
}

/** Calls a service on Home Assistant itself (not through the bridge). */
export async function haCall(domain: string, service: string, data: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${HASS_URL}/api/services/${domain}/${service}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${HASS_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(data),
  });
  expect(res.status, `${domain}.${service} on Home Assistant`).toBe(200);
  await res.body?.cancel();
}

/** A REST request to Home Assistant that must succeed; its JSON answer. */
export async function haApi(method: string, path: string, json?: unknown): Promise<any> {
  const r = await fetch(`${HASS_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${HASS_TOKEN}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  expect(r.status, `${method} ${path}`).toBeLessThan(300);
  return r.json();
}

/** An entity's state, or null while Home Assistant has none (an integration unloaded, say). */
export async function haStateOrNull(id: string): Promise<any> {
  const res = await fetch(`${HASS_URL}/api/states/${id}`, { headers: { authorization: `Bearer ${HASS_TOKEN}` } });
  if (res.status === 404) return null;
  expect(res.status, `state of ${id}`).toBe(200);
  return res.json();
}

/** A config entry made through its integration's config flow (its one form answered with `form`); its entry_id. */
export async function configEntryFromFlow(handler: string, form: Record<string, unknown> = {}): Promise<string> {
  const flow = await haApi('POST', '/api/config/config_entries/flow', { handler });
  const done = flow.type === 'create_entry' ? flow : await haApi('POST', `/api/config/config_entries/flow/${flow.flow_id}`, form);
  expect(done.type, JSON.stringify(done)).toBe('create_entry');
  return done.result.entry_id;
}

export const removeConfigEntry = (entryId: string) => haApi('DELETE', `/api/config/config_entries/entry/${entryId}`);
