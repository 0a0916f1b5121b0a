// Embedding (issue 7): www/docs-example.html renders two independent <breaker-playground>
// elements (the second only once scrolled into view) and an ?embed=1 iframe, each showing the
// simulator's own run (checked against the native `breaker run`); the wasm package is publishable.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Key } from 'selenium-webdriver';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { BROWSERS, ROOT, session, page, until, simulate, addPlaygrounds } from './helpers.mjs';

/** One element's state, read through its shadow root. */
function element(s, id) {
  return page(s.driver, (elId) => {
    const el = document.getElementById(elId);
    const r = el.shadowRoot;
    const pg = el.playground;
    return {
      state: el.dataset.state,
      started: Boolean(pg),
      shadow: Boolean(r),
      lightChildren: el.children.length,
      runInfo: r && r.querySelector('.runinfo') ? r.querySelector('.runinfo').textContent : '',
      buttons: r ? r.querySelectorAll('.transport button').length : 0,
      canvases: r ? r.querySelectorAll('canvas').length : 0,
      panels: r ? [...r.querySelectorAll('section.panel')].filter((p) => !p.hidden).map((p) => p.className.match(/panel-(\w+)/)[1]) : [],
      controls: r && r.querySelector('aside.side') ? !r.querySelector('aside.side').hidden : false,
      t: pg && pg.state.snap ? pg.state.snap.t_s : null,
      calls: pg && pg.state.metrics ? pg.state.metrics.calls : null,
      scenario: pg ? pg.state.scenario : null,
      preset: el.getAttribute('preset'),
    };
  }, id);
}

/**
 * Open a host page of the files' origin (a blob: document has its creator's) under the
 * Content-Security-Policy `policy`, with `before` ahead of the element's script and `head` after
 * it, and `body`; wait until the element `id` is in it.
 */
async function policyPage(s, policy, head, body, id, before = '') {
  await s.driver.get(new URL('a-docs-page', s.url).href);
  const o = new URL(s.url).origin;
  const html = `<!doctype html><html><head>
    <meta http-equiv="Content-Security-Policy" content="${policy}">
    ${before}<script type="module" src="${o}/embed/breaker-playground.js"></script>
    ${head}</head><body>${body}</body></html>`;
  await page(s.driver, (text) => { location.href = URL.createObjectURL(new Blob([text], { type: 'text/html' })); }, html);
  await until(() => page(s.driver, (el) => location.protocol === 'blob:' && Boolean(document.getElementById(el)), id), 'the page with the policy');
}

