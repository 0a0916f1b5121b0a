// Layout at a phone's width and after a resize: nothing wider than its box, nothing cut off. A
// page is shown at an exact width (360 or 320 px: 1280 px at 400 %) in an iframe of that width,
// the same in both browsers (a headless Firefox window is at least about 450 px wide).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSERS, session, open, page, until, pageErrors, change } from './helpers.mjs';

/**
 * Show `path` (relative to the page's folder) in an iframe `width` px wide, alone on a page of
 * the same origin, and wait until `ready` (a function source, run in the frame's window) is true.
 */
async function framed(s, path, width, ready) {
  await s.driver.get(`${s.url}docs-example.html`);
  await page(s.driver, (src, w) => {
    const f = document.createElement('iframe');
    f.src = src;
    f.style.cssText = `width:${w}px;height:900px;border:0;display:block`;
    document.body.style.cssText = 'margin:0;padding:0;max-width:none';
    document.body.replaceChildren(f);
  }, `${s.url}${path}`, width);
  await until(() => page(s.driver, (src) => {
    const w = document.querySelector('iframe').contentWindow;
    try { return Boolean(w.document.readyState === 'complete' && new w.Function(`return (${src})()`)()); } catch { return false; }
  }, String(ready)), `${path} in a ${width} px frame`, 60_000);
}

/** Run `fn` (a function source taking the frame's window) in the frame; its value. */
function inFrame(s, fn, ...args) {
  return page(s.driver, (src, a) => {
    const w = document.querySelector('iframe').contentWindow;
    return new w.Function('args', `return (${src})(window, ...args)`)(a);
  }, String(fn), args);
}

const playgroundReady = () => Boolean(window.__playground && window.__playground.ready && window.playground && window.playground.state.snap);

