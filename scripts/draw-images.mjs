// Renders the add-on store images from their SVG sources: src/panel/icon.svg -> icon.png
// (128x128) and src/panel/logo.svg -> logo.png (250x100), with transparent backgrounds.
// Needs a Chromium: Debian's at /usr/bin/chromium, or CHROMIUM=/path. Run: node scripts/draw-images.mjs
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const root = new URL('../', import.meta.url);
const images = [
  { source: 'src/panel/icon.svg', target: 'icon.png' },
  { source: 'src/panel/logo.svg', target: 'logo.png' },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  // Scale factor 1: one SVG unit is one PNG pixel, so the PNG has the SVG's width and height.
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { source, target } of images) {
    // Opened from its file, so the logo's <image href="icon.svg"> finds the icon beside it.
    await page.goto(new URL(source, root).href);
    // The logo's lettering uses system fonts; wait until they are loaded before the shot.
    await page.evaluate(() => document.fonts.ready);
    await page.waitForLoadState('load');
    const png = await page.locator('svg').first().screenshot({ omitBackground: true });
    writeFileSync(new URL(target, root), png);
    console.log(`${target}: ${png.readUInt32BE(16)}x${png.readUInt32BE(20)}, ${png.length} bytes`);
  }
} finally {
  await browser.close();
}