for (const browser of BROWSERS) {
  describe(`embedding in ${browser}`, () => {
    const s = session(browser);

    test('docs-example.html: two independent custom elements, the second started only when scrolled into view', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await until(async () => (await element(s, 'quiet-el')).state === 'ready', 'the first element to be ready', 60_000);
      const first = await element(s, 'quiet-el');
      let second = await element(s, 'recovery-el');
      assert.equal(first.shadow, true);
      assert.equal(first.lightChildren, 0, 'nothing in the page\'s own DOM');
      assert.match(first.runInfo, /quiet-service/);
      assert.ok(first.calls > 1000 && first.runInfo.includes(`${first.calls.toLocaleString('en-US')} calls`), `calls grouped: ${first.runInfo}`);
      assert.deepEqual(first.panels, ['now', 'chart'], 'compact: now and chart');
      assert.equal(first.controls, false);
      assert.ok(first.buttons >= 4 && first.canvases >= 3, 'transport and chart drawn');
      // No derived panel, so none of its figures asked of the worker (the window breaker's
      // simulations hold it up to half a second).
      assert.equal(await page(s.driver, () => document.getElementById('quiet-el').playground.state.openDelayKey === undefined), true);
      // Below the fold: not started.
      assert.equal(second.state, 'idle', 'the second element waits until scrolled into view');
      assert.equal(second.started, false);
      // The first element's run is the simulator's own.
      assert.equal(first.calls, simulate(first.scenario).result.calls);

      await page(s.driver, () => document.getElementById('recovery-el').scrollIntoView());
      await until(async () => (await element(s, 'recovery-el')).state === 'ready', 'the second element to start and be ready', 60_000);
      second = await element(s, 'recovery-el');
      assert.match(second.runInfo, /recovery-warmup/);
      assert.deepEqual(second.panels, ['now', 'chart', 'trace']);
      assert.equal(second.calls, simulate(second.scenario).result.calls);

      // Independent: own workers; stepping one does not move the other.
      const distinct = await page(s.driver, () => {
        const [a, b] = ['quiet-el', 'recovery-el'].map((id) => document.getElementById(id).playground);
        return a.engine !== b.engine && a.engine.worker !== b.engine.worker;
      });
      assert.equal(distinct, true, 'one worker per element');
      await page(s.driver, () => {
        const r = document.getElementById('recovery-el').shadowRoot;
        [...r.querySelectorAll('.transport button')].find((b) => /step/i.test(b.textContent)).click();
      });
      await until(async () => ((await element(s, 'recovery-el')).t || 0) > 0, 'the second element to step');
      assert.equal((await element(s, 'quiet-el')).t, 0, 'the first element did not move');
      const [a, b] = [await element(s, 'quiet-el'), await element(s, 'recovery-el')];
      assert.notEqual(a.calls, b.calls);
    });

    test('the files on another origin (a docs site with them on a CDN, served with CORS): the element starts and runs', async (t) => {
      // The same server under two names: the page at one, the playground's files at the other.
      const files = new URL(s.url);
      const other = { '127.0.0.1': 'localhost', localhost: '127.0.0.1' }[files.hostname];
      if (!other) { t.skip(`PLAYGROUND_URL's host ${files.hostname} has no second name here`); return; }
      const host = new URL(s.url);
      host.hostname = other;
      // A page of the other origin (the server's 404 text will do as a host page).
      await s.driver.get(new URL('a-docs-page', host).href);
      await page(s.driver, (src) => {
        const script = document.createElement('script');
        script.type = 'module';
        script.textContent = `import ${JSON.stringify(src)};
          const el = document.createElement('breaker-playground');
          el.id = 'cdn';
          el.setAttribute('preset', 'quiet-service');
          document.body.prepend(el);`;
        document.head.append(script);
      }, new URL('embed/breaker-playground.js', files).href);
      await until(async () => {
        const st = await page(s.driver, () => {
          const el = document.getElementById('cdn');
          const banner = el && el.shadowRoot && el.shadowRoot.querySelector('.banner');
          return el ? `${el.dataset.state} ${banner ? banner.textContent : ''}` : 'none';
        });
        assert.doesNotMatch(st, /could not start|failed/, st);
        return st.startsWith('ready');
      }, 'the element from another origin to be ready', 60_000);
      const e = await element(s, 'cdn');
      assert.notEqual(await page(s.driver, () => location.origin), files.origin);
      assert.match(e.runInfo, /quiet-service/);
      assert.equal(e.calls, simulate(e.scenario).result.calls, 'the simulator\'s own run');
    });

    test('a host page with a strict Content-Security-Policy (no inline styles): the element is styled and runs', async () => {
      // A page of the files' origin (a blob: document has its creator's) with the policy README
      // asks for, without 'unsafe-inline' for styles: an inline <style> is refused there, the
      // page's own as an element's would be.
      const o = new URL(s.url).origin;
      await policyPage(s, `default-src 'self' ${o}; script-src 'self' ${o} 'wasm-unsafe-eval'; style-src 'self' ${o}`,
        '<style>body { color: rgb(255, 0, 0) }</style>',
        '<breaker-playground id="csp" preset="quiet-service"></breaker-playground>', 'csp');
      await until(async () => (await element(s, 'csp')).state === 'ready', 'the element under the policy to be ready', 60_000);
      const r = await page(s.driver, () => {
        const el = document.getElementById('csp');
        return {
          pageInline: getComputedStyle(document.body).color,
          host: getComputedStyle(el).display,
          panel: getComputedStyle(el.shadowRoot.querySelector('.panel-chart')).paddingTop,
        };
      });
      // The policy holds (the page's inline style refused), and style.css and the element's own
      // rules apply inside it (`:host { display: block }`, `.panel { padding: .5rem ... }`, at the
      // page's own root size, 15 px, not the host document's).
      assert.notEqual(r.pageInline, 'rgb(255, 0, 0)', 'the policy is in force');
      assert.deepEqual([r.host, r.panel], ['block', '7.5px']);
      const e = await element(s, 'csp');
      assert.equal(e.calls, simulate(e.scenario).result.calls);
    });

    test('an element whose simulator cannot start says so, to its reader and to its host: data-state "error" and an event', async () => {
      // A host page whose policy allows no worker: the simulator's worker is refused, as a
      // worker script that did not load (a 404) is. Before, data-state stayed "loading" for good.
      const o = new URL(s.url).origin;
      // The listener first, before the element's script: in the head, the policy allowing it.
      await policyPage(s, `default-src 'self' ${o}; script-src 'self' ${o} 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'self' ${o}; worker-src 'none'`,
        '',
        '<breaker-playground id="nowork" preset="quiet-service" controls></breaker-playground>', 'nowork',
        '<script>window.__errors = []; document.addEventListener(\'breaker-playground-error\', (e) => window.__errors.push([e.target.id, e.detail.message]));</script>');
      await until(async () => (await element(s, 'nowork')).state === 'error', 'the element to say "error"', 60_000);
      const r = await page(s.driver, () => {
        const root = document.getElementById('nowork').shadowRoot;
        return {
          errors: window.__errors,
          banner: [...root.querySelectorAll('.banner')].map((b) => b.textContent).join(' '),
          inert: root.querySelector('.controls').inert,
        };
      });
      assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
      assert.equal(r.errors[0][0], 'nowork');
      assert.match(r.banner, /The simulator could not start: /);
      assert.ok(r.banner.includes(r.errors[0][1]), `${r.banner} / ${r.errors[0][1]}`);
      const e = await element(s, 'nowork');
      assert.equal(e.runInfo, 'The simulator could not start (see the message above), so no run can be shown. Reload the page to try again.');
      // Its form is not taken for one that runs: no edit is made to be lost.
      assert.equal(r.inert, true);
    });

    test('docs-example.html: the ?embed=1 iframe hides the page chrome and shows the panels asked for', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await page(s.driver, () => document.getElementById('frame').scrollIntoView());
      const frame = await s.driver.findElement({ id: 'frame' });
      await s.driver.switchTo().frame(frame);
      try {
        await until(() => page(s.driver, () => Boolean(window.playground && window.playground.state.metrics && window.playground.state.snap)), 'the iframe\'s run', 60_000);
        const r = await page(s.driver, () => ({
          embed: document.documentElement.classList.contains('embed'),
          // The header is out of sight (its h1 stays for screen readers: the page's one h1) and
          // its tagline, with its link, is gone.
          header: document.querySelector('header.site').getBoundingClientRect().height > 1
            || getComputedStyle(document.querySelector('header.site .tagline')).display !== 'none',
          h1: document.querySelector('h1').textContent,
          footer: getComputedStyle(document.querySelector('footer.site')).display !== 'none',
          panels: [...document.querySelectorAll('#playground section.panel')].filter((p) => !p.hidden).map((p) => p.className.match(/panel-(\w+)/)[1]),
          controls: !document.querySelector('#playground aside.side').hidden,
          runInfo: document.querySelector('#playground .runinfo').textContent,
          scenario: window.playground.state.scenario,
          calls: window.playground.state.metrics.calls,
        }));
        assert.equal(r.embed, true);
        assert.equal(r.header, false);
        assert.equal(r.h1, 'The breaker playground');
        assert.equal(r.footer, false);
        assert.deepEqual(r.panels, ['now', 'chart', 'metrics']);
        assert.equal(r.controls, false, 'no settings form unless panels lists controls');
        assert.match(r.runInfo, /bursty-failures/);
        assert.equal(r.calls, simulate(r.scenario).result.calls);
      } finally {
        await s.driver.switchTo().defaultContent();
      }
      // Sized by the page's posted height (docs-example.html's script, README's): the iframe is as
      // tall as its page, which does not scroll inside it (760 px showed a third of it).
      let fit;
      await until(async () => {
        const outer = await page(s.driver, () => document.getElementById('frame').clientHeight);
        await s.driver.switchTo().frame(frame);
        try {
          fit = await page(s.driver, (h) => ({ outer: h, content: document.documentElement.scrollHeight, view: document.documentElement.clientHeight }), outer);
        } finally {
          await s.driver.switchTo().defaultContent();
        }
        return fit.content === fit.view && Math.abs(fit.outer - fit.view) <= 1;
      }, 'the iframe sized to its page', 20_000).catch(() => assert.fail(`the iframe's size: ${JSON.stringify(fit)}`));
      assert.ok(fit.outer > 1000, `the page's whole height: ${fit.outer}`);
    });

    test('?embed= with another value than 1 (a misspelt embed=yes) shows the whole page and says so', async () => {
      await s.driver.get(`${s.url}index.html?embed=yes&panels=now`);
      await until(() => page(s.driver, () => Boolean(window.playground && window.playground.state.metrics)), 'the page\'s run', 60_000);
      const r = await page(s.driver, () => ({
        embed: document.documentElement.classList.contains('embed'),
        notice: document.querySelector('#playground .notice').textContent,
        shown: !document.querySelector('#playground .notice').hidden,
      }));
      assert.deepEqual(r, { embed: false, shown: true, notice: 'This link\'s embed=yes is not embed=1: the page is shown whole, with its header and footer.' });
    });

    test('?embed=1&panels=chart,controls shows the settings form; a custom element with a scenario attribute', async () => {
      await s.driver.get(`${s.url}index.html?embed=1&panels=chart,controls`);
      await until(() => page(s.driver, () => Boolean(window.playground && window.playground.state.metrics)), 'the page\'s run', 60_000);
      assert.equal(await page(s.driver, () => !document.querySelector('#playground aside.side').hidden), true);
      // An element made by a page script (a module script tag, as a docs page would: run in the
      // page itself, not in the WebDriver sandbox), with a scenario given as JSON text.
      await addPlaygrounds(s.driver, [{ id: 'made', attrs: { scenario: JSON.stringify({ name: '<img src=x onerror=alert(1)>', duration: 600, traffic: { calls_per_minute: 120 } }), panels: 'now,metrics' } }]);
      await until(async () => (await element(s, 'made')).state === 'ready', 'the scripted element', 60_000);
      const made = await element(s, 'made');
      assert.deepEqual(made.panels, ['now', 'metrics']);
      assert.equal(made.calls, simulate(made.scenario).result.calls);
      // A scenario with no seed runs with the simulator's default, and says which (not "seed —").
      assert.match(made.runInfo, /, seed 1\. /, made.runInfo);
      const img = await page(s.driver, () => document.getElementById('made').shadowRoot.querySelectorAll('img').length);
      assert.equal(img, 0, 'the scenario name is text, not HTML');
    });

    test('playground.load takes a BigInt seed exactly, and refuses one past 2^53 - 1 leaving the form as it was', async () => {
      await s.driver.get(`${s.url}index.html?preset=quiet-service`);
      await until(() => page(s.driver, () => Boolean(window.playground && window.playground.state.metrics)), 'the page\'s run', 60_000);
      const ok = await page(s.driver, async () => {
        const pg = window.playground;
        const loaded = await pg.load({ ...pg.state.scenario, seed: 7n });
        return { loaded, seed: pg.state.scenario.seed, type: typeof pg.state.scenario.seed };
      });
      assert.deepEqual(ok, { loaded: true, seed: 7, type: 'number' });
      const refused = await page(s.driver, async () => {
        const pg = window.playground;
        const loaded = await pg.load({ ...pg.state.scenario, seed: 2n ** 64n - 1n });
        const field = document.querySelector('.field[data-path="seed"]');
        return {
          loaded,
          seed: pg.state.scenario.seed,
          input: field.querySelector('input').value,
          fieldMsg: field.querySelector('.msg').textContent,
          general: document.querySelector('.msg.general').textContent,
          stale: document.getElementById('playground').classList.contains('stale'),
        };
      });
      assert.equal(refused.loaded, false);
      assert.equal(refused.seed, 7, 'the run shown is still the last valid one');
      assert.match(refused.general, /^seed = 18446744073709551615 is invalid: allowed a whole number 0 <= x <= 9007199254740991$/);
      // The form is the run's still: no field says a value it does not hold is invalid.
      assert.deepEqual([refused.input, refused.fieldMsg, refused.stale], ['7', '', false]);
      // The copy is JSON's: an own "__proto__" key stays a key (refused as unknown), not the
      // copy's prototype, and a BigInt where a float goes is read as a number.
      const more = await page(s.driver, async () => {
        const pg = window.playground;
        const proto = await pg.load(JSON.parse('{"seed": 1, "__proto__": {"duration": 5}}'));
        const float = await pg.load({ ...pg.state.scenario, seed: 3, traffic: { ...pg.state.scenario.traffic, calls_per_minute: 2n } });
        return { proto, float, cpm: pg.state.scenario.traffic.calls_per_minute, seed: pg.state.scenario.seed };
      });
      assert.deepEqual(more, { proto: false, float: true, cpm: 2, seed: 3 });
      // Settings that hold themselves are refused with a message, not thrown on (a RangeError
      // came out of load()), and the page runs on.
      const self = await page(s.driver, async () => {
        const pg = window.playground;
        const sc = { ...pg.state.scenario };
        sc.name = sc;
        let loaded;
        try { loaded = await pg.load(sc); } catch (e) { loaded = `threw ${e}`; }
        const general = document.querySelector('.msg.general').textContent;
        const again = await pg.load({ ...pg.state.scenario, seed: 4 });
        return { loaded, general, again, seed: pg.state.scenario.seed };
      });
      assert.equal(self.loaded, false);
      assert.match(self.general, /^name\.name\.name\.… = \{…\} is invalid: nested too deep: at most 127 levels/);
      assert.equal(self.again, true);
      assert.equal(self.seed, 4);
      // A number past a double's range is named as not finite, not as null (JSON's copy wrote it
      // so, and the message said "duration = null").
      const infinite = await page(s.driver, async () => {
        const pg = window.playground;
        const loaded = await pg.load({ ...pg.state.scenario, duration: Infinity });
        return { loaded, general: document.querySelector('.msg.general').textContent };
      });
      assert.equal(infinite.loaded, false);
      // Where text is taken (a name), NaN is refused as before, not run as the name "NaN".
      const named = await page(s.driver, async () => {
        const pg = window.playground;
        const loaded = await pg.load({ ...pg.state.scenario, name: NaN });
        return { loaded, general: document.querySelector('.msg.general').textContent };
      });
      assert.deepEqual(named, { loaded: false, general: 'name = null is invalid: allowed a string' });
      assert.match(infinite.general, /^duration = "Infinity" is invalid: "Infinity" is not a duration: use seconds or a unit \(200ms, 5s, 1m, 1h, 30d\), 0 < x <= 1e9 seconds$/);
      // A cursor time that is not a number is refused, not taken as the run's end.
      const times = await page(s.driver, async () => {
        const pg = window.playground;
        await pg.seek(5);
        const out = [];
        for (const [what, call] of [['seek NaN', () => pg.seek(NaN)], ['seek text', () => pg.seek('abc')], ['seek none', () => pg.seek()],
          ['load NaN', () => pg.load({ ...pg.state.scenario }, NaN)]]) {
          try { await call(); out.push(`${what}: taken`); } catch (e) { out.push(`${what}: ${e.name}: ${e.message}`); }
        }
        return { out, t: pg.state.snap.t_s };
      });
      assert.deepEqual(times.out, [
        'seek NaN: TypeError: seek(t): t is seconds from the run\'s start, a number; got NaN',
        'seek text: TypeError: seek(t): t is seconds from the run\'s start, a number; got string',
        'seek none: TypeError: seek(t): t is seconds from the run\'s start, a number; got undefined',
        'load NaN: TypeError: load(scenario, t): t is seconds from the run\'s start, a number; got NaN',
      ]);
      assert.ok(times.t <= 5, `the cursor stays near 5 s: ${times.t}`);
    });

    test('an element starts in view even when its IntersectionObserver never reports, and not before', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      // An observer that never reports, as headless Firefox's has done late in a long session:
      // the element's look once a second must start the one in view, and only that one.
      await page(s.driver, () => {
        window.IntersectionObserver = class { observe() {} disconnect() {} };
        window.scrollTo(0, 0);
      });
      await addPlaygrounds(s.driver, [
        { id: 'look-far', attrs: { preset: 'quiet-service', panels: 'now', style: 'display: block; margin-top: 20000px' } },
        { id: 'look-near', attrs: { preset: 'recovery-warmup', panels: 'now' } },
      ]);
      await until(async () => (await element(s, 'look-near')).state === 'ready', 'the element in view to start', 30_000);
      await new Promise((r) => setTimeout(r, 1500)); // a look more: the far one stays idle
      assert.equal((await element(s, 'look-far')).state, 'idle', 'an element far below the view waits');
      await page(s.driver, () => document.getElementById('look-far').scrollIntoView());
      await until(async () => (await element(s, 'look-far')).state === 'ready', 'the far element, once scrolled to', 30_000);
    });

    test('an element taken out of the page while its first run computes starts over when put back', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 'moved', attrs: { preset: 'recovery-warmup', panels: 'now' } }]);
      // Out and back in as soon as it has a playground, before its first run is in.
      const stateWhenMoved = await until(() => page(s.driver, () => {
        const el = document.getElementById('moved');
        if (!el || !el.playground) return null;
        const st = el.dataset.state;
        el.remove();
        document.body.prepend(el);
        return st;
      }), 'the element to start', 30_000, 1);
      assert.equal(stateWhenMoved, 'loading', 'moved while its first run was computing');
      await until(async () => (await element(s, 'moved')).state === 'ready', 'the element, put back, to start over and be ready', 30_000);
      const moved = await element(s, 'moved');
      assert.equal(moved.calls, simulate(moved.scenario).result.calls);
    });

    test('an element taken out of the page while its simulator loads stays idle: no error, no error event', async () => {
      // Its worker stopped, the start it waited for failed, and that was taken for a simulator
      // that could not start: data-state "error" and a breaker-playground-error on an element
      // already idle and out of the page.
      await s.driver.get(`${s.url}docs-example.html`);
      await page(s.driver, () => {
        window.errorEvents = 0;
        document.addEventListener('breaker-playground-error', () => { window.errorEvents += 1; });
      });
      await addPlaygrounds(s.driver, [{ id: 'gone', attrs: { preset: 'recovery-warmup', panels: 'now' } }]);
      const taken = await until(() => page(s.driver, () => {
        const el = document.getElementById('gone');
        if (!el || !el.playground || el.dataset.state !== 'loading') return null;
        window.gone = { el, pg: el.playground };
        el.remove();
        return el.dataset.state;
      }), 'the element to be loading', 30_000, 1);
      assert.equal(taken, 'idle');
      // The start it waited for is settled (refused by the stopped worker, or in), and what its
      // failure runs has run.
      const after = await page(s.driver, async () => {
        await window.gone.pg.engine.ready.catch(() => {});
        await new Promise((r) => setTimeout(r, 0));
        return { state: window.gone.el.dataset.state, events: window.errorEvents };
      });
      assert.deepEqual(after, { state: 'idle', events: 0 });
    });

    test('the label attribute names an element\'s region; without it, the preset it shows does', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      const ids = ['named', 'unnamed', 'unknown', 'custom', 'refused'];
      await addPlaygrounds(s.driver, [
        { id: 'named', attrs: { preset: 'quiet-service', panels: 'now', label: '  Payments, at night  ' } },
        { id: 'unnamed', attrs: { preset: 'quiet-service', panels: 'now' } },
        // An unknown preset shows the default one, a scenario that does not validate its preset:
        // the name is of what is shown, not of what was written.
        { id: 'unknown', attrs: { preset: 'nonesuch', panels: 'now' } },
        { id: 'custom', attrs: { scenario: JSON.stringify({ duration: '10m' }), panels: 'now' } },
        { id: 'refused', attrs: { preset: 'bad-day', scenario: JSON.stringify({ statistical: { fine_rate: 5 } }), panels: 'now' } },
      ]);
      for (const id of ids) await until(async () => (await element(s, id)).state === 'ready', `${id} to be ready`, 60_000);
      const names = () => page(s.driver, (ids) => ids.map((id) => {
        const region = document.getElementById(id).shadowRoot.querySelector('[role=region]');
        return region.getAttribute('aria-label');
      }), ids);
      assert.deepEqual(await names(), ['Payments, at night', 'Breaker playground: quiet-service',
        'Breaker playground: recovery-warmup', 'Breaker playground: custom scenario', 'Breaker playground: bad-day']);
      // Set later, as a framework would: the element starts over under its new name.
      await page(s.driver, () => document.getElementById('unnamed').setAttribute('label', 'Search'));
      await until(async () => (await names())[1] === 'Search', 'the new name');
    });

    test('a custom element whose scenario does not validate shows its preset and says why', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 'bad', attrs: { preset: 'quiet-service', scenario: JSON.stringify({ statistical: { fine_rate: 5 } }), panels: 'now' } }]);
      await until(async () => (await element(s, 'bad')).state === 'ready', 'the element to show its preset', 60_000);
      const bad = await element(s, 'bad');
      assert.equal(bad.scenario.name, 'quiet-service', 'the preset is shown');
      const text = await page(s.driver, () => document.getElementById('bad').shadowRoot.querySelector('.banner').textContent);
      assert.match(text, /statistical\.fine_rate/, 'the notice names the field');
      assert.match(text, /showing the preset instead/);
    });
  });
}

