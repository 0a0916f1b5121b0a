// A long run (the busy-service preset: a month at 600 calls/min) is computed in the worker with a
// progress bar, the page stays responsive, and Cancel keeps the part computed so far.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSERS, session, open, page, pageErrors, until, runsShown, waitSettled } from './helpers.mjs';

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
      const t0 = Date.now();
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
      // The page answers while the worker computes (a script round trip, not a frozen main thread).
      const ping = Date.now();
      await page(s.driver, () => document.title);
      assert.ok(Date.now() - ping < 1000, `the page answered in ${Date.now() - ping} ms`);
      const later = await until(async () => {
        const p = await progress(s.driver);
        return p.value > first.value ? p : null;
      }, 'the progress to advance', 20_000, 50);
      assert.match(later.text, /\d+%/);

      await s.driver.findElement({ xpath: "//div[contains(@class,'progress')]//button[normalize-space(.)='Cancel']" }).click();
      await waitSettled(s.driver, n, 20_000);
      const r = await page(s.driver, async () => {
        const S = window.playground.state;
        return {
          runInfo: document.querySelector('#playground .runinfo').textContent,
          progressHidden: document.querySelector('#playground .progress').hidden,
          reached: S.reached, end: S.end, name: S.info.name, preset: S.preset,
          complete: S.metrics.complete, calls: S.metrics.calls,
          stepEnabled: [...document.querySelectorAll('#playground .transport button')].every((b) => !b.disabled),
          rows: document.querySelectorAll('#playground .panel-trace tbody tr').length,
        };
      });
      assert.match(r.runInfo, /^Cancelled: computed up to/);
      assert.equal(r.progressHidden, true, 'the progress bar goes');
      assert.equal(r.complete, false);
      assert.ok(r.reached > 0 && r.reached < r.end, `part of the run: ${r.reached} of ${r.end} s`);
      assert.ok(r.calls > 0);
      assert.equal(r.stepEnabled, true, 'the computed part can be played');
      // The part computed is viewable: stepping works.
      const before = await page(s.driver, () => window.playground.state.snap.calls);
      await s.driver.findElement({ xpath: "//div[@class='transport']//button[normalize-space(.)='Step one call']" }).click();
      await until(() => page(s.driver, (c) => window.playground.state.snap.calls === c + 1, before), 'a step after cancelling');
      assert.ok(Date.now() - t0 < 60_000);
      assert.deepEqual(await pageErrors(s), []);
    });
  });
}
