// The panel in a real browser (Debian's chromium through playwright-core), opened as Home
// Assistant opens it: through the simulator's ingress proxy, under a path prefix, framed by a page
// of the same origin. Also on the add-on's own port with a sign-in. Screenshots (desktop and phone
// width) go to tests/browser/screenshots, which README shows.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = process.env.SCREENSHOT_DIR ?? join(import.meta.dirname, 'screenshots');
const PROXY = '127.0.0.2';
// CI installs chromium (.ci/run); a developer's machine without it skips rather than fails.
const available = existsSync(CHROMIUM) || Boolean(process.env.CI);

let sim: Simulator;
let server: TestServer;
let browser: Browser;
let ingressUrl: string;
let session: string;

beforeAll(async () => {
  if (!available) return;
  sim = await startSimulator({ supervisor: { ingressSourceAddress: PROXY } });
  // As an add-on: the Supervisor is the simulator's (HASS_URL still names the hub), so the link to Home Assistant is announced.
  server = await startTestServer({ HASS_URL: sim.url, HASS_TOKEN: sim.token, INGRESS_PROXY: PROXY, SUPERVISOR_TOKEN: 'supervisor-token', SUPERVISOR_URL: sim.url });
  sim.supervisor!.installAddon({ slug: 'home_mcp_bridge', name: 'Home MCP Bridge', url: server.url, discovery: ['mcp'] });
  ingressUrl = sim.supervisor!.ingressUrl('home_mcp_bridge');
  // What Home Assistant's frontend does for a signed-in administrator before it opens the panel.
  session = sim.supervisor!.createSession(sim.hub.user.id);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sim?.stop();
});

