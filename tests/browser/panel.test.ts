// The panel in a real browser (Debian's chromium through playwright-core), opened as Home
// Assistant opens it: through the simulator's ingress proxy, under a path prefix, framed by a page
// of the same origin. Also on the add-on's own port with a sign-in. Screenshots (desktop and phone
// width) go to tests/browser/screenshots, which docs/addon.md shows, with UPDATE_SCREENSHOTS=1.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';
import { screenshotDir } from '../helpers/screenshots.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const shots = screenshotDir();
const SHOTS = shots.dir;
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
  server = await startTestServer({
    HASS_URL: sim.url,
    HASS_TOKEN: sim.token,
    INGRESS_PROXY: PROXY,
    SUPERVISOR_TOKEN: 'supervisor-token',
    SUPERVISOR_URL: sim.url,
  });
  sim.supervisor!.installAddon({ slug: 'home_mcp_bridge', name: 'Home MCP Bridge', url: server.url, discovery: ['mcp'] });
  ingressUrl = sim.supervisor!.ingressUrl('home_mcp_bridge');
  // What Home Assistant's frontend does for a signed-in administrator before it opens the panel.
  session = sim.supervisor!.createSession(sim.hub.user.id);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sim?.stop();
  shots.done();
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
    await expect.poll(() => panel.locator('#command-result').textContent()).toBe('Turned off Bedroom Lamp.');
  });

  it('asks which one when a command names several, listing them, and offers nothing to run', async () => {
    await panel.locator('#command-input').fill('turn on the lamp');
    await panel.locator('#command-form button[type="submit"]').click();
    await expect.poll(() => panel.locator('#command-message').textContent()).toMatch(/^Which lamp do you mean: /);
    await expect.poll(() => panel.locator('#command-actions').textContent()).toContain('light.office_desk');
    expect(await panel.locator('#command-run').isHidden()).toBe(true);
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
    const overflow = await phone.page
      .frameLocator('#panel')
      .locator('body')
      .evaluate((b) => b.scrollWidth - b.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.page.screenshot({ path: join(SHOTS, 'panel-phone.png') });
  });
});

