// The page loads cleanly, shows the simulator's own run, falls back on a bad link, and embeds
// (?embed=1 here; the <breaker-playground> custom element and the docs example: embed.test.mjs).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { By, Key } from 'selenium-webdriver';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BROWSERS, ROOT, session, open, page, pageErrors, clearLogs, pageState, setField, simulate, until, change, button, newSnap } from './helpers.mjs';
import { stateName } from '../../www/src/format.js';

/** Names of the simulator's presets, from its command line. */
function cliPresets() {
  const [cmd, pre] = process.env.BREAKER_BIN ? [process.env.BREAKER_BIN, []] : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
  return execFileSync(cmd, [...pre, 'presets'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]);
}

for (const browser of BROWSERS) {
  describe(`page [${browser}]`, () => {
    const s = session(browser);

    test('loads with no console errors and shows the simulator\'s run of the default preset', async () => {
      await open(s);
      assert.deepEqual(await pageErrors(s), [], 'errors while loading');
      const st = await pageState(s.driver, { hash: true });
      const cli = simulate(st.scenario);
      assert.equal(st.t, 0, 'starts rewound');
      assert.equal(st.timeText, '0:00.00');
      assert.deepEqual(st.shownStates, ['closed', 'closed']);
      assert.equal(st.hash.slice(0, 16), cli.hash, 'trace hash equals the command line\'s');
      assert.equal(st.traceRows, cli.events.length, 'one trace row per state change');
      assert.match(st.runInfo, new RegExp(`${cli.result.calls} calls`));
      const shown = await page(s.driver, () => [...document.querySelectorAll('#playground .controls select')]
        .find((el) => [...el.options].some((o) => o.value === 'recovery-warmup'))
        .options).then((opts) => Promise.all(opts.map((o) => o.getAttribute('value'))));
      assert.deepEqual(shown.filter(Boolean), cliPresets(), 'presets listed as the simulator names them');
      const banner = await page(s.driver, () => document.querySelector('#playground .banner').hidden);
      assert.equal(banner, true, 'no error banner');
    });

    test('opened as a file, the page and the walkthrough say why they cannot start (they said "Loading the simulator…" for good)', async () => {
      for (const file of ['index.html', 'learn.html']) {
        await s.driver.get(pathToFileURL(join(ROOT, 'www/dist', file)).href);
        // Either the browser runs the modules from disk and the page starts (its loading note
        // gone, no reason shown), or it says why not; never "Loading the simulator…" for good.
        const said = await until(() => page(s.driver, () => {
          const b = document.querySelector('.banner:not([hidden])');
          if (b && /Opened as a file/.test(b.textContent)) return 'told';
          return !document.querySelector('.loading') && document.querySelector('#playground .controls, #learn .learn-text') ? 'started' : false;
        }), `${file}: a start or a reason`, 20_000);
        if (browser === 'chromium') assert.equal(said, 'told', `${file}: Chromium loads no module from file://`);
      }
      // The blocked module's console errors are this test's, not the next one's.
      await clearLogs(s);
    });

    test('a false-alarm period none of the choices give (from a link) is listed with its unit, not as bare seconds', async () => {
      await open(s, '?v=1&preset=quiet-service&statistical.false_alarm_period=172800');
      const shown = await page(s.driver, () => {
        const select = document.querySelector('#playground .controls .field[data-path="statistical.false_alarm_period"] select');
        return { value: select.value, text: select.selectedOptions[0].textContent };
      });
      assert.deepEqual(shown, { value: '172800', text: 'custom: one per 2 d (172800 s)' });
    });

    test('a link with a null phase falls back with a notice; a floor of 2.5e8 calls draws its false-alarm curve (both threw)', async () => {
      // The form read a null phase's label before the settings were checked: the page never ran.
      await open(s, '?v=1&dependency=%5B%7B%22start%22%3A0%7D%2Cnull%5D');
      const r = await page(s.driver, () => ({
        notice: document.querySelector('#playground .notice').hidden ? '' : document.querySelector('#playground .notice').textContent,
        phases: window.playground.state.scenario.dependency.length,
      }));
      assert.match(r.notice, /dependency/);
      assert.ok(r.phases >= 1);
      assert.deepEqual(await pageErrors(s), []);
      // p0 = 1e-9: the line's floor e^floor = 2.5e8 calls was past the curve's 1e7 end, the nine
      // points had one x, and the log axis over it threw "Invalid array length" in uPlot.
      await open(s, '?v=1&statistical.fine_rate=1e-9');
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      await until(() => page(s.driver, () => document.querySelectorAll('#playground .analysis-grid figure canvas').length === 5), 'five analysis charts', 60_000);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a link from another settings version falls back to the defaults with a notice', async () => {
      await open(s, '?v=99&statistical.broken_rate=0.3');
      const r = await page(s.driver, () => ({
        notice: document.querySelector('#playground .notice').hidden ? '' : document.querySelector('#playground .notice').textContent,
        same: JSON.stringify(window.playground.state.scenario) === JSON.stringify(window.playground.state.byName['recovery-warmup']),
        preset: window.playground.state.preset,
        href: location.href,
      }));
      assert.match(r.notice, /version 99/);
      assert.equal(r.preset, 'recovery-warmup');
      assert.equal(r.same, true, 'the default preset\'s settings, not the link\'s');
      assert.doesNotMatch(r.href, /v=99/, 'the URL is rewritten to what the page shows');

      // A time that is not one: the link's settings stay, the run starts at 0, and the notice says why.
      await open(s, '?v=1&preset=recovery-warmup&statistical.broken_rate=0.3&t=abc&goal.max_dead_calls=-1');
      const r2 = await page(s.driver, () => ({
        notice: document.querySelector('#playground .notice').textContent,
        broken: window.playground.state.scenario.statistical.broken_rate,
        t: window.playground.state.snap.t_s,
      }));
      // Both notices: the time's and the target's (the second used to be dropped).
      assert.equal(r2.notice, 'This link\'s time “t” = abc is not a time in seconds (a number ≥ 0); starting at the beginning of the run. '
        + 'This link\'s “goal.max_dead_calls” is not valid (a whole number ≥ 0 of calls, a duration ≥ 0 for goal.close_within, or true/false); using the default target.');
      assert.equal(r2.broken, 0.3, 'the link\'s settings are kept');
      assert.equal(r2.t, 0);
      assert.deepEqual(await pageErrors(s), []);

      // A link with only a time is the default settings at that time: no version is needed.
      await open(s, '?t=20');
      await until(() => page(s.driver, () => window.playground.state.snap && window.playground.state.snap.t_s === 20), 'the cursor at t = 20');
      const r3 = await page(s.driver, () => ({
        notice: document.querySelector('#playground .notice').hidden ? '' : document.querySelector('#playground .notice').textContent,
        preset: window.playground.state.preset,
      }));
      assert.deepEqual(r3, { notice: '', preset: 'recovery-warmup' });
      assert.deepEqual(await pageErrors(s), []);

      // A time past the run's end: shown at the end, and said (it was clamped silently).
      await open(s, '?v=1&preset=recovery-warmup&t=999');
      await until(() => page(s.driver, () => window.playground.state.snap && window.playground.state.snap.t_s === 60), 'the cursor at the end');
      const r4 = await page(s.driver, () => document.querySelector('#playground .notice').textContent);
      assert.equal(r4, 'This link\'s time “t” = 999 s is past the run\'s end (1:00.00); showing its end.');
      assert.deepEqual(await pageErrors(s), []);
    });

    test('verdict targets: a bad one in a link is named in a notice; a bad entry is named next to its input', async () => {
      await open(s, '?v=1&goal.max_dead_calls=abc&goal.close_within=-10');
      const r = await page(s.driver, () => ({
        notice: document.querySelector('#playground .notice').hidden ? '' : document.querySelector('#playground .notice').textContent,
        targets: window.playground.state.targets,
        lines: [...document.querySelectorAll('#playground .panel-verdict li')].map((li) => li.textContent),
      }));
      assert.match(r.notice, /“goal\.max_dead_calls”, “goal\.close_within” are not valid/);
      assert.equal(r.targets.max_dead_calls, 50, 'the default target');
      assert.equal(r.targets.close_within, 60, 'the default target');
      assert.ok(r.lines.every((l) => !/—|-10|NaN/.test(l)), r.lines.join(' | '));
      // Hexadecimal is not a link's number (it was read as 16 s here, refused everywhere else),
      // and −0 is 0.
      await open(s, '?v=1&goal.close_within=0x10');
      const hex = await page(s.driver, () => ({ notice: document.querySelector('#playground .notice').textContent, close: window.playground.state.targets.close_within }));
      assert.match(hex.notice, /“goal\.close_within” is not valid/);
      assert.equal(hex.close, 60, 'the default target');
      await open(s, '?v=1&goal.close_within=-0');
      assert.ok(Object.is(await page(s.driver, () => window.playground.state.targets.close_within), 0));
      // T takes a unit, as the duration settings do: a number input read "2h" as 2 s, and "abc"
      // left it empty, no target, unsaid.
      await open(s, '?v=1&goal.close_within=1.5m');
      assert.equal(await page(s.driver, () => window.playground.state.targets.close_within), 90);
      const typeT = (text) => page(s.driver, (x) => {
        const input = document.querySelector('#playground .panel-verdict input[id$="-close"]');
        input.value = x;
        input.dispatchEvent(new Event('change', { bubbles: true }));
        return { type: input.type, msg: input.closest('.field').querySelector('.msg').textContent, target: window.playground.state.targets.close_within, href: location.href };
      }, text);
      const t2h = await typeT('2h');
      assert.deepEqual([t2h.type, t2h.msg, t2h.target], ['text', '', 7200]);
      assert.equal(await page(s.driver, () => document.querySelector('#playground .panel-verdict input[id$="-close"]').value), '7200', 'shown in seconds, beside its unit');
      assert.match(t2h.href, /[?&]goal\.close_within=7200(&|$)/);
      const abc = await typeT('abc');
      assert.equal(abc.msg, 'Enter a duration ≥ 0 (seconds, or with a unit: 90s, 5m, 2h), or leave it empty for no target; the verdict keeps 2 h.');
      assert.equal(abc.target, 7200);
      assert.equal((await typeT('-1s')).target, 7200);
      // Typed in: a negative count is refused next to its input and the target stays.
      const typed = await page(s.driver, () => {
        const input = [...document.querySelectorAll('#playground .panel-verdict input[type=number]')][0];
        input.value = '-5';
        input.dispatchEvent(new Event('change', { bubbles: true }));
        const field = input.closest('.field');
        return { msg: field.querySelector('.msg').textContent, invalid: input.getAttribute('aria-invalid'), target: window.playground.state.targets.max_dead_calls };
      });
      assert.match(typed.msg, /whole number from 0 to 9007199254740991, or leave it empty for no target; the verdict keeps 50 calls\.$/);
      assert.equal(typed.invalid, 'true');
      assert.equal(typed.target, 50);
      // A count past what the page carries exactly is refused, not rounded (it was taken as
      // 1.00e+20 and written to the link so).
      const huge = await page(s.driver, () => {
        const input = [...document.querySelectorAll('#playground .panel-verdict input[type=number]')][0];
        input.value = '99999999999999999999';
        input.dispatchEvent(new Event('change', { bubbles: true }));
        return { invalid: input.getAttribute('aria-invalid'), target: window.playground.state.targets.max_dead_calls };
      });
      assert.deepEqual(huge, { invalid: 'true', target: 50 });
      assert.deepEqual(await pageErrors(s), []);
      // A target the page does not know is said, not dropped silently.
      await open(s, '?v=1&goal.max_dead_call=5&goal.toString=1');
      const unknown = await page(s.driver, () => ({ notice: document.querySelector('#playground .notice').textContent, targets: window.playground.state.targets }));
      assert.equal(unknown.notice, 'This link\'s “goal.max_dead_call”, “goal.toString” are not targets (the targets are goal.no_false_open, goal.max_dead_calls, goal.close_within, goal.no_retrip); ignored.');
      assert.equal(unknown.targets.max_dead_calls, 50);
      // The user's own target is said with all its digits (it read 1.23e+10), and no "+" in its
      // exponent, as the page's other numbers.
      await open(s, '?v=1&goal.max_dead_calls=12345678901');
      const big = await page(s.driver, () => [...document.querySelectorAll('#playground .panel-verdict li')].map((li) => li.textContent));
      assert.ok(big.some((l) => l.includes('≤ 1.2345678901e10 failed calls')), big.join(' | '));
      await open(s, '?v=1&goal.max_dead_calls=9007199254740991');
      const most = await page(s.driver, () => [...document.querySelectorAll('#playground .panel-verdict li')].map((li) => li.textContent));
      assert.ok(most.some((l) => l.includes('≤ 9.007199254740991e15 failed calls')), most.join(' | '));
    });

    test('verdict targets: text the number input cannot read is refused, not taken as no target', async () => {
      // "1e" (or "abc" in Firefox) leaves the input's value empty with validity.badInput: read as
      // empty, it silently dropped the target ("no target") with no message.
      await open(s);
      const input = await s.driver.findElement({ css: '#playground .panel-verdict input[type=number]' });
      // Select and type over it (clear() would commit an empty field first; geckodriver's
      // Ctrl+A does not select in a number input).
      await page(s.driver, () => document.querySelector('#playground .panel-verdict input[type=number]').select());
      await input.sendKeys('1e', Key.TAB);
      const r = await until(() => page(s.driver, () => {
        const el = document.querySelector('#playground .panel-verdict input[type=number]');
        const st = { msg: el.closest('.field').querySelector('.msg').textContent, invalid: el.getAttribute('aria-invalid'), target: window.playground.state.targets.max_dead_calls, href: location.href };
        return st.invalid === null && st.msg === '' && st.target === 50 ? null : st;
      }), 'the target read back');
      assert.match(r.msg, /whole number from 0 to 9007199254740991/, JSON.stringify(r));
      assert.equal(r.invalid, 'true');
      assert.equal(r.target, 50, 'the target stays in force');
      assert.doesNotMatch(r.href, /goal\.max_dead_calls=(&|$)/, 'the link keeps the target');
      assert.deepEqual(await pageErrors(s), []);
    });

    test('verdict targets: a refused entry then cleared is read as no target', async () => {
      // The field goes from unreadable text to empty: its value is "" before and after, so no
      // change fires, and the refusal (and the old target) stayed beside an empty field.
      await open(s);
      const css = '#playground .panel-verdict input[type=number]';
      const input = await s.driver.findElement({ css });
      await page(s.driver, () => document.querySelector('#playground .panel-verdict input[type=number]').select());
      await input.sendKeys('1e', Key.TAB);
      await until(() => page(s.driver, () => document.querySelector('#playground .panel-verdict input[type=number]').getAttribute('aria-invalid') === 'true' || null), 'the refusal');
      await input.click();
      await page(s.driver, () => document.querySelector('#playground .panel-verdict input[type=number]').select());
      await input.sendKeys(Key.BACK_SPACE, Key.BACK_SPACE, Key.TAB);
      const r = await until(() => page(s.driver, () => {
        const el = document.querySelector('#playground .panel-verdict input[type=number]');
        const st = { bad: el.validity.badInput, msg: el.closest('.field').querySelector('.msg').textContent, invalid: el.getAttribute('aria-invalid'), target: window.playground.state.targets.max_dead_calls };
        return st.msg === '' ? st : null;
      }), 'the cleared field read');
      assert.deepEqual(r, { bad: false, msg: '', invalid: 'false', target: null });
      assert.deepEqual(await pageErrors(s), []);
    });

    test('verdict targets: a target emptied (no target) is kept by the link', async () => {
      await open(s);
      const href = await page(s.driver, () => {
        const input = [...document.querySelectorAll('#playground .panel-verdict input[type=number]')][0];
        input.value = '';
        input.dispatchEvent(new Event('change', { bubbles: true }));
        return location.href;
      });
      assert.match(href, /[?&]goal\.max_dead_calls=(&|$)/, href);
      await s.driver.get(href);
      await until(() => page(s.driver, () => Boolean(window.__playground && window.__playground.ready)), 'the linked page');
      const r = await page(s.driver, () => ({
        target: window.playground.state.targets.max_dead_calls,
        input: [...document.querySelectorAll('#playground .panel-verdict input[type=number]')][0].value,
        lines: [...document.querySelectorAll('#playground .panel-verdict li')].map((li) => li.textContent),
        notice: document.querySelector('#playground .notice').hidden ? '' : document.querySelector('#playground .notice').textContent,
      }));
      assert.deepEqual({ target: r.target, input: r.input, notice: r.notice }, { target: null, input: '', notice: '' });
      assert.ok(!r.lines.some((l) => /failed calls let through/.test(l)), r.lines.join(' | '));
    });

    test('the analysis legend reads a value the chart leaves out (0, or far below the rest on its log axis) as computed, not as a dash', async () => {
      await open(s);
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      await until(() => page(s.driver, () => document.querySelectorAll('#playground .analysis-grid figure canvas').length === 5), 'five analysis charts', 60_000);
      // Hover the window chart's right end: the largest window, where the back-to-back trips are
      // 12 decades and more below its left end (the chart drops them; the legend said "—").
      const r = await page(s.driver, () => {
        const fig = [...document.querySelectorAll('#playground .analysis-grid figure')].find((f) => f.querySelector('figcaption').textContent.startsWith('Window breaker'));
        const over = fig.querySelector('.u-over');
        const box = over.getBoundingClientRect();
        over.dispatchEvent(new MouseEvent('mousemove', { clientX: box.right - 1, clientY: box.top + box.height / 2, bubbles: true }));
        return [...fig.querySelectorAll('.u-legend .u-series')].map((row) => [row.querySelector('.u-label').textContent, row.querySelector('.u-value').textContent]);
      });
      const b2b = r.find(([label]) => label.startsWith('windows back to back'));
      assert.ok(b2b, r.map((x) => x.join(': ')).join(' | '));
      assert.notEqual(b2b[1], '—', r.map((x) => x.join(': ')).join(' | '));
      assert.match(b2b[1], /^(0|\d(\.\d+)?e−\d+)$/, b2b[1]);
    });

    test('the window chart says what it cannot draw: the exact chain past 18 calls, a simulated 0 on its log axis, trips 12 decades under the rest', async () => {
      // Only the simulated line's 95% high end (7.968 a day) was drawn for windows of 23 to 500
      // calls, and read as about 8 trips a day; the exact chain stopping at 14 said nothing.
      await open(s);
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      await until(() => page(s.driver, () => document.querySelectorAll('#playground .analysis-grid figure canvas').length === 5), 'five analysis charts', 60_000);
      const notes = await page(s.driver, () => [...document.querySelectorAll('#playground .analysis-grid figure')]
        .map((f) => [f.querySelector('figcaption').textContent, [...f.querySelectorAll('p.help:not(.mark)')].map((p) => p.textContent).join(' ')]));
      const win = notes.find(([cap]) => cap.startsWith('Window breaker'))[1];
      assert.ok(win.includes('sliding window (exact chain): no value at 7 points from 23 to 500 calls (the chain\'s states double with each call of the window: it is computed up to 18 calls).'), win);
      assert.ok(win.includes('sliding window, simulated: 0 at 7 points from 23 to 500 calls, which a log axis cannot show; only its 95% interval\'s high end (up to 7.968) is drawn there, an upper limit, not a value seen.'), win);
      assert.ok(win.includes('windows back to back (binomial tail) (exact): under the chart at 5 points from 65 to 500 calls, more than 12 decades below its largest value (down to 4.123e−110); the legend reads each.'), win);
      // The other charts leave nothing out at the default settings: no such sentence under them.
      const fa = notes.find(([cap]) => cap.startsWith('Calls between false alarms'))[1];
      assert.ok(fa.includes('simulated: no value at 6 points from 8,004 to 12,960,000 calls (lines above 3,000 calls are not simulated here).'), fa);
      // The other charts leave nothing out at the default settings: no such sentence under them.
      for (const [cap, text] of notes.filter(([c]) => !/^(Window breaker|Calls between)/.test(c))) {
        assert.doesNotMatch(text, /no value at|a log axis cannot show|under the chart/, cap);
      }
      // A computed 0 is not an impossibility: under about 1e-308 a double holds 0 (a window of 180
      // calls at p0 0.001% trips with chance about 1e-397). Said beside the exact line's 0.
      assert.doesNotMatch(win, /too small for a double/);
      await open(s, '?v=1&statistical.fine_rate=0.00001&statistical.broken_rate=0.9999');
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      await until(() => page(s.driver, () => document.querySelectorAll('#playground .analysis-grid figure canvas').length === 5), 'five analysis charts', 60_000);
      const tiny = await page(s.driver, () => [...[...document.querySelectorAll('#playground .analysis-grid figure')]
        .find((f) => f.querySelector('figcaption').textContent.startsWith('Window breaker')).querySelectorAll('p.help:not(.mark)')].map((p) => p.textContent).join(' '));
      assert.match(tiny, /windows back to back \(binomial tail\) \(exact\): 0 at \d+ points? from [\d,]+ to 500 calls \(the value, or a chance it is made of, is under about 1e-308, too small for a double: it reads 0\), which a log axis cannot show\./, tiny);
    });

    test('a line\'s points with no value are said with each one\'s own reason', async () => {
      // A simulated false-alarm line left out at 403 to 3,000 calls for the work budget and past
      // 3,000 as never simulated: all eight were put down to the budget, by the first gap's x.
      await open(s);
      const r = await page(s.driver, async () => {
        const { leftOut } = await import(new URL('src/analysis.js', location.href).href);
        const xs = [100, 403.2, 1000, 3000, 8004, 1e5, 1e7];
        const c = { x_label: 'line as N = e^line (calls)', series: [
          { label: 'simulated', kind: 'simulated', x: xs, y: [120, NaN, NaN, NaN, NaN, NaN, NaN] },
          { label: 'sliding window (exact chain)', kind: 'exact', x: [5, 14, 18, 23], y: [1, 2, NaN, NaN] },
        ] };
        return leftOut(c, false, () => true);
      });
      assert.deepEqual(r, [
        'simulated: no value at 3 points from 8,004 to 10,000,000 calls (lines above 3,000 calls are not simulated here).',
        'simulated: no value at 3 points from 403.2 to 3,000 calls (left out for the curves\' work budget).',
        'sliding window (exact chain): no value at 23 calls (the chain\'s states double with each call of the window: it is computed up to 18 calls).',
        'sliding window (exact chain): no value at 18 calls (left out for the curves\' work budget).',
      ]);
    });

    test('a traffic of 1 call a minute is said in the singular (the Now panel said "1 calls/min")', async () => {
      await open(s);
      const r = await page(s.driver, async () => {
        const { renderNow } = await import(new URL('src/panels.js', location.href).href);
        const el = document.createElement('div');
        const text = (rate) => {
          renderNow(el, { t_s: 0, statistical: { state: 'closed', rate }, window: {} }, 1, 60);
          return [...el.querySelectorAll('tr')].find((tr) => tr.querySelector('th').textContent === 'traffic estimate').children[1].textContent;
        };
        return [text(1 / 60), text(1.00001 / 60), text(2 / 60), text(0.5 / 60)];
      });
      assert.deepEqual(r, ['1 call/min', '1 call/min', '2 calls/min', '0.5 calls/min']);
    });

    test('"How it works" opens on the settings shown: the rates, the period and one breaker\'s traffic', async () => {
      // It linked to plain learn.html, whose defaults (5%, 20%, 60 calls/min) the reader had to
      // replace by hand. Three callers that do not share state: each breaker sees 100 calls/min.
      await open(s, '?v=1&statistical.fine_rate=0.01&statistical.broken_rate=0.1&traffic.calls_per_minute=300&callers.count=3');
      const href = await page(s.driver, () => document.querySelector('header.site a[href^="./learn.html"]').getAttribute('href'));
      assert.equal(href, './learn.html?fine=0.01&broken=0.1&a=0.01&b=0.05&period=2592000&cpm=100');
      await page(s.driver, () => document.querySelector('header.site a[href^="./learn.html"]').click());
      await until(() => page(s.driver, () => { const el = document.getElementById('learn'); return Boolean(el && el.dataset.ready === '1'); }), 'the walkthrough', 60_000);
      const form = await page(s.driver, () => ({
        fine: document.getElementById('learn-fine').value, broken: document.getElementById('learn-broken').value,
        cpm: document.getElementById('learn-cpm').value, period: document.getElementById('learn-period').value,
        notice: document.querySelector('.notice').hidden ? '' : document.querySelector('.notice').textContent,
      }));
      assert.deepEqual(form, { fine: '1', broken: '10', cpm: '100', period: '30', notice: '' });
    });

    test('the charts mark the dependency\'s outage and degraded phases, consecutive phases of one condition as one stretch', async () => {
      // recovery-warmup: fine, an outage from 8 s, degraded from 30 s, fine from 40 s.
      await open(s);
      assert.deepEqual(await page(s.driver, () => window.playground.chart.phaseMarks()), [
        { start: 8, end: 30, condition: 'outage', label: 'outage' },
        { start: 30, end: 40, condition: 'degraded', label: 'degraded' },
      ]);
      // Two outage phases back to back are one stretch; the last runs to the end of the run.
      await open(s, '?v=1&dependency=' + encodeURIComponent(JSON.stringify([
        { start: 0, condition: 'fine', failure_rate: 0.1 }, { start: 10, condition: 'outage', failure_rate: 1 },
        { start: 20, condition: 'outage', failure_rate: 0.9 }])));
      assert.deepEqual(await page(s.driver, () => window.playground.chart.phaseMarks()), [
        { start: 10, end: null, condition: 'outage', label: 'outage' },
      ]);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a legend marker is dotted where its line is dashed or dotted: the two breakers\' fallback and wait lines, one colour each, tell apart in the legend', async () => {
      await open(s);
      const markers = await page(s.driver, () => Object.fromEntries([...document.querySelectorAll('#playground .panel-chart .u-legend .u-series')]
        .filter((r) => r.querySelector('.u-marker'))
        .map((r) => [r.querySelector('.u-label').textContent, getComputedStyle(r.querySelector('.u-marker')).borderTopStyle])));
      assert.deepEqual([markers['fallback (statistical)'], markers['fallback (window)'], markers['wait (statistical)'], markers['wait (window)']],
        ['solid', 'dotted', 'solid', 'dotted'], JSON.stringify(markers));
      assert.equal(markers['closed score'], 'solid');
      assert.equal(markers.line, 'dotted');
    });

    test('a false-alarm chart whose Wald line lies below the bound says so in its note; at the defaults it does not', async () => {
      const note = async (query) => {
        await open(s, query);
        await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
        await until(() => page(s.driver, () => document.querySelectorAll('#playground .analysis-grid figure canvas').length === 5), 'five analysis charts', 60_000);
        return page(s.driver, () => [...document.querySelectorAll('#playground .analysis-grid figure')]
          .find((f) => f.querySelector('figcaption').textContent.startsWith('Calls between false alarms')).querySelector('p.help').textContent);
      };
      // p0 = 0.001%, p1 = 99%: one failure carries the score 2.5 points of a 3.5-point line;
      // Wald's approximation (no overshoot) sits under the proven bound at all nine lines, as
      // `breaker analyze curves` says for the same settings.
      const extreme = await note('?v=1&statistical.fine_rate=0.00001&statistical.broken_rate=0.99');
      assert.ok(extreme.endsWith(' Wald\'s approximation lies below the bound at 9 of 9 points: it leaves out how far the last failure carries the score past the line, which is large where one failure\'s step is a large part of the line.'), extreme);
      assert.doesNotMatch(extreme, /chain.*lies below/);
      assert.doesNotMatch(await note(''), /lies below the bound/);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a Wald line far from the exact one says so, as the command line\'s curves say it', async () => {
      // a = b = 30% with p0 = 0.1%, p1 = 99.9%: one trial decides, and Wald's expected trials
      // (0.049 where every test takes one) were drawn with nothing said.
      const sets = { 'statistical.fine_rate': '0.001', 'statistical.broken_rate': '0.999', 'statistical.trial_wrongly_opens': '0.3', 'statistical.trial_wrongly_closes': '0.3' };
      await open(s, `?v=1&${new URLSearchParams(sets)}`);
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      await until(() => page(s.driver, () => document.querySelectorAll('#playground .analysis-grid figure canvas').length === 5), 'five analysis charts', 60_000);
      const notes = await page(s.driver, () => Object.fromEntries([...document.querySelectorAll('#playground .analysis-grid figure')]
        .map((f) => [f.querySelector('figcaption').firstChild.textContent.trim(), f.querySelector('p.help').textContent])));
      const [cmd, pre] = process.env.BREAKER_BIN ? [process.env.BREAKER_BIN, []] : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
      const text = execFileSync(cmd, [...pre, 'analyze', 'curves', '--preset', 'recovery-warmup', ...Object.entries(sets).flatMap(([k, v]) => ['--set', `${k}=${v}`])], { cwd: ROOT, encoding: 'utf8' });
      // Each chart's text by its title ("2. Calls to open ..."), its wrapped lines joined.
      const sections = Object.fromEntries(text.split(/\n(?=\d\. )/).slice(1).map((x) => {
        const [head, ...rest] = x.split('\n');
        return [head.replace(/^\d\. /, ''), rest.join('\n').replaceAll('\n   ', ' ')];
      }));
      let said = 0;
      for (const [title, n] of Object.entries(notes)) {
        const section = sections[title];
        assert.ok(section, `the command line draws ${title}`);
        const want = section.match(/Wald's approximation is under half or over twice[^.]*\./g) || [];
        const got = n.match(/Wald's approximation is under half or over twice[^.]*\./g) || [];
        assert.deepEqual(got, want, title);
        said += got.length;
      }
      assert.ok(said >= 3, `${said} charts say it`);
      assert.match(notes['Half-open: expected trials (ASN)'], /Wald's approximation is under half or over twice the exact figure at 15 of 15 points: it leaves out the overshoot past the line, large where one step is a large part of it\./);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the analysis curves: five charts, every line and caption labelled with its kind, simulated ones with their 95% band and sample size', async () => {
      await open(s);
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      const look = () => page(s.driver, () => [...document.querySelectorAll('#playground .analysis-grid figure')].map((f) => ({
        caption: f.querySelector('figcaption').textContent,
        badges: [...f.querySelectorAll('figcaption .kind')].map((b) => b.textContent),
        canvas: Boolean(f.querySelector('canvas')),
        legend: [...f.querySelectorAll('.u-legend .u-series .u-label')].map((l) => l.textContent),
        note: (f.querySelector('p.help') || {}).textContent || '',
      })));
      const figs = await until(async () => { const r = await look(); return r.length === 5 && r.every((f) => f.canvas) && r; }, 'five analysis charts', 60_000);
      const kinds = ['exact', 'bound', 'approx.', 'simulated'];
      for (const f of figs) {
        assert.ok(f.badges.length > 0 && f.badges.every((b) => kinds.includes(b)), `${f.caption}: kind badges ${f.badges}`);
        // Every legend entry after the x axis names its kind, once: after it, or in its label
        // ("simulated (simulated)" said it twice).
        for (const l of f.legend.slice(1)) {
          const said = l.match(/\b(exact|bound|approx|simulated)/gi) || [];
          assert.equal(said.length, 1, `${f.caption}: ${l}`);
        }
      }
      const byTitle = (t) => figs.find((f) => f.caption.startsWith(t));
      const fa = byTitle('Calls between false alarms');
      // The interval's two lines follow their line in the legend.
      const at = fa.legend.indexOf('simulated');
      assert.deepEqual(fa.legend.slice(at, at + 3), ['simulated', '95% interval, high (simulated)', '95% interval, low (simulated)'], fa.legend.join(' | '));
      assert.deepEqual(fa.legend.slice(1, at), ['Lorden/Ville bound', 'exact', 'Brook-Evans chain (approx.)', "Wald's approximation"], fa.legend.join(' | '));
      assert.match(fa.note, /Simulated points: 200 runs each; the band is their 95% interval\./);
      const win = byTitle('Window breaker');
      const wat = win.legend.indexOf('sliding window, simulated');
      assert.equal(win.legend[wat + 1], '95% interval, high (simulated)', win.legend.join(' | '));
      assert.match(win.note, /Simulated points: 200,000 calls each;/);
      const oc = byTitle('Half-open: chance to close');
      assert.ok(!oc.legend.some((l) => l.includes('95%')), 'no band on a curve with nothing simulated');

      // Each line of a chart has a colour of its own (its 95% interval takes its colour): the
      // window chart drew the binomial tail and the simulated sliding window both solid blue,
      // the false-alarm chart the bound and the exact value both red.
      const colours = await page(s.driver, () => [...document.querySelectorAll('#playground .analysis-grid figure')].map((f) => ({
        caption: f.querySelector('figcaption').textContent,
        lines: [...f.querySelectorAll('.u-legend .u-series')].slice(1)
          .map((r) => ({ label: r.querySelector('.u-label').textContent, colour: getComputedStyle(r.querySelector('.u-marker')).borderColor }))
          .filter((l) => !l.label.startsWith('95% interval')),
      })));
      for (const f of colours) {
        const seen = new Map();
        for (const l of f.lines) {
          assert.ok(!seen.has(l.colour), `${f.caption}: “${l.label}” has the colour of “${seen.get(l.colour)}” (${l.colour})`);
          seen.set(l.colour, l.label);
        }
      }
      // Large ticks of a log axis are short enough for the axis (a grouped 100,000,000 was cut to
      // "00,000,000" on the 64 px y axis).
      const ticks = await page(s.driver, async () => {
        const { tick } = await import(new URL('src/analysis.js', location.href).href);
        return [1, 100, 1e4, 1e5, 1e6, 1e8, 2.5e7, 1e12, 1e-6].map(tick);
      });
      assert.deepEqual(ticks, ['1', '100', '10,000', '1e5', '1e6', '1e8', '2.5e7', '1e12', '1e−6']);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the window curve is of count windows and marks the user\'s window: a time window at about rate × seconds calls (approx.), as the command line says', async () => {
      // The window chart's note, its mark's text and kind, and the column of the canvas where the
      // dashed mark is drawn (the one with the most pixels of the text colour, --fg).
      const look = () => page(s.driver, () => {
        const f = [...document.querySelectorAll('#playground .analysis-grid figure')]
          .find((x) => x.querySelector('figcaption').textContent.startsWith('Window breaker'));
        const mark = f && f.querySelector('p.mark');
        const canvas = f && f.querySelector('canvas');
        if (!mark || !canvas) return null;
        const [r, g, b] = getComputedStyle(f).getPropertyValue('--fg').trim().match(/[0-9a-f]{2}/gi).map((x) => parseInt(x, 16));
        const img = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const dark = new Array(canvas.width).fill(0);
        for (let y = 0; y < canvas.height; y++) {
          for (let x = 0; x < canvas.width; x++) {
            const i = 4 * (y * canvas.width + x);
            const d = img.data;
            if (d[i + 3] > 60 && Math.abs(d[i] - r) < 40 && Math.abs(d[i + 1] - g) < 40 && Math.abs(d[i + 2] - b) < 40) dark[x]++;
          }
        }
        const column = dark.indexOf(Math.max(...dark));
        return {
          note: f.querySelector('p.help').textContent,
          mark: mark.textContent,
          kind: mark.querySelector('.kind').textContent,
          markX: Number(f.dataset.markX),
          column, share: dark[column] / canvas.height,
          cpm: window.playground.state.scenario.traffic.calls_per_minute,
        };
      });
      const cli = (...a) => {
        const [cmd, pre] = process.env.BREAKER_BIN ? [process.env.BREAKER_BIN, []] : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
        return execFileSync(cmd, [...pre, 'analyze', 'window', ...a], { cwd: ROOT, encoding: 'utf8' });
      };
      await open(s, '?v=1&window.sliding_window_type=time_based&window.sliding_window_size=60');
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      const t60 = await until(look, 'the window chart with its mark', 60_000);
      const held = t60.cpm; // calls a minute holds at the traffic: the 60 s window's
      assert.match(t60.note, /^Count-based windows at the fine rate /, t60.note);
      assert.ok(t60.note.includes(`Yours: time-based, 60 s: about ${held} calls at ${held} calls/min (an approximation: the calls in 60 s vary, and its minimumNumberOfCalls is not capped at them).`), t60.note);
      assert.equal(t60.markX, held);
      assert.equal(t60.mark, `Dashed vertical line: your window, about ${held} calls approx.`);
      assert.equal(t60.kind, 'approx.');
      assert.ok(t60.share > 0.3, `a dashed vertical line is drawn (darkest column ${t60.column}: ${t60.share} of the height)`);
      // The command line says the same of a count window of that many calls at this traffic.
      const text = cli('--window', String(held), '--calls-per-minute', String(t60.cpm));
      assert.match(text, /^window breaker: count-based window of \d+ calls,/);
      assert.match(text, /this stands for one of about 60\.00 s \(an approximation: the calls in T s vary/);

      // A shorter time window holds fewer calls: the mark moves left.
      await setField(s.driver, 'window.sliding_window_size', '20');
      const t20 = await until(async () => { const r = await look(); return r && r.markX !== held && r; }, 'the mark for 20 s', 60_000);
      assert.equal(t20.markX, held / 3);
      assert.ok(t20.share > 0.3 && t20.column < t60.column, `the mark moved left: ${t60.column} -> ${t20.column}`);

      // A count window is marked at its size, exactly.
      await setField(s.driver, 'window.sliding_window_type', 'count_based');
      const c20 = await until(async () => { const r = await look(); return r && r.kind === 'exact' && r; }, 'the mark of a count window', 60_000);
      assert.ok(c20.note.includes(' Yours: 20 calls. '), c20.note);
      assert.equal(c20.mark, 'Dashed vertical line: your window, 20 calls exact');
      assert.equal(c20.markX, 20);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the analysis curves are `breaker analyze curves`\'s for the page\'s scenario, number for number (simulated points included)', async () => {
      // Three callers that do not share state: the curves are at one breaker's share of the
      // traffic, on the page as on the command line. A time window, so the window curve's mark
      // is the approximation.
      await open(s, '?v=1&preset=bad-day&callers.count=3&window.sliding_window_type=time_based&window.sliding_window_size=30');
      await page(s.driver, () => { document.querySelector('#playground .analysis-details').open = true; });
      // As JSON text (a gap's NaN as null, as the command line writes it): Firefox's WebDriver
      // hands numbers back rounded to fewer digits (30823.133108138998 as 30823.133108139).
      const got = JSON.parse(await until(() => page(s.driver, () => {
        const S = window.playground.state;
        return S.curves && JSON.stringify({ scenario: S.scenario, curves: S.curves });
      }), 'the curves', 120_000));
      const [cmd, pre] = process.env.BREAKER_BIN ? [process.env.BREAKER_BIN, []] : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
      const cli = JSON.parse(execFileSync(cmd, [...pre, 'analyze', 'curves', '--scenario', '-', '--format', 'json'], {
        cwd: ROOT, encoding: 'utf8', input: JSON.stringify(got.scenario),
      }));
      assert.equal(cli.calls_per_minute_per_breaker, got.scenario.traffic.calls_per_minute / 3);
      assert.deepEqual(got.curves.map((c) => c.id), ['false_alarms', 'open_delay', 'trials_oc', 'trials_asn', 'window_trips']);
      assert.ok(got.curves.some((c) => c.series.some((l) => l.kind === 'simulated')), 'something is simulated');
      assert.deepEqual(got.curves, cli.curves);
      // A replayed trace: at its own traffic (1000 calls, the last at 100 s: 600 calls/min, 200
      // for each of the three breakers), as the command line takes it; it was the traffic
      // setting's, which a replay does not use.
      const rows = `${Array.from({ length: 1000 }, (_, i) => `${(i + 1) / 10},ok,0.05`).join('\n')}\n`;
      await page(s.driver, (t) => {
        window.__e2eCurves = window.playground.state.curves;
        window.playground.load({ ...window.playground.state.scenario, trace: t });
      }, rows);
      const traced = JSON.parse(await until(() => page(s.driver, () => {
        const S = window.playground.state;
        const asked = S.lastAnalysis && JSON.parse(S.lastAnalysis).what.calls_per_minute;
        return S.scenario.trace && asked === 200 && S.curves !== window.__e2eCurves && JSON.stringify({ scenario: S.scenario, curves: S.curves });
      }), 'the trace\'s curves', 120_000));
      const cliTraced = JSON.parse(execFileSync(cmd, [...pre, 'analyze', 'curves', '--scenario', '-', '--format', 'json'], {
        cwd: ROOT, encoding: 'utf8', input: JSON.stringify(traced.scenario),
      }));
      assert.equal(cliTraced.calls_per_minute_per_breaker, 200);
      assert.deepEqual(traced.curves, cliTraced.curves);
      assert.notDeepEqual(traced.curves, got.curves);
      // A trace faster than the curves take (three calls in 1e-12 s: 6e13 calls/min to each of
      // the three breakers) is said as its traffic; the message named "options.calls_per_minute",
      // which no field holds. The command line refuses it with the same range.
      await page(s.driver, () => window.playground.load({ ...window.playground.state.scenario, trace: '0,ok,0\n0,ok,0\n1e-12,ok,0\n' }));
      const said = await until(() => page(s.driver, () => {
        const t = document.querySelector('#playground .panel-analysis p.help[aria-live]').textContent;
        return /could not be computed/.test(t) && t;
      }), 'the curves refused', 60_000);
      assert.equal(said, 'The curves could not be computed: the replayed trace\'s calls come at 6e13 calls/min to one breaker (its calls over its run), past what the curves take (1e-12 <= x <= 1e12 calls/min), as `breaker analyze curves` says too.');
      const fast = await page(s.driver, () => JSON.stringify(window.playground.state.scenario));
      assert.throws(() => execFileSync(cmd, [...pre, 'analyze', 'curves', '--scenario', '-'], { cwd: ROOT, encoding: 'utf8', input: fast, stdio: 'pipe' }),
        (e) => e.status === 2 && e.stderr.includes('the trace\'s calls come at 6.000e13 calls/min to one breaker (its calls over its run), past what the curves take: 1e-12 <= calls per minute <= 1e12'));
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a click on a chart\'s axis leaves the page where it is; Tab to the charts still brings their top into view', async () => {
      await open(s);
      // The third chart in the middle of the window: the charts' top is above it.
      const at = () => page(s.driver, () => {
        const box = document.querySelector('#playground .chart-plots');
        const u = box.querySelectorAll('.uplot')[2].getBoundingClientRect();
        const over = box.querySelectorAll('.u-over')[2].getBoundingClientRect();
        return {
          y: scrollY,
          top: box.getBoundingClientRect().top,
          bar: parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0,
          // On the y axis's labels, left of the plot: no plot takes the focus there, the box does.
          axis: { x: Math.round(u.left + 8), y: Math.round(over.top + over.height / 2) },
          focused: document.activeElement === box,
        };
      });
      await page(s.driver, () => {
        const u = document.querySelectorAll('#playground .chart-plots .uplot')[2].getBoundingClientRect();
        window.scrollTo(0, scrollY + u.top + u.height / 2 - innerHeight / 2);
      });
      const before = await at();
      assert.ok(before.top < before.bar, `the charts' top (${before.top}) above the bar (${before.bar})`);
      await s.driver.actions().move({ x: before.axis.x, y: before.axis.y, origin: 'viewport' }).click().perform();
      const after = await at();
      assert.equal(after.focused, true, 'the click focused the charts');
      // Before, the page jumped to show the charts' top: 150-270 px from under the finger.
      assert.equal(after.y, before.y, 'the page stayed where it was');
      // By the keyboard: their top (and the keys' help) shown below the bar, as before.
      await page(s.driver, () => { document.activeElement.blur(); document.querySelector('#playground .scrubrow input[type=range]').focus(); window.scrollTo(0, scrollY + 1e9); });
      for (let i = 0; i < 30 && !(await at()).focused; i++) await s.driver.actions().sendKeys(Key.TAB).perform();
      const tabbed = await at();
      assert.equal(tabbed.focused, true, 'Tab reaches the charts');
      assert.ok(tabbed.top >= tabbed.bar - 1, `the charts' top at ${tabbed.top}, under the bar (${tabbed.bar})`);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('play on a slow machine: the cursor never goes back, and a step during play is the step', async () => {
      // Frames and the worker's answers under the test's control: the first frame timed before
      // the click (as browsers may), each seek answered 150 ms late.
      await open(s, '?v=1&preset=quiet-service');
      const install = () => page(s.driver, () => {
        const pg = window.playground;
        window.__sent = [];
        window.__raf = window.requestAnimationFrame;
        // Frames 30 ms apart, then 4 ms (a machine that speeds up): the time a frame adds
        // differs from one seek's answer to the next.
        let now = performance.now() - 500;
        let frames = 0;
        window.requestAnimationFrame = (f) => setTimeout(() => { frames += 1; now += frames < 12 ? 30 : 4; f(now); }, 16);
        const call = pg.engine.call.bind(pg.engine);
        window.__call = pg.engine.call;
        // Answers in the order asked, as the worker gives them.
        let chain = Promise.resolve();
        pg.engine.call = (op, args) => {
          if (op === 'seek' || op === 'stepCall') window.__sent.push([op, op === 'seek' ? args.t : null]);
          const r = call(op, args);
          const out = chain.then(() => r).then((x) => (op === 'seek' ? new Promise((ok) => setTimeout(() => ok(x), 150)) : x));
          chain = out.catch(() => {});
          return out;
        };
      });
      const uninstall = () => page(s.driver, () => {
        window.requestAnimationFrame = window.__raf;
        window.playground.engine.call = window.__call;
      });
      const speed = await s.driver.findElement({ css: '#playground .transport select' });
      try {
        await page(s.driver, () => window.playground.seek(864000));
        await until(() => page(s.driver, () => window.playground.state.t === 864000), 'the cursor at day 10');
        await speed.sendKeys('1 d/s');
        await install();
        await button(s, '▶ Play').click();
        await until(() => page(s.driver, () => window.__sent.length >= 10), 'ten seeks of play');
        // Before: the first frame's time before the click made the first seek go back (up to
        // 20 minutes at 1 d/s), and a frame while a seek was answered went on from the cursor
        // shown, behind the seek sent (0.333 s, then 0.166 s).
        const seeks = await page(s.driver, () => window.__sent.map(([, t]) => t));
        assert.ok(seeks[0] >= 864000, `the first seek ${seeks[0]}`);
        for (let i = 1; i < seeks.length; i++) assert.ok(seeks[i] >= seeks[i - 1], `seek ${i}: ${seeks[i - 1]} then ${seeks[i]}`);
        // A step while play's seeks are on their way: the step is where the cursor ends (a
        // queued seek of play was sent after it, and undid it).
        await button(s, 'Step one call').click();
        await new Promise((r) => setTimeout(r, 800));
        const end = await page(s.driver, () => ({ sent: window.__sent.slice(), t: window.playground.state.t }));
        const step = end.sent.findIndex(([op]) => op === 'stepCall');
        assert.ok(step >= 0, JSON.stringify(end.sent));
        assert.deepEqual(end.sent.slice(step + 1), [], 'nothing sent after the step');
        const snap = await page(s.driver, async () => (await window.__call.call(window.playground.engine, 'snapshot')).t_s);
        assert.equal(end.t, snap, 'the page shows the worker\'s cursor, the step\'s');
      } finally {
        await uninstall();
        await speed.sendKeys('10×');
      }
      assert.deepEqual(await pageErrors(s), []);
    });

    test('Play clicked while play\'s last seek to the end is on its way starts again from the start', async () => {
      // A minute's run at 1 min/s: a second to the end; each seek answered 400 ms late.
      await open(s);
      const speed = await s.driver.findElement({ css: '#playground .transport select' });
      await speed.sendKeys('1 min/s');
      await page(s.driver, () => {
        const pg = window.playground;
        window.__sent = [];
        window.__call = pg.engine.call;
        const call = pg.engine.call.bind(pg.engine);
        let chain = Promise.resolve();
        pg.engine.call = (op, args) => {
          if (op === 'seek') window.__sent.push(args.t);
          const r = call(op, args);
          const out = chain.then(() => r).then((x) => (op === 'seek' ? new Promise((ok) => setTimeout(() => ok(x), 400)) : x));
          chain = out.catch(() => {});
          return out;
        };
      });
      try {
        const end = await page(s.driver, () => window.playground.state.end);
        await button(s, '▶ Play').click();
        await until(() => page(s.driver, (e) => window.__sent.includes(e) && !window.playground.state.playing, end), 'play at its end, paused');
        assert.notEqual(await page(s.driver, () => window.playground.state.t), end, 'the seek to the end still on its way');
        // Before, this click did nothing: the cursor was not yet at the end.
        await button(s, '▶ Play').click();
        // A seek after the one to the end, from the start again (0, or where play's first frame
        // took it from 0).
        const sent = await until(async () => { const x = await page(s.driver, () => window.__sent.slice()); return x.length > x.indexOf(end) + 1 && x; }, 'a seek after the end');
        assert.ok(sent[sent.indexOf(end) + 1] < end / 2, JSON.stringify(sent));
      } finally {
        await page(s.driver, () => { window.playground.state.playing && document.querySelector('#playground .transport button').click(); window.playground.engine.call = window.__call; });
        await speed.sendKeys('10×');
      }
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the zoom buttons zoom as the keys do, around the playback cursor (a touch screen has no drag)', async () => {
      await open(s);
      const look = () => page(s.driver, () => ({ view: window.playground.state.view, end: window.playground.state.end, scales: window.playground.chart.xScales() }));
      const zoom = (text) => s.driver.findElement({ xpath: `//div[contains(@class,'chart-zoom')]//button[normalize-space(.)='${text}']` }).click();
      const { end } = await look();
      await newSnap(s, () => button(s, 'Next event').click(), 'the first event');
      const c = (await pageState(s.driver)).t;
      assert.ok(c > 0 && c < end);
      await zoom('Zoom in');
      let r = await until(async () => { const x = await look(); return x.view && x; }, 'zoomed in');
      assert.ok(Math.abs(r.view[1] - r.view[0] - end / 2) < 1e-6 * end, `half the run: ${r.view}`);
      assert.ok(r.view[0] <= c && c <= r.view[1], 'around the cursor');
      for (const sc of r.scales) assert.deepEqual(sc, r.view);
      await zoom('Zoom in');
      r = await until(async () => { const x = await look(); return x.view && Math.abs(x.view[1] - x.view[0] - end / 4) < 1e-6 * end && x; }, 'a quarter');
      await zoom('Zoom out');
      r = await until(async () => { const x = await look(); return x.view && Math.abs(x.view[1] - x.view[0] - end / 2) < 1e-6 * end && x; }, 'half again');
      await zoom('Whole run');
      r = await until(async () => { const x = await look(); return x.view === null && x; }, 'the whole run');
      for (const sc of r.scales) assert.deepEqual(sc, [0, end]);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('keyboard zoom: Tab to the charts, then + and − zoom around the playback cursor, 0 and Escape show the whole run', async () => {
      await open(s);
      const look = () => page(s.driver, () => {
        const pg = window.playground;
        const box = document.querySelector('#playground .chart-plots');
        return {
          focused: document.activeElement === box,
          scales: pg.chart.xScales(),
          view: pg.state.view,
          end: pg.state.end,
          t: pg.state.snap.t_s,
          note: document.querySelector('#playground .chart-note').textContent,
          said: document.querySelector('#playground .panel-chart [aria-live]').textContent,
          keys: box.getAttribute('aria-keyshortcuts'),
          help: document.getElementById(box.getAttribute('aria-describedby')).textContent,
        };
      });
      const press = (k) => s.driver.actions().sendKeys(k).perform();
      // "600 buckets of 100 ms": the series the chart was given, and the seconds it spans.
      const bucket = (note) => /^\d+ buckets of [^;(]+/.exec(note)[0].trim();
      const spanOf = (note) => {
        const [, n, v, u] = /^(\d+) buckets of ([\d.]+) (ms|s|min)\b/.exec(note);
        return Number(n) * Number(v) * { ms: 1e-3, s: 1, min: 60 }[u];
      };
      // From the scrubber, Tab reaches the charts (one stop for the three).
      await page(s.driver, () => document.querySelector('#playground .scrubrow input[type=range]').focus());
      for (let i = 0; i < 30 && !(await look()).focused; i++) await press(Key.TAB);
      let r = await look();
      assert.ok(r.focused, 'Tab reaches the charts');
      assert.equal(r.keys, '+ - 0 Escape');
      assert.match(r.help, /\+ zoom in, − zoom out \(around the playback cursor\), 0 or Escape the whole run/);
      const end = r.end;
      const full = bucket(r.note);
      for (const sc of r.scales) assert.deepEqual(sc, [0, end]);
      // The transport's keys still work there: n moves the playback cursor to the next event.
      await press('n');
      const c = (await until(async () => { const x = await look(); return x.t > 0 && x; }, 'the cursor at the first event')).t;
      assert.ok(c > 0 && c < end, `cursor at ${c}`);
      // + halves the span; the cursor keeps its place on the chart; the range's series is fetched.
      const zoomed = async (span, what) => {
        const x = await until(async () => {
          const y = await look();
          return y.view && Math.abs(y.view[1] - y.view[0] - span) < 1e-9 && Math.abs(spanOf(y.note) - span) < 1e-6 && y;
        }, what);
        for (const [a, b] of x.scales) {
          assert.ok(Math.abs(b - a - span) < 1e-9, `${what}: x scale ${a}..${b}, span ${span}`);
          assert.ok(a >= 0 && b <= end && a <= c && c <= b, `${what}: ${a}..${b} holds the cursor ${c}`);
          assert.ok(Math.abs((c - a) / (b - a) - c / end) < 1e-9, `${what}: the cursor keeps its place`);
        }
        assert.deepEqual(x.view, x.scales[0], 'the page fetched the range drawn');
        assert.equal(x.said, `Showing ${x.view.map((v) => clockOf(v)).join(' to ')} of 1:00.00.`);
        return x;
      };
      const clockOf = (v) => { const cs = Math.floor(v * 100 + 1e-6); const m = Math.floor(cs / 6000); return `${m}:${((cs - 6000 * m) / 100).toFixed(2).padStart(5, '0')}`; };
      await press('+');
      const half = await zoomed(end / 2, 'zoomed in once');
      await press('+');
      const quarter = await zoomed(end / 4, 'zoomed in twice');
      assert.notEqual(bucket(quarter.note), bucket(half.note), 'finer buckets');
      await press('-');
      await zoomed(end / 2, 'zoomed out once');
      // 0 shows the whole run again, and so does Escape.
      const whole = async (what) => {
        const x = await until(async () => { const y = await look(); return y.view === null && bucket(y.note) === full && y; }, what);
        for (const sc of x.scales) assert.deepEqual(sc, [0, end], what);
        assert.equal(x.said, 'Showing the whole run, 1:00.00.');
        assert.ok(x.focused, 'the charts keep the focus');
      };
      await press('0');
      await whole('0 resets');
      await press('+');
      await zoomed(end / 2, 'zoomed in after the reset');
      await press(Key.ESCAPE);
      await whole('Escape resets');
      // Zooming out of the whole run changes nothing.
      await press('-');
      r = await look();
      assert.equal(r.view, null);
      for (const sc of r.scales) assert.deepEqual(sc, [0, end]);
      // A double click on a chart shows the whole run too, and says so (it used to leave the
      // zoomed range said).
      await press('+');
      await zoomed(end / 2, 'zoomed in before the double click');
      const over = await s.driver.findElement(By.css('#playground .chart-plots .u-over'));
      await s.driver.executeScript('arguments[0].scrollIntoView({ block: "center" })', over);
      await s.driver.actions().doubleClick(over).perform();
      const back = await until(async () => { const y = await look(); return y.view === null && bucket(y.note) === full && y; }, 'the whole run after a double click');
      for (const sc of back.scales) assert.deepEqual(sc, [0, end]);
      assert.equal(back.said, 'Showing the whole run, 1:00.00.');
      // A new run shows the whole of it: a zoomed range said before is not left to be read
      // (it stayed, "Showing 0:15.00 to 0:45.00", over the whole run).
      await press('+');
      const was = await until(async () => { const y = await look(); return y.view && /^Showing \d+:\d\d\.\d\d to /.test(y.said) && y; }, 'zoomed in before a new run');
      assert.equal(was.said, `Showing ${was.view.map((v) => clockOf(v)).join(' to ')} of 1:00.00.`);
      await change(s, 'seed', 6);
      const rerun = await until(async () => { const y = await look(); return y.view === null && bucket(y.note) === full && y; }, 'the whole new run');
      for (const sc of rerun.scales) assert.deepEqual(sc, [0, end]);
      assert.equal(rerun.said, '');
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the keyboard shortcuts can be turned off (WCAG 2.1.4), and the choice is kept for the next visit', async () => {
      await open(s);
      const look = () => page(s.driver, () => {
        const box = document.querySelector('#playground .keys input[type=checkbox]');
        return {
          t: window.playground.state.snap.t_s,
          on: box.checked,
          label: box.closest('label').textContent,
          shortcuts: [...document.querySelectorAll('#playground .buttons button')].map((b) => b.getAttribute('aria-keyshortcuts')),
        };
      });
      const click = (sel) => page(s.driver, (q) => document.querySelector(q).click(), sel);
      const press = (k) => s.driver.actions().sendKeys(k).perform();
      const box = '#playground .keys input[type=checkbox]';
      const stepBtn = async () => page(s.driver, () => [...document.querySelectorAll('#playground .buttons button')].find((b) => b.textContent === 'Step one call').click());
      const at = (what, ok) => until(async () => { const x = await look(); return ok(x.t) && x; }, what);
      try {
        let r = await look();
        assert.equal(r.on, true, 'on by default');
        assert.equal(r.label, ' Keyboard shortcuts');
        assert.deepEqual(r.shortcuts, ['Space', 'ArrowRight', 'N', 'R']);
        // The first call's time, by the Step button.
        await stepBtn();
        const first = (await at('one call', (t) => t > 0)).t;
        await click('#playground .buttons button:nth-child(4)');
        await at('restarted', (t) => t === 0);
        // Off: n does nothing, so Step then lands on the first call (n would have gone to the
        // first event, past it).
        await s.driver.findElement({ css: box }).click();
        r = await look();
        assert.equal(r.on, false);
        assert.deepEqual(r.shortcuts, [null, null, null, null], 'no shortcuts announced while off');
        await press('n');
        await press(Key.ARROW_RIGHT);
        await stepBtn();
        assert.equal((await at('one call', (t) => t > 0)).t, first, 'n and → did nothing');
        // Kept for the next visit.
        await open(s);
        r = await look();
        assert.equal(r.on, false, 'still off after a reload');
        await press('n');
        await stepBtn();
        assert.equal((await at('one call', (t) => t > 0)).t, first, 'n did nothing after the reload');
        // On again: n moves to the first event, past the first call.
        await s.driver.findElement({ css: box }).click();
        assert.equal((await look()).on, true);
        await press('n');
        await at('the first event', (t) => t > first);
        // Turned off in another tab: this one follows (it went on acting on n until reloaded).
        const here = await s.driver.getWindowHandle();
        await s.driver.switchTo().newWindow('tab');
        try {
          await open(s);
          await s.driver.findElement({ css: box }).click();
          assert.equal((await look()).on, false);
        } finally {
          await s.driver.close();
          await s.driver.switchTo().window(here);
        }
        r = await until(async () => { const x = await look(); return !x.on && x; }, 'the box unticked here too');
        assert.deepEqual(r.shortcuts, [null, null, null, null]);
      } finally {
        await page(s.driver, () => localStorage.removeItem('breaker-playground.single-keys'));
      }
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the time axis ticks at clock steps: whole days for a month, whole seconds for a minute, and a zoom keeps them round', async () => {
      const ticks = () => page(s.driver, () => window.playground.chart.xTicks());
      // The month (quiet-service): ticks at multiples of a clock step, read back as seconds.
      const toSeconds = (x) => {
        const m = x.match(/^(\d+) d$/);
        if (m) return Number(m[1]) * 86400;
        const parts = x.split(':').map(Number);
        return parts.reduce((acc, v) => acc * 60 + v, 0);
      };
      await open(s, '?v=1&preset=quiet-service');
      const month = await until(async () => { const t = await ticks(); return t.every((x) => x.length > 2) && t; }, 'the month\'s ticks');
      assert.equal(month.length, 3, 'three charts');
      for (const t of month) {
        assert.deepEqual(t, month[0], 'the charts share their ticks');
        assert.ok(t.every((x) => /^(0:00|\d+ d)$/.test(x)), `whole days: ${t.join(', ')}`);
        const steps = t.slice(1).map((x, i) => toSeconds(x) - toSeconds(t[i]));
        assert.ok(steps.every((d) => d === steps[0] && [86400, 2 * 86400, 5 * 86400, 10 * 86400].includes(d)), `one step of 1, 2, 5 or 10 days: ${t.join(', ')}`);
      }
      // The default preset (a minute): whole seconds at a clock step.
      await open(s);
      const minute = (await until(async () => { const t = await ticks(); return t[0].length > 2 && t; }, 'the minute\'s ticks'))[0];
      const secs = minute.map(toSeconds);
      const step = secs[1] - secs[0];
      assert.ok([5, 10, 15, 30].includes(step), `a clock step: ${minute.join(', ')}`);
      assert.ok(secs.every((v, i) => v === secs[0] + i * step && v % step === 0), `round times: ${minute.join(', ')}`);
      // Zoomed in with + (four times, around the playback cursor at 0): ticks at a clock step
      // inside the view, at multiples of it.
      await page(s.driver, () => {
        const box = document.querySelector('#playground .chart-plots');
        for (let i = 0; i < 4; i++) box.dispatchEvent(new KeyboardEvent('keydown', { key: '+', bubbles: true, cancelable: true }));
      });
      const view = await until(async () => { const [[a, b]] = await page(s.driver, () => window.playground.chart.xScales()); return b - a < 10 && [a, b]; }, 'the zoom');
      const zoomed = (await until(async () => { const t = await ticks(); const v = t[0].map(toSeconds); return v.length > 2 && v[0] >= view[0] && v.at(-1) <= view[1] && t; }, 'the zoomed ticks'))[0];
      const zs = zoomed.map(toSeconds);
      const zstep = Math.round((zs[1] - zs[0]) * 100) / 100;
      assert.ok([0.2, 0.5, 1, 2].includes(zstep), `a clock step inside the zoom ${view}: ${zoomed.join(', ')}`);
      assert.ok(zs.every((v) => Math.abs(v / zstep - Math.round(v / zstep)) < 1e-6), `round times: ${zoomed.join(', ')}`);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the three charts share one time axis (their plot areas line up), and the y ticks fit beside their axis titles', async () => {
      // busy-service: about 400,000 calls per bin and a 10-minute wait. The calls panel's wait
      // axis on the right made its plot narrower than the two above (a time sat 50 px apart), a
      // grouped "400,000" ran into the title "calls", and the wait ticks were 3.33 min, 6.67 min.
      await open(s, '?v=1&preset=busy-service');
      const r = await until(() => page(s.driver, async () => {
        const { countTick, waitTick } = await import(new URL('src/chart.js', location.href).href);
        return {
          boxes: window.playground.chart.plotBoxes(),
          fns: [[0, 2000, 12000, 400000, 1.5e6, -20].map(countTick), [0, 300, 600].map(waitTick)],
        };
      }).then((x) => x.boxes.length === 3 && x.boxes.every(([, w]) => w > 0) && x), 'the charts');
      for (const [left, width] of r.boxes.slice(1)) {
        assert.ok(Math.abs(left - r.boxes[0][0]) < 1 && Math.abs(width - r.boxes[0][1]) < 1, `plot areas ${JSON.stringify(r.boxes)}`);
      }
      assert.deepEqual(r.fns, [['0', '2,000', '12k', '400k', '1.5M', '−20'], ['0', '5 min', '10 min']]);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('on the focused time slider, → and ← move the slider (a seek), not a call at a time', async () => {
      await open(s);
      const look = () => page(s.driver, () => {
        const scrub = document.querySelector('#playground .scrubrow input[type=range]');
        return { t: window.playground.state.snap.t_s, value: Number(scrub.value), max: Number(scrub.max), focused: document.activeElement === scrub };
      });
      const press = (k) => s.driver.actions().sendKeys(k).perform();
      const stepBtn = () => page(s.driver, () => [...document.querySelectorAll('#playground .buttons button')].find((b) => b.textContent === 'Step one call').click());
      // The first call's time, by the Step button; then back to 0.
      await stepBtn();
      const first = (await until(async () => { const x = await look(); return x.t > 0 && x; }, 'one call')).t;
      await press('r');
      await until(async () => (await look()).t === 0, 'restarted');
      await page(s.driver, () => document.querySelector('#playground .scrubrow input[type=range]').focus());
      assert.equal((await look()).focused, true);
      await press(Key.ARROW_RIGHT);
      const right = await until(async () => { const x = await look(); return x.t > 0 && x.value > 0 && x; }, 'the slider moved');
      assert.ok(right.t > first, `a slider step (${right.t} s), not the first call (${first} s)`);
      assert.ok(Math.abs(right.t - right.value) < 1e-9, `the run at the slider's time (${right.t} against ${right.value})`);
      assert.ok(right.value < right.max, 'one step of the slider, not to its end');
      await press(Key.ARROW_LEFT);
      // The slider's value changes at once; the run follows when the seek lands.
      const left = await until(async () => { const x = await look(); return x.value < right.value && x.t !== right.t && x; }, 'the slider and the run moved back');
      assert.equal(left.t, left.value, 'back at the slider\'s time');
      assert.equal((await look()).focused, true, 'the slider kept the focus');
      // Away from the slider, → steps a call again.
      await page(s.driver, () => document.activeElement.blur());
      await press('r');
      await until(async () => (await look()).t === 0, 'restarted again');
      await press(Key.ARROW_RIGHT);
      assert.equal((await until(async () => { const x = await look(); return x.t > 0 && x; }, 'one call by →')).t, first);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the embedded form (?embed=1, panels=...) hides the page chrome and shows only the panels asked for', async () => {
      const look = () => page(s.driver, () => {
        const shown = (el) => Boolean(el) && getComputedStyle(el).display !== 'none' && !el.hidden && el.getClientRects().length > 0;
        const panels = {};
        for (const p of ['now', 'chart', 'verdict', 'trace', 'metrics', 'derived', 'analysis']) panels[p] = shown(document.querySelector(`#playground .panel-${p}`));
        const chart = document.querySelector('#playground .panel-chart canvas');
        return {
          embed: document.documentElement.classList.contains('embed'),
          // Out of sight: its h1 stays for screen readers (the page's one h1).
          header: shown(document.querySelector('header.site')) && document.querySelector('header.site').getBoundingClientRect().height > 1,
          h1: document.querySelector('h1').textContent,
          footer: shown(document.querySelector('footer.site')),
          controls: shown(document.querySelector('#playground .controls')),
          transport: shown(document.querySelector('#playground .transport')),
          panels,
          chart: chart ? chart.width * chart.height : 0,
          rows: document.querySelectorAll('#playground .panel-trace tbody tr').length,
          runInfo: document.querySelector('#playground .runinfo').textContent,
        };
      });
      await open(s, '?embed=1');
      let r = await look();
      assert.equal(r.embed, true);
      assert.equal(r.header, false, 'no page header when embedded');
      assert.equal(r.h1, 'The breaker playground', 'the h1 is still there for screen readers');
      assert.equal(r.footer, false, 'no page footer when embedded');
      assert.equal(r.controls, true, 'the settings form without panels=');
      assert.equal(r.transport, true);
      assert.ok(Object.values(r.panels).every(Boolean), 'every panel without panels=');
      assert.match(r.runInfo, / The chart, trace, metrics and verdict are simulated\.$/);
      assert.deepEqual(await pageErrors(s), []);

      await open(s, '?embed=1&panels=chart,trace');
      r = await look();
      assert.equal(r.header, false);
      assert.equal(r.controls, false, 'no settings form unless panels= lists controls');
      assert.equal(r.transport, true, 'the transport stays');
      assert.deepEqual(r.panels, { now: false, chart: true, verdict: false, trace: true, metrics: false, derived: false, analysis: false });
      assert.ok(r.chart > 0, 'the chart draws');
      assert.ok(r.rows > 0, 'the trace lists events');
      // The run line names only the simulated panels shown.
      assert.match(r.runInfo, / The chart and trace are simulated\.$/);
      await open(s, '?embed=1&panels=now,metrics');
      assert.match((await look()).runInfo, /, seed 1\. The metrics are simulated\.$/);
      await open(s, '?embed=1&panels=now');
      assert.match((await look()).runInfo, /, seed 1\.$/);
      assert.deepEqual(await pageErrors(s), []);

      // An unknown panel name is named in a notice; with no known one left, every panel shows.
      await open(s, '?embed=1&panels=charts');
      r = await look();
      const notice = await page(s.driver, () => document.querySelector('#playground .notice').textContent);
      // It says so: "left out" alone, above every panel, read as if they were all asked for.
      assert.match(notice, /Unknown panel “charts” left out, so the default panels are shown; the panels are now, chart,/);
      assert.ok(Object.values(r.panels).every(Boolean), 'the default panels');
      assert.equal(r.controls, true, 'the defaults include the settings form');
      await open(s, '?embed=1&panels=chart,Bogus');
      r = await look();
      assert.equal(r.panels.chart, true);
      assert.equal(r.panels.now, false);
      const bogus = await page(s.driver, () => document.querySelector('#playground .notice').textContent);
      assert.match(bogus, /“Bogus” left out; the panels are/, 'named as written');
      assert.doesNotMatch(bogus, /default panels/, 'a known panel left: not the defaults');

      // An edit rewrites the address with the settings and keeps the page's form: an iframe's
      // reader who comes back (Back, a reload) sees the embedded panels, not the whole page.
      await open(s, '?embed=1&panels=chart,controls&v=1&preset=quiet-service');
      await change(s, 'seed', 7);
      const q = new URLSearchParams(await page(s.driver, () => location.search));
      assert.deepEqual([q.get('embed'), q.get('panels'), q.get('preset'), q.get('seed')], ['1', 'chart,controls', 'quiet-service', '7']);
      await s.driver.navigate().refresh();
      await until(() => page(s.driver, () => Boolean(window.playground && window.playground.state.metrics)), 'the reloaded run', 60_000);
      r = await look();
      assert.equal(r.header, false, 'still embedded after a reload');
      assert.deepEqual(r.panels, { now: false, chart: true, verdict: false, trace: false, metrics: false, derived: false, analysis: false });
      assert.equal(await page(s.driver, () => window.playground.state.scenario.seed), 7);
    });

    test('keyboard focus never lands under the sticky transport bar (Shift+Tab up through the trace)', async () => {
      await open(s);
      await page(s.driver, () => { window.scrollTo(0, document.documentElement.scrollHeight); document.querySelector('#playground .analysis-details summary').focus(); });
      const covered = [];
      let traceButtons = 0;
      for (let i = 0; i < 40; i++) {
        await s.driver.actions().keyDown(Key.SHIFT).sendKeys(Key.TAB).keyUp(Key.SHIFT).perform();
        const r = await page(s.driver, () => {
          const a = document.activeElement;
          const bar = document.querySelector('#playground .sticky').getBoundingClientRect();
          const r = a.getBoundingClientRect();
          return {
            what: `${a.tagName} ${(a.getAttribute('aria-label') || a.textContent || '').slice(0, 30)}`,
            trace: Boolean(a.closest('.panel-trace')),
            under: !a.closest('.sticky') && a !== document.body && r.top < bar.bottom - 1 && r.bottom > bar.top && r.left < bar.right && r.right > bar.left,
          };
        });
        if (r.trace) traceButtons++;
        if (r.under) covered.push(r.what);
      }
      assert.ok(traceButtons >= 10, 'the walk went through the trace');
      assert.deepEqual(covered, [], 'focused elements hidden under the transport bar');
    });

    test('on a narrow screen the scrubber keeps a usable width for a month-long run', async () => {
      const rect = await s.driver.manage().window().getRect();
      await s.driver.manage().window().setRect({ width: 480, height: 900 });
      try {
        await open(s, '?v=1&preset=quiet-service&t=1000000');
        const r = await page(s.driver, () => ({
          scrub: document.querySelector('#playground .scrubrow input[type=range]').getBoundingClientRect().width,
          row: document.querySelector('#playground .scrubrow').getBoundingClientRect().width,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        }));
        assert.ok(r.scrub >= Math.min(192, r.row), `scrubber ${r.scrub} px wide in a row of ${r.row} px`);
        assert.ok(r.overflow <= 0, 'no sideways scrolling');
      } finally {
        await s.driver.manage().window().setRect({ width: rect.width, height: rect.height });
      }
    });

    test('the error banner shows an error again after it was dismissed', async () => {
      await open(s);
      const r = await page(s.driver, async () => {
        const { createBanner } = await import(new URL('src/banner.js', location.href).href);
        const el = document.createElement('div');
        document.body.append(el);
        const banner = createBanner(el);
        banner.show('the worker stopped');
        const first = { hidden: el.hidden, items: el.querySelectorAll('li').length };
        el.querySelector('button').click();
        const dismissed = el.hidden;
        banner.show('the worker stopped');
        const again = { hidden: el.hidden, items: el.querySelectorAll('li').length };
        banner.show('the worker stopped');
        const twice = el.querySelectorAll('li').length;
        el.remove();
        return { first, dismissed, again, twice };
      });
      assert.deepEqual(r, { first: { hidden: false, items: 1 }, dismissed: true, again: { hidden: false, items: 1 }, twice: 1 });
    });

    test('panels= is read as the custom element reads its attribute: names trimmed, empty ones skipped', async () => {
      const look = () => page(s.driver, () => ({
        panels: [...document.querySelectorAll('#playground section.panel')].filter((p) => !p.hidden).map((p) => p.className.match(/panel-(\w+)/)[1]),
        notice: document.querySelector('#playground .notice').hidden ? '' : document.querySelector('#playground .notice').textContent,
      }));
      // "now, chart" as a docs author writes a list: the space is not part of the name.
      await open(s, '?embed=1&panels=now,%20chart');
      assert.deepEqual(await look(), { panels: ['now', 'chart'], notice: '' });
      await open(s, '?embed=1&panels=now,,chart,');
      assert.deepEqual(await look(), { panels: ['now', 'chart'], notice: '' });
      // Names in any case, as HTML's own names are.
      await open(s, '?embed=1&panels=NOW,Chart');
      assert.deepEqual(await look(), { panels: ['now', 'chart'], notice: '' });
      // Only commas and spaces: nothing named, the same as no panels= (every panel, no notice).
      await open(s, '?embed=1&panels=,%20,');
      const r = await look();
      assert.equal(r.notice, '');
      assert.deepEqual(r.panels, ['now', 'chart', 'verdict', 'derived', 'trace', 'metrics', 'analysis']);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('at a state change the Now panel says what changed then, beside the last call to arrive', async () => {
      // late-results: a window breaker's probe let in at the end of its wait, results arriving
      // long after their calls: the call shown is not always the change's cause.
      await open(s, '?v=1&preset=late-results');
      const changes = () => page(s.driver, () => (document.querySelector('.panel-now .changes') || {}).textContent ?? null);
      assert.equal(await changes(), null, 'at 0 no change is said');
      let said = 0;
      for (let i = 0; i < 4; i++) {
        await newSnap(s, () => button(s, 'Next event').click(), 'next event');
        const st = await pageState(s.driver);
        const at = simulate(st.scenario).events.filter((e) => Math.abs(e.t_s - st.t) <= 1e-9);
        assert.ok(at.length > 0, `an event at ${st.t}`);
        const text = await changes();
        assert.match(text, /^Changed at this time: /);
        // Each change with its reason (the statistical breaker's in points, as the trace says it).
        for (const e of at) {
          const reason = e.breaker === 'window' ? `, ${e.reason}` : ', ';
          assert.ok(text.includes(`${e.breaker} ${stateName(e.from)} → ${stateName(e.to)}${reason}`), `${text} | ${JSON.stringify(e)}`);
        }
        assert.equal(text.split(' → ').length - 1, at.length, text);
        said += at.length;
      }
      assert.ok(said >= 4);
      // One call on, nothing changed at its time: nothing said.
      await newSnap(s, () => button(s, 'Step one call').click(), 'step');
      const st = await pageState(s.driver);
      // (When a change does fall at the stepped call's time, the panel says it, as above.)
      const atStep = simulate(st.scenario).events.filter((e) => Math.abs(e.t_s - st.t) <= 1e-9);
      if (atStep.length === 0) assert.equal(await changes(), null);
      else assert.equal((await changes()).split(' → ').length - 1, atStep.length);
      assert.deepEqual(await pageErrors(s), []);
    });
  });
}
