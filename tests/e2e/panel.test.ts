// The panel against the real Home Assistant, in a real browser: signed in on the bridge's port, it
// lists Home Assistant's entities and shows a change made in Home Assistant itself, live.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, TEST_USER, type TestServer } from '../helpers/server.js';
import { eventually, haCall, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
let s: TestServer;
let browser: Browser;

beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
  if (!existsSync(CHROMIUM) && !process.env.CI) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

test.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('a light switched in Home Assistant changes in the panel, live', async () => {
  await haCall('light', 'turn_off', { entity_id: 'light.kitchen_lights' });
  await eventually(
    () => haStateOf('light.kitchen_lights'),
    (x) => x.state === 'off',
    'kitchen lights off',
  );
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${s.url}/`);
  await page.fill('#sign-in-form input[name="username"]', TEST_USER.username);
  await page.fill('#sign-in-form input[name="password"]', TEST_USER.password);
  await page.click('#sign-in-form button');
  await expect.poll(() => page.locator('#st-version').textContent()).toBe(s.app.hub.status().version);
  await page.click('a[data-tab="entities"]');
  const state = page.locator('tr[data-entity="light.kitchen_lights"] td.state');
  await expect.poll(() => state.textContent()).toBe('off');
  await haCall('light', 'turn_on', { entity_id: 'light.kitchen_lights' });
  await expect.poll(() => state.textContent(), { timeout: 20_000 }).toBe('on');
});
