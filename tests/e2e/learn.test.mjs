// The walkthrough (learn.html, issue 7): each of the ten steps loads from its own URL and shows
// its numbers, every one checked against the native command line for the same settings
// (`breaker analyze ... --format json` for the analysis numbers, `breaker run --scenario` for the
// simulated ones); changing the rates changes the numbers; the keyboard moves between steps.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSERS, session, page, until, simulate, waitSettled } from './helpers.mjs';
import { DEFAULTS, analyzeNative, evaluate, shownNumber, close } from './learn-helpers.mjs';

const STEPS = 10;
/** The plural nouns the steps' units use (written out here, not taken from the page). */
const PLURALS = new Set(['calls', 'failures', 'successes', 'trials', 'points', 'nats', 'trips', 'alarms', 'openings', 'results', 'times', 'runs', 'days']);

/** Open learn.html with `query` and wait until step `n` has computed its reports and its run. */
async function openStep(s, query, n) {
  await s.driver.get(`${s.url}learn.html${query}`);
  await waitStep(s, n);
}

async function waitStep(s, n) {
  await until(() => page(s.driver, (k) => {
    const el = document.getElementById('learn');
    return el && el.dataset.ready === String(k);
  }, n), `step ${n} to be ready`, 60_000);
}

/** What the step shows: heading, numbers (expression, value, kind, text), commands, scenario. */
function read(s) {
  return page(s.driver, () => ({
    href: location.href,
    heading: document.querySelector('h2.learn-title').textContent,
    counter: document.querySelector('.learn-counter').textContent,
    live: document.querySelector('.learn-text').getAttribute('aria-live'),
    status: document.querySelector('.learn-status').textContent,
    statusRole: document.querySelector('.learn-status').getAttribute('role'),
    figs: [...document.querySelectorAll('.learn-text .fig')].map((f) => ({
      expr: JSON.parse(f.dataset.expr), value: f.dataset.value, kind: f.dataset.kind, fmt: f.dataset.fmt, none: f.dataset.none, keep: f.dataset.keep === '1',
      text: f.querySelector('.num').textContent, badge: (f.querySelector('.kind') || {}).textContent,
    })),
    cmds: [...document.querySelectorAll('.learn-cmds code.cmd')].map((c) => JSON.parse(c.dataset.args)),
    cmdText: [...document.querySelectorAll('.learn-cmds code.cmd')].map((c) => c.textContent),
    scenario: window.__learn.env.sc,
    errors: [...document.querySelectorAll('.banner')].filter((b) => !b.hidden && b.textContent.trim()).map((b) => b.textContent),
  }));
}

/** Check every number of a step against the native command line; returns the native env. */
function checkNumbers(shown, settings) {
  const env = { s: settings, sc: shown.scenario, c: shown.cmds.map(analyzeNative) };
  if (shown.figs.some((f) => JSON.stringify(f.expr).includes('"run:'))) {
    const { result } = simulate(shown.scenario);
    env.run = { statistical: result.breakers.statistical, window: result.breakers.window, calls: result.calls };
  }
  assert.ok(shown.figs.length >= 4, 'a step shows several numbers');
  for (const f of shown.figs) {
    // Not computed: the native report has no value for it either.
    if (f.kind === 'none') {
      let v = null;
      try { v = evaluate(f.expr, env).value; } catch { v = null; }
      assert.equal(v, null, `${JSON.stringify(f.expr)}: not computed on the page, ${v} natively`);
      assert.equal(f.text, '—');
      continue;
    }
    const want = evaluate(f.expr, env);
    const got = f.value === 'null' ? null : Number(f.value);
    const where = `${JSON.stringify(f.expr)} shown as "${f.text}"`;
    assert.ok(f.value !== undefined, `${where}: computed`);
    assert.ok(close(got, want.value, 1e-9), `${where}: page ${got}, native ${want.value}`);
    if (want.kind) assert.equal(f.kind, want.kind, `${where}: kind`);
    assert.ok(['exact', 'bound', 'approximation', 'simulated', 'setting'].includes(f.kind), `${where}: says what it is`);
    assert.ok(f.badge && f.badge.trim(), `${where}: a kind badge`);
    // No value: what the step says for none (a time to open of a breaker that did not open is
    // not infinite: the outage ended), else ∞.
    if (want.value === null) { assert.equal(f.text, f.none || '∞', where); continue; }
    if (f.fmt === 'dur') { assert.match(f.text, /\d/, where); continue; }
    // A count of one takes the singular ("1 opening from closed", not "1 openings ..."); "1 of
    // its own successes" is a ratio.
    const words = f.text.split(/\s+/);
    if (words[0] === '1' && words[1] !== 'of') {
      assert.ok(!words.slice(1, 3).some((w) => PLURALS.has(w)), `${where}: a plural after 1`);
    }
    // Past 10,000 and short of e-notation: an approximation or a simulated estimate to 4
    // significant digits, as the command line gives them ("27,591,023 calls approx." stood beside
    // an error of ± 116,964), anything else to the unit (a run's count of calls too, and an
    // estimate the text measures against another, `keep`).
    const v = want.value;
    if ((!f.fmt || f.fmt === 'num') && Math.abs(v) >= 1e4 && Math.abs(v) < 1e9) {
      const loose = (f.kind === 'approximation' || f.kind === 'simulated') && !Number.isInteger(v) && !f.keep;
      assert.equal(shownNumber(f.text), loose ? Number(v.toPrecision(4)) : Math.round(v), `${where}: its digits`);
    }
    const scale = f.fmt === 'pct' ? 100 : 1;
    assert.ok(close(shownNumber(f.text), want.value * scale, 6e-4) || Math.abs(shownNumber(f.text) - want.value * scale) < 1e-3, `${where}: the text shows ${want.value * scale}`);
  }
  return env;
}

/**
 * The prose around the numbers: a number's unit is not said again by the words after it
 * ("9 successes exact successes", "0 trips per day simulated spurious trips").
 */
