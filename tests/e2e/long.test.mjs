// A long run (the busy-service preset: a month at 600 calls/min) is computed in the worker with a
// progress bar, the page stays responsive, and Cancel keeps the part computed so far.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSERS, ROOT, session, open, page, pageErrors, until, runsShown, waitSettled, setField, fieldMessage } from './helpers.mjs';

/** `breaker run --scenario <scenario> --format text`'s output (the CLI the page is checked against). */
function cliText(scenario) {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-cut-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify(scenario));
  const [cmd, pre] = process.env.BREAKER_BIN
    ? [process.env.BREAKER_BIN, []]
    : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
  try {
    return execFileSync(cmd, [...pre, 'run', '--scenario', file], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const progress = (driver) => page(driver, () => {
  const row = document.querySelector('#playground .progress');
  return { shown: !row.hidden, value: Number(row.querySelector('progress').value), text: row.textContent };
});

for (const browser of BROWSERS) {
  describe(`long run [${browser}]`, () => {
    const s = session(browser);

    test('busy-service shows progress, keeps the page responsive, and can be cancelled', async () => {
      await open(s);
      const n = await runsShown(s.driver);
      await page(s.driver, () => {
        const sel = [...document.querySelectorAll('#playground .controls select')].find((el) => [...el.options].some((o) => o.value === 'busy-service'));
        sel.value = 'busy-service';
        sel.dispatchEvent(new Event('change', { bubbles: true }));
      });
      const first = await until(async () => {
        const p = await progress(s.driver);
        return p.shown && p.value > 0 ? p : null;
      }, 'the progress bar to show and move', 20_000, 20);
      assert.ok(first.value < 1, 'not done yet');
      // The page answers while the worker computes: a script runs on the main thread and finds
      // the run still going (a frozen main thread would answer only once the month was done).
      const mid = await progress(s.driver);
      assert.ok(mid.shown && mid.value < 1, `the run went on while the page answered: ${JSON.stringify(mid)}`);
      const later = await until(async () => {
        const p = await progress(s.driver);
        return p.value > first.value ? p : null;
      }, 'the progress to advance', 20_000, 50);
      assert.match(later.text, /\d+%/);
      // The run is drawn as it goes: the chart holds the part computed so far on the month's time
      // axis, with every bucket after the time reached empty (NaN), not a state carried on.
      const partial = await until(() => page(s.driver, () => {
        const earlier = (sel) => {
          const panel = document.querySelector(`#playground ${sel}`);
          const style = getComputedStyle(panel);
          return { border: style.borderTopStyle, note: getComputedStyle(panel.querySelector(':scope > h2'), '::after').content, opacity: style.opacity };
        };
        const row = document.querySelector('#playground .progress');
        const sh = window.playground.chart.shown();
        if (row.hidden || !sh || sh.t1 !== 30 * 86400) return null;
        const known = (c) => [...sh[c]].map((v) => !Number.isNaN(v));
        const answered = known('s_answered');
        const last = answered.lastIndexOf(true);
        return {
          last, n: answered.length, bucket: sh.bucket,
          // Every column: known up to `last` (+1: the bucket reached is part known), none after.
          after: Object.keys(sh).filter((k) => /^[sw]_/.test(k)).filter((k) => known(k).slice(last + 2).some(Boolean)),
          levelsBefore: known('s_level_max').slice(0, last).every(Boolean),
          stillRunning: !row.hidden,
          runInfo: document.querySelector('#playground .runinfo').textContent,
          marked: earlier('.panel-now'),
          chartMarked: earlier('.panel-chart'),
        };
      }), 'a partial chart of the month', 20_000, 20);
      assert.equal(partial.n, 600);
      assert.ok(partial.last >= 0 && partial.last < 599, `buckets known up to ${partial.last} of 600`);
      assert.deepEqual(partial.after, [], 'no column has values after the time reached');
      assert.equal(partial.levelsBefore, true, 'the score is drawn up to the time reached');
      // The other panels are still the last run's: marked, and the run line says so.
      assert.match(partial.runInfo, /^The chart fills in as the run is computed; the other panels show the last run/);
      // Marked so at full contrast (dimmed, their text fell under WCAG's 4.5:1).
      assert.deepEqual(partial.marked, { border: 'dashed', note: '" · earlier run"', opacity: '1' });
      assert.deepEqual(partial.chartMarked, { border: 'solid', note: 'none', opacity: '1' });
      // A zoom key on the chart while the run computes fetches nothing (the range is not computed
      // yet): the view stays the whole run on every plot, and the live region says why.
      const calls = await page(s.driver, () => {
        const e = window.playground.engine;
        window.__seriesCalls = 0;
        if (!e.__counted) {
          const call = e.call.bind(e);
          e.call = (op, args) => { if (op === 'series') window.__seriesCalls += 1; return call(op, args); };
          e.__counted = true;
        }
        const box = document.querySelector('#playground .chart-plots');
        box.focus();
        box.dispatchEvent(new KeyboardEvent('keydown', { key: '+', bubbles: true, cancelable: true }));
        const whole = () => window.playground.chart.xScales().every(([a, b]) => a === 0 && b === 30 * 86400);
        const atOnce = whole();
        const said = box.parentNode.querySelector('[aria-live]').textContent;
        const busy = box.parentNode.querySelector('.chart-busy');
        const shownNote = busy && !busy.hidden ? busy.textContent : null;
        // Looked at again at the run's first progress report past the zoom's 120 ms debounce
        // (app.js), while the month is still being computed: the key fetched nothing in
        // between. (A report, not a fixed time: it held 400 ms, which a machine some 8x
        // faster would outlast.)
        const computing = () => !document.querySelector('#playground .progress').hidden;
        const bar = document.querySelector('#playground .progress progress');
        const t0 = performance.now();
        let f0 = null;
        return new Promise((ok) => {
          const look = () => {
            if (f0 === null && performance.now() - t0 >= 150) f0 = bar.value;
            if ((f0 === null || bar.value === f0) && computing()) return setTimeout(look, 10);
            ok({
              n: window.__seriesCalls, view: window.playground.state.view, computing: computing(),
              atOnce, later: whole(), said, shownNote,
            });
          };
          look();
        });
      });
      assert.equal(calls.computing, true, 'the month is still being computed');
      assert.deepEqual({ n: calls.n, view: calls.view, atOnce: calls.atOnce, later: calls.later }, { n: 0, view: null, atOnce: true, later: true });
      assert.equal(calls.said, 'The run is still being computed: zoom once it is done.');
      assert.equal(calls.shownNote, calls.said, 'and shown above the charts, not only read out');

      await s.driver.findElement({ xpath: "//div[contains(@class,'progress')]//button[normalize-space(.)='Cancel']" }).click();
      await waitSettled(s.driver, n, 20_000);
      const r = await page(s.driver, async () => {
        const S = window.playground.state;
        return {
          runInfo: document.querySelector('#playground .runinfo').textContent,
          busyNoteHidden: document.querySelector('#playground .chart-busy').hidden,
          progressHidden: document.querySelector('#playground .progress').hidden,
          marked: getComputedStyle(document.querySelector('#playground .panel-now')).borderTopStyle,
          reached: S.reached, end: S.end, name: S.info.name, preset: S.preset,
          complete: S.metrics.complete, calls: S.metrics.calls,
          stepEnabled: [...document.querySelectorAll('#playground .transport button')].every((b) => !b.disabled),
          rows: document.querySelectorAll('#playground .panel-trace tbody tr').length,
          // The chart of the part computed: buckets after the one holding the time reached empty.
          chartAfter: (() => {
            const sh = window.playground.chart.shown();
            const first = Math.floor((S.reached - sh.t0) / sh.bucket) + 1;
            return { t1: sh.t1, first, known: Object.keys(sh).filter((k) => /^[sw]_/.test(k) && [...sh[k]].slice(first).some((v) => !Number.isNaN(v))) };
          })(),
        };
      });
      assert.match(r.runInfo, /^Cancelled: computed up to/);
      assert.equal(r.progressHidden, true, 'the progress bar goes');
      assert.equal(r.busyNoteHidden, true, 'the zoom note goes with the run cut short');
      assert.equal(r.marked, 'solid', 'the panels show the part computed, not marked as an earlier run');
      assert.equal(r.complete, false);
      assert.ok(r.reached > 0 && r.reached < r.end, `part of the run: ${r.reached} of ${r.end} s`);
      assert.ok(r.calls > 0);
      assert.equal(r.chartAfter.t1, r.end, 'the chart keeps the whole run\'s time axis');
      assert.ok(r.chartAfter.first < 600);
      assert.deepEqual(r.chartAfter.known, [], 'nothing is drawn after the time reached');
      assert.equal(r.stepEnabled, true, 'the computed part can be played');
      // The part computed is viewable: stepping works.
      const before = await page(s.driver, () => window.playground.state.snap.calls);
      await s.driver.findElement({ xpath: "//div[@class='transport']//button[normalize-space(.)='Step one call']" }).click();
      await until(() => page(s.driver, (c) => window.playground.state.snap.calls === c + 1, before), 'a step after cancelling');
      // A seek past the part computed stops at it (the wasm would compute past it, in one go).
      await page(s.driver, () => window.playground.seek(window.playground.state.end));
      const at = await until(() => page(s.driver, () => {
        const S = window.playground.state;
        return S.snap.t_s > 0.5 * S.reached ? { t: S.snap.t_s, reached: S.reached } : null;
      }), 'the cursor at the time reached');
      assert.ok(at.t <= at.reached, `cursor ${at.t} s within the ${at.reached} s computed`);
      // Next event and a step from there stay within it too (before, they went on to the
      // outage on day 14, past the part the panels show).
      await page(s.driver, () => { window.__runInfoBefore = document.querySelector('#playground .runinfo').textContent; });
      await s.driver.findElement({ xpath: "//div[@class='transport']//button[normalize-space(.)='Next event']" }).click();
      const next = await until(() => page(s.driver, () => {
        const S = window.playground.state;
        const text = document.querySelector('#playground .runinfo').textContent;
        return text !== window.__runInfoBefore || S.snap.t_s !== S.reached ? { t: S.snap.t_s, reached: S.reached, text } : null;
      }), 'next event answered', 30_000);
      assert.ok(next.t <= next.reached, `next event: cursor ${next.t} s within the ${next.reached} s computed`);
      if (next.t === next.reached) assert.equal(next.text, 'No more state changes in the part computed.');
      // The step's answer, whenever it comes (a fixed wait could end before it, and then read the
      // cursor where next event left it).
      await page(s.driver, () => { window.__e2eSnap = window.playground.state.snap; });
      await s.driver.findElement({ xpath: "//div[@class='transport']//button[normalize-space(.)='Step one call']" }).click();
      const stepped = await until(() => page(s.driver, () => {
        const S = window.playground.state;
        return S.snap !== window.__e2eSnap && { t: S.snap.t_s, reached: S.reached };
      }), 'the step answered');
      assert.ok(stepped.t <= stepped.reached, `a step: cursor ${stepped.t} s within the ${stepped.reached} s computed`);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('an invalid edit while a month computes keeps that month: it is computed again, the error stays', async () => {
      await open(s);
      await page(s.driver, () => {
        const sel = [...document.querySelectorAll('#playground .controls select')].find((el) => [...el.options].some((o) => o.value === 'busy-service'));
        sel.value = 'busy-service';
        sel.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await until(async () => {
        const p = await progress(s.driver);
        return p.shown && p.value > 0.05 ? p : null;
      }, 'the month part computed', 20_000, 20);
      // The simulator refuses a broken rate under the fine one (5%): the month stopped for it
      // must not be left cut short behind the last valid run's panels.
      await setField(s.driver, 'statistical.broken_rate', '1');
      await until(async () => (await fieldMessage(s.driver, 'statistical.broken_rate')).invalid, 'the field marked invalid');
      const done = await until(() => page(s.driver, () => {
        const S = window.playground.state;
        return S.loaded && S.info && S.info.name === 'busy-service' && S.metrics && S.metrics.complete
          ? { end: S.end, reached: S.reached, scenarioBroken: S.scenario.statistical.broken_rate } : null;
      }), 'the month computed again, whole', 60_000, 100);
      assert.equal(done.reached, done.end, 'the whole month, not the part computed before the edit');
      assert.equal(done.scenarioBroken, 0.2, 'the settings shown are the last valid ones');
      const msg = await fieldMessage(s.driver, 'statistical.broken_rate');
      assert.equal(msg.invalid, true, 'the error stays on its field');
      assert.match(msg.text, /broken_rate/);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a breaker that changes state every call: the run is cut short, where the CLI cuts it, and says so', async () => {
      // A day down with waits of 1 ms: both breakers reopen on nearly every call, and the
      // window's log reaches sim::MAX_EVENTS (2^20 changes) within the day.
      const q = new URLSearchParams({
        v: '1', preset: 'busy-service', duration: '86400', seed: '1',
        dependency: JSON.stringify([{ start: 0, label: 'down', condition: 'outage', failure_rate: 1 }]),
        'statistical.first_wait': '0.001', 'statistical.wait_cap': '0.001',
        'window.wait_duration_in_open_state': '0.001', 'window.sliding_window_size': '2',
        'window.minimum_number_of_calls': '1', 'window.permitted_number_of_calls_in_half_open_state': '1',
      });
      await open(s, `?${q}`, { waitReady: false });
      await waitSettled(s.driver, 0, 90_000);
      const got = await page(s.driver, () => {
        const S = window.playground.state;
        return {
          cut: S.metrics.cut_at_s, complete: S.complete, reached: S.reached, end: S.end,
          scenario: S.scenario, runInfo: document.querySelector('#playground .runinfo').textContent,
          verdict: (document.querySelector('#playground .verdict-summary') || {}).textContent || '',
          metricsHelp: [...document.querySelectorAll('#playground .panel-metrics .help')].map((e) => e.textContent).join(' '),
        };
      });
      assert.equal(got.end, 86400);
      assert.ok(got.cut > 3600 && got.cut < 86400, `cut at ${got.cut}`);
      assert.equal(got.reached, got.cut);
      assert.match(got.runInfo, /: cut short at .+ of .+: a breaker changed state over a million times, the most a run keeps/);
      // Judged and counted on the part computed, as a cancelled run is.
      assert.match(got.verdict, /^The run was cut short \(a breaker changed state over a million times\): judged on the part computed only\./);
      assert.match(got.metricsHelp, /The run was cut short: these count the part computed\./);
      // The same cut, to the last bit, natively.
      const m = /cut short at (\S+) s:/.exec(cliText(got.scenario));
      assert.ok(m, 'the CLI says the run was cut short');
      assert.equal(Number(m[1]), got.cut);
      assert.deepEqual(await pageErrors(s), []);
    });
  });
}