/** A page of Home Assistant's origin that frames the panel, as its sidebar does. */
async function framedPanel(viewport: { width: number; height: number }): Promise<{ page: Page; panel: FrameLocator }> {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'ingress_session', value: session, url: sim.url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/401|Failed to load resource/.test(m.text()) && errors.push(m.text()));
  (page as Page & { errors?: string[] }).errors = errors;
  await page.route(`${sim.url}/home-assistant`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Home Assistant</title><style>body{margin:0}iframe{border:0;width:100vw;height:100vh}</style><iframe id="panel" src="${new URL(ingressUrl).pathname}"></iframe>`,
    }),
  );
  await page.goto(`${sim.url}/home-assistant`);
  return { page, panel: page.frameLocator('#panel') };
}

const row = (panel: FrameLocator, entityId: string) => panel.locator(`tr[data-entity="${entityId}"]`);

describe.skipIf(!available)('the panel through ingress', () => {
  let page: Page;
  let panel: FrameLocator;

  it('opens framed under the ingress path, signed in as the Home Assistant user', async () => {
    ({ page, panel } = await framedPanel({ width: 1280, height: 860 }));
    await expect.poll(() => panel.locator('#who').textContent()).toBe('Simulator');
    await expect.poll(() => panel.locator('#st-entities').textContent()).toBe(String(sim.states().length));
    await expect.poll(() => panel.locator('#hub-badge').textContent()).toBe('hub connected');
    expect(await panel.locator('#sign-in').isHidden()).toBe(true);
    expect(panel.owner()).toBeTruthy();
  });

  it('shows a state change made elsewhere, live', async () => {
    await panel.locator('a[data-tab="entities"]').click();
    await panel.locator('#entity-search').fill('bedroom lamp');
    await expect.poll(() => row(panel, 'light.bedroom_lamp').locator('td.state').textContent()).toBe('off');
    const res = await server.call('/api/device/control', 'POST', { entity_id: 'light.bedroom_lamp', action: 'turn_on', parameters: { brightness_pct: 40 } });
    expect(res.status).toBe(200);
    await expect.poll(() => row(panel, 'light.bedroom_lamp').locator('td.state').textContent()).toBe('on');
    await panel.locator('#entity-search').fill('');
    await page.screenshot({ path: join(SHOTS, 'panel-entities.png') });
  });

  it('previews a command, then runs it', async () => {
    await panel.locator('a[data-tab="command"]').click();
    await panel.locator('#command-input').fill('turn off the bedroom lamp');
    await panel.locator('#command-form button[type="submit"]').click();
    await expect.poll(() => panel.locator('#command-actions').textContent()).toContain('light.bedroom_lamp');
    // A preview changes nothing.
    expect(sim.getState('light.bedroom_lamp')?.state).toBe('on');
    await page.screenshot({ path: join(SHOTS, 'panel-command.png') });
    await panel.locator('#command-run').click();
    await expect.poll(() => sim.getState('light.bedroom_lamp')?.state).toBe('off');
    await expect.poll(() => panel.locator('#command-result').getAttribute('data-kind')).toBe('ok');
  });

  it("puts Home Assistant's own path first: its link (scope, new key) and a client for its OAuth flow", async () => {
    await panel.locator('a[data-tab="connect"]').click();
    const first = panel.locator('section[data-panel="connect"] .card').first();
    await expect.poll(() => first.locator('h2').textContent()).toBe("Home Assistant's own assistants");
    await expect.poll(() => panel.locator('#ha-link-status').textContent(), { timeout: 15_000 }).toMatch(/^announced to Home Assistant/);
    expect(await panel.locator('#ha-mcp-url').textContent()).toBe(`${sim.url}/api/mcp/mcp-home_mcp_bridge`);
    await panel.locator('#ha-link-control').uncheck();
    await expect.poll(async () => (await server.call('/api/discovery')).body.scope).toEqual(['read']);
    await panel.locator('#ha-link-control').check();
    await expect.poll(async () => (await server.call('/api/discovery')).body.scope).toEqual(['read', 'control']);
    const before = sim.supervisor!.discoveries()[0]!.config.url;
    page.once('dialog', (d) => d.accept());
    await panel.locator('#ha-link-rotate').click();
    await expect.poll(() => sim.supervisor!.discoveries()[0]!.config.url).not.toBe(before);
    await panel.locator('#client-form button').click();
    await expect.poll(() => panel.locator('#client-value').textContent()).toMatch(/Client secret: hmbs_/);
    const listed = (await server.call('/api/oauth/clients')).body.clients;
    expect(listed).toEqual([expect.objectContaining({ client_name: 'Home Assistant', redirect_uris: ['https://my.home-assistant.io/redirect/oauth'] })]);
    await expect.poll(() => panel.locator('#client-rows').textContent()).toContain(listed[0].client_id);
    await panel.locator('#ha-card h2').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'panel-home-assistant.png') });
  });

  it('makes a token, which then works on the API and shows in the configurations', async () => {
    await panel.locator('a[data-tab="connect"]').click();
    await panel.locator('#token-form input[name="name"]').fill('Browser test');
    await panel.locator('#token-form button').click();
    await expect.poll(() => panel.locator('#token-value').textContent()).toMatch(/^ey/);
    const token = (await panel.locator('#token-value').textContent())!;
    expect(await panel.locator('#cfg-http').textContent()).toContain(token);
    const used = await fetch(`${server.url}/api/state/light.bedroom_lamp`, { headers: { authorization: `Bearer ${token}` } });
    expect(used.status).toBe(200);
    await expect.poll(() => panel.locator('#token-rows').textContent()).toContain('Browser test');
    await page.screenshot({ path: join(SHOTS, 'panel-connect.png'), fullPage: true });
  });

  it('shows live events and the home page; the page raised no errors', async () => {
    await panel.locator('a[data-tab="home"]').click();
    sim.setState('sensor.bathroom_humidity', '61');
    await expect.poll(() => panel.locator('#home-events').textContent()).toContain('sensor.bathroom_humidity');
    await page.screenshot({ path: join(SHOTS, 'panel-desktop.png') });
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
  });

  it('fits a phone', async () => {
    const phone = await framedPanel({ width: 390, height: 844 });
    await expect.poll(() => phone.panel.locator('#st-entities').textContent()).toBe(String(sim.states().length));
    await phone.panel.locator('a[data-tab="entities"]').click();
    await expect.poll(() => row(phone.panel, 'light.bedroom_lamp').count()).toBe(1);
    // Nothing wider than the screen: no sideways scrolling of the page itself.
    const overflow = await phone.page.frameLocator('#panel').locator('body').evaluate((b) => b.scrollWidth - b.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.page.screenshot({ path: join(SHOTS, 'panel-phone.png') });
  });
});

describe.skipIf(!available)('the panel on the add-on’s own port', () => {
  it('asks for a sign-in, refuses a wrong password, then works', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.locator('#sign-in').isVisible()).toBe(true);
    await page.fill('#sign-in-form input[name="username"]', TEST_USER.username);
    await page.fill('#sign-in-form input[name="password"]', 'wrong password');
    await page.click('#sign-in-form button');
    await expect.poll(() => page.locator('#sign-in-error').textContent()).toMatch(/Invalid username or password/);
    await page.fill('#sign-in-form input[name="password"]', TEST_USER.password);
    await page.click('#sign-in-form button');
    await expect.poll(() => page.locator('#who').textContent()).toBe(`${TEST_USER.username} (bridge user)`);
    // Live events through /subscribe_events with the token in the query (EventSource sends no headers).
    await page.click('a[data-tab="events"]');
    await expect.poll(() => page.locator('#event-status').textContent()).toMatch(/^Live/);
    sim.setState('sensor.bathroom_humidity', '64');
    await expect.poll(() => page.locator('#event-log').textContent()).toContain('→ 64');
    await context.close();
  });
});