for (const browser of BROWSERS) {
  describe(`layout [${browser}]`, () => {
    const s = session(browser);

    test('the analysis curves follow the window\'s width: each chart as wide as its figure after a resize', async () => {
      const rect = await s.driver.manage().window().getRect();
      try {
        await s.driver.manage().window().setRect({ width: 1280, height: 900 });
        await open(s);
        await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
        await until(() => page(s.driver, () => document.querySelectorAll('#playground .analysis-grid .uplot').length >= 5), 'the analysis curves', 120_000);
        const widths = () => page(s.driver, () => [...document.querySelectorAll('#playground .analysis-grid figure')]
          .map((f) => [Math.round(f.querySelector('.uplot').getBoundingClientRect().width), f.clientWidth]));
        const fits = (ws) => ws.every(([chart, fig]) => Math.abs(chart - fig) <= 2);
        assert.ok(fits(await widths()), `at 1280 px: ${JSON.stringify(await widths())}`);
        // Narrower (one column of charts, wider than two were) and back: each chart follows.
        for (const width of [600, 1280]) {
          await s.driver.manage().window().setRect({ width, height: 900 });
          const ws = await until(async () => { const w = await widths(); return fits(w) && w; }, `the charts to fit their figures at ${width} px (chart, figure: ${JSON.stringify(await widths())})`)
            .catch(async (e) => { throw new Error(`${e.message}; now ${JSON.stringify(await widths())}`); });
          assert.ok(ws.length >= 5);
        }
        assert.deepEqual(await pageErrors(s), []);
      } finally {
        await s.driver.manage().window().setRect({ width: rect.width, height: rect.height });
      }
    });

    test('as the cursor moves, the state panel only grows: its tables stay where they are and the chart below never moves up; a new width or a new run lets the height go; scaled by a host page, it is held in layout px', async () => {
      const rect = await s.driver.manage().window().getRect();
      try {
        await s.driver.manage().window().setRect({ width: 1280, height: 900 });
        await open(s);
        const events = await page(s.driver, async () => {
          const r = await window.playground.engine.call('events', { limit: 5000 });
          return r.list.map((e) => e.t_s);
        });
        assert.ok(events.length >= 5, 'the default preset has state changes');
        const place = (t) => page(s.driver, async (at) => {
          const snap = window.playground.state.snap;
          window.playground.seek(at);
          await new Promise((r) => { const f = () => (window.playground.state.snap !== snap ? r() : setTimeout(f, 10)); f(); });
          // Laid out and drawn: the panel's height is held from its resize observer's callback.
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          const top = (sel) => document.querySelector(sel).getBoundingClientRect().top + window.scrollY;
          return { t: window.playground.state.snap.t_s, tables: top('#playground .panel-now .two'), chart: top('#playground .panel-chart'), state: window.playground.state.snap.statistical.state };
        }, t);
        // Each change, just after it and a little later (closed, open, half-open and back: the
        // rows' notes differ in length from one state to the next), then back to the start.
        const times = [...new Set(events)].flatMap((t) => [t + 0.001, t + 0.4]).concat([0.5]);
        let last = await place(0);
        const states = new Set([last.state]);
        for (const t of times) {
          const p = await place(t);
          states.add(p.state);
          assert.ok(Math.abs(p.tables - last.tables) < 0.5, `the tables moved from ${last.tables} to ${p.tables} px at ${p.t} s`);
          assert.ok(p.chart >= last.chart - 0.5, `the chart moved up from ${last.chart} to ${p.chart} px at ${p.t} s`);
          last = p;
        }
        assert.deepEqual([...states].sort(), ['closed', 'half_open', 'open']);
        // Held since: the panel at the start, closed, is taller than it needs to be.
        const natural = () => page(s.driver, () => {
          const b = document.querySelector('#playground .panel-now .panel-body');
          const held = b.getBoundingClientRect().height;
          const min = b.style.minHeight;
          b.style.removeProperty('min-height');
          const own = b.getBoundingClientRect().height;
          b.style.minHeight = min;
          return { held, own };
        });
        const before = await natural();
        assert.ok(before.held > before.own + 20, `held ${before.held} px, its own ${before.own} px`);
        // Another width: the notes wrap anew, and the panel is its own height again.
        await s.driver.manage().window().setRect({ width: 1000, height: 900 });
        const letGo = (what) => until(async () => { const n = await natural(); return Math.abs(n.held - n.own) < 0.5 && n; }, what)
          .catch(async (e) => { throw new Error(`${e.message}; now ${JSON.stringify(await natural())}`); });
        await letGo('the height let go at 1000 px');
        // Held again at this width as the cursor moves; then a new run lets it go (a step of the
        // walkthrough kept an earlier step's height).
        for (const t of times) await place(t);
        const again = await natural();
        assert.ok(again.held > again.own + 20, `held again at 1000 px: ${again.held} px, its own ${again.own} px`);
        await change(s, 'statistical.broken_rate', '25');
        await letGo('the height let go for the new run');
        // Scaled by a host page (slides, a preview): held in layout px, as min-height is. A hold
        // from the scaled box (1.5 times as tall) grew every frame, with loop errors.
        await page(s.driver, () => { const r = document.getElementById('playground'); r.style.transformOrigin = '0 0'; r.style.transform = 'scale(1.5)'; });
        for (const t of times.slice(0, 4)) await place(t);
        await new Promise((r) => setTimeout(r, 300));
        const scaled = await page(s.driver, () => {
          const b = document.querySelector('#playground .panel-now .panel-body');
          return { min: parseFloat(b.style.minHeight), layout: b.offsetHeight };
        });
        assert.ok(Math.abs(scaled.min - scaled.layout) < 1, `scaled 1.5: held ${scaled.min} px, laid out ${scaled.layout} px`);
        await page(s.driver, () => { document.getElementById('playground').style.transform = ''; });
        assert.deepEqual(await pageErrors(s), []);
      } finally {
        await s.driver.manage().window().setRect({ width: rect.width, height: rect.height });
      }
    });

    test('the analysis curves take the dark colours when the system turns dark (Chromium: media emulation)', { skip: browser !== 'chromium' }, async () => {
      await open(s);
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      await until(() => page(s.driver, () => document.querySelectorAll('#playground .analysis-grid .uplot').length >= 5), 'the analysis curves', 120_000);
      // Pixels of the first chart near its first line's colour, as the page's variable now says.
      const near = () => page(s.driver, () => {
        const hex = getComputedStyle(document.querySelector('#playground .analysis-grid')).getPropertyValue('--c-line').trim();
        const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
        const canvas = document.querySelector('#playground .analysis-grid canvas');
        const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 200 && Math.abs(d[i] - r) < 12 && Math.abs(d[i + 1] - g) < 12 && Math.abs(d[i + 2] - b) < 12) n++;
        return { hex, n };
      });
      const light = await near();
      assert.ok(light.n > 50, `the light line colour ${light.hex} is drawn (${light.n} px)`);
      try {
        await s.driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
        const dark = await until(async () => { const r = await near(); return r.hex !== light.hex && r.n > 50 && r; }, 'the dark line colour on the chart')
          .catch(async (e) => { throw new Error(`${e.message}: ${JSON.stringify(await near())}`); });
        assert.notEqual(dark.hex, light.hex);
      } finally {
        await s.driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'light' }] });
      }
    });

    test('printed (Chromium: media emulation): every setting and trace row, the charts within the page, a dark page\'s charts inverted to dark on white', { skip: browser !== 'chromium' }, async () => {
      // Two columns, as on a landscape page. From a wide window the charts kept their screen
      // width (no script runs to redraw them for paper), so Chromium shrank the whole print to
      // half size and still cut them; the settings printed as one page-high box with a scroll
      // bar, the trace as 7 of its rows; printed from a dark screen, the charts' light marks
      // vanished on white paper.
      await framed(s, 'index.html', 1000, playgroundReady);
      const look = () => inFrame(s, (w) => {
        const d = w.document;
        const q = (sel) => w.getComputedStyle(d.querySelector(sel));
        return {
          page: d.documentElement.scrollWidth <= w.innerWidth,
          side: [q('#playground .side').position, q('#playground .side').overflowY],
          trace: q('#playground .panel-trace .scroll').maxHeight,
          transport: q('#playground .sticky').position,
          charts: [...d.querySelectorAll('#playground .uplot canvas')].map((c) => w.getComputedStyle(c).maxWidth),
          fg: w.getComputedStyle(d.documentElement).getPropertyValue('--fg').trim(),
          filter: q('#playground .uplot canvas').filter,
          // Pixels of the first chart in the dark palette's score colour (#60a5fa).
          darkScore: (() => {
            const c = d.querySelector('#playground .uplot canvas');
            const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 0; i < px.length; i += 4) if (px[i + 3] > 200 && Math.abs(px[i] - 0x60) < 12 && Math.abs(px[i + 1] - 0xa5) < 12 && Math.abs(px[i + 2] - 0xfa) < 12) n++;
            return n;
          })(),
        };
      });
      const screen = await look();
      assert.equal(screen.side[0], 'sticky', 'on screen the settings stay in view');
      try {
        // A dark screen, then printing: the charts were drawn in the dark palette and are not
        // drawn again for paper (the media type changes, not the colour scheme).
        await s.driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { media: '', features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
        await until(async () => (await look()).darkScore > 50, 'the charts drawn in the dark palette');
        await s.driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { media: 'print', features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
        const dark = await look();
        assert.equal(dark.fg, '#1c1f23', 'the text prints dark');
        assert.ok(dark.darkScore > 50, `the charts keep their dark-palette drawing (${dark.darkScore} px)`);
        assert.equal(dark.filter, 'invert(1) hue-rotate(180deg)', 'the charts drawn light are inverted');
        await s.driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { media: 'print', features: [{ name: 'prefers-color-scheme', value: 'light' }] });
        const paper = await look();
        assert.deepEqual({ ...paper, darkScore: undefined }, { page: true, side: ['static', 'visible'], trace: 'none', transport: 'static', charts: ['100%', '100%', '100%'], fg: '#1c1f23', filter: 'none', darkScore: undefined });
      } finally {
        await s.driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { media: '', features: [{ name: 'prefers-color-scheme', value: 'light' }] });
      }
    });

    test('a larger default font size (Chromium: the browser\'s setting) enlarges the page\'s text and lays it out as zoom would: one column, the transport bar not stuck, nothing wider than the window', { skip: browser !== 'chromium' }, async () => {
      // The root was 15 px whatever the reader's default; at 200 % text (a root style) the Seed
      // field got 0 px of a px-wide sidebar and the transport bar stuck over half the window.
      const rect = await s.driver.manage().window().getRect();
      try {
        await s.driver.manage().window().setRect({ width: 1280, height: 900 });
        await open(s);
        // The setting applies to the page shown, at once.
        await s.driver.sendDevToolsCommand('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
        await until(() => page(s.driver, () => getComputedStyle(document.documentElement).fontSize === '30px'), 'the larger default size');
        const r = await page(s.driver, () => {
          const root = document.querySelector('#playground');
          const seed = root.querySelector('.field[data-path="seed"] input') || root.querySelector('.control-head input[type=number]');
          return {
            root: getComputedStyle(document.documentElement).fontSize,
            columns: getComputedStyle(root.querySelector('.layout')).gridTemplateColumns.split(' ').length,
            sticky: getComputedStyle(root.querySelector('.sticky')).position,
            wide: document.documentElement.scrollWidth <= innerWidth,
            seed: Math.round(seed.getBoundingClientRect().width) >= 100,
          };
        });
        assert.deepEqual(r, { root: '30px', columns: 1, sticky: 'static', wide: true, seed: true });
      } finally {
        await s.driver.sendDevToolsCommand('Page.setFontSizes', { fontSizes: { standard: 16, fixed: 13 } });
        await s.driver.manage().window().setRect({ width: rect.width, height: rect.height });
      }
      await until(() => page(s.driver, () => getComputedStyle(document.documentElement).fontSize === '15px'), 'at the usual 16 px, 15 px as before');
    });

    test('forced colours (Chromium: media emulation): the band key\'s swatches and the legend\'s markers keep their colours; the trace\'s current row a mark', { skip: browser !== 'chromium' }, async () => {
      await open(s);
      await page(s.driver, () => window.playground.seek(1200));
      await until(() => page(s.driver, () => Boolean(document.querySelector('#playground .trace tr.current'))), 'a current trace row');
      try {
        await s.driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
        const r = await page(s.driver, () => {
          const root = document.querySelector('#playground');
          const cs = (el) => getComputedStyle(el);
          return {
            forced: matchMedia('(forced-colors: active)').matches,
            swatch: cs(root.querySelector('.swatch.open')).backgroundColor,
            marker: cs(root.querySelector('.u-legend .u-series:nth-child(2) .u-marker')).borderColor,
            current: cs(root.querySelector('.trace tr.current td')).outlineStyle,
          };
        });
        // The system's colours replaced them: the swatches were the panel's background (blank).
        assert.deepEqual({ ...r, marker: undefined }, { forced: true, swatch: 'rgb(220, 38, 38)', marker: undefined, current: 'solid' });
        assert.notEqual(r.marker, 'rgb(0, 0, 0)', `the closed score's marker keeps its colour: ${r.marker}`);
      } finally {
        await s.driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'none' }] });
      }
    });

    test('at 360 px a long scenario name and long phase labels wrap: no sideways scroll, every phase inside the settings', async () => {
      const phases = Array.from({ length: 6 }, (_, i) => ({
        start: i * 10, condition: i % 2 ? 'fine' : 'outage', failure_rate: i % 2 ? 0.02 : 1,
        label: `${'Supercalifragilistic'.repeat(2)}_phase_${i}_without_any_space_in_it`,
      }));
      const q = new URLSearchParams({ v: '1', preset: 'recovery-warmup', name: 'x'.repeat(120), dependency: JSON.stringify(phases) });
      await framed(s, `index.html?${q}`, 360, playgroundReady);
      const r = await inFrame(s, (w) => {
        const d = w.document;
        for (const det of d.querySelectorAll('#playground details.section')) det.open = true;
        const runinfo = d.querySelector('#playground .runinfo');
        const outside = [...d.querySelectorAll('#playground fieldset.phase')].filter((f) => {
          const sec = f.closest('.section').getBoundingClientRect();
          const b = f.getBoundingClientRect();
          return b.right > sec.right + 0.5 || b.width === 0;
        }).map((f) => `${f.querySelector('legend').textContent.slice(0, 20)}… ${Math.round(f.getBoundingClientRect().right)}`);
        return {
          name: runinfo.textContent.startsWith('x'.repeat(120)),
          page: [d.documentElement.scrollWidth, w.innerWidth],
          runinfo: [runinfo.scrollWidth, runinfo.clientWidth],
          phases: d.querySelectorAll('#playground fieldset.phase').length,
          outside,
        };
      });
      assert.ok(r.name, 'the run line names the scenario');
      assert.ok(r.page[0] <= r.page[1], `no sideways scroll: the page is ${r.page[0]} px wide in ${r.page[1]} px`);
      assert.ok(r.runinfo[0] <= r.runinfo[1], `the run line's text fits it: ${r.runinfo.join(' > ')}`);
      assert.equal(r.phases, 6);
      assert.deepEqual(r.outside, [], 'phases wider than their settings section');
    });

    test('at 320 px the state panel\'s tables fit their panel, in the page and in a custom element on a docs page', async () => {
      const fit = (w) => [...w.document.querySelectorAll('#playground .panel-now table')].map((t) => {
        const p = t.closest('.panel').getBoundingClientRect();
        return Math.round(t.getBoundingClientRect().right - p.right);
      });
      await framed(s, 'index.html?v=1&preset=quiet-service', 320, playgroundReady);
      const page320 = await inFrame(s, fit);
      assert.equal(page320.length, 2);
      assert.ok(page320.every((d) => d <= 0), `tables past the panel's right edge by ${page320.join(', ')} px`);
      // The docs example at 320 px: the element has the column, 280 px, inside its padding.
      await framed(s, 'docs-example.html', 320, () => document.getElementById('quiet-el').dataset.state === 'ready');
      const el = await inFrame(s, (w) => {
        const r = w.document.getElementById('quiet-el').shadowRoot;
        const out = [];
        for (const sel of ['.panel-now table', '.panel-chart .uplot']) {
          for (const t of r.querySelectorAll(sel)) {
            const p = t.closest('.panel');
            const right = p.getBoundingClientRect().right - parseFloat(w.getComputedStyle(p).paddingRight);
            out.push([sel, Math.round(t.getBoundingClientRect().right - right)]);
          }
        }
        return { out, host: w.document.getElementById('quiet-el').getBoundingClientRect().width, page: [w.document.documentElement.scrollWidth, w.innerWidth] };
      });
      assert.ok(el.out.length >= 5, JSON.stringify(el));
      assert.deepEqual(el.out.filter(([, d]) => d > 1), [], `past the panel's content box (px), in a ${el.host} px element`);
      assert.ok(el.page[0] <= el.page[1], 'the docs page does not scroll sideways');
    });

    test('the walkthrough at 320 px: no figure (number, words and kind) wider than its step', async () => {
      for (const step of [6, 8]) {
        await framed(s, `learn.html?step=${step}`, 320, `() => document.getElementById('learn').dataset.ready === '${step}'`);
        const r = await inFrame(s, (w) => {
          const d = w.document;
          const box = d.querySelector('.learn-step').getBoundingClientRect();
          return {
            page: [d.documentElement.scrollWidth, w.innerWidth],
            figs: d.querySelectorAll('.learn-text .fig').length,
            outside: [...d.querySelectorAll('.learn-text .fig')].filter((f) => f.getBoundingClientRect().right > box.right + 0.5).map((f) => f.textContent),
          };
        });
        assert.ok(r.figs >= 4, `step ${step} shows its numbers`);
        assert.deepEqual(r.outside, [], `step ${step}: figures past the step's edge`);
        assert.ok(r.page[0] <= r.page[1], `step ${step}: no sideways scroll (${r.page.join(' > ')})`);
      }
    });
  });
}