async function checkProse(s) {
  const pairs = await page(s.driver, () => [...document.querySelectorAll('.learn-text .fig')].map((f) => {
    let next = f.nextSibling;
    let after = '';
    while (next && after.length < 40) { after += next.textContent; next = next.nextSibling; }
    return { text: f.querySelector('.num').textContent, after };
  }));
  for (const { text, after } of pairs) {
    const unit = text.replace(/^[^A-Za-z]*/, '').split(/\s+/)[0];
    if (!/^[a-z]{3,}$/i.test(unit)) continue;
    // The words up to the next number or punctuation (a list, "1 nat, 2 nats", is fine).
    const words = after.split(/[\d,.;:()—]/)[0].toLowerCase().match(/[a-z]+/g) || [];
    assert.ok(!words.slice(0, 2).includes(unit.toLowerCase()), `"${text}" is followed by "${after.trim()}": the unit said twice`);
  }
  // A kind label ending in a period ("approx.") is not followed by a sentence's period.
  const prose = await page(s.driver, () => [...document.querySelectorAll('.learn-text p')].map((p) => p.textContent));
  for (const p of prose) assert.ok(!/[^.]\.\.(?!\.)/.test(p), `two periods in: ${p}`);
  // No word twice in a row ("24.16 points exact and and it takes": two text parts each said it).
  for (const p of prose) {
    const twice = /\b([a-z]+)\s+\1\b/i.exec(p);
    assert.ok(!twice, `"${twice && twice[0]}" in: ${p}`);
  }
}

