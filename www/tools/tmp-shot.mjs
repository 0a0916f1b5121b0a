import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 2 });
await p.goto('http://127.0.0.1:8766/index.html');
await p.waitForFunction(() => document.querySelector('#playground .metrics'), null, { timeout: 60000 });
await p.waitForTimeout(1500);
const c = await p.$('.chart, #playground .charts');
const el = await p.$('.uplot'); await el.screenshot({ path: '/tmp/shot-chart.png' });
await b.close();
