import { chromium } from 'playwright-core';
const ctx = await chromium.launchPersistentContext('/tmp/pgdbg3', { executablePath: '/usr/bin/chromium', headless: true, args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--no-first-run'] });
const page = await ctx.newPage();
page.on('console', (m) => console.log('console', m.type(), m.text()));
await page.goto('http://127.0.0.1:8765/');
const r = await page.evaluate(async () => {
  const m = await import('/pkg/breaker_wasm.js');
  await m.default();
  const ps = m.presets();
  const out = [];
  for (const p of ps.slice(0, 2)) {
    let t = performance.now();
    m.analysis(p.scenario.statistical, p.scenario.window, { calls_per_minute: p.scenario.traffic.calls_per_minute });
    out.push([p.name, 'analysis', Math.round(performance.now() - t)]);
    t = performance.now();
    const pg = new m.Playground(p.scenario);
    while (pg.advance(100000) < 1);
    out.push([p.name, 'run', Math.round(performance.now() - t)]);
  }
  return out;
});
console.log(JSON.stringify(r));
await ctx.close();