describe.skipIf(!available)('the panel at desktop and phone width', () => {
  const WIDTHS = [
    { width: 1280, height: 860 },
    { width: 390, height: 844 },
  ];

  it.each(WIDTHS)(
    '$width px: every tab in sight, the empty event list one readable line, real entity ids as examples, group members whole',
    async (viewport) => {
      const { page, panel } = await framedPanel(viewport);
      await expect.poll(() => panel.locator('#st-entities').textContent()).toBe(String(sim.states().length));
      // Every tab can be seen and reached without scrolling a bar that gives no sign it scrolls.
      const frame = panel.locator('body');
      const width = await frame.evaluate((b) => b.ownerDocument.documentElement.clientWidth);
      const tabs = panel.locator('.tabs a');
      expect(await tabs.count()).toBe(8);
      for (const box of await tabs.evaluateAll((links) =>
        links.map((a) => ({ left: a.getBoundingClientRect().left, right: a.getBoundingClientRect().right })),
      )) {
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(width);
      }
      expect(await panel.locator('.tabs').evaluate((t) => t.scrollWidth - t.clientWidth)).toBeLessThanOrEqual(0);

      // The empty list of latest events is a sentence across the card, not a word per line.
      await panel.locator('a[data-tab="events"]').click();
      await panel.locator('#event-clear').click();
      await panel.locator('a[data-tab="home"]').click();
      const empty = panel.locator('#home-events li');
      await expect.poll(() => empty.count()).toBe(1);
      const [item, list] = await Promise.all([
        empty.evaluate((li) => li.getBoundingClientRect().width),
        panel.locator('#home-events').evaluate((ol) => ol.getBoundingClientRect().width),
      ]);
      expect(item).toBeGreaterThanOrEqual(list * 0.9);
      // Lines of text: the line boxes its words fall into.
      const lines = await empty.evaluate((node) => {
        const range = node.ownerDocument.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      expect(lines).toBeLessThanOrEqual(viewport.width < 640 ? 3 : 1);

      // Examples name entities this home has; a group's members each stay whole.
      const group = await server.call('/api/group?replace=true', 'POST', {
        name: `Layout ${viewport.width}`,
        entities: ['light.living_room_ceiling', 'light.kitchen_ceiling', 'binary_sensor.front_door_contact', 'sensor.bathroom_humidity'],
      });
      expect(group.status).toBeLessThan(300);
      await panel.locator('a[data-tab="scenes"]').click();
      const ids = new Set(sim.states().map((e) => e.entity_id));
      for (const input of ['#scene-form input[name="entities"]', '#group-form input[name="entities"]']) {
        const examples = ((await panel.locator(input).getAttribute('placeholder')) ?? '').split(/,\s*/).filter(Boolean);
        expect(examples.length).toBeGreaterThan(0);
        for (const id of examples) expect(ids.has(id), `${input} names ${id}`).toBe(true);
      }
      const members = panel.locator(`#group-list li:has-text("Layout ${viewport.width}") .member`);
      await expect.poll(() => members.count()).toBe(4);
      for (const [text, n] of await members.evaluateAll((spans) =>
        spans.map((m) => [m.textContent, new Set([...m.getClientRects()].map((r) => Math.round(r.top))).size] as const),
      ))
        expect(n, text!).toBe(1);
      expect((page as Page & { errors?: string[] }).errors).toEqual([]);
      await page.context().close();
    },
  );

  it.each(WIDTHS)('$width px: the sign-in page says how to sign in whether the bridge is an add-on or not', async (viewport) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.locator('#sign-in').isVisible()).toBe(true);
    const text = (await page.locator('#sign-in').textContent())!.replace(/\s+/g, ' ');
    // Running on its own there are no add-on options: the settings and the first-start password are named.
    expect(text).toMatch(/AUTH_USERNAME/);
    expect(text).toMatch(/first start/);
    expect(text).toMatch(/in the add-on/i);
    await context.close();
  });
});

describe.skipIf(!available)('the panel on the add-on’s own port', () => {
  it('asks for a sign-in, refuses a wrong password, then works', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
    const page = await context.newPage();
    // Each step waits for the bridge's answer first: a sign-in costs a password hash (scrypt, about
    // 50 ms of CPU by design), which a loaded machine stretches past a second. The polls after it
    // wait only for the page to show what the answer said.
    const answer = (path: string) => page.waitForResponse((r) => new URL(r.url()).pathname === path);
    // A signed-out load asks the public /api/session, which says so without a 401.
    const unknown = answer('/api/session');
    await page.goto(`${server.url}/`);
    const session = await unknown;
    expect(session.status()).toBe(200);
    expect(await session.json()).toMatchObject({ signed_in: false });
    await expect.poll(() => page.locator('#sign-in').isVisible()).toBe(true);
    await page.fill('#sign-in-form input[name="username"]', TEST_USER.username);
    await page.fill('#sign-in-form input[name="password"]', 'wrong password');
    const refused = answer('/auth/token');
    await page.click('#sign-in-form button');
    expect((await refused).status()).toBe(401);
    await expect.poll(() => page.locator('#sign-in-error').textContent()).toMatch(/Invalid username or password/);
    await page.fill('#sign-in-form input[name="password"]', TEST_USER.password);
    const signedIn = answer('/api/me');
    await page.click('#sign-in-form button');
    expect((await signedIn).status()).toBe(200);
    await expect.poll(() => page.locator('#who').textContent()).toBe(`${TEST_USER.username} (bridge user)`);
    // Live events through /subscribe_events with the token in the query (EventSource sends no headers).
    await page.click('a[data-tab="events"]');
    await expect.poll(() => page.locator('#event-status').textContent()).toMatch(/^Live/);
    sim.setState('sensor.bathroom_humidity', '64');
    await expect.poll(() => page.locator('#event-log').textContent()).toContain('→ 64');
    await context.close();
  });
});

