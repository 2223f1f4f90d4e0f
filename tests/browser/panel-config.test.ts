// The panel's config changes in a real browser: an assistant changed an automation twice; the panel
// lists the changes with who, why and the diff, and "Put back" previews the first version, asks,
// and restores it, which then shows as a change of its own. Its screenshot is docs/config-editing.md's (UPDATE_SCREENSHOTS=1).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configHomeFile } from '../helpers/config-home.js';
import { screenshotDir } from '../helpers/screenshots.js';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const shots = screenshotDir();
const SHOTS = shots.dir;
const available = existsSync(CHROMIUM) || Boolean(process.env.CI);

let server: TestServer;
let browser: Browser;
const automation = (pct: number) => ({
  alias: 'Night light',
  triggers: [{ trigger: 'state', entity_id: 'input_boolean.bedtime', to: 'on' }],
  actions: [{ action: 'light.turn_on', target: { entity_id: 'light.bed' }, data: { brightness_pct: pct } }],
});

beforeAll(async () => {
  if (!available) return;
  server = await startTestServer({ CONFIG_EDITING: 'true', SIM_HOME: configHomeFile() });
  await server.call('/api/ha-config-changes', 'POST', {
    kind: 'automation',
    op: 'create',
    id: 'night_light',
    config: automation(40),
    confirm: true,
    reason: 'a soft light at bedtime',
  });
  await server.call('/api/ha-config-changes', 'POST', {
    kind: 'automation',
    op: 'update',
    id: 'night_light',
    config: automation(10),
    confirm: true,
    reason: 'dimmer, the person asked',
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  shots.done();
});

describe.skipIf(!available)('config changes in the panel', () => {
  it('lists the changes with their diffs, and puts the first version back after asking', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/#config`);
    await page.fill('#sign-in-form input[name="username"]', TEST_USER.username);
    await page.fill('#sign-in-form input[name="password"]', TEST_USER.password);
    await page.click('#sign-in-form button');
    const rows = page.locator('#config-list li');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('automation night_lightupdated');
    expect(await rows.nth(0).textContent()).toContain('“dimmer, the person asked”');
    await rows.nth(0).locator('summary').click();
    expect(await rows.nth(0).locator('.diff .del').allTextContents()).toEqual(['-      brightness_pct: 40\n']);
    expect(await rows.nth(0).locator('.diff .add').allTextContents()).toEqual(['+      brightness_pct: 10\n']);
    await expect.poll(() => page.locator('#config-editing').textContent()).toBe('Config editing is on (CONFIG_EDITING).');
    await page.screenshot({ path: join(SHOTS, 'panel-config.png') });

    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await rows.nth(1).locator('button').click();
    await expect.poll(() => rows.count()).toBe(3);
    expect(asked).toContain('Restoring automation night_light to version');
    expect(asked).toContain('+      brightness_pct: 40');
    expect(await rows.nth(0).textContent()).toContain('restored');
    expect(await rows.nth(0).textContent()).toContain('“put back from the panel”');
    expect((await server.call('/api/ha-config/automation/night_light')).body.config.actions[0].data).toEqual({ brightness_pct: 40 });
    expect(errors).toEqual([]);
  });
});