for (const browser of BROWSERS) {
  describe(`walkthrough in ${browser}`, () => {
    const s = session(browser);

    for (let n = 1; n <= STEPS; n++) {
      test(`step ${n} loads from its URL and its numbers are the command line's`, async () => {
        await openStep(s, `?step=${n}`, n);
        const shown = await read(s);
        assert.match(shown.href, new RegExp(`step=${n}(&|$)`));
        assert.equal(shown.counter, `Step ${n} of ${STEPS}`);
        assert.ok(shown.heading.length > 10);
        // The numbers are not read out one by one as they come; the status line says once
        // that they are in.
        assert.equal(shown.live, null, 'numbers are not a live region');
        assert.equal(shown.status, 'The numbers are in.');
        assert.equal(shown.statusRole, 'status');
        assert.deepEqual(shown.errors, []);
        assert.ok(shown.cmds.length >= 1, 'the step shows its commands');
        for (const [i, c] of shown.cmds.entries()) assert.equal(shown.cmdText[i], `breaker analyze ${c.join(' ')}`);
        checkNumbers(shown, { ...DEFAULTS });
        await checkProse(s);
        // A button or panel the step names in quotes is one the reader can find.
        const names = await page(s.driver, () => ({
          look: document.querySelector('.learn-look').textContent,
          buttons: [...document.querySelectorAll('button')].map((b) => b.textContent.trim()),
          headings: [...document.querySelectorAll('.learn-playground section.panel:not([hidden]) h2')].map((x) => x.textContent.trim()),
        }));
        for (const [, name] of names.look.matchAll(/“([^”]+)”/g)) {
          assert.ok(names.buttons.includes(name) || names.headings.some((x) => x.startsWith(name)), `step ${n} names “${name}”: no such button or panel`);
        }
      });
    }

    test('step 2: the successes it takes to undo one failure, said right when a failure weighs little', async () => {
      // p0 = 40%, p1 = 45%: a failure is +1.354 points, so 2 successes undo it (2 successes
      // outweigh it, not the other way round).
      await openStep(s, '?step=2&fine=0.4&broken=0.45', 2);
      const r = await page(s.driver, () => {
        const p = [...document.querySelectorAll('.learn-text p')].find((x) => /a success −1 point/.test(x.textContent));
        return p ? p.textContent : '';
      });
      // (\s: a figure's kind badge follows a no-break space.)
      const m = /a failure is \+([\d.]+) points\s.*?it takes (\d+) successes\s.*?to undo one failure/.exec(r);
      assert.ok(m, r);
      const [weight, n] = [Number(m[1]), Number(m[2])];
      assert.ok(n - 1 < weight && weight <= n, `${n} successes undo a failure of ${weight} points: ${r}`);
      await checkProse(s);
    });

    test('the settings beside the steps, sticky, fit the window: their foot (Reset) comes into view when focused', async () => {
      // At 1280 x 900 the sticky side was 953 px tall in an 814 px window: Reset and the traffic
      // field were never on screen, at any scroll.
      await openStep(s, '?step=6', 6);
      const r = await page(s.driver, () => {
        const side = document.querySelector('.learn-side');
        const reset = [...side.querySelectorAll('button')].find((b) => b.textContent === 'Reset to the defaults');
        reset.focus();
        const box = reset.getBoundingClientRect();
        return { sideBottom: side.getBoundingClientRect().bottom, top: box.top, bottom: box.bottom, height: window.innerHeight, wider: side.scrollHeight > side.clientHeight };
      });
      assert.ok(r.sideBottom <= r.height + 0.5, `the side ends at ${r.sideBottom}, in a window ${r.height} px high`);
      assert.ok(r.top >= 0 && r.bottom <= r.height + 0.5, `Reset at ${r.top}..${r.bottom} in a window ${r.height} px high`);
    });

    test('the step list\'s links are 24 px targets at least (WCAG 2.5.8), one under the other', async () => {
      // They were 16 px tall on a 22 px pitch where each fits one line (the list the window's
      // width, a phone held sideways): a tap between two was a tap on either.
      const rect = await s.driver.manage().window().getRect();
      await s.driver.manage().window().setRect({ width: 800, height: 600 });
      try {
        await openStep(s, '?step=1', 1);
        const boxes = await page(s.driver, () => [...document.querySelectorAll('.learn-steps a')].map((a) => {
          const r = a.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, height: r.height, width: r.width, lines: a.getClientRects().length };
        }));
        assert.equal(boxes.length, STEPS);
        assert.ok(boxes.every((b) => b.lines === 1), 'each on one line here');
        for (const [i, b] of boxes.entries()) {
          assert.ok(b.height >= 24 && b.width >= 24, `step ${i + 1}: ${b.width} x ${b.height}`);
          if (i > 0) assert.ok(b.top >= boxes[i - 1].bottom - 0.5, `step ${i + 1} overlaps the one above`);
        }
      } finally {
        await s.driver.manage().window().setRect({ width: rect.width, height: rect.height });
      }
    });

    test('step 10: a breaker that did not open in the outage is said so, not given an infinite time', async () => {
      await openStep(s, '?step=10&fine=0.4&broken=0.45&cpm=0.5&a=0.2&b=0.3', 10);
      const shown = await read(s);
      const fig = shown.figs.find((f) => JSON.stringify(f.expr) === '"run:statistical.metrics.time_to_open_s"');
      assert.equal(fig.value, 'null', 'the statistical breaker does not open in this run\'s outage');
      assert.equal(fig.text, 'did not open in the outage');
      checkNumbers(shown, { ...DEFAULTS, fine: 0.4, broken: 0.45, cpm: 0.5, a: 0.2, b: 0.3 });
    });

    test('step 8: a run with one opening says it in the singular', async () => {
      // At p1 = 50% the step's run opens once ("1 openings from closed" before).
      await openStep(s, '?step=8&broken=0.5', 8);
      const shown = await read(s);
      const fig = shown.figs.find((f) => JSON.stringify(f.expr) === '"run:statistical.metrics.openings"');
      assert.equal(fig.text, '1 opening from closed');
      checkNumbers(shown, { ...DEFAULTS, broken: 0.5 });
    });

    test('the steps\' services are what the prose says: step 5\'s within p0, step 8\'s recovered one at p0; step 7\'s N is the calls in the period', async () => {
      for (const fine of [0.005, 0.05, 0.3]) {
        // Step 5: bursts (every call in one fails) entered and left per call, the usual rate
        // outside them: the long-run failure rate is the chain's, and within the reader's p0.
        await openStep(s, `?step=5&fine=${fine}&broken=0.6`, 5);
        let shown = await read(s);
        const [d] = shown.scenario.dependency;
        const inBurst = d.burst.enter / (d.burst.enter + d.burst.leave);
        const rate = inBurst * d.burst.failure_rate + (1 - inBurst) * d.failure_rate;
        assert.ok(rate <= fine, `step 5 at p0 = ${fine}: the service fails ${rate} of calls`);
        const said = shown.figs.find((f) => f.kind === 'exact' && f.fmt === 'pct' && close(Number(f.value), rate, 1e-12));
        assert.ok(said, `step 5 at p0 = ${fine}: its rate ${rate} is said`);
        const env = checkNumbers(shown, { ...DEFAULTS, fine, broken: 0.6 });
        // Six hours, or long enough for about five bursts that reach the line on their own, at
        // most 30 days: m failures in a row reach the line set at the usual rate, and a burst
        // (every call in it failing) lasts m calls or more with chance (1 - leave)^(m - 1). Ten
        // bursts in all, as before, held fewer than two that long at p0 = 0.1%: the run often
        // showed no opening at all.
        const ratio = env.c[1].points[0].line / env.c[1].settings.w_fail;
        const m = Math.ceil(ratio - ratio * 1e-12);
        const perSecond = d.burst.enter * (1 - d.burst.leave) ** (m - 1) * (DEFAULTS.cpm / 60);
        const expected = perSecond * shown.scenario.duration;
        const { duration } = shown.scenario;
        assert.ok(expected >= 5 * (1 - 1e-12) || duration === 30 * 86400, `step 5 at p0 = ${fine}: ${expected} bursts of ${m} or more expected`);
        assert.ok(duration === 6 * 3600 || expected < 5 + perSecond * 3600, `step 5 at p0 = ${fine}: no longer than needed (${duration} s)`);
        // Step 8: a hung call times out, a failure to the closed score: hangs and failures
        // together are p0 (they were p0 + 5%, near the zero-drift rate, and it opened again).
        await openStep(s, `?step=8&fine=${fine}&broken=0.6`, 8);
        shown = await read(s);
        const r = shown.scenario.dependency[2];
        assert.ok(close(r.hang_rate + (1 - r.hang_rate) * r.failure_rate, fine, 1e-12), `step 8 at p0 = ${fine}: ${JSON.stringify(r)}`);
        assert.ok(r.hang_rate > 0, 'some calls hang');
      }
      // Step 5's point, where bursts that reach the line are rare (p0 = 0.1%, p1 = 0.5%: five in a
      // row): its run shows the breaker opening on a service within p0. Ten bursts in all, the
      // rule before, gave a run of 47 h with no opening.
      await openStep(s, '?step=5&fine=0.001&broken=0.005', 5);
      const quiet = await read(s);
      const opened = quiet.figs.find((f) => f.expr === 'run:statistical.metrics.false_openings');
      assert.ok(Number(opened.value) >= 1, `step 5 at 0.1%/0.5%: ${opened.text} in ${quiet.scenario.duration} s`);
      checkNumbers(quiet, { ...DEFAULTS, fine: 0.001, broken: 0.005 });
      // Step 7 at little traffic: N is the 72 calls expected in a day at 0.05/min, not the
      // floor's e^A = 95 (the line is the floor); the quiet and busy N likewise.
      await openStep(s, '?step=7&cpm=0.05&period=86400', 7);
      const shown = await read(s);
      const ns = shown.figs.filter((f) => / calls$/.test(f.text) && f.kind === 'exact').map((f) => Number(f.value));
      assert.deepEqual(ns.map((n) => Math.round(n * 1e6) / 1e6), [1440, 72, 864000]);
      checkNumbers(shown, { ...DEFAULTS, cpm: 0.05, period: 86400 });
    });

    test('changing the rates (link or form) changes the numbers, still the command line\'s', async () => {
      // From a link: p0 = 2%, p1 = 10%.
      await openStep(s, '?step=2&fine=0.02&broken=0.1', 2);
      let shown = await read(s);
      const wFail = (x) => x.figs.find((f) => JSON.stringify(f.expr) === '"c0:settings.w_fail"');
      assert.ok(close(Number(wFail(shown).value), Math.log(5), 1e-12), 'w_fail = ln(0.1/0.02)');
      for (const c of shown.cmds) assert.ok(c.join(' ').includes('--fine 0.02 --broken 0.1'), c.join(' '));
      checkNumbers(shown, { ...DEFAULTS, fine: 0.02, broken: 0.1 });
      // From the form: p0 = 1% (typed as a percentage).
      await page(s.driver, () => {
        const i = document.getElementById('learn-fine');
        i.value = '1';
        i.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await until(async () => {
        const r = await read(s);
        return r.href.includes('fine=0.01') && close(Number(wFail(r).value), Math.log(10), 1e-12) && r;
      }, 'the numbers to follow the form', 30_000);
      await waitStep(s, 2);
      shown = await read(s);
      checkNumbers(shown, { ...DEFAULTS, fine: 0.01, broken: 0.1 });
      // Step 6 with a shorter period and more traffic: the line and the exact interval move.
      await openStep(s, '?step=6&period=86400&cpm=600', 6);
      shown = await read(s);
      const expected = (x) => x.figs.find((f) => JSON.stringify(f.expr) === JSON.stringify(['mul', ['div', 's:cpm', 60], 's:period']));
      const lineOf = (x) => x.figs.find((f) => JSON.stringify(f.expr) === '"c0:points.0.line"');
      assert.ok(close(Number(expected(shown).value), 600 * 1440, 1e-9), 'N = 600/min x 1 day');
      checkNumbers(shown, { ...DEFAULTS, period: 86400, cpm: 600 });
      // An hour at 1 call/min: N is the 60 calls expected, not the floor's e^A = 95 (the line is
      // the floor A = ln 95).
      await openStep(s, '?step=6&period=3600&cpm=1', 6);
      shown = await read(s);
      assert.ok(close(Number(expected(shown).value), 60, 1e-9), 'N = 60 calls expected');
      assert.ok(close(Number(lineOf(shown).value), Math.log(95), 1e-3), `line = A = ln 95: ${lineOf(shown).value}`);
      checkNumbers(shown, { ...DEFAULTS, period: 3600, cpm: 1 });
    });

    test('a change while the step\'s cursor is being placed: the step is said ready only once its new numbers are in', async () => {
      await openStep(s, '?step=1', 1);
      await page(s.driver, () => {
        const root = document.getElementById('learn');
        // Each time the step is said ready: the settings then, and the numbers still waiting.
        window.__e2eReady = [];
        new MutationObserver(() => {
          if (!root.dataset.ready) return;
          window.__e2eReady.push({
            fine: window.__learn.settings.fine,
            waiting: root.querySelectorAll('.learn-text .fig.stale').length,
            status: root.querySelector('.learn-status').textContent,
          });
        }).observe(root, { attributes: true, attributeFilter: ['data-ready'] });
        const set = (v) => {
          const i = document.getElementById('learn-fine');
          i.value = v;
          i.dispatchEvent(new Event('change', { bubbles: true }));
        };
        // p0 = 1%: once its run is in, the step puts the cursor where its text looks (a seek);
        // just before that seek is sent, p0 = 2%.
        const e = window.__learn.playground.engine;
        const call = e.call.bind(e);
        let armed = true;
        e.call = (op, a) => {
          if (op === 'seek' && armed) { armed = false; set('2'); }
          return call(op, a);
        };
        set('1');
      });
      const said = await until(() => page(s.driver, () => {
        const last = window.__e2eReady[window.__e2eReady.length - 1];
        return last && last.fine === 0.02 && last.waiting === 0 && window.__e2eReady;
      }), 'the step ready with p0 = 2%', 60_000);
      // Before, the 1% run's seek coming back said the step ready, "The numbers are in.", while the
      // 2% numbers were still being computed.
      assert.deepEqual(said, [{ fine: 0.02, waiting: 0, status: 'The numbers are in.' }]);
      checkNumbers(await read(s), { ...DEFAULTS, fine: 0.02 });
    });

    test('keyboard: arrows and buttons move between steps; each step has its URL; the heading takes the focus', async () => {
      await openStep(s, '?step=1', 1);
      const key = (k) => page(s.driver, (kk) => document.body.dispatchEvent(new KeyboardEvent('keydown', { key: kk, bubbles: true })), k);
      await page(s.driver, () => document.activeElement && document.activeElement.blur());
      await key('ArrowRight');
      await waitStep(s, 2);
      let r = await page(s.driver, () => ({ href: location.href, focus: document.activeElement && document.activeElement.className, current: document.querySelector('.learn-steps a[aria-current]').textContent }));
      assert.match(r.href, /step=2/);
      assert.equal(r.focus, 'learn-title');
      assert.match(r.current, /likelihood/i);
      await key('ArrowLeft');
      await waitStep(s, 1);
      // The Next button, then the browser's Back.
      await page(s.driver, () => [...document.querySelectorAll('.learn-buttons button')].find((b) => /Next/.test(b.textContent)).click());
      await waitStep(s, 2);
      await s.driver.navigate().back();
      await waitStep(s, 1);
      r = await page(s.driver, () => ({ prevDisabled: [...document.querySelectorAll('.learn-buttons button')][0].disabled, href: location.href }));
      assert.equal(r.prevDisabled, true);
      assert.match(r.href, /step=1/);
      // Settings changed at a step stay through Back (the older entry's settings came back
      // silently), and the address says them.
      await page(s.driver, () => [...document.querySelectorAll('.learn-buttons button')].find((b) => /Next/.test(b.textContent)).click());
      await waitStep(s, 2);
      await page(s.driver, () => {
        const i = document.getElementById('learn-fine');
        i.value = '8';
        i.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await until(() => page(s.driver, () => window.__learn.settings.fine === 0.08 && document.getElementById('learn').dataset.ready === '2'), 'step 2 at p0 = 8%', 60_000);
      await s.driver.navigate().back();
      await waitStep(s, 1);
      r = await page(s.driver, () => ({ fine: window.__learn.settings.fine, input: document.getElementById('learn-fine').value, href: location.href }));
      assert.deepEqual([r.fine, r.input], [0.08, '8']);
      assert.match(r.href, /step=1/);
      assert.match(r.href, /fine=0\.08/);
      // Typing in a field does not change steps.
      await page(s.driver, () => {
        const i = document.getElementById('learn-cpm');
        i.focus();
        i.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      });
      await new Promise((ok) => setTimeout(ok, 300));
      assert.match(await page(s.driver, () => location.href), /step=1/);
    });

    test('"Open this run in the full playground" opens the step\'s run there, with no notice', async () => {
      await openStep(s, '?step=6&fine=0.02&broken=0.1', 6);
      const { href, sc } = await page(s.driver, () => ({
        href: document.querySelector('.learn-open').href, sc: window.__learn.env.sc,
      }));
      await s.driver.get(href);
      await waitSettled(s.driver);
      const r = await page(s.driver, () => {
        const n = document.querySelector('#playground .notice');
        return { notice: n && !n.hidden ? n.textContent : '', scenario: window.playground.state.scenario };
      });
      assert.equal(r.notice, '', 'the link is read as it is');
      assert.deepEqual(r.scenario, sc, 'the playground runs the step\'s scenario');
    });

    test('close fine and broken rates: a figure the analysis could not compute exactly is shown as not computed, not as exact', async () => {
      await openStep(s, '?step=6&fine=0.199&broken=0.2', 6);
      const shown = await read(s);
      const fig = shown.figs.find((f) => JSON.stringify(f.expr) === '"c0:points.0.calls.exact"');
      assert.equal(fig.text, '—');
      assert.equal(fig.kind, 'none');
      assert.equal(fig.badge, 'not computed');
      // The command line leaves it out too, and says why.
      const native = analyzeNative(shown.cmds[0]);
      assert.equal(native.points[0].calls.exact, undefined);
      assert.match(native.points[0].exact_note, /work cap/);
    });

    test('a figure not computed says why, in its report\'s own words; the chain\'s gap to the exact ARL is not called exact, and its figure keeps the digits the gap is measured on', async () => {
      // p0 0.001%, p1 99%, 1 call/min: 200 runs of the short line would pass the simulation's
      // cap. "not computed" had only "see the notes in the command's JSON output".
      await openStep(s, '?step=6&fine=0.00001&broken=0.99&cpm=1', 6);
      const shown = await read(s);
      const titles = await page(s.driver, () => [...document.querySelectorAll('.learn-text .fig')].map((f) => ({
        expr: f.dataset.expr, title: f.getAttribute('title'), badge: (f.querySelector('.kind') || {}).title,
      })));
      const sim = titles.find((f) => f.expr === '"c1:points.0.calls.simulated"');
      const note = analyzeNative(shown.cmds[1]).points[0].simulation_note;
      assert.match(note, /^not simulated: /);
      assert.equal(sim.title, note);
      assert.equal(sim.badge, `Not in this report: ${note}`);
      // The gap between Brook and Evans' chain and the exact ARL is below the exact figure's
      // own error at the defaults: it was labelled exact.
      await openStep(s, '?step=6', 6);
      const gap = (await read(s)).figs.find((f) => JSON.stringify(f.expr).startsWith('["abs",["sub","c0:points.0.calls.markov_chain"'));
      assert.equal(gap.kind, 'approximation');
      // The chain's figure keeps its digits, as the gap the text gives is measured on them: it
      // read 47,460,000 (4 digits, as estimates are shown) beside the exact 47,461,386, "0.001204
      // calls" apart. The exact figure and the chain's then read the same.
      const figs = (await read(s)).figs;
      const chain = figs.find((f) => JSON.stringify(f.expr) === '"c0:points.0.calls.markov_chain"');
      const exact = figs.find((f) => JSON.stringify(f.expr) === '"c0:points.0.calls.exact"');
      assert.ok(Math.abs(Number(chain.value) - Number(exact.value)) < 0.5, `${chain.value} ${exact.value}`);
      assert.equal(chain.text, exact.text);
      assert.match(chain.text, /^\d{2},\d{3},\d{3} calls$/, chain.text);
    });

    test('a figure not computed after a change is not greyed as computing, and one computed again loses the reason it was not', async () => {
      await openStep(s, '?step=4', 4);
      const set = (v) => page(s.driver, (x) => {
        const input = document.getElementById('learn-fine');
        input.value = x;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, v);
      const figs = () => page(s.driver, () => [...document.querySelectorAll('.learn-text .fig')].map((f) => ({
        kind: f.dataset.kind, stale: f.classList.contains('stale'), title: f.getAttribute('title'),
      })));
      await set('19.99');
      // Left greyed (class stale) as if still computing.
      await until(async () => { const f = await figs(); return f.some((x) => x.kind === 'none') && !f.some((x) => x.stale); }, 'the figures not computed, none greyed', 60_000);
      await set('5');
      // Kept the tooltip "… is not in the report" after it was computed again.
      await until(async () => { const f = await figs(); return !f.some((x) => x.kind === 'none' || x.stale); }, 'every figure computed again', 60_000);
      assert.deepEqual((await figs()).filter((x) => x.title), []);
    });

    test('step 6 at a small p0: the one-round bound is a probability, at most 100%, and the exact line is said to be A or the floor', async () => {
      // p0 = 0.1%: w_fail = ln 200 is past A = ln 95; the bound read 210.5%, labelled a bound.
      await openStep(s, '?step=6&fine=0.001', 6);
      const shown = await read(s);
      checkNumbers(shown, { ...DEFAULTS, fine: 0.001 });
      const probabilities = shown.figs.filter((f) => f.fmt === 'pct' && f.kind === 'bound');
      assert.equal(probabilities.length, 2);
      for (const f of probabilities) assert.ok(Number(f.value) <= 1, `${f.text}: a probability`);
      assert.equal(Number(probabilities[1].value), 1);
      const text = await page(s.driver, () => document.querySelector('.learn-text').textContent);
      assert.match(text, /\(A, or the floor where that is higher\)/);
    });

    test('step 6: where Wald\'s formula falls below the bound, a remark says so with the step it leaves out; at the defaults it is hidden', async () => {
      const remark = () => page(s.driver, () => {
        const el = document.querySelector('.learn-text span.when');
        return el && { hidden: el.hidden, text: el.textContent };
      });
      // p0 = 0.001%, p1 = 99%: Wald's 2.150e6 calls against a bound of 9.900e6; one failure,
      // ln(0.99 / 1e-5) = 11.503 nats, is 71.41% of the line, the floor w_fail + |w_ok| =
      // 11.503 + ln(0.99999 / 0.01) = 16.108 nats.
      await openStep(s, '?step=6&fine=0.00001&broken=0.99', 6);
      const r = await remark();
      assert.equal(r.hidden, false);
      assert.match(r.text, /^ Here it falls below the bound itself, so it is plainly off: one failure carries the score 71\.41%\u00a0exact of the way to the line, and one success takes it down by \|w_ok\| = 4\.605 nats\u00a0exact, much of which the floor cuts off at 0: the formula leaves out both, the overshoot past the line and what the floor cuts off, and they weigh most where steps are large beside the line or the drift per call is steep\.$/, r.text);
      // p0 = 30%, p1 = 95%: the remark shows, though one failure (1.153 nats) is only 7.8% of the
      // line: the success's step (2.639 nats, mostly cut off at the floor) is what it leaves out
      // there, and the remark named only the failure's.
      await openStep(s, '?step=6&fine=0.3&broken=0.95', 6);
      const r2 = await remark();
      assert.equal(r2.hidden, false);
      assert.match(r2.text, /carries the score 7\.80\d*%\u00a0exact of the way to the line, and one success takes it down by \|w_ok\| = 2\.639 nats/, r2.text);
      await openStep(s, '?step=6', 6);
      assert.equal((await remark()).hidden, true);
    });

    test('step 9: each half-open in the outage is said to end at its time limit only where that limit is shorter than the outage', async () => {
      // At 1 call/min half-open's limit is 3 x 18 / (1/60 s) = 54 min, beside a 20-minute outage:
      // the run's half-open closed at B after the outage, and no wait doubled, yet the step said
      // every half-open ended at its limit with the trial score at 0.
      const remarks = () => page(s.driver, () => [...document.querySelectorAll('.learn-text span.when')]
        .map((el) => ({ hidden: el.hidden, text: el.textContent })));
      await openStep(s, '?step=9&cpm=1', 9);
      let r = await remarks();
      assert.deepEqual(r.map((x) => x.hidden), [true, false]);
      assert.match(r[1].text, /^; but at your traffic half-open’s limit \(54 min\u00a0exact\) is long beside the outage, so a half-open may outlast it and end at a line once the service answers again, with no wait doubled/, r[1].text);
      const events = simulate((await read(s)).scenario).result.breakers.statistical.events.map((e) => `${e.from}>${e.to}`);
      assert.ok(!events.includes('half_open>open'), `no reopening at 1 call/min: ${events.join(' ')}`);
      await openStep(s, '?step=9', 9);
      r = await remarks();
      assert.deepEqual(r.map((x) => x.hidden), [false, true]);
      assert.match(r[0].text, /^: a half-open that ends within it ends at its limit \(54 s\u00a0exact\) with the trial score at 0, and opens again for a longer wait; one still open when the outage ends may end otherwise, on the answers that come then \(the event trace says how each ended\)\.$/, r[0].text);
      // Every half-open that ends within the outage (600 s to 1800 s) ends at its limit and
      // opens again, at this traffic and at others where the remark shows (at 5.5 to 15 calls/min
      // the last one, still open at the outage's end, closed: it had been said to open again).
      for (const cpm of [60, 5.5, 12]) {
        const sc = { ...(await read(s)).scenario, traffic: { ...(await read(s)).scenario.traffic, calls_per_minute: cpm } };
        const ev = simulate(sc).result.breakers.statistical.events.filter((e) => e.from === 'half_open' && e.t_s < 1800);
        assert.ok(ev.length > 0, `${cpm}: a half-open ends in the outage`);
        for (const e of ev) assert.deepEqual([e.to, e.detail.kind, e.detail.trial], ['open', 'half_open_time_limit', 0], `${cpm} calls/min: ${JSON.stringify(e)}`);
      }
    });

    test('step 6: a simulated interval that misses the exact run length says a 95% interval does so about once in twenty; at the defaults it holds it and says nothing', async () => {
      const remarks = () => page(s.driver, () => [...document.querySelectorAll('.learn-text span.when')]
        .map((el) => ({ hidden: el.hidden, text: el.textContent })));
      // p0 = 1%, p1 = 10%, N = 1,000: exact 32,120.476 calls; seed 1's runs give 38,833
      // [33,787, 43,879] (other seeds centre on the exact value: a teacher's check, by mpmath
      // and 4,000 runs of its own).
      await openStep(s, '?step=6&fine=0.01&broken=0.1', 6);
      let r = await remarks();
      assert.equal(r.length, 2);
      assert.equal(r[1].hidden, false);
      assert.equal(r[1].text, ' This interval misses the exact value: a 95% interval does so about once in twenty, and these runs are always the same ones (seed 1).');
      await openStep(s, '?step=6', 6);
      r = await remarks();
      assert.deepEqual(r.map((x) => x.hidden), [true, true]);
    });

    test('rates one rounding step apart: the steps compute (trials to close past 2^53 reached the page as a number), and a step whose run is refused says why', async () => {
      // The wasm's results refused a count over 2^53 - 1 ("can't be represented as a JavaScript
      // number"), the step's run with it, and the walkthrough said "Running…" for good.
      await openStep(s, '?step=8&fine=0.5&broken=0.5000000000000001', 8);
      const r = await page(s.driver, () => ({
        status: document.querySelector('.learn-status').textContent,
        close: window.__learn.env.c[0].trials_to_close,
      }));
      assert.equal(r.status, 'The numbers are in.');
      assert.ok(r.close > 2 ** 53, `trials to close ${r.close}`);
      // A step whose run the simulator refuses says so and why, in place of "Running…".
      const said = await page(s.driver, async () => {
        const pg = window.__learn.playground;
        pg.load = async () => { pg.state.lastError = 'duration = 0 is invalid: allowed 0 < x <= 1e9 seconds'; return false; };
        [...document.querySelectorAll('.learn-buttons button')].find((b) => /Next/.test(b.textContent)).click();
        const status = document.querySelector('.learn-status');
        for (let i = 0; i < 600 && !/^Could not/.test(status.textContent); i++) await new Promise((ok) => setTimeout(ok, 50));
        return status.textContent;
      });
      assert.equal(said, 'Could not run this step’s scenario: duration = 0 is invalid: allowed 0 < x <= 1e9 seconds');
    });

    test('the walkthrough at the edges of its settings: half-open given room at high traffic, a run with nothing to show says so, no error estimate read as infinite, a line on its floor said flat', async () => {
      const note = () => page(s.driver, () => { const n = document.querySelector('.learn-look-note'); return n.hidden ? null : n.textContent; });
      const shownText = () => page(s.driver, () => [...document.querySelectorAll('.learn-text .when')].filter((w) => !w.hidden).map((w) => w.textContent).join(' | '));
      // Step 8 at 100,000 calls/min: the default factor's limit (3 x 18 trials / 1,667 calls/s =
      // 32 ms) is shorter than one 50 ms answer, so half-open never closed. The runs take
      // 2 x (1 + 0.05 s x rate), the sentence says why, and the run closes.
      await openStep(s, '?step=8&cpm=100000', 8);
      let shown = await read(s);
      assert.ok(close(shown.scenario.statistical.half_open_time_factor, 2 * (1 + 0.05 * 100000 / 60), 1e-12), String(shown.scenario.statistical.half_open_time_factor));
      checkNumbers(shown, { ...DEFAULTS, cpm: 100000 });
      assert.match(await shownText(), /The breaker’s default factor, 3.* counts calls, not their latency/);
      // Its limit (2 x 18 x (0.05 + 0.0006) s = 1.8 s) is shorter than the 10 s a hung trial takes to be lost.
      assert.match(await shownText(), /In this run a hung trial is lost only after the breaker’s call timeout \(10 s\ssetting\), longer than the whole limit/);
      assert.equal(await note(), null, 'a close to point at');
      assert.ok(simulate(shown.scenario).events.some((e) => e.breaker === 'statistical' && e.from === 'half_open' && e.to === 'closed'));
      // At 600 calls/min the runs' factor is the default, 3, whose room is already twice the
      // trials to close: the sentence says so; at 400 the limit (8.1 s) is shorter than the 10 s
      // a hung trial takes to be lost, which is said without it.
      await openStep(s, '?step=8&cpm=600', 8);
      assert.equal((await read(s)).scenario.statistical.half_open_time_factor, 3);
      assert.match(await shownText(), /The breaker’s default factor, 3/);
      await openStep(s, '?step=8&cpm=400', 8);
      assert.doesNotMatch(await shownText(), /default factor/);
      assert.match(await shownText(), /In this run a hung trial is lost only after the breaker’s call timeout/);
      // At the defaults: the breaker's own factor, and no such sentence.
      await openStep(s, '?step=8', 8);
      shown = await read(s);
      assert.equal(shown.scenario.statistical.half_open_time_factor, 3);
      assert.doesNotMatch(await shownText(), /default factor/);
      // A run with no opening to point the cursor at says so (2 calls in 3 hours).
      await openStep(s, '?step=4&cpm=0.01', 4);
      assert.match(await note(), /^At your settings this run shows no opening of the statistical breaker \(\d calls? in all, so the cursor is at the start\)/);
      await openStep(s, '?step=1&cpm=0.01', 1);
      assert.match(await note(), /^At your settings this run shows no failed call \(0 calls in all\); the numbers in the text still hold\.$/);
      // A step pointing at a close, whose run never opened, says that (step 8 at 1 call/min).
      await openStep(s, '?step=8&cpm=1', 8);
      assert.match(await note(), /^At your settings this run shows no opening of the statistical breaker /);
      // Step 2 at 1 call/min runs long enough for three of its failures (1 in 20: the 60th call
      // comes at 3,600 s, as the first comes a minute in, so the run lasts a minute more).
      await openStep(s, '?step=2&cpm=1', 2);
      shown = await read(s);
      assert.equal(shown.scenario.duration, 3660);
      assert.equal(simulate(shown.scenario).result.breakers.statistical.totals.failed, 3);
      assert.equal(await note(), null);
      // Step 6 where the exact ARL is past its work cap: its error estimate is not computed, with
      // the report's reason ("± ∞" before), and the chain's absence says why.
      await openStep(s, '?step=6&broken=0.0501', 6);
      shown = await read(s);
      checkNumbers(shown, { ...DEFAULTS, broken: 0.0501 });
      const titles = await page(s.driver, () => Object.fromEntries([...document.querySelectorAll('.learn-text .fig')].map((f) => [f.dataset.expr, { text: f.querySelector('.num').textContent, title: f.getAttribute('title') }])));
      const native = analyzeNative(shown.cmds[0]).points[0];
      assert.equal(native.exact_error, null);
      assert.deepEqual(titles['"c0:points.0.exact_error"'], { text: '—', title: native.exact_note });
      assert.match(titles['"c0:points.0.markov_chain_error"'].title, /no error estimate for the chain at these settings/);
      assert.match(titles['"c0:points.0.calls.markov_chain"'].title, /^no chain figure at these settings: past its work limit, or the finest grid within it too coarse to say anything/);
      // Where the chain has a figure but no coarser grid to give its error (p0 99.9%, p1 99.99%),
      // the error alone is not computed, and not said to be for want of a figure.
      await openStep(s, '?step=6&fine=0.999&broken=0.9999', 6);
      shown = await read(s);
      checkNumbers(shown, { ...DEFAULTS, fine: 0.999, broken: 0.9999 });
      assert.equal(shown.figs.find((f) => JSON.stringify(f.expr) === '"c0:points.0.calls.markov_chain"').kind, 'approximation');
      assert.equal(analyzeNative(shown.cmds[0]).points[0].markov_chain_error, undefined);
      const errTitle = await page(s.driver, () => document.querySelector('.learn-text .fig[data-expr=\'"c0:points.0.markov_chain_error"\']').getAttribute('title'));
      assert.match(errTitle, /^no error estimate for the chain at these settings/);
      // Step 7 with a period of 8.64 s: every line is the floor, and the text says so.
      await openStep(s, '?step=7&period=8.64', 7);
      checkNumbers(await read(s), { ...DEFAULTS, period: 8.64 });
      assert.match(await shownText(), /all three lines above are the floor/);
      // Not where yours is above it (100,000 calls/min: ln N 9.575 against a floor of 4.554).
      await openStep(s, '?step=7&period=8.64&cpm=100000', 7);
      assert.doesNotMatch(await shownText(), /all three lines/);
      await openStep(s, '?step=7', 7);
      assert.doesNotMatch(await shownText(), /floor/);
    });

    test('a bad link falls back to the defaults with a notice', async () => {
      await openStep(s, '?step=4&fine=0.5&broken=0.2', 4);
      const r = await page(s.driver, () => ({ notice: document.querySelector('.learn .notice').textContent, hidden: document.querySelector('.learn .notice').hidden }));
      assert.equal(r.hidden, false);
      assert.match(r.notice, /not valid/);
      checkNumbers(await read(s), { ...DEFAULTS });
      // A value outside its field's range is named, with the range, in the notice.
      await openStep(s, '?step=4&fine=-1', 4);
      const r2 = await page(s.driver, () => document.querySelector('.learn .notice').textContent);
      assert.match(r2, /“fine” = -1 is not allowed: “Fine failure rate p0” goes from 0.001 to 99.9 %; in a link, fine is a fraction from 0.00001 to 0.999/);
      // A label that ends mid-phrase is quoted: "At most one false alarm per goes from ...".
      await openStep(s, '?step=6&period=1e12', 6);
      assert.match(await page(s.driver, () => document.querySelector('.learn .notice').textContent), /“period” = 1e12 is not allowed: “At most one false alarm per” goes from 0.0001 to 3650 days/);
      // Hexadecimal is not a link's number (cpm=0x10 was read as 16 calls/min, step=0x3 as 3).
      await openStep(s, '?step=0x3', 1);
      assert.match(await page(s.driver, () => document.querySelector('.learn .notice').textContent), /“step” = 0x3 is not a step/);
      await openStep(s, '?step=4&cpm=0x10', 4);
      const r3 = await page(s.driver, () => document.querySelector('.learn .notice').textContent);
      assert.match(r3, /“cpm” = 0x10 is not allowed/);
      checkNumbers(await read(s), { ...DEFAULTS });
      // The form too: traffic above its range is refused, with the range, and nothing changes.
      const typed = await page(s.driver, () => {
        const i = document.getElementById('learn-cpm');
        i.value = '1e9';
        i.dispatchEvent(new Event('change', { bubbles: true }));
        return { msg: document.querySelector('form.learn-settings .msg').textContent, href: location.href };
      });
      assert.ok(typed.msg && /“Traffic” goes from 0.01 to 100000 calls\/min/.test(typed.msg), String(typed.msg));
      assert.doesNotMatch(typed.href, /cpm=/);
      // Not a number: the range is said as well.
      const empty = await page(s.driver, () => {
        const i = document.getElementById('learn-cpm');
        i.value = '';
        i.dispatchEvent(new Event('change', { bubbles: true }));
        return document.querySelector('form.learn-settings .msg').textContent;
      });
      assert.equal(empty, '“Traffic”: enter a number from 0.01 to 100000 calls/min.');
      // A percentage as the command line reads it with "%": b = 49.999% is 0.49999 in the link
      // and the commands (not 0.49999000000000005).
      await openStep(s, '?step=8', 8);
      await page(s.driver, () => {
        const i = document.getElementById('learn-b');
        i.value = '49.999';
        i.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await until(async () => /[?&]b=0\.49999(&|$)/.test(await page(s.driver, () => location.search)), 'b in the link', 10_000);
      await waitStep(s, 8);
      assert.ok((await read(s)).cmdText[0].includes('--b 0.49999 '), 'the command');
      // An edit of one field leaves the others' settings as the link gave them, to the last
      // digit (each was re-read from the ten digits its field shows: 42.857142857142854 calls/min,
      // 300 over 7 callers as the playground writes it, became 42.85714286).
      await openStep(s, '?step=4&cpm=42.857142857142854', 4);
      const search = await page(s.driver, () => {
        const i = document.getElementById('learn-fine');
        i.value = '4';
        i.dispatchEvent(new Event('change', { bubbles: true }));
        return location.search;
      });
      assert.match(search, /[?&]cpm=42\.857142857142854(&|$)/);
      assert.match(search, /[?&]fine=0\.04(&|$)/);
      // A step that is not one is named too (it used to be read silently as step 1, or 10 for 20).
      for (const bad of ['abc', '20', '2.5']) {
        await openStep(s, `?step=${bad}&fine=0.02`, 1);
        const r3 = await page(s.driver, () => document.querySelector('.learn .notice').textContent);
        assert.equal(r3, `This link’s “step” = ${bad} is not a step (a whole number from 1 to 10); showing step 1.`);
      }
    });
  });
}