describe.skipIf(!available)('a normal page load', () => {
  /** A page that records every console error and every answer of 400 or more. */
  async function watched(viewport: { width: number; height: number }) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    return { context, page, problems };
  }
  const signIn = async (page: Page) => {
    await page.fill('#sign-in-form input[name="username"]', TEST_USER.username);
    await page.fill('#sign-in-form input[name="password"]', TEST_USER.password);
    await page.click('#sign-in-form button');
    await expect.poll(() => page.locator('#who').textContent()).toBe(`${TEST_USER.username} (bridge user)`);
  };

  it('signed out on the own port: the hub badge resolves, and nothing answers 401 or logs an error', async () => {
    const { context, page, problems } = await watched({ width: 1024, height: 700 });
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.locator('#sign-in').isVisible()).toBe(true);
    await expect.poll(() => page.locator('#hub-badge').textContent()).toBe('hub connected');
    expect(await page.locator('#hub-badge').getAttribute('data-state')).toBe('ok');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signed in, then loaded again (the token kept for the tab), and through ingress: no 401, no error', async () => {
    const { context, page, problems } = await watched({ width: 1024, height: 700 });
    await page.goto(`${server.url}/`);
    await signIn(page);
    await page.reload();
    await expect.poll(() => page.locator('#who').textContent()).toBe(`${TEST_USER.username} (bridge user)`);
    await expect.poll(() => page.locator('#st-entities').textContent()).toBe(String(sim.states().length));
    expect(problems).toEqual([]);
    await context.close();

    const { page: framed, panel } = await framedPanel({ width: 1024, height: 700 });
    const seen: string[] = [];
    framed.on('response', (r) => r.status() >= 400 && seen.push(`${r.status()} ${r.url()}`));
    framed.on('console', (m) => m.type() === 'error' && seen.push(`console: ${m.text()}`));
    await framed.reload();
    await expect.poll(() => panel.locator('#who').textContent()).toBe('Simulator');
    await expect.poll(() => panel.locator('#st-entities').textContent()).toBe(String(sim.states().length));
    expect(seen).toEqual([]);
    await framed.context().close();
  });

  it('a kept token that no longer works: the sign-in shows without a 401', async () => {
    const { context, page, problems } = await watched({ width: 1024, height: 700 });
    await page.goto(`${server.url}/`);
    await page.evaluate(() => sessionStorage.setItem('home-mcp-bridge.token', 'not-a-token'));
    await page.reload();
    await expect.poll(() => page.locator('#sign-in').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('home-mcp-bridge.token'))).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signed in at 390 px: the tabs fit in two even rows, each name whole and in sight', async () => {
    const { context, page, problems } = await watched({ width: 390, height: 844 });
    await page.goto(`${server.url}/`);
    await signIn(page);
    const boxes = await page.locator('.tabs a').evaluateAll((links) =>
      links.map((a) => {
        const r = a.getBoundingClientRect();
        return { top: Math.round(r.top), left: r.left, right: r.right, clipped: a.scrollWidth > a.clientWidth, text: a.textContent };
      }),
    );
    expect(boxes).toHaveLength(8);
    expect(new Set(boxes.map((b) => b.top)).size).toBeLessThanOrEqual(2);
    for (const b of boxes) {
      expect(b.left, b.text!).toBeGreaterThanOrEqual(0);
      expect(b.right, b.text!).toBeLessThanOrEqual(390);
      expect(b.clipped, b.text!).toBe(false);
    }
    // The short names keep the long ones as their accessible names.
    expect(await page.locator('a[data-tab="connect"]').getAttribute('aria-label')).toBe('Connect an assistant');
    expect(await page.locator('body').evaluate((b) => b.scrollWidth - b.clientWidth)).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