for (const browser of BROWSERS) {
  describe(`embedding attributes in ${browser}`, () => {
    const s = session(browser);

    test('a custom element\'s analysis curves take the element\'s colours, not the host page\'s', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 'an', attrs: { panels: 'analysis' } }]);
      await until(async () => (await element(s, 'an')).state === 'ready', 'the element', 60_000);
      await page(s.driver, () => { document.getElementById('an').shadowRoot.querySelector('.analysis-details').open = true; });
      const figs = await until(() => page(s.driver, () => {
        const r = document.getElementById('an').shadowRoot;
        const f = [...r.querySelectorAll('.analysis-grid figure')];
        if (f.length < 5 || r.querySelectorAll('.analysis-grid canvas').length < 5) return null;
        const host = getComputedStyle(document.getElementById('an'));
        return {
          score: host.getPropertyValue('--c-score').trim(),
          lines: f.map((x) => [...x.querySelectorAll('.u-legend .u-series')].slice(1)
            .filter((row) => !row.querySelector('.u-label').textContent.startsWith('95% interval'))
            .map((row) => getComputedStyle(row.querySelector('.u-marker')).borderColor)),
        };
      }), 'the analysis curves', 120_000);
      assert.ok(figs.score, 'the element defines the colours');
      for (const colours of figs.lines) assert.equal(new Set(colours).size, colours.length, `one colour a line: ${colours.join(', ')}`);
    });

    test('typing in a custom element\'s settings keeps its keys: space, n, r and the arrows are not playback shortcuts there', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 'ctl', attrs: { panels: 'now,controls' } }]);
      await until(async () => (await element(s, 'ctl')).state === 'ready', 'the element with its settings', 60_000);
      const host = await s.driver.findElement({ css: '#ctl' });
      const root = await host.getShadowRoot();
      const area = await root.findElement({ css: '.field[data-path="trace"] textarea' });
      // In docs-example.html's column the element lays its settings out as a narrow page does,
      // their sections folded: the trace's is opened as a reader would.
      await s.driver.executeScript('arguments[0].closest("details").open = true; arguments[0].scrollIntoView({block: "center"})', area);
      await area.click();
      await area.sendKeys('0 run,success,0.1', Key.ARROW_LEFT, Key.ARROW_LEFT, 'x');
      const r = await page(s.driver, () => {
        const el = document.getElementById('ctl');
        return { value: el.shadowRoot.querySelector('.field[data-path="trace"] textarea').value, t: el.playground.state.t, playing: el.playground.state.playing };
      });
      assert.deepEqual(r, { value: '0 run,success,0x.1', t: 0, playing: false });
      // Space on a button inside the element presses that button (Step one call), not play.
      const stepBtn = (await root.findElements({ css: '.transport button' }))[1];
      // Leaving the edited trace commits it: a rerun, and until its reply the playground takes no
      // step (a step sent before would be dropped, and the wait below would time out).
      const runId = await page(s.driver, (b) => {
        const id = document.getElementById('ctl').playground.state.runId;
        b.focus();
        return id;
      }, stepBtn);
      await until(() => page(s.driver, (id) => {
        const S = document.getElementById('ctl').playground.state;
        return S.runId > id && S.loaded;
      }, runId), 'the edited trace run or refused');
      await stepBtn.sendKeys(Key.SPACE);
      await until(() => page(s.driver, () => document.getElementById('ctl').playground.state.t > 0), 'one call stepped');
      assert.equal(await page(s.driver, () => document.getElementById('ctl').playground.state.playing), false);
    });

    test('a key the element handles goes no further: the host page\'s own arrow keys (mdBook turns the page) do not act on it too', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      // The host's listener on the document comes first, as mdBook's book.js does (it turns the
      // page on ← and → unless an input has the focus, and does not look at defaultPrevented).
      await page(s.driver, () => {
        document.body.dataset.hostKeys = '';
        document.addEventListener('keydown', (e) => { document.body.dataset.hostKeys += `${e.key};`; });
      });
      await until(async () => (await element(s, 'quiet-el')).state === 'ready', 'the first element to be ready', 60_000);
      const root = await (await s.driver.findElement({ css: '#quiet-el' })).getShadowRoot();
      const stepBtn = (await root.findElements({ css: '.transport button' }))[1];
      await page(s.driver, (b) => b.focus(), stepBtn);
      await stepBtn.sendKeys(Key.ARROW_RIGHT);
      await until(async () => ((await element(s, 'quiet-el')).t || 0) > 0, 'the element to step one call');
      // A key the element leaves alone still reaches the host page.
      await stepBtn.sendKeys('x');
      await until(() => page(s.driver, () => document.body.dataset.hostKeys.includes('x;')), 'the host to hear x');
      assert.equal(await page(s.driver, () => document.body.dataset.hostKeys), 'x;', 'the host heard only the key the element did not handle');
      // Keys that go to the element's own controls stay there too, though the transport does
      // not handle them: the arrows on its time slider move the slider, and a host listener
      // that looks only at the target (the element) does not hear them. (mdBook 0.5.4 itself
      // looks past the element, `composedPath()[0]`, and leaves an input's keys alone.)
      const slider = await root.findElement({ css: '.transport input[type=range]' });
      const before = Number(await slider.getAttribute('value'));
      await page(s.driver, (el) => el.focus(), slider);
      await slider.sendKeys(Key.ARROW_RIGHT);
      await until(async () => Number(await page(s.driver, (el) => el.value, slider)) !== before, 'the slider to move');
      assert.equal(await page(s.driver, () => document.body.dataset.hostKeys), 'x;', 'the slider\'s arrow stayed in the element');
    });

    test('the pointer resting over an element, the focus on the host page: Space and the arrows are the page\'s (they scroll it), not the element\'s', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await until(async () => (await element(s, 'quiet-el')).state === 'ready', 'the first element to be ready', 60_000);
      const host = await s.driver.findElement({ css: '#quiet-el' });
      await s.driver.actions().move({ origin: host }).perform();
      assert.equal(await page(s.driver, () => document.getElementById('quiet-el').matches(':hover')), true, 'the pointer is over the element');
      await page(s.driver, () => { document.activeElement.blur(); window.__keys = []; document.addEventListener('keydown', (e) => window.__keys.push(e.defaultPrevented)); });
      await s.driver.actions().sendKeys(Key.ARROW_RIGHT, Key.SPACE, 'n').perform();
      await until(() => page(s.driver, () => window.__keys.length === 3), 'the three keys to reach the page');
      // A listener added after the element's sees whether it took the key (preventDefault).
      assert.deepEqual(await page(s.driver, () => window.__keys), [false, false, false], 'no key was taken');
      const el = await element(s, 'quiet-el');
      assert.equal(el.t, 0, 'the element did not step');
      assert.equal(await page(s.driver, () => document.getElementById('quiet-el').playground.state.playing), false, 'nor play');
    });

    test('typing in an embedded element\'s settings field reaches the field, not a host page\'s shortcuts that see only the element as the target', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await page(s.driver, () => {
        document.body.dataset.hostKeys = '';
        document.addEventListener('keydown', (e) => { document.body.dataset.hostKeys += `${e.key};`; });
      });
      await addPlaygrounds(s.driver, [{ id: 'typed', attrs: { preset: 'quiet-service', controls: '' } }]);
      await until(async () => (await element(s, 'typed')).state === 'ready', 'the element with its settings', 60_000);
      const root = await (await s.driver.findElement({ css: '#typed' })).getShadowRoot();
      const input = await root.findElement({ css: '.controls [data-path="seed"] input' });
      await page(s.driver, (el) => { el.focus(); el.select(); }, input);
      await input.sendKeys('17', Key.ARROW_LEFT, Key.ARROW_RIGHT);
      assert.equal(await page(s.driver, (el) => el.value, input), '17', 'the field got the keys');
      // (A number field refuses the letter itself; its key still went to the field only.)
      await input.sendKeys('s');
      assert.equal(await page(s.driver, () => document.body.dataset.hostKeys), '', 'the host heard none of them');
      // Keys that type nothing are the host's too: its search on Ctrl+K, an overlay it closes on
      // Escape (they were stopped with the typing).
      await input.sendKeys(Key.chord(Key.CONTROL, 'k'));
      await input.sendKeys(Key.ESCAPE);
      const heard = (await page(s.driver, () => document.body.dataset.hostKeys)).split(';');
      assert.ok(heard.includes('k') && heard.includes('Escape'), heard.join(' '));
    });

    test('an element with its settings in a docs-width column of a wide window: one column, nothing cut off at its edge', async () => {
      // docs-example.html's column is 46rem (736 px): the element laid out two columns by the
      // window's width, its panels 337 px wide, and the Now panel's window table ran 38 px past
      // the element's edge, clipped there.
      await s.driver.manage().window().setRect({ width: 1280, height: 900 });
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 'col', attrs: { scenario: '{"duration": "2h", "traffic": {"calls_per_minute": 120}}', controls: '' } }]);
      await until(async () => (await element(s, 'col')).state === 'ready', 'the element with its settings', 60_000);
      const r = await page(s.driver, () => {
        const el = document.getElementById('col');
        const box = el.getBoundingClientRect();
        const R = (sel) => el.shadowRoot.querySelector(sel).getBoundingClientRect();
        const past = [...el.shadowRoot.querySelectorAll('.panel *')].map((n) => n.getBoundingClientRect()).filter((b) => b.width && b.right > box.right + 0.5).length;
        return { width: box.width, side: R('.side'), stage: R('.stage'), past, open: el.shadowRoot.querySelectorAll('details.section[open]').length };
      });
      assert.ok(r.width < 800, `a docs column: ${r.width}`);
      assert.ok(r.side.bottom <= r.stage.top + 1, 'the settings above the panels, as on a narrow page');
      assert.equal(r.stage.width, r.side.width, 'the panels as wide as the element allows');
      assert.equal(r.past, 0, 'nothing of the panels past the element\'s edge');
      assert.equal(r.open, 0, 'the settings\' sections start folded, as on a narrow page');
    });

    test('an element with a long phase list in its settings is as tall as its panels: the settings scroll beside them', async () => {
      // bad-day's seven phases made the settings column 11,300 px tall beside 1,570 px of panels:
      // the element was mostly empty space.
      await s.driver.manage().window().setRect({ width: 1280, height: 900 });
      await s.driver.get(`${s.url}a-docs-page`);
      await addPlaygrounds(s.driver, [{ id: 'long', attrs: { preset: 'bad-day', controls: '' } }]);
      await until(async () => (await element(s, 'long')).state === 'ready', 'the element with its settings', 60_000);
      const r = await page(s.driver, () => {
        const el = document.getElementById('long');
        const side = el.shadowRoot.querySelector('.side');
        return { el: el.getBoundingClientRect().height, side: side.getBoundingClientRect(), stage: el.shadowRoot.querySelector('.stage').getBoundingClientRect().height, scroll: side.scrollHeight, view: innerHeight, open: el.shadowRoot.querySelectorAll('details.section[open]').length };
      });
      assert.ok(r.side.right > 0 && r.open > 0, 'two columns, the first section open, as on a wide page');
      assert.ok(r.side.height <= Math.max(r.stage, 450) + 1 && r.side.height <= r.view, `the settings ${r.side.height} px, the panels ${r.stage} px`);
      assert.ok(r.el < r.stage + 60, `the element ${r.el} px for ${r.stage} px of panels`);
      assert.ok(r.scroll > r.side.height * 2, 'the settings scroll inside');
    });

    test('README\'s partial scenario with controls: the form shows every setting, defaults filled and units read', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 'part', attrs: { scenario: '{"duration": "2h", "traffic": {"calls_per_minute": 120}}', controls: '' } }]);
      await until(async () => (await element(s, 'part')).state === 'ready', 'the element with its settings', 60_000);
      const r = await page(s.driver, () => {
        const root = document.getElementById('part').shadowRoot;
        const v = (p) => { const f = root.querySelector(`.field[data-path="${p}"] input`); return f ? f.value : null; };
        return { duration: v('duration'), cpm: v('traffic.calls_per_minute'), fine: v('statistical.fine_rate'), seed: v('seed'), state: document.getElementById('part').playground.state.scenario.duration };
      });
      // Before, only the traffic could be edited: the run length was blank ("2h" in a number
      // field) and the statistical breaker's settings and the seed were missing.
      assert.equal(r.state, 7200);
      assert.ok(r.duration !== null && r.duration !== '', `run length shown: ${r.duration}`);
      assert.equal(r.cpm, '120');
      assert.ok(r.fine !== null && r.fine !== '', `fine rate shown: ${r.fine}`);
      assert.ok(r.seed !== null && r.seed !== '', `seed shown: ${r.seed}`);
    });

    test('a custom element with an unknown preset, or the scenario null, says so instead of running another silently', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      // 0, false and "" ran the preset with no notice (they read as no scenario at all).
      const falsy = { zero: '0', no: 'false', empty: '""' };
      // A scenario replaces the preset: a misspelt one beside it is not shown, and no notice
      // said it was ("showing recovery-warmup" over the scenario's run); beside a scenario that
      // does not validate, it is.
      await addPlaygrounds(s.driver, [{ id: 'typo', attrs: { preset: 'quiet_service' } }, { id: 'nul', attrs: { scenario: 'null' } },
        { id: 'typoBeside', attrs: { preset: 'quiet_service', scenario: '{"duration": "2h"}', panels: 'now' } },
        { id: 'typoRefused', attrs: { preset: 'quiet_service', scenario: '{"statistical": {"fine_rate": 5}}', panels: 'now' } },
        ...Object.entries(falsy).map(([id, scenario]) => ({ id, attrs: { scenario, panels: 'now' } })),
        // Present but blank ran the preset with no notice, as if it were absent.
        { id: 'blank', attrs: { scenario: '', panels: 'now' } }, { id: 'spaces', attrs: { scenario: ' \n ', panels: 'now' } }]);
      for (const id of ['typo', 'nul', 'typoBeside', 'typoRefused', ...Object.keys(falsy), 'blank', 'spaces']) await until(async () => (await element(s, id)).state === 'ready', `element ${id}`, 60_000);
      const notice = (id) => page(s.driver, (i) => [...document.getElementById(i).shadowRoot.querySelectorAll('p.banner')].map((b) => b.textContent).join(' '), id);
      const typo = await element(s, 'typo');
      assert.equal(typo.scenario.name, 'recovery-warmup');
      assert.match(await notice('typo'), /^Unknown preset “quiet_service”; showing recovery-warmup\. The presets are recovery-warmup, normal-week, .*quiet-service/);
      const nul = await element(s, 'nul');
      assert.equal(nul.scenario.name, 'recovery-warmup');
      assert.match(await notice('nul'), /The scenario attribute is null, not an object of settings; showing the preset instead\./);
      for (const [id, text] of Object.entries(falsy)) {
        assert.equal(await notice(id), `The scenario attribute is ${text}, not an object of settings; showing the preset instead.`);
      }
      for (const id of ['blank', 'spaces']) {
        assert.equal((await element(s, id)).scenario.name, 'recovery-warmup');
        assert.equal(await notice(id), 'The scenario attribute is empty, not an object of settings; showing the preset instead.');
      }
      const beside = await element(s, 'typoBeside');
      assert.equal(beside.scenario.duration, 7200, 'the scenario runs');
      assert.equal(await notice('typoBeside'), '');
      assert.equal((await element(s, 'typoRefused')).scenario.name, 'recovery-warmup');
      assert.match(await notice('typoRefused'), /^The scenario's settings are not valid \(statistical\.fine_rate = 5 is invalid: .*\); showing the preset instead\. Unknown preset “quiet_service”; showing recovery-warmup\. /);
    });

    test('an idle element\'s placeholder names the preset set since it was added', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      // Far below the view: it waits, idle, and shows a placeholder.
      await addPlaygrounds(s.driver, [{ id: 'far', attrs: { preset: 'quiet-service', style: 'display: block; margin-top: 30000px' } }]);
      const text = () => page(s.driver, () => {
        const el = document.getElementById('far');
        return el && el.shadowRoot ? `${el.dataset.state}: ${el.shadowRoot.textContent}` : null;
      });
      await until(async () => (await text()) !== null, 'the element');
      assert.equal(await text(), 'idle: Breaker playground (quiet-service): starts when scrolled into view.');
      await page(s.driver, () => document.getElementById('far').setAttribute('preset', 'bad-day'));
      assert.equal(await text(), 'idle: Breaker playground (bad-day): starts when scrolled into view.');
    });

    test('an element is sized as on its own page whatever the host\'s root font size (mdBook sets 62.5%)', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      const sizes = (id) => page(s.driver, (i) => {
        const r = document.getElementById(i).shadowRoot;
        const px = (sel) => getComputedStyle(r.querySelector(sel)).fontSize;
        return { h2: px('section.panel h2'), help: px('.help'), button: px('.transport button'), text: px('section.panel') };
      }, id);
      await addPlaygrounds(s.driver, [{ id: 'plain', attrs: { preset: 'quiet-service', panels: 'now,chart', controls: '' } }]);
      await until(async () => (await element(s, 'plain')).state === 'ready', 'the element', 60_000);
      const plain = await sizes('plain');
      // style.css's sizes at its root's 15 px: a panel's heading 1.1rem, help text .85rem.
      assert.equal(plain.h2, '16.5px');
      assert.equal(plain.help, '12.75px');
      // Its plain text too: the page's root is 93.75% (the reader's default size), which in the
      // host would be 93.75% of the host page's text (9.4 px under mdBook's 10 px root).
      assert.equal(plain.text, '15px');
      await page(s.driver, () => { document.documentElement.style.fontSize = '62.5%'; });
      await addPlaygrounds(s.driver, [{ id: 'scaled', attrs: { preset: 'quiet-service', panels: 'now,chart', controls: '' } }]);
      await until(async () => (await element(s, 'scaled')).state === 'ready', 'the element on the scaled page', 60_000);
      assert.deepEqual(await sizes('scaled'), plain, 'help text read 8.5 px under a 10 px root');
      assert.deepEqual(await sizes('plain'), plain);
      // A host page whose text is 20 px: the element's is still 15 px, in step with its rem sizes.
      await page(s.driver, () => { document.body.style.fontSize = '20px'; });
      await addPlaygrounds(s.driver, [{ id: 'large', attrs: { preset: 'quiet-service', panels: 'now,chart', controls: '' } }]);
      await until(async () => (await element(s, 'large')).state === 'ready', 'the element in 20 px text', 60_000);
      assert.deepEqual(await sizes('large'), plain, 'its text was 18.75 px beside 15 px help and buttons');
    });

    test('a host\'s load settles when the element leaves the page meanwhile; state.lastError is of the last load', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 'gone', attrs: { preset: 'quiet-service', panels: 'now' } }]);
      await until(async () => (await element(s, 'gone')).state === 'ready', 'the element', 60_000);
      const r = await page(s.driver, async () => {
        const el = document.getElementById('gone');
        const pg = el.playground;
        const refused = await pg.load({ ...pg.state.scenario, seed: 2n ** 53n });
        const errorAfterRefused = pg.state.lastError;
        const ran = await pg.load({ ...pg.state.scenario, seed: 2n ** 53n - 1n });
        const errorAfterRun = pg.state.lastError;
        // A month at 600 calls/min, taken out of the page while it computes: it never settled.
        const long = pg.load({ duration: '30d', traffic: { calls_per_minute: 600 } });
        await new Promise((ok) => setTimeout(ok, 300));
        el.remove();
        const settled = await Promise.race([long, new Promise((ok) => setTimeout(() => ok('pending after 10 s'), 10_000))]);
        return { refused, errorAfterRefused, ran, errorAfterRun, settled, errorAfterGone: pg.state.lastError };
      });
      assert.equal(r.refused, false);
      assert.match(r.errorAfterRefused, /^seed = 9007199254740992 is invalid/);
      assert.deepEqual([r.ran, r.errorAfterRun], [true, null], 'a load that runs clears the error of the one before');
      assert.equal(r.settled, false);
      assert.equal(r.errorAfterGone, 'the playground was stopped (its element left the page)');
    });

    test('an attribute changed after the element started starts it over with the new attributes (a framework re-rendering it)', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 're', attrs: { preset: 'quiet-service', panels: 'now' } }]);
      await until(async () => (await element(s, 're')).state === 'ready', 'the element', 60_000);
      // The page's own elements too (one in view runs meanwhile): the document's listener below
      // hears only this one's runs (Firefox's quiet-el was once heard after it was added).
      await until(() => page(s.driver, () => [...document.querySelectorAll('breaker-playground')].every((el) => el.dataset.state !== 'loading')), 'the page\'s elements to be ready', 60_000);
      // Mark the first handle, and count the ready events from here on.
      await page(s.driver, () => {
        const el = document.getElementById('re');
        el.playground.first = true;
        window.readyNames = [];
        el.addEventListener('breaker-playground-ready', (e) => window.readyNames.push(e.detail.name));
        // It bubbles: a host's one listener on the document hears it, and whose it is.
        window.heardByDocument = [];
        document.addEventListener('breaker-playground-ready', (e) => window.heardByDocument.push(`${e.target.id}: ${e.detail.name}`));
      });
      const now = () => page(s.driver, () => {
        const el = document.getElementById('re');
        return { first: Boolean(el.playground && el.playground.first), ready: window.readyNames.slice() };
      });
      const shows = async (name) => until(async () => {
        const e = await element(s, 're');
        return e.state === 'ready' && e.scenario && e.scenario.name === name && e;
      }, `the element to show ${name}`, 60_000);

      await page(s.driver, () => document.getElementById('re').setAttribute('preset', 'bursty-failures'));
      let e = await shows('bursty-failures');
      assert.equal(e.calls, simulate(e.scenario).result.calls, 'the new preset\'s own run');
      assert.deepEqual(e.panels, ['now']);
      assert.deepEqual(await now(), { first: false, ready: ['bursty-failures'] }, 'a new handle, one run');
      assert.deepEqual(await page(s.driver, () => window.heardByDocument), ['re: bursty-failures']);

      // Two attributes set together start it over once, with both.
      await page(s.driver, () => {
        const el = document.getElementById('re');
        el.setAttribute('panels', 'now,trace');
        el.setAttribute('scenario', JSON.stringify({ name: 'set later', duration: '10m', seed: 5 }));
      });
      e = await shows('set later');
      assert.deepEqual(e.panels, ['now', 'trace']);
      assert.equal(e.calls, simulate(e.scenario).result.calls);
      assert.deepEqual((await now()).ready, ['bursty-failures', 'set later']);

      // Taking the scenario away shows the preset again; an unchanged value does nothing.
      await page(s.driver, () => document.getElementById('re').removeAttribute('scenario'));
      await shows('bursty-failures');
      await page(s.driver, () => document.getElementById('re').setAttribute('preset', 'bursty-failures'));
      assert.deepEqual((await now()).ready, ['bursty-failures', 'set later', 'bursty-failures']);
    });

    test('a preset or a setting named as an object\'s own property ("constructor", "__proto__") is unknown like any other name', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [
        { id: 'ctor', attrs: { preset: 'constructor' } },
        { id: 'proto', attrs: { preset: '__proto__' } },
        { id: 'tostr', attrs: { scenario: '{"toString": 1e30, "seed": 3}' } },
      ]);
      for (const id of ['ctor', 'proto', 'tostr']) await until(async () => (await element(s, id)).state === 'ready', `element ${id}`, 60_000);
      const notice = (id) => page(s.driver, (i) => [...document.getElementById(i).shadowRoot.querySelectorAll('p.banner')].map((b) => b.textContent).join(' '), id);
      for (const [id, name] of [['ctor', 'constructor'], ['proto', '__proto__']]) {
        assert.equal((await element(s, id)).scenario.name, 'recovery-warmup', id);
        assert.match(await notice(id), new RegExp(`^Unknown preset “${name}”; showing recovery-warmup\\.`), id);
      }
      assert.equal((await element(s, 'tostr')).scenario.name, 'recovery-warmup');
      assert.match(await notice('tostr'), /toString/, 'the unknown setting is named');
    });
  });
}

test('the wasm package in www/dist/pkg is publishable to npm', () => {
  const pkg = join(ROOT, 'www/dist/pkg');
  const json = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  const cargo = readFileSync(join(ROOT, 'Cargo.toml'), 'utf8');
  const version = /\[workspace\.package\][^[]*?\nversion\s*=\s*"([^"]+)"/.exec(cargo)[1];
  assert.equal(json.name, 'breaker-playground-wasm');
  assert.equal(json.version, version);
  assert.ok(json.license);
  assert.equal(json.types, 'breaker_wasm.d.ts');
  assert.equal(Object.keys(json.exports['.'])[0], 'types', 'types first in the export conditions');
  for (const f of json.files) assert.ok(existsSync(join(pkg, f)), `${f} is in pkg/`);
  // The license texts go with the package, and tools that read a package's own package.json
  // through its exports (bundlers, `require('breaker-playground-wasm/package.json')`) may.
  for (const f of ['LICENSE-MIT', 'LICENSE-APACHE']) assert.ok(json.files.includes(f), f);
  assert.equal(json.exports['./package.json'], './package.json');
  assert.match(readFileSync(join(pkg, 'breaker_wasm.d.ts'), 'utf8'), /export function analyze\(/);
});
