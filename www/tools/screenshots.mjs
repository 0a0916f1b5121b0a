#!/usr/bin/env node
// Screenshots of the playground, for people to look at (not committed: tests/e2e/screenshots/ is
// git-ignored). Serves www/dist itself (or uses PLAYGROUND_URL), drives headless Chromium with
// playwright-core, and writes:
//   default.png             the page at default settings (1280 px wide)
//   default-phone.png       the same at 390 px (top), default-phone-chart.png (the chart)
//   first-opening.png       after stepping ("next event") to the first opening
//   validation-error.png    with an invalid setting and its inline message
//   dark.png                default settings in the dark colour scheme
// Usage: node www/tools/screenshots.mjs [outDir]   (after `cargo xtask dist`)
// Env: PLAYGROUND_URL, CHROMIUM (default /usr/bin/chromium).

import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join, extname, resolve, dirname, normalize } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const dist = resolve(repo, 'www/dist');
const outDir = resolve(process.argv[2] || join(repo, 'tests/e2e/screenshots'));

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon',
};

async function serve() {
  await stat(join(dist, 'index.html')).catch(() => {
    throw new Error(`no ${dist}/index.html: run \`cargo xtask dist\` first or set PLAYGROUND_URL`);
  });
  const server = createServer(async (req, res) => {
    try {
      let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (p.endsWith('/')) p += 'index.html';
      const file = normalize(join(dist, p));
      if (!file.startsWith(dist)) { res.writeHead(403).end(); return; }
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

async function main() {
  await mkdir(outDir, { recursive: true });
  let server = null;
  let base = process.env.PLAYGROUND_URL;
  if (!base) ({ server, url: base } = await serve());
  const userDataDir = await mkdtemp(join(tmpdir(), 'pg-shots-'));
  const ctx = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
    viewport: { width: 1280, height: 900 },
  });
  const problems = [];
  const watch = (page) => {
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  };
  const ready = async (page) => {
    await page.waitForSelector('.transport button.primary:not([disabled])', { timeout: 60000 });
    await page.waitForTimeout(400);
  };
  try {
    const page = await ctx.newPage();
    watch(page);
    await page.goto(base, { waitUntil: 'load' });
    await ready(page);
    await page.screenshot({ path: join(outDir, 'default.png'), fullPage: true });
    console.log('wrote default.png');

    // Step to the first opening: "next event" until the statistical or window breaker opens.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('n');
      await page.waitForTimeout(150);
      const opened = await page.evaluate(() => {
        const s = window.playground && window.playground.state.snap;
        return Boolean(s && (s.statistical.state === 'open' || s.window.state === 'open'));
      });
      if (opened) break;
    }
    await page.screenshot({ path: join(outDir, 'first-opening.png'), fullPage: true });
    console.log('wrote first-opening.png');

    // A validation error: broken rate below the fine rate.
    const broken = page.getByLabel(/Broken failure rate/);
    await broken.fill('2');
    await broken.press('Tab');
    await page.waitForSelector('.field.invalid', { timeout: 10000 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(outDir, 'validation-error.png'), fullPage: false });
    console.log('wrote validation-error.png');

    const phone = await ctx.newPage();
    watch(phone);
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(base, { waitUntil: 'load' });
    await ready(phone);
    await phone.screenshot({ path: join(outDir, 'default-phone.png'), fullPage: false });
    await phone.locator('.panel-chart').scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(outDir, 'default-phone-chart.png'), fullPage: false });
    console.log('wrote default-phone.png, default-phone-chart.png');

    const dark = await ctx.newPage();
    watch(dark);
    await dark.emulateMedia({ colorScheme: 'dark' });
    await dark.goto(base, { waitUntil: 'load' });
    await ready(dark);
    await dark.screenshot({ path: join(outDir, 'dark.png'), fullPage: false });
    console.log('wrote dark.png');
  } finally {
    await ctx.close();
    await rm(userDataDir, { recursive: true, force: true });
    if (server) server.close();
  }
  if (problems.length) {
    console.error(`page problems:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  }
  console.log(`screenshots in ${outDir}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
