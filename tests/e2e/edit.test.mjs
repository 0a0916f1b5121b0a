// Editing a setting, as a user does it: the settings are a "Settings" form landmark made of small
// <form>s (a browser's autofill inspects the whole form of an edited control on every change, so
// the seed's form holds only the preset list and the seed); typing a seed and pressing Enter
// reruns that seed's run (the command line's) without submitting or reloading anything, and the
// chart, the trace and the Now panel show the new run, rewound.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Key } from 'selenium-webdriver';
import { BROWSERS, session, open, page, pageErrors, pageState, simulate, waitSettled, runsShown } from './helpers.mjs';

for (const browser of BROWSERS) {
  describe(`edit [${browser}]`, () => {
    const s = session(browser);

    test('the settings are one labelled form landmark of small forms; the seed\'s form holds the preset list and the seed only', async () => {
      await open(s);
      const r = await page(s.driver, () => {
        const root = document.getElementById('playground');
        const landmark = root.querySelector('.controls');
        const seed = root.querySelector('.controls [data-path="seed"] input');
        const forms = [...landmark.querySelectorAll('form')];
        return {
          role: landmark.getAttribute('role'),
          label: landmark.getAttribute('aria-label'),
          nested: Boolean(landmark.closest('form')),
          forms: forms.length,
          seedForm: seed.form ? [...seed.form.elements].map((e) => e.tagName.toLowerCase()) : null,
          biggest: Math.max(...forms.map((f) => f.elements.length)),
          formless: [...landmark.querySelectorAll('input, select, textarea')].filter((e) => !e.form).length,
        };
      });
      assert.equal(r.role, 'form');
      assert.equal(r.label, 'Settings');
      assert.equal(r.nested, false, 'the landmark is not inside a form');
      assert.ok(r.forms >= 3, `several small forms (got ${r.forms})`);
      assert.deepEqual(r.seedForm, ['select', 'input'], 'the seed shares its form with the preset list only');
      assert.ok(r.biggest < 40, `no form holds most of the settings (largest: ${r.biggest} controls)`);
      assert.equal(r.formless, 0, 'every setting is in one of the forms');
    });

    test('removing or adding a phase from the keyboard keeps its section open and the focus in the list (narrow screen)', async () => {
      // Narrow: every section starts folded, the user opens the one with the phases.
      const rect = await s.driver.manage().window().getRect();
      await s.driver.manage().window().setRect({ width: 600, height: 900 });
      try {
        await open(s);
        const look = () => page(s.driver, () => {
          const d = document.querySelector('#playground details[data-section="scenario"]');
          const a = document.activeElement;
          return {
            open: d.open,
            phases: d.querySelectorAll('fieldset.phase').length,
            focus: a ? `${a.tagName} ${a.textContent}`.trim() : '',
            inLastPhase: Boolean(a && a.closest('fieldset.phase') === [...d.querySelectorAll('fieldset.phase')].pop()),
          };
        });
        assert.equal((await look()).open, false, 'folded at first on a narrow screen');
        await s.driver.findElement({ css: '#playground details[data-section="scenario"] > summary' }).click();
        const before = await look();
        assert.equal(before.open, true);
        let n = await runsShown(s.driver);
        const remove = await s.driver.findElement({ xpath: "//div[@id='playground']//button[normalize-space(.)='Remove phase 2']" });
        await s.driver.executeScript('arguments[0].focus()', remove);
        await remove.sendKeys(Key.ENTER);
        await waitSettled(s.driver, n);
        let r = await look();
        assert.equal(r.phases, before.phases - 1);
        assert.equal(r.open, true, 'the section stays open');
        assert.equal(r.focus, 'BUTTON Remove phase 2', 'the focus on the phase now in its place');
        n = await runsShown(s.driver);
        await s.driver.findElement({ css: '#playground button.add-phase' }).sendKeys(Key.ENTER);
        await waitSettled(s.driver, n);
        r = await look();
        assert.equal(r.phases, before.phases);
        assert.equal(r.open, true, 'the section stays open');
        assert.equal(r.inLastPhase, true, `the focus in the new phase (${r.focus})`);
        assert.deepEqual(await pageErrors(s), []);
      } finally {
        await s.driver.manage().window().setRect({ width: rect.width, height: rect.height });
      }
    });

    test('typing a seed and pressing Enter reruns that seed (the command line\'s run) in place: no submit, no reload', async () => {
      await open(s);
      await page(s.driver, () => { window.__e2eSamePage = true; });
      const before = await pageState(s.driver);
      const n = await runsShown(s.driver);
      const seed = await s.driver.findElement({ css: '#playground .controls [data-path="seed"] input' });
      const next = Number(before.scenario.seed) + 7;
      await seed.click();
      // Select the old value from the page (a Ctrl+A chord leaves Ctrl held in geckodriver).
      await s.driver.executeScript('arguments[0].select()', seed);
      await seed.sendKeys(String(next));
      await seed.sendKeys(Key.ENTER);
      await waitSettled(s.driver, n);
      const after = await pageState(s.driver, { hash: true });
      assert.equal(await page(s.driver, () => window.__e2eSamePage === true), true, 'the same page (not reloaded or submitted)');
      assert.equal(after.scenario.seed, next);
      assert.match(after.href, new RegExp(`[?&]seed=${next}(&|$)`), 'the URL holds the seed');
      const cli = simulate(after.scenario);
      assert.equal(after.hash.slice(0, 16), cli.hash, 'the command line\'s run of the new seed');
      assert.equal(after.traceRows, cli.events.length, 'the trace lists the new run\'s events');
      assert.equal(after.t, 0, 'rewound');
      assert.equal(after.timeText, '0:00.00');
      assert.match(after.runInfo, new RegExp(`seed ${next}\\b`), 'the run line names the seed');
      // The chart is drawn, and its note describes the series of the run shown.
      const chart = await page(s.driver, async () => {
        const S = window.playground.state;
        const fresh = await window.playground.engine.call('series', { t0: 0, t1: S.end, buckets: 600 });
        const shown = document.querySelector('#playground .panel-chart .uplot');
        return { buckets: fresh.t.length, note: document.querySelector('#playground .chart-note').textContent, drawn: Boolean(shown) };
      });
      assert.ok(chart.drawn, 'the chart is there');
      assert.match(chart.note, new RegExp(`^${chart.buckets} buckets`), 'the chart note describes the series shown');
      assert.deepEqual(await pageErrors(s), []);
    });
  });
}
