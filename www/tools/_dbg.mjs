import { chromium } from 'playwright-core';
const ctx = await chromium.launchPersistentContext('/tmp/pgdbg2', { executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1280, height: 900 }, args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--no-first-run'] });
const page = await ctx.newPage();
page.on('console', (m) => console.log('console', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror', e.message, e.stack));
await page.goto(process.argv[2]);
await page.waitForSelector('.transport button.primary:not([disabled])', { timeout: 30000 });
let t0 = Date.now();
await page.click('.analysis-details summary');
await page.waitForSelector('.analysis-grid figure', { timeout: 120000 });
console.log('analysis ms', Date.now() - t0);
await page.waitForTimeout(300);
await (await page.$('.panel-analysis')).screenshot({ path: '/work/main/tests/e2e/screenshots/analysis.png' });
for (const name of []) {
  t0 = Date.now();
  await page.selectOption('select#' + (await page.$eval('.control-head select', (e) => e.id)), name);
  await page.waitForTimeout(100);
  await page.waitForSelector('.transport button.primary:not([disabled])', { timeout: 120000 });
  console.log(name, 'ms', Date.now() - t0, await page.$eval('.runinfo', (e) => e.textContent));
}
await page.screenshot({ path: '/work/main/tests/e2e/screenshots/_bad-day.png', fullPage: true });
await ctx.close();
