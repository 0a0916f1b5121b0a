// Changing a run's settings: recompute and rewind, races between changes and the runs they
// start, invalid input by its field, durations typed with a unit, and the run carried out of the
// page and back: a copied link, "Download scenario" and "Open scenario…". (From run.test.mjs:
// one file of both held more than node's 120 s test timeout, which applies to a file too.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Key } from 'selenium-webdriver';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { duration } from '../../www/src/format.js';
import {
  BROWSERS, ROOT, session, open, page, pageErrors, pageState, simulate, until, setField, fieldMessage, waitSettled, runsShown,
  button, newSnap, change,
} from './helpers.mjs';

/** Choose a file named `name` holding `body` in "Open scenario…", as a person's file dialog does. */
function chooseFile(s, name, body) {
  return page(s.driver, (n, b) => {
    const input = document.querySelector('#playground .copy input[type=file]');
    const dt = new DataTransfer();
    dt.items.add(new File([b], n, { type: 'application/json' }));
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
  }, name, body);
}

for (const browser of BROWSERS) {
  describe(`changes [${browser}]`, () => {
    const s = session(browser);

    test('changing the broken rate recomputes the run (the command line\'s) and rewinds it, without autoplay', async () => {
      await open(s);
      await newSnap(s, () => button(s, 'Next event').click(), 'next event');
      const before = await pageState(s.driver, { hash: true });
      assert.ok(before.t > 0, 'the cursor is away from 0 first');
      const old = before.scenario.statistical.broken_rate;
      const pct = Math.round(old * 100) + 10;
      await change(s, 'statistical.broken_rate', pct);
      const after = await pageState(s.driver, { hash: true });
      const cli = simulate(after.scenario);
      assert.equal(after.scenario.statistical.broken_rate, pct / 100);
      assert.equal(after.t, 0, 'rewound');
      assert.equal(after.timeText, '0:00.00');
      assert.equal(after.scrub, 0);
      assert.equal(after.calls, 0);
      assert.equal(after.hash.slice(0, 16), cli.hash, 'the new run is the command line\'s run of the new settings');
      assert.notEqual(after.hash, before.hash, 'a different run');
      assert.equal(after.traceRows, cli.events.length);
      assert.match(after.href, new RegExp(`statistical\\.broken_rate=${pct / 100}(&|$)`), 'the URL holds the change');
      await new Promise((r) => setTimeout(r, 400));
      const still = await pageState(s.driver);
      assert.equal(still.t, 0, 'no autoplay');
      assert.equal(await button(s, '▶ Play').isDisplayed(), true, 'paused');
      // A percentage is read as the simulator reads the same text with "%": 49.999 is 0.49999
      // (49.999 / 100 is 0.49999000000000005, which the link and a saved file carried).
      await change(s, 'statistical.broken_rate', '49.999');
      const typed = await pageState(s.driver);
      assert.equal(typed.scenario.statistical.broken_rate, 0.49999);
      assert.match(typed.href, /statistical\.broken_rate=0\.49999(&|$)/);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a "Next event" answered after a setting changed is of the run replaced: it writes nothing over the new run\'s line', async () => {
      // busy-service: a month, so the rerun computes for a while and says so on the run line.
      await open(s, '?v=1&preset=busy-service');
      await page(s.driver, () => window.playground.seek(window.playground.state.end));
      await until(() => page(s.driver, () => window.playground.state.t === window.playground.state.end), 'at the end');
      const n = await runsShown(s.driver);
      await page(s.driver, () => {
        const pg = window.playground;
        const line = document.querySelector('#playground .runinfo');
        window.__e2eLines = [];
        new MutationObserver(() => window.__e2eLines.push(line.textContent)).observe(line, { childList: true, characterData: true, subtree: true });
        // The worker answers "Next event" (none left: the cursor is at the end) before the rerun;
        // its reply reaches the page 300 ms later, while the new run is being computed.
        const e = pg.engine;
        const call = e.call.bind(e);
        e.call = (op, a) => {
          const r = call(op, a);
          return op === 'nextEvent' ? r.then((x) => new Promise((ok) => setTimeout(() => ok(x), 300))) : r;
        };
        document.querySelector('#playground .transport').querySelectorAll('button')
          .forEach((b) => { if (b.textContent === 'Next event') b.click(); });
        const input = document.querySelector('#playground .controls .field[data-path="seed"] input');
        input.value = String(pg.state.scenario.seed + 1);
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await waitSettled(s.driver, n, 60_000);
      const r = await page(s.driver, () => ({ lines: window.__e2eLines, t: window.playground.state.snap.t_s, runText: window.playground.state.runText }));
      assert.deepEqual(r.lines.filter((l) => /No more state changes/.test(l)), [], `the run line while the new run computed: ${r.lines.join(' | ')}`);
      assert.ok(r.lines.some((l) => /^The chart fills in as the run is computed/.test(l)), 'the new run said it was being computed');
      assert.equal(r.lines.at(-1), r.runText, 'and then the new run\'s line');
      assert.equal(r.t, 0, 'the new run rewound');
      assert.deepEqual(await pageErrors(s), []);
    });

    test('twenty settings fired in quick succession end on the run of the last: its line, link and trace hash are the command line\'s', async () => {
      await open(s, '?v=1&preset=bad-day');
      const seed0 = (await pageState(s.driver)).scenario.seed;
      // Some in one task, some a few ms apart: the worker stops each run for the next, and the
      // replies of the runs replaced must not land over the last one's.
      await page(s.driver, async (first) => {
        const input = () => document.querySelector('#playground .controls .field[data-path="seed"] input');
        for (let i = 1; i <= 20; i++) {
          input().value = String(first + i);
          input().dispatchEvent(new Event('change', { bubbles: true }));
          if (i % 3 === 0) await new Promise((r) => setTimeout(r, 3 * (i % 4)));
        }
      }, seed0);
      const last = seed0 + 20;
      await until(() => page(s.driver, (want) => {
        const S = window.playground.state;
        return S.loaded && S.info && S.info.seed === want && !document.querySelector('#playground').classList.contains('computing');
      }, last), 'the last seed\'s run', 60_000);
      await new Promise((r) => setTimeout(r, 500)); // no late reply lands after it
      const st = await pageState(s.driver, { hash: true });
      const cli = simulate(st.scenario);
      assert.equal(st.scenario.seed, last);
      assert.match(st.runInfo, new RegExp(`, seed ${last}\\.`));
      assert.match(st.href, new RegExp(`[?&]seed=${last}(&|$)`));
      assert.equal(st.hash.slice(0, 16), cli.hash);
      assert.equal(st.traceRows, cli.events.length);
      assert.equal(st.t, 0);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a setting changed while a seek waits its turn (playing, dragging) rewinds the new run all the same', async () => {
      await open(s);
      const n = await runsShown(s.driver);
      // A seek in flight, another waiting behind it, and an edit, in one task (as when a frame of
      // play or a drag is followed by an edit). The waiting seek is of the run replaced: before,
      // it was sent when the first came back, after the rerun, and took the new run to 20 s.
      await page(s.driver, () => {
        const pg = window.playground;
        pg.seek(10);
        pg.seek(20);
        const input = document.querySelector('#playground .controls .field[data-path="seed"] input');
        input.value = String(pg.state.scenario.seed + 1);
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await waitSettled(s.driver, n);
      // The worker answers in order: once this call is answered, so is any seek sent before it.
      const r = await page(s.driver, async () => {
        const pg = window.playground;
        const worker = await pg.engine.call('snapshot');
        return { worker: worker.t_s, shown: pg.state.snap.t_s, t: pg.state.t };
      });
      assert.deepEqual(r, { worker: 0, shown: 0, t: 0 }, 'the new run rewound, in the page and in the worker');
      const st = await pageState(s.driver);
      assert.equal(st.timeText, '0:00.00');
      assert.equal(st.scrub, 0);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('after a click on the scrubber, its thumb follows step, next event and restart', async () => {
      await open(s);
      const scrub = await s.driver.findElement({ css: '#playground .transport input[type=range]' });
      let st = await newSnap(s, () => scrub.click(), 'a click on the scrubber');
      assert.ok(st.t > 0, 'the click moved the cursor');
      st = await newSnap(s, () => scrub.sendKeys(Key.ARROW_RIGHT), 'one call');
      assert.equal(st.scrub, st.t, `step: thumb at ${st.scrub}, cursor at ${st.t}`);
      st = await newSnap(s, () => scrub.sendKeys('n'), 'next event');
      assert.equal(st.scrub, st.t, `next event: thumb at ${st.scrub}, cursor at ${st.t}`);
      st = await newSnap(s, () => scrub.sendKeys('r'), 'restart');
      assert.equal(st.t, 0);
      assert.equal(st.scrub, 0, `restart: thumb at ${st.scrub}`);
    });

    test('a field marked invalid still shows the focus ring when it has the focus', async () => {
      await open(s);
      await setField(s.driver, 'statistical.broken_rate', '1');
      await until(async () => (await fieldMessage(s.driver, 'statistical.broken_rate')).invalid, 'the field marked invalid');
      const input = await s.driver.findElement({ css: '#playground .field[data-path="statistical.broken_rate"] input' });
      await s.driver.executeScript('arguments[0].scrollIntoView({block: "center"})', input);
      await input.click();
      const r = await page(s.driver, () => {
        const el = document.activeElement;
        const cs = getComputedStyle(el);
        return { path: el.closest('.field').dataset.path, invalid: el.getAttribute('aria-invalid'), width: cs.outlineWidth, style: cs.outlineStyle };
      });
      assert.deepEqual(r, { path: 'statistical.broken_rate', invalid: 'true', width: '3px', style: 'solid' });
    });

    test('a refused phase setting says which phase its path names; a rate\'s message is in percent, once', async () => {
      // The form says "Phase 2", the simulator dependency.1 (its list counts from 0). The
      // threshold's message gives its range in percent itself, and the page once added "(rates
      // are fractions there: 1 is 100 %)" after it all the same; then it kept that message's
      // fractions (a typed -1 said -0.01): the gloss now goes and the numbers are in percent.
      await open(s);
      const refused = async (path, value) => {
        await setField(s.driver, path, value);
        return (await until(async () => { const m = await fieldMessage(s.driver, path); return m.text ? m : null; }, `${path}'s message`)).text;
      };
      assert.equal(await refused('dependency.1.start', -1),
        'dependency.1.start = -1 is invalid: allowed the previous phase\'s start (0) < x <= 1e9 seconds (dependency.1 is phase 2: the settings count from 0)');
      await open(s);
      assert.equal(await refused('dependency.2.failure_rate', 200),
        'dependency.2.failure_rate = 200% is invalid: allowed 0% <= x <= 100% (dependency.2 is phase 3: the settings count from 0)');
      await open(s);
      assert.equal(await refused('window.failure_rate_threshold', -1),
        'window.failure_rate_threshold = -1% is invalid: allowed 0% < x <= 100%');
      // A rate's message in the form's percent, as typed (the simulator's is in fractions).
      assert.equal(await refused('statistical.fine_rate', -1),
        'statistical.fine_rate = -1% is invalid: allowed 0% < x < 100%');
      // Numbers past what a rate can mean keep JavaScript's exponent (written out, 1e308 took
      // 309 digits and a subnormal's floor 300 zeros).
      assert.equal(await refused('statistical.fine_rate', '1e308'),
        'statistical.fine_rate = 1e+308% is invalid: allowed 0% < x < 100%');
      await open(s);
      assert.equal(await refused('statistical.fine_rate', '1e-320'),
        'statistical.fine_rate = 9.88e-321% is invalid: allowed 0% < x < 100%, at least 2.22507385851e-306% (a smaller rate is subnormal)');
      const legend = await page(s.driver, () => document.querySelector('#playground .controls .field[data-path="dependency.1.start"]').closest('fieldset').querySelector('legend').textContent);
      assert.match(legend, /^Phase 2\b/);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a value refused at another field than the one edited: the run line names where the message is', async () => {
      // Phase 2 starting at 100 s puts phase 3's start (30 s) before it: the message goes under
      // phase 3's start, which may be out of sight, and the run line only said "not valid".
      await open(s, '?v=1&preset=recovery-warmup');
      await setField(s.driver, 'dependency.1.start', 100);
      const m = await until(async () => { const x = await fieldMessage(s.driver, 'dependency.2.start'); return x.text ? x : null; }, 'phase 3\'s message');
      assert.match(m.text, /^dependency\.2\.start = 30 is invalid: allowed the previous phase's start \(100\) < x/);
      assert.equal((await fieldMessage(s.driver, 'dependency.1.start')).text, '');
      const info = await page(s.driver, () => document.querySelector('#playground .runinfo').textContent);
      assert.equal(info, 'The settings are not valid (see “Phase 3: warm-up › Starts at”): the run shown is the last valid one.');
      // Another field emptied and then set back as it was (no run): phase 3's message still
      // stands, and the run line names it again.
      const seed = (await pageState(s.driver, {})).scenario.seed;
      await setField(s.driver, 'seed', '');
      await until(async () => ((await fieldMessage(s.driver, 'seed')).text ? true : null), 'the seed\'s message');
      await setField(s.driver, 'seed', seed);
      await until(async () => ((await fieldMessage(s.driver, 'seed')).text === '' ? true : null), 'the seed\'s message gone');
      assert.match((await fieldMessage(s.driver, 'dependency.2.start')).text, /is invalid/);
      assert.equal(await page(s.driver, () => document.querySelector('#playground .runinfo').textContent), info);
      // Past the last state change of the run shown, then back: the run line says the settings
      // are refused again, not the run's own line (the panels stay dimmed).
      const next = button(s, 'Next event');
      await until(async () => {
        await newSnap(s, () => next.click(), 'next event');
        return /No more state changes/.test((await pageState(s.driver)).runInfo) || null;
      }, 'past the last state change');
      await newSnap(s, () => button(s, 'Restart').click(), 'restart');
      assert.equal(await page(s.driver, () => document.querySelector('#playground .runinfo').textContent), info);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a duration is typed in seconds or with a unit, as a scenario file takes it', async () => {
      await open(s);
      const input = () => s.driver.findElement({ css: '#playground .controls .field[data-path="duration"] input' });
      const type = async (text) => {
        const el = await input();
        await el.clear();
        await el.sendKeys(text, Key.TAB);
      };
      const n = await runsShown(s.driver);
      await type('2h');
      await waitSettled(s.driver, n, 60_000);
      const two = await pageState(s.driver, { hash: true });
      assert.equal(two.scenario.duration, 7200);
      assert.equal(await (await input()).getAttribute('value'), '7200', 'read back in seconds once left');
      assert.match(await page(s.driver, () => location.search), /[?&]duration=7200(&|$)/);
      // Another value, then 2 h in seconds with a unit's spacing: the same run as "2h".
      const m = await runsShown(s.driver);
      await type('7199');
      await waitSettled(s.driver, m, 60_000);
      assert.equal((await pageState(s.driver)).scenario.duration, 7199);
      const j = await runsShown(s.driver);
      await type('7200 s');
      await waitSettled(s.driver, j, 60_000);
      assert.equal((await pageState(s.driver, { hash: true })).hash, two.hash);
      // Text that is no duration: the form's own message, then the field's range after it (as
      // the simulator writes it for a link or a file), the run shown stays.
      await type('3 parsecs');
      const msg = await until(async () => {
        const f = await fieldMessage(s.driver, 'duration');
        return f.text.endsWith('seconds') ? f : null;
      }, 'the unit\'s message with the range');
      assert.equal(msg.text, 'unknown duration unit “parsecs” in “3 parsecs”: allowed ms, s, m, h, d, w, 0 < x <= 1e9 seconds');
      assert.ok(msg.invalid && msg.describedBy);
      assert.equal((await pageState(s.driver, { hash: true })).hash, two.hash);
      await type('soon');
      await until(async () => (await fieldMessage(s.driver, 'duration')).text === '“soon” is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d), 0 < x <= 1e9 seconds', 'not a duration');
      await type('NaN');
      await until(async () => (await fieldMessage(s.driver, 'duration')).text === '“NaN” is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d), 0 < x <= 1e9 seconds', 'NaN');
      // Read, but out of range: the simulator's range, in seconds.
      await type('-1h');
      const neg = await until(async () => {
        const f = await fieldMessage(s.driver, 'duration');
        return /-3600/.test(f.text) ? f : null;
      }, 'the range');
      assert.match(neg.text, /^duration = -3600 is invalid: allowed 0 < x <= 1e9/);
      // A phase's start (between its neighbours' in recovery-warmup), another spelling of a unit.
      const p = await runsShown(s.driver);
      const start = await s.driver.findElement({ css: '#playground .controls .field[data-path="dependency.1.start"] input' });
      await start.clear();
      await start.sendKeys('0.25 min', Key.TAB);
      await type('2h');
      await waitSettled(s.driver, p, 60_000);
      assert.equal((await pageState(s.driver)).scenario.dependency[1].start, 15);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('invalid input shows the error next to its field, and the last valid run stays', async () => {
      await open(s);
      await newSnap(s, () => button(s, 'Next event').click(), 'next event');
      const before = await pageState(s.driver, { hash: true });
      const fine = before.scenario.statistical.fine_rate;

      // Below the fine rate: the simulator's own validation names the field.
      await setField(s.driver, 'statistical.broken_rate', Math.round(fine * 100) - 1);
      const msg = await until(async () => {
        const m = await fieldMessage(s.driver, 'statistical.broken_rate');
        return m.text ? m : null;
      }, 'the broken rate\'s message');
      assert.match(msg.text, /broken_rate/, 'the message names the field');
      assert.match(msg.text, /^statistical\.broken_rate = \d+% is invalid: allowed .*%/, 'in the form\'s percent');
      assert.equal(msg.invalid, true, 'the field is marked invalid (aria-invalid)');
      assert.equal(msg.describedBy, true, 'the message describes the input');
      const other = await fieldMessage(s.driver, 'statistical.fine_rate');
      assert.equal(other.text, '', 'not next to another field');
      // The same value committed again (leaving the field after typing, or Enter) keeps it, and
      // runs nothing (a run would clear the message at once and put it back when refused, so the
      // message alone, read after any wait, could not tell).
      const runId = () => page(s.driver, () => window.playground.state.runId);
      const runs = await runId();
      await setField(s.driver, 'statistical.broken_rate', Math.round(fine * 100) - 1);
      assert.equal(await runId(), runs, 'no run asked for');
      const again = await fieldMessage(s.driver, 'statistical.broken_rate');
      assert.equal(again.text, msg.text, 'the message stays when the same value is committed again');
      assert.equal(again.invalid, true);
      const kept = await pageState(s.driver, { hash: true });
      assert.equal(kept.hash, before.hash, 'the run is the last valid one');
      const url = new URL(await s.driver.getCurrentUrl());
      assert.equal(url.searchParams.get('statistical.broken_rate'), null,
        `the link keeps the last valid settings, not the refused value (${url.search})`);
      assert.equal(kept.t, before.t, 'the cursor stays');
      assert.equal(kept.traceRows, before.traceRows);
      assert.match(kept.runInfo, /not valid/);
      // The kept run still steps.
      const stepped = await newSnap(s, () => button(s, 'Step one call').click(), 'a step on the kept run');
      assert.equal(stepped.calls, before.calls + 1);

      // Not a number at all: the form's own check, nothing run; the range is the simulator's,
      // in the form's percent, and the broken rate's own (above the fine rate), not a rate's
      // general 0% < x < 100%.
      const EMPTY_RATE = `Enter a number: allowed fine_rate (${Number((fine * 100).toPrecision(12))}%) < x < 100%.`;
      await setField(s.driver, 'statistical.broken_rate', '');
      await until(async () => (await fieldMessage(s.driver, 'statistical.broken_rate')).text === EMPTY_RATE, `"${EMPTY_RATE}"`);
      assert.equal((await pageState(s.driver, { hash: true })).hash, before.hash);
      // The range quotes the fine rate: changed, the emptied field's message follows it (it kept
      // the old value), and back. (Half a point lower: the broken rate the settings hold, the
      // one refused above, is still below it, so nothing runs meanwhile.)
      const finePct = Number((fine * 100).toPrecision(12));
      const lower = finePct - 0.5;
      await setField(s.driver, 'statistical.fine_rate', String(lower));
      const moved = `Enter a number: allowed fine_rate (${lower}%) < x < 100%.`;
      await until(async () => (await fieldMessage(s.driver, 'statistical.broken_rate')).text === moved, `"${moved}"`);
      await setField(s.driver, 'statistical.fine_rate', String(finePct));
      await until(async () => (await fieldMessage(s.driver, 'statistical.broken_rate')).text === EMPTY_RATE, `"${EMPTY_RATE}" again`);
      assert.equal((await pageState(s.driver, { hash: true })).hash, before.hash, 'nothing ran meanwhile');
      // A duration's range in seconds, as the simulator says it.
      const duration = (await fieldMessage(s.driver, 'duration')).text;
      await setField(s.driver, 'duration', '');
      await until(async () => (await fieldMessage(s.driver, 'duration')).text === 'Enter a duration: allowed 0 < x <= 1e9 seconds.', 'the run length\'s range');
      await setField(s.driver, 'duration', before.scenario.duration);
      await until(async () => (await fieldMessage(s.driver, 'duration')).text === duration, 'the run length\'s message gone');

      // Back to a valid value: the message goes, the run is recomputed.
      const pct = Math.round(before.scenario.statistical.broken_rate * 100);
      await change(s, 'statistical.broken_rate', pct);
      const fixed = await fieldMessage(s.driver, 'statistical.broken_rate');
      assert.equal(fixed.text, '');
      assert.equal(fixed.invalid, false);
      assert.equal((await pageState(s.driver, { hash: true })).hash, before.hash, 'the same settings, the same run');

      // A whole number out of its range: the form's own check, with the range.
      // The run shown is then the last valid one, as for a value the simulator refuses: the
      // panels dimmed and the run line saying so (before, only the field said anything).
      const staleNow = () => page(s.driver, () => ({
        stale: document.getElementById('playground').classList.contains('stale'),
        runInfo: document.querySelector('#playground .runinfo').textContent,
      }));
      await setField(s.driver, 'seed', -1);
      await until(async () => (await fieldMessage(s.driver, 'seed')).text === 'Enter a whole number from 0 to 9007199254740991.', 'the seed\'s range');
      assert.deepEqual(await staleNow(), { stale: true, runInfo: 'The settings are not valid: the run shown is the last valid one.' });
      // Empty, a whole number's field says its range at once.
      await setField(s.driver, 'seed', '');
      await until(async () => (await fieldMessage(s.driver, 'seed')).text === 'Enter a whole number from 0 to 9007199254740991.', 'the empty seed\'s range');
      await setField(s.driver, 'seed', before.scenario.seed);
      assert.equal((await fieldMessage(s.driver, 'seed')).text, '');
      const back = await staleNow();
      assert.equal(back.stale, false);
      assert.match(back.runInfo, /calls, seed \d+\./);

      // A field left empty keeps its message while another change runs (the run shown does not
      // use what the empty field shows).
      await setField(s.driver, 'statistical.broken_rate', '');
      await until(async () => (await fieldMessage(s.driver, 'statistical.broken_rate')).text === EMPTY_RATE, `"${EMPTY_RATE}" again`);
      await change(s, 'seed', 5);
      const empty = await fieldMessage(s.driver, 'statistical.broken_rate');
      assert.equal(empty.text, EMPTY_RATE, 'the empty field\'s message outlives the seed\'s run');
      assert.equal(empty.invalid, true);
      assert.deepEqual(await staleNow(), { stale: true, runInfo: 'The settings are not valid: the run shown is the last valid one.' },
        'and the run stays marked as the last valid one');

      // A bad trace: the message goes next to the trace's text, not to the top of the form.
      await page(s.driver, () => {
        const d = document.querySelector('#playground .controls .field[data-path="trace"]').closest('details');
        if (d) d.open = true;
      });
      await setField(s.driver, 'trace', '0.0,teapot,0.1');
      const tr = await until(async () => {
        const m = await fieldMessage(s.driver, 'trace');
        return m.text ? m : null;
      }, 'the trace\'s message');
      assert.match(tr.text, /^trace line 1, field outcome: unknown outcome/);
      assert.equal(tr.invalid, true);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a long run plays at a speed that shows it move, until the user picks a speed', async () => {
      // At 10× a week took 17 hours to play and a month three days: Play seemed to do nothing.
      const speed = () => page(s.driver, () => [window.playground.state.speed, document.querySelector('#playground .transport select').value]);
      await open(s);
      assert.deepEqual(await speed(), [10, '10'], 'a minute at 10×');
      await open(s, '?v=1&preset=bad-day');
      assert.deepEqual(await speed(), [600, '600'], 'a day at 10 min/s (2.4 min)');
      await open(s, '?v=1&preset=normal-week');
      assert.deepEqual(await speed(), [3600, '3600'], 'a week at 1 h/s (2.8 min)');
      // Picked by the user, a speed stays through a run of another length.
      await page(s.driver, () => { const sel = document.querySelector('#playground .transport select'); sel.value = '60'; sel.dispatchEvent(new Event('change')); });
      const runs = await runsShown(s.driver);
      await page(s.driver, () => { const sel = [...document.querySelectorAll('#playground .controls select')][0]; sel.value = 'busy-service'; sel.dispatchEvent(new Event('change')); });
      await waitSettled(s.driver, runs, 120_000);
      assert.equal(await page(s.driver, () => window.playground.state.end), 30 * 86400);
      assert.deepEqual(await speed(), [60, '60'], 'the speed picked');
      assert.deepEqual(await pageErrors(s), []);
    });

    test('play at the end of the run starts again from 0', async () => {
      await open(s);
      const end = await page(s.driver, () => window.playground.state.end);
      await page(s.driver, (t) => window.playground.seek(t), end);
      await until(() => page(s.driver, (t) => window.playground.state.t >= t - 1e-9, end), 'the cursor at the end');
      await s.driver.findElement({ xpath: "//button[normalize-space(.)='▶ Play']" }).click();
      // Before the fix the first frame found the cursor still at the end and paused at once.
      await until(() => page(s.driver, (t) => window.playground.state.playing && window.playground.state.t > 0 && window.playground.state.t < t / 2, end),
        'playing from the start');
      await page(s.driver, () => document.querySelector('#playground .transport button.primary').click());
      assert.deepEqual(await pageErrors(s), []);
    });

    test('times are cut to the hundredth, never rounded up, and never carry over: 59.997 s reads 0:59.99', async () => {
      // Rounded, the clock ran ahead of the calls: 29.597 s read 0:29.60 beside the call before
      // the one at 29.60. A time given in hundredths reads as itself (0.29 * 100 < 29 in floats).
      await open(s);
      const shown = await page(s.driver, async () => {
        const { clock } = await import('./src/format.js');
        return [59.997, 3599.995, 86399.999, 2 * 86400 - 0.004, 61.004, -59.999, 29.597, 29.6, 0.29, 0.57, 1e-7, 30 * 86400].map(clock);
      });
      assert.deepEqual(shown, ['0:59.99', '59:59.99', '23:59:59.99', '1 d 23:59:59.99', '1:01.00', '−0:59.99',
        '0:29.59', '0:29.60', '0:00.29', '0:00.57', '0:00.00', '30 d 00:00:00.00']);
    });

    test('a copied link keeps the cursor time to the last digit: it opens on the same call', async () => {
      // bad-day's calls are not on a 1 ms grid: a link rounded to 3 decimals opened a call early.
      await open(s, '?v=1&preset=bad-day');
      for (let i = 0; i < 2; i++) await newSnap(s, () => button(s, 'Step one call').click(), 'step');
      const t = await page(s.driver, () => window.playground.state.t);
      await page(s.driver, () => {
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (x) => { window.__copied = x; } } });
      });
      await s.driver.findElement({ xpath: "//button[normalize-space(.)='Copy link']" }).click();
      const link = await until(() => page(s.driver, () => window.__copied), 'the copied link');
      assert.equal(Number(new URL(link).searchParams.get('t')), t, link);
    });

    test('"Download scenario" saves the settings as JSON that the command line replays to the same run', async () => {
      await open(s);
      // Capture the file the link saves (a headless browser's download folder is not ours).
      await page(s.driver, () => {
        window.__saved = null;
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (!this.download) return click.call(this);
          const name = this.download;
          fetch(this.href).then((r) => r.text()).then((text) => { window.__saved = { name, text }; });
        };
      });
      // The preset as it is: under its own name.
      await s.driver.findElement({ xpath: "//button[normalize-space(.)='Download scenario']" }).click();
      const preset = await until(() => page(s.driver, () => window.__saved), 'the preset\'s file');
      assert.equal(preset.name, 'recovery-warmup.json');
      assert.equal(JSON.parse(preset.text).seed, (await pageState(s.driver)).scenario.seed);
      await page(s.driver, () => { window.__saved = null; });
      await change(s, 'seed', 11);
      await change(s, 'window.sliding_window_size', 12);
      const here = await pageState(s.driver, { hash: true });
      await s.driver.findElement({ xpath: "//button[normalize-space(.)='Download scenario']" }).click();
      const saved = await until(() => page(s.driver, () => window.__saved), 'the saved file');
      // Edited, it keeps the preset's name inside but not as the file's: beside the preset's
      // own file it would pass for it, or overwrite it.
      assert.equal(saved.name, 'recovery-warmup-edited.json');
      assert.deepEqual(JSON.parse(saved.text), here.scenario, 'the settings of the run shown, edits included');
      const msg = await until(async () => {
        const t = await s.driver.findElement({ css: '#playground .copy' }).getText();
        return /trace [0-9a-f]{16}/.test(t) && t;
      }, 'the saved message with the trace hash');
      assert.match(msg, /Saved recovery-warmup-edited\.json\. breaker run --scenario recovery-warmup-edited\.json replays this run \(\d+ calls, trace [0-9a-f]{16}\)\. Its “statistical” and “window” settings are the breaker crate's StatisticalSettings and WindowSettings as serde reads them, for a Rust service's configuration\.$/);
      assert.equal(/trace ([0-9a-f]{16})/.exec(msg)[1], here.hash.slice(0, 16), 'the page\'s own trace hash');
      // The file itself, not the page's object, through the command line.
      const dir = mkdtempSync(join(tmpdir(), 'e2e-saved-'));
      try {
        const file = join(dir, saved.name);
        writeFileSync(file, saved.text);
        const [cmd, pre] = process.env.BREAKER_BIN ? [process.env.BREAKER_BIN, []] : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
        const out = execFileSync(cmd, [...pre, 'run', '--scenario', file], { cwd: ROOT, encoding: 'utf8' });
        assert.equal(/trace ([0-9a-f]{16})/.exec(out)[1], here.hash.slice(0, 16), 'the command line\'s run of the saved file');
        // The calls the message gives are the command line's too (the hash is of the state
        // changes only).
        assert.equal(/\((\d+) calls/.exec(msg)[1], /, (\d+) calls over /.exec(out)[1]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      // A new run makes the message stale: it goes.
      await change(s, 'seed', 12);
      assert.doesNotMatch(await s.driver.findElement({ css: '#playground .copy' }).getText(), /Saved/);
      // Saved while a long run of new settings is computed: the run shown (checked), not the
      // settings the simulator has yet to accept.
      const shown = (await pageState(s.driver)).scenario;
      const n = await runsShown(s.driver);
      await page(s.driver, () => { window.__saved = null; });
      await setField(s.driver, 'duration', 30 * 86400);
      await s.driver.findElement({ xpath: "//button[normalize-space(.)='Download scenario']" }).click();
      const during = await until(() => page(s.driver, () => window.__saved), 'the file saved during the run');
      assert.deepEqual(JSON.parse(during.text), shown, 'the run shown, not the one being computed');
      assert.equal(JSON.parse(during.text).seed, 12);
      assert.match(await s.driver.findElement({ css: '#playground .copy' }).getText(), /replays the run shown\. Its “statistical” and “window” settings/);
      await waitSettled(s.driver, n, 120_000);
      assert.doesNotMatch(await s.driver.findElement({ css: '#playground .copy' }).getText(), /Saved/, 'gone with the run it was about');
      // A run with no state change: its hash is of nothing (as every such run's is), said.
      await change(s, 'duration', 1);
      assert.equal(await page(s.driver, () => window.playground.state.eventsTotal), 0);
      await s.driver.findElement({ xpath: "//button[normalize-space(.)='Download scenario']" }).click();
      const none = await until(async () => {
        const t = await s.driver.findElement({ css: '#playground .copy' }).getText();
        return /trace [0-9a-f]{16}/.test(t) && t;
      }, 'the saved message of a run with no state change');
      assert.match(none, /replays this run \(\d+ calls, trace e3b0c44298fc1c14: no state changes, the hash of none\)\./);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('"Open scenario…" shows the run of a scenario file, as the command line runs it; a bad file says why', async () => {
      await open(s);
      // A file as a person writes one for the command line: units, a partial scenario.
      const text = JSON.stringify({ name: 'opened', seed: 31, duration: '2h', traffic: { calls_per_minute: 240 } });
      const choose = (name, body) => chooseFile(s, name, body);
      const copyText = () => s.driver.findElement({ css: '#playground .copy' }).getText();
      // The file dialog offers recorded traces too (it showed JSON files only).
      assert.equal(await page(s.driver, () => document.querySelector('#playground .copy input[type=file]').accept), '.json,.csv,application/json,text/csv');
      const n = await runsShown(s.driver);
      await choose('opened.json', text);
      await waitSettled(s.driver, n, 60_000);
      assert.match(await until(async () => /Opened/.test(await copyText()) && copyText(), 'the opened message'), /Opened opened\.json\./);
      const here = await pageState(s.driver, { hash: true });
      assert.equal(here.scenario.seed, 31);
      assert.equal(here.scenario.duration, 7200);
      assert.equal(here.scenario.traffic.calls_per_minute, 240);
      const dir = mkdtempSync(join(tmpdir(), 'e2e-opened-'));
      try {
        const file = join(dir, 'opened.json');
        writeFileSync(file, text);
        const [cmd, pre] = process.env.BREAKER_BIN ? [process.env.BREAKER_BIN, []] : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
        const out = execFileSync(cmd, [...pre, 'run', '--scenario', file], { cwd: ROOT, encoding: 'utf8' });
        assert.equal(/trace ([0-9a-f]{16})/.exec(out)[1], here.hash.slice(0, 16), 'the command line\'s run of the same file');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      // Not JSON: said, and the run shown stays.
      await choose('notes.txt', 'seed: 3');
      const notes = await until(async () => /not JSON/.test(await copyText()) && copyText(), 'the not-JSON message');
      assert.match(notes, /notes\.txt was not opened: it is not JSON/);
      assert.doesNotMatch(notes, /trace/);
      // A recorded trace (by its rows, or its name): replayed with the settings shown, as if
      // pasted into "Replay a recorded trace" (it was refused as "not JSON", and a trace too long
      // for the text box had no other way in).
      for (const [name, rows] of [['calls.txt', '0.0,success,0.05\n0.2,timeout,30\n'], ['header.txt', 'time_s,outcome,latency_s\n0,200,0.01\n'], ['calls.csv', '0.5,200,0.01\n1,503,0.02\n']]) {
        const before = await runsShown(s.driver);
        await choose(name, rows);
        await waitSettled(s.driver, before, 60_000);
        const said = await until(async () => new RegExp(name.replace('.', '\\.')).test(await copyText()) && copyText(), `the trace ${name}`);
        assert.match(said, new RegExp(`Opened ${name.replace('.', '\\.')} as a trace to replay with these settings`), name);
        const st = await pageState(s.driver);
        assert.equal(st.scenario.trace, rows, name);
        assert.equal(st.scenario.seed, 31, `${name}: the settings shown`);
      }
      // A trace past a million characters (70,000 lines) is held beside the text box, not laid
      // out in it, and runs as it is; "Drop this trace" removes it.
      const big = Array.from({ length: 70000 }, (_, i) => `${(i * 0.1).toFixed(1)},${i % 50 ? 200 : 503},0.02`).join('\n');
      let k = await runsShown(s.driver);
      await choose('big.csv', big);
      await waitSettled(s.driver, k, 120_000);
      const box = () => page(s.driver, () => {
        const f = document.querySelector('.field[data-path="trace"]');
        return { value: f.querySelector('textarea').value, placeholder: f.querySelector('textarea').placeholder, drop: !f.querySelector('.drop-held').hidden, trace: (window.playground.state.scenario.trace || '').length, calls: window.playground.state.metrics.calls };
      });
      let b = await box();
      assert.deepEqual([b.value, b.drop, b.trace, b.calls], ['', true, big.length, 70000]);
      assert.match(b.placeholder, /^A trace of 70,000 lines \(1\.\d MB\) is loaded, too long to show here: it runs as it is\./);
      // Typing replaces it (the box then holds what was typed, nothing held).
      k = await runsShown(s.driver);
      await page(s.driver, () => {
        const t = document.querySelector('.field[data-path="trace"] textarea');
        t.value = '0.5,200,0.01';
        t.dispatchEvent(new Event('input', { bubbles: true }));
        t.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await waitSettled(s.driver, k, 60_000);
      b = await box();
      assert.deepEqual([b.value, b.drop, b.trace, b.calls], ['0.5,200,0.01', false, 12, 1]);
      k = await runsShown(s.driver);
      await choose('big.csv', big);
      await waitSettled(s.driver, k, 120_000);
      k = await runsShown(s.driver);
      await s.driver.findElement({ css: '.field[data-path="trace"] .drop-held' }).click();
      await waitSettled(s.driver, k, 60_000);
      b = await box();
      assert.deepEqual([b.value, b.drop, b.trace], ['', false, 0]);
      // Back to the file's run for what follows.
      k = await runsShown(s.driver);
      await choose('opened.json', text);
      await waitSettled(s.driver, k, 60_000);
      // A bad setting in a partial file: said by the button, and the page is as it was: every
      // field still shown and holding the run's value, nothing marked invalid, nothing dimmed.
      const form = () => page(s.driver, () => ({
        shown: [...document.querySelectorAll('.field[data-path]')].filter((f) => !f.hidden).length,
        traffic: document.querySelector('.field[data-path="traffic.calls_per_minute"] input').value,
        seed: document.querySelector('.field[data-path="seed"] input').value,
        msgs: [...document.querySelectorAll('.controls .msg')].map((m) => m.textContent).join(''),
        stale: document.getElementById('playground').classList.contains('stale'),
      }));
      const before = await form();
      assert.deepEqual([before.traffic, before.seed, before.msgs, before.stale], ['240', '31', '', false]);
      await choose('bad.json', JSON.stringify({ seed: 5, traffic: { calls_per_minute: -1 } }));
      assert.match(await until(async () => /bad\.json/.test(await copyText()) && copyText(), 'the refused message'),
        /Open scenario… bad\.json was not opened: traffic\.calls_per_minute = -1 is invalid/);
      assert.deepEqual(await form(), before);
      // A seed JSON.parse would round: refused as written, not run as another seed.
      await choose('big.json', '{"seed": 18446744073709551615}');
      assert.match(await until(async () => /big\.json/.test(await copyText()) && copyText(), 'the refused seed'),
        /Open scenario… big\.json was not opened: seed = 18446744073709551615 is invalid/);
      assert.deepEqual(await form(), before);
      // A trace the simulator reads only when it runs: the settings are in the form, refused
      // there as after an edit, and the message says the file was not run.
      await choose('trace.json', JSON.stringify({ seed: 6, trace: '0.0,bogus,0.05' }));
      assert.match(await until(async () => /trace\.json/.test(await copyText()) && copyText(), 'the trace refused'),
        /trace\.json was not run: trace line 1.*\(its settings are in the form; the run shown is the last valid one\)/);
      assert.equal((await pageState(s.driver)).scenario.seed, 31, 'the run shown is the last valid one');
      await change(s, 'trace', '');
      // The message is about the file: the next run takes it down.
      await change(s, 'seed', 32);
      assert.doesNotMatch(await copyText(), /big\.json/);
      assert.equal((await pageState(s.driver)).scenario.seed, 32);
      // Opened again over the edit: its settings, the edit's gone.
      await choose('opened.json', text);
      await until(async () => /Opened opened\.json/.test(await copyText()), 'opened again');
      assert.equal((await pageState(s.driver)).scenario.seed, 31);
      // A trace refused while a month opened before is being computed: the month is computed
      // again, and the refusal is said. (The month's second computing counted as another run
      // asked for, and nothing was said beside the button.)
      await choose('month.json', JSON.stringify({ seed: 7, duration: '30d', traffic: { calls_per_minute: 600 } }));
      await until(() => page(s.driver, () => document.getElementById('playground').classList.contains('computing')), 'the month computing');
      const m = await runsShown(s.driver);
      await choose('trace2.json', JSON.stringify({ seed: 8, trace: '0.0,bogus,0.05' }));
      assert.match(await until(async () => /trace2\.json/.test(await copyText()) && copyText(), 'the second trace refused', 60_000),
        /trace2\.json was not run: trace line 1.*\(its settings are in the form; the run shown is the last valid one\)/);
      await waitSettled(s.driver, m, 120_000);
      assert.equal((await pageState(s.driver)).scenario.seed, 7, 'the month, computed again');
      assert.deepEqual(await pageErrors(s), []);
    });

    test('"Open scenario…" of a preset\'s file shows that preset, and of an edited one "(edited)", as a link does', async () => {
      await open(s);
      const preset = (await pageState(s.driver)).scenario;
      assert.equal(preset.name, 'recovery-warmup');
      const choose = (name, body) => chooseFile(s, name, body);
      const look = () => page(s.driver, () => ({
        list: document.querySelector('#playground .control-head select').value,
        line: document.querySelector('#playground .runinfo').textContent,
        href: location.href,
      }));
      // Another run first, so that opening the preset's file is a change.
      await change(s, 'seed', 12);
      let n = await runsShown(s.driver);
      await choose('recovery-warmup.json', JSON.stringify(preset));
      await waitSettled(s.driver, n, 60_000);
      let r = await look();
      // Before, "custom" (and the whole settings in the link): the preset's own file is the preset.
      assert.equal(r.list, 'recovery-warmup');
      assert.match(r.line, /^recovery-warmup: /);
      assert.doesNotMatch(r.href, /statistical\./, 'the link is the preset\'s');
      n = await runsShown(s.driver);
      await choose('mine.json', JSON.stringify({ ...preset, seed: 99 }));
      await waitSettled(s.driver, n, 60_000);
      r = await look();
      assert.equal(r.list, '');
      assert.match(r.line, /^recovery-warmup \(edited\): /);
      assert.match(r.href, /[?&]preset=recovery-warmup&.*seed=99/);
      // Saved, it does not pass for the preset's own file.
      await page(s.driver, () => {
        window.__saved = null;
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (!this.download) return click.call(this);
          window.__saved = this.download;
        };
      });
      await s.driver.findElement({ xpath: "//button[normalize-space(.)='Download scenario']" }).click();
      assert.equal(await until(() => page(s.driver, () => window.__saved), 'the saved file'), 'recovery-warmup-edited.json');
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a copied link reproduces the same run and cursor in a fresh page', async () => {
      await open(s);
      await newSnap(s, () => button(s, 'Next event').click(), 'next event');
      await change(s, 'seed', 7);
      await change(s, 'window.sliding_window_size', 10);
      await newSnap(s, () => button(s, 'Next event').click(), 'next event');
      await newSnap(s, () => button(s, 'Next event').click(), 'next event');
      const here = await pageState(s.driver, { hash: true });
      // Capture what "Copy link" writes (headless browsers may refuse the real clipboard).
      await page(s.driver, () => {
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t) => { window.__copied = t; } } });
      });
      await s.driver.findElement({ xpath: "//button[normalize-space(.)='Copy link']" }).click();
      const link = await until(() => page(s.driver, () => window.__copied), 'the copied link');
      assert.match(link, /[?&]v=1(&|$)/, 'versioned');
      assert.match(link, /[?&]seed=7(&|$)/);
      assert.match(await s.driver.findElement({ css: '#playground .copy' }).getText(), /Link copied/);

      await s.driver.get('about:blank');
      await s.driver.get(link);
      await waitSettled(s.driver);
      await until(() => page(s.driver, (t) => Math.abs(window.playground.state.t - t) < 1e-9, here.t), `the linked cursor time ${here.t} (link ${link})`);
      const there = await pageState(s.driver, { hash: true });
      assert.deepEqual(there.scenario, here.scenario, 'the same settings');
      assert.equal(there.hash, here.hash, 'the same run (trace hash)');
      assert.equal(there.traceRows, here.traceRows);
      assert.equal(there.timeText, here.timeText, 'the same cursor');
      assert.deepEqual({ s: there.statistical, w: there.window }, { s: here.statistical, w: here.window });
      assert.equal(there.hash.slice(0, 16), simulate(there.scenario).hash, 'and the command line\'s run');
      const notice = await page(s.driver, () => document.querySelector('#playground .notice').hidden);
      assert.equal(notice, true, 'no fallback notice');
      assert.deepEqual(await pageErrors(s), []);
    });
  });
}
