// Editing a setting, as a user does it: the settings are a "Settings" form landmark made of small
// <form>s (a browser's autofill inspects the whole form of an edited control on every change, so
// the seed's form holds only the preset list and the seed); typing a seed and pressing Enter
// reruns that seed's run (the command line's) without submitting or reloading anything, and the
// chart, the trace and the Now panel show the new run, rewound. Seeds (and every other whole
// number) are exact or refused: the page holds them as JS numbers, exact only up to 2^53 - 1, so
// a bigger one in a link, a scenario attribute or the field is refused naming the field, the
// value as written and the range, never run as the number it rounds to.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Key, logging } from 'selenium-webdriver';
import { BROWSERS, session, open, page, pageErrors, pageState, simulate, waitSettled, runsShown, until, setField, fieldMessage, addPlaygrounds, clearLogs } from './helpers.mjs';

const MAX = '9007199254740991';

const span = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** The phase list as shown: phases, forms, legends' numbers, paging, and where the focus is. */
const listShape = (s) => page(s.driver, () => {
  const list = document.querySelector('#playground .list[data-list="dependency"]');
  const forms = [...list.querySelectorAll('form:not(.list-nav)')];
  const a = document.activeElement;
  const nav = list.querySelector('.list-nav');
  const described = nav && document.getElementById(nav.querySelector('button').getAttribute('aria-describedby'));
  return {
    phases: list.querySelectorAll('fieldset.phase').length,
    forms: forms.length,
    perForm: forms.map((f) => f.querySelectorAll('fieldset.phase').length),
    formless: [...list.querySelectorAll('input, select, textarea')].filter((e) => !e.form).length,
    legends: [...list.querySelectorAll('fieldset.phase legend')].map((l) => Number(/^Phase (\d+)/.exec(l.textContent)[1])),
    ranges: [...list.querySelectorAll('.list-nav .list-range')].map((x) => x.textContent),
    disabled: nav ? [...nav.querySelectorAll('button')].map((b) => `${b.textContent}: ${b.disabled}`) : [],
    described: described ? described.textContent : null,
    focus: a ? (a.closest('.field') ? a.closest('.field').dataset.path : `${a.tagName} ${a.textContent}`.trim()) : '',
  };
});

/** A button of the paging bar below the phases. */
const bottom = (s, text) => s.driver.findElement({ xpath: `//div[@data-list='dependency']//form[@data-where='bottom']//button[normalize-space(.)='${text}']` });

/** "Go to phase" `k` (typed, then committed as Enter or leaving the field does). */
const goTo = (s, k) => page(s.driver, (v) => {
  const g = document.querySelector('#playground .list-nav input.goto');
  g.value = v;
  g.dispatchEvent(new Event('change', { bubbles: true }));
}, k);

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

    test('a link with 201 phases: 50 shown at a time (all shown, 4,000 took 30 s in Chromium), in order and in forms; Next, Go to phase, edits, removing and adding at the end', async () => {
      // 201 phases: a link of about 11 kB (the test server, as many, takes 16 kB of headers).
      const n = 201;
      const deps = Array.from({ length: n }, (_, i) => ({ start: i * 60, failure_rate: i % 2 ? 0.5 : 0.01 }));
      const q = new URLSearchParams({ v: '1', preset: 'recovery-warmup', duration: String(n * 60), dependency: JSON.stringify(deps) });
      await open(s, `?${q}`);
      const shape = () => listShape(s);
      let r = await shape();
      assert.equal(r.phases, 50);
      assert.equal(r.forms, 25, 'two phases a form');
      assert.equal(r.perForm.reduce((a, b) => a + b, 0), 50);
      assert.equal(r.formless, 0, 'every phase\'s setting, and the paging, is in a form');
      assert.deepEqual(r.legends, span(1, 50), 'in order');
      assert.deepEqual(r.ranges, ['Phases 1–50 of 201', 'Phases 1–50 of 201'], 'above and below the phases');
      assert.deepEqual(r.disabled, ['◀ Previous 50: true', 'Next 50 ▶: false']);
      assert.equal(r.described, 'Phases 1–50 of 201', 'the paging buttons are described by the range');
      // Next, from the list's bottom: the next 50, read from the top (the focus on the top Next).
      await (await bottom(s, 'Next 50 ▶')).click();
      r = await shape();
      assert.deepEqual(r.legends, span(51, 100));
      assert.deepEqual(r.ranges, ['Phases 51–100 of 201', 'Phases 51–100 of 201']);
      assert.equal(r.focus, 'BUTTON Next 50 ▶');
      assert.equal(r.formless, 0);
      // Go to phase 201 (typed past the end: the last): its page, alone, the focus in its first field.
      await goTo(s, '999');
      r = await shape();
      assert.deepEqual(r.legends, [201]);
      assert.equal(r.focus, 'dependency.200.start');
      assert.deepEqual(r.disabled, ['◀ Previous 50: false', 'Next 50 ▶: true']);
      let before = await runsShown(s.driver);
      await setField(s.driver, `dependency.${n - 1}.failure_rate`, '100');
      await waitSettled(s.driver, before, 60_000);
      const st = await pageState(s.driver);
      assert.equal(st.scenario.dependency[n - 1].failure_rate, 1);
      assert.equal(st.scenario.dependency[n - 2].failure_rate, deps[n - 2].failure_rate);
      // Removing the only phase of the last page: the page before, the focus on its last phase's
      // Remove.
      before = await runsShown(s.driver);
      await page(s.driver, () => document.querySelector('#playground .list[data-list="dependency"] button.remove-phase').click());
      await waitSettled(s.driver, before, 60_000);
      r = await shape();
      assert.deepEqual(r.legends, span(151, 200));
      assert.deepEqual(r.ranges, ['Phases 151–200 of 200', 'Phases 151–200 of 200']);
      assert.equal(r.focus, 'BUTTON Remove phase 200');
      // Adding one from the first page: the last page, the focus in the new phase.
      await goTo(s, '1');
      assert.deepEqual((await shape()).legends, span(1, 50));
      before = await runsShown(s.driver);
      await s.driver.findElement({ css: '#playground button.add-phase' }).click();
      await waitSettled(s.driver, before, 60_000);
      r = await shape();
      assert.deepEqual(r.legends, [201]);
      assert.equal(r.focus, 'dependency.200.start');
      assert.equal((await pageState(s.driver)).scenario.dependency.length, 201);
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a long list: a value refused at a phase of another page brings that page up, or, with the focus in the list, a button to it; typing then paging leaves no error', async () => {
      const n = 160;
      const deps = Array.from({ length: n }, (_, i) => ({ start: i * 60 }));
      const q = new URLSearchParams({ v: '1', preset: 'recovery-warmup', duration: String(n * 60), dependency: JSON.stringify(deps) });
      await open(s, `?${q}`);
      await goTo(s, '150');
      assert.deepEqual((await listShape(s)).legends, span(101, 150));
      // Phase 150 set past phase 151's start, the focus elsewhere (setField blurs): the simulator
      // names phase 151, whose page is shown with the message at its start.
      await setField(s.driver, 'dependency.149.start', String(150 * 60 + 30));
      const text = "dependency.150.start = 9000 is invalid: allowed the previous phase's start (9030) < x <= 1e9 seconds (dependency.150 is phase 151: the settings count from 0)";
      const msg = await until(async () => {
        const m = await fieldMessage(s.driver, 'dependency.150.start');
        return m && m.text ? m : null;
      }, 'the message at phase 151');
      assert.equal(msg.text, text);
      assert.deepEqual((await listShape(s)).legends, span(151, 160));
      assert.match(await page(s.driver, () => document.querySelector('#playground .runinfo').textContent), /see “Phase 151 › Starts at”/);
      // Away and back: the message comes back with its page.
      await (await bottom(s, '◀ Previous 50')).click();
      assert.deepEqual((await listShape(s)).legends, span(101, 150));
      await (await bottom(s, 'Next 50 ▶')).click();
      assert.deepEqual(await fieldMessage(s.driver, 'dependency.150.start'), msg);
      // Phase 150 back where it was: valid again.
      let before = await runsShown(s.driver);
      await goTo(s, '150');
      await setField(s.driver, 'dependency.149.start', String(149 * 60));
      await waitSettled(s.driver, before, 60_000);
      // The same, the focus left in phase 150's field (a refusal comes 400 ms after typing
      // stops): the page stays, the message goes above the settings with a button to phase 151.
      await page(s.driver, (v) => {
        const input = document.querySelector('#playground .field[data-path="dependency.149.start"] input');
        input.focus();
        input.value = v;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, String(150 * 60 + 30));
      const general = await until(() => page(s.driver, () => document.querySelector('#playground .controls .msg.general').textContent), 'the message above the settings');
      assert.equal(general, "dependency.150.start = 9000 is invalid: allowed the previous phase's start (9030) < x <= 1e9 seconds (dependency.150 is phase 151, on another page of the list) Show phase 151");
      let r = await listShape(s);
      assert.deepEqual(r.legends, span(101, 150), 'the page stays');
      assert.equal(r.focus, 'dependency.149.start', 'the focus stays');
      assert.match(await page(s.driver, () => document.querySelector('#playground .runinfo').textContent), /see “Phase 151 › Starts at”/);
      await s.driver.findElement({ xpath: "//div[@id='playground']//p[contains(@class,'general')]/button[normalize-space(.)='Show phase 151']" }).click();
      r = await listShape(s);
      assert.deepEqual(r.legends, span(151, 160));
      assert.equal(r.focus, 'dependency.150.start');
      assert.equal((await fieldMessage(s.driver, 'dependency.150.start')).text, text);
      // Fixed from there: phase 151 between phase 150 (9030 s) and phase 152 (9060 s).
      before = await runsShown(s.driver);
      await setField(s.driver, 'dependency.150.start', '9045');
      await waitSettled(s.driver, before, 60_000);
      // Typing in a field, then paging before its commit (400 ms after the last key): the typing
      // commits with nothing left to commit to, and says nothing.
      await page(s.driver, () => {
        const input = document.querySelector('#playground .field[data-path="dependency.150.failure_rate"] input');
        input.focus();
        input.value = '2';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        document.querySelector('#playground .list-nav button').click();
      });
      await new Promise((res) => setTimeout(res, 800));
      assert.deepEqual((await listShape(s)).legends, span(101, 150));
      assert.deepEqual(await pageErrors(s), []);
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

    test('removing the first phase starts the next one at 0: the settings stay valid and the run is the command line\'s', async () => {
      await open(s);
      const before = await pageState(s.driver);
      assert.ok(before.scenario.dependency.length >= 2 && before.scenario.dependency[1].start > 0);
      const n = await runsShown(s.driver);
      // Found through the page: the scenario section may be folded.
      await page(s.driver, () => [...document.querySelectorAll('#playground button.remove-phase')]
        .find((b) => b.textContent === 'Remove phase 1').click());
      await waitSettled(s.driver, n);
      const after = await pageState(s.driver, { hash: true });
      assert.equal(after.scenario.dependency.length, before.scenario.dependency.length - 1);
      assert.equal(after.scenario.dependency[0].start, 0);
      assert.equal(after.scenario.dependency[0].label, before.scenario.dependency[1].label);
      assert.doesNotMatch(after.runInfo, /not valid/);
      assert.equal(after.hash.slice(0, 16), simulate(after.scenario).hash, 'the run shown is of the new settings');
      assert.deepEqual(await pageErrors(s), []);
    });

    test('a comma typed in a number field is refused, said and nothing run (Chromium read "2,5" as 25)', async () => {
      await open(s);
      const before = await pageState(s.driver);
      const n = await runsShown(s.driver);
      const rate = await s.driver.findElement({ css: '#playground .controls [data-path="statistical.fine_rate"] input' });
      await rate.click();
      await s.driver.executeScript('arguments[0].select()', rate);
      // Typed on after the comma, as a person who has not seen the message yet does.
      await rate.sendKeys('2,7');
      const said = 'A comma is not read here: write a decimal with a point (2.5), and a number without separators (60000).';
      // Past the typing's commit (400 ms): what was typed before the comma is not run either.
      await new Promise((r) => setTimeout(r, 900));
      let m = await fieldMessage(s.driver, 'statistical.fine_rate');
      assert.deepEqual(m, { text: said, invalid: true, describedBy: true, value: '7' });
      // Nor on Enter: the 7 typed on after the comma is no number the reader meant (it ran 7%).
      await rate.sendKeys(Key.ENTER);
      await new Promise((r) => setTimeout(r, 900));
      assert.equal(await runsShown(s.driver), n, 'nothing run while the message stands');
      assert.deepEqual(await fieldMessage(s.driver, 'statistical.fine_rate'), { text: said, invalid: true, describedBy: true, value: '7' });
      // "1,000.5" typed on: held too (a number input reads "000." as nothing).
      await s.driver.executeScript('arguments[0].select()', rate);
      await rate.sendKeys('1,000.5', Key.ENTER);
      await new Promise((r) => setTimeout(r, 900));
      assert.equal(await runsShown(s.driver), n, 'nothing run for 1,000.5');
      assert.equal((await fieldMessage(s.driver, 'statistical.fine_rate')).text, said);
      // After a pause, typed over, the field is the reader's: it runs, and the message goes.
      await new Promise((r) => setTimeout(r, 1100));
      await s.driver.executeScript('arguments[0].select()', rate);
      await rate.sendKeys('2.7', Key.ENTER);
      await waitSettled(s.driver, n);
      assert.equal((await pageState(s.driver)).scenario.statistical.fine_rate, 0.027);
      m = await fieldMessage(s.driver, 'statistical.fine_rate');
      assert.equal(m.text, '');
      // Pasted, the same; then a point runs.
      await s.driver.executeScript('arguments[0].select()', rate);
      await page(s.driver, () => {
        const input = document.querySelector('#playground .controls [data-path="statistical.fine_rate"] input');
        const dt = new DataTransfer();
        dt.setData('text/plain', '0,5');
        const e = new InputEvent('beforeinput', { inputType: 'insertFromPaste', dataTransfer: dt, cancelable: true, bubbles: true });
        input.dispatchEvent(e);
      });
      m = await fieldMessage(s.driver, 'statistical.fine_rate');
      assert.deepEqual([m.text, m.value], [said, '']);
      const n2 = await runsShown(s.driver);
      // Typed a moment later (the message read): the reader's own number, run.
      await new Promise((r) => setTimeout(r, 1100));
      await rate.sendKeys('2.5', Key.ENTER);
      await waitSettled(s.driver, n2);
      assert.equal((await pageState(s.driver)).scenario.statistical.fine_rate, 0.025);
      assert.equal((await fieldMessage(s.driver, 'statistical.fine_rate')).text, '');
      assert.notEqual(before.scenario.statistical.fine_rate, 0.025);
      // A preset chosen after a comma forgets it: what is typed then runs as ever.
      await s.driver.executeScript('arguments[0].select()', rate);
      await rate.sendKeys('3,');
      const n3 = await runsShown(s.driver);
      await page(s.driver, () => {
        const sel = document.querySelector('#playground .control-head select');
        sel.value = 'bad-day';
        sel.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await waitSettled(s.driver, n3);
      await s.driver.executeScript('arguments[0].select()', rate);
      const n4 = await runsShown(s.driver);
      await rate.sendKeys('4', Key.ENTER);
      await waitSettled(s.driver, n4);
      assert.equal((await pageState(s.driver)).scenario.statistical.fine_rate, 0.04);
      assert.deepEqual(await pageErrors(s), []);
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

    test('the preset list\'s "custom" is a state, not a choice: shown and selected exactly while the settings are no preset\'s', async () => {
      const preset = () => page(s.driver, () => {
        const sel = document.querySelector('#playground .control-head select');
        const custom = [...sel.options].find((o) => o.value === '');
        return {
          value: sel.value, shown: sel.selectedOptions[0].textContent,
          customDisabled: custom.disabled, customHidden: custom.hidden,
          desc: document.querySelector('#playground .preset-desc').textContent,
          story: window.playground.state.presets.find((p) => p.name === window.playground.state.preset).story,
        };
      });
      await open(s);
      let p = await preset();
      assert.equal(p.value, 'recovery-warmup');
      assert.equal(p.customDisabled, true, 'custom cannot be chosen: choosing it did nothing');
      assert.equal(p.customHidden, true, 'not listed while the settings are a preset\'s');
      assert.equal(p.desc, p.story);
      const seed = async (v) => {
        const n = await runsShown(s.driver);
        await setField(s.driver, 'seed', v);
        await waitSettled(s.driver, n);
      };
      // The fields below the story stay where they were when it is swapped for one line: the
      // form jumped up under the pointer between one field's save and the next click.
      const below = () => page(s.driver, () => {
        const desc = document.querySelector('#playground .preset-desc');
        const top = document.querySelector('#playground .controls .field[data-path="statistical.broken_rate"]').getBoundingClientRect().top + window.scrollY;
        const kept = desc.style.minHeight;
        desc.style.minHeight = '';
        const own = desc.offsetHeight;
        desc.style.minHeight = kept;
        return { top, own };
      });
      const before = await below();
      await seed(2);
      p = await preset();
      assert.deepEqual([p.value, p.shown, p.customDisabled, p.customHidden], ['', 'custom', true, false], 'edited: custom, shown and selected');
      assert.equal(p.desc, 'Edited: no longer a preset.');
      const after = await below();
      assert.ok(after.own < before.own, `the one line (${after.own} px) is shorter than the story (${before.own} px)`);
      assert.equal(after.top, before.top, 'the fields below have not moved');
      // Back to the preset's own value: the preset again, with its story.
      await seed(1);
      p = await preset();
      assert.deepEqual([p.value, p.customHidden], ['recovery-warmup', true], 'the preset\'s settings again');
      assert.equal(p.desc, p.story);
      // A link with edits opens as custom, saying so.
      await open(s, '?v=1&seed=5');
      p = await preset();
      assert.deepEqual([p.value, p.shown, p.customHidden], ['', 'custom', false]);
      assert.equal(p.desc, 'Edited: no longer a preset.');
      // A preset's own settings in a link are that preset.
      await open(s, '?v=1&preset=quiet-service');
      p = await preset();
      assert.deepEqual([p.value, p.customHidden], ['quiet-service', true]);
    });

    test('a link\'s duration with its unit and rate in percent are read as the form reads them; other text is refused by the simulator, naming the field and range', async () => {
      // "duration=2h" was refused ("“duration” is not a number") though the form, a scenario file
      // and the embed take it.
      await open(s, `?v=1&preset=recovery-warmup&duration=2h&statistical.fine_rate=${encodeURIComponent('5%')}&statistical.false_alarm_period=1d&callers.call_timeout=1.5m`);
      let st = await pageState(s.driver, { hash: true });
      let notice = await page(s.driver, () => { const n = document.querySelector('#playground .notice'); return n.hidden ? '' : n.textContent; });
      assert.equal(notice, '');
      assert.deepEqual([st.scenario.duration, st.scenario.statistical.fine_rate, st.scenario.statistical.false_alarm_period, st.scenario.callers.call_timeout], [7200, 0.05, 86400, 90]);
      assert.equal(st.hash.slice(0, 16), simulate(st.scenario).hash, 'the command line\'s run');
      assert.equal((await fieldMessage(s.driver, 'duration')).value, '7200', 'the field shows it in seconds');
      // Beside a refused time (t=abc) the settings are still the link's, read the same way: the
      // text had stayed text in the page's state (the derived panel read the call timeout as none).
      await open(s, '?v=1&preset=recovery-warmup&callers.call_timeout=2h&t=abc');
      st = await pageState(s.driver);
      assert.equal(st.scenario.callers.call_timeout, 7200);
      assert.equal(await page(s.driver, () => window.playground.state.shownScenario.callers.call_timeout), 7200);
      const refused = {
        'traffic.calls_per_minute=0x3C': 'traffic.calls_per_minute = "0x3C" is invalid: allowed a number 1e-6 <= x <= 1e7',
        'duration=2hours': 'duration = "2hours" is invalid: unknown duration unit "hours" in "2hours": allowed ms, s, m, h, d, w, 0 < x <= 1e9 seconds',
      };
      const rate = 'statistical.fine_rate = "abc" is invalid: "abc" is not a rate: use 0.05 or 5%, 0 < x < 1';
      for (const [q, why] of Object.entries({ ...refused, 'statistical.fine_rate=abc': rate })) {
        await clearLogs(s);
        await open(s, `?v=1&preset=recovery-warmup&${q}`);
        st = await pageState(s.driver);
        notice = await page(s.driver, () => document.querySelector('#playground .notice').textContent);
        assert.equal(notice, `This link's settings were not valid (${why}); showing the default settings.`, q);
        assert.equal(st.scenario.traffic.calls_per_minute, 300, `${q}: the preset's run`);
        // The refused text never reached the form: Chromium warned that a number field could
        // not parse "abc".
        if (s.browser === 'chromium') {
          const said = (await s.driver.manage().logs().get(logging.Type.BROWSER)).map((e) => e.message).filter((m) => /cannot be parsed/.test(m));
          assert.deepEqual(said, [], q);
        }
      }
    });

    test('a link with a seed past 2^53 - 1, or not whole, is refused naming it as written; the largest runs exactly', async () => {
      const refused = {
        'seed=18446744073709551615': `seed = 18446744073709551615 is invalid: allowed a whole number 0 <= x <= ${MAX}`,
        'seed=9007199254740993': `seed = 9007199254740993 is invalid: allowed a whole number 0 <= x <= ${MAX}`,
        'seed=9007199254740990.7': `seed = 9007199254740990.7 is invalid: allowed a whole number 0 <= x <= ${MAX}`,
        'window.random_seed=18446744073709551615': `window.random_seed = 18446744073709551615 is invalid: allowed a whole number 0 <= x <= ${MAX}`,
        [`dependency=${encodeURIComponent('[{"start":0,"one_in":18446744073709551615}]')}`]:
          'dependency.0.one_in = 18446744073709551615 is invalid: allowed a whole number 0 <= x <= 4294967295',
      };
      for (const [q, why] of Object.entries(refused)) {
        await open(s, `?v=1&${q}`);
        const st = await pageState(s.driver);
        const notice = await page(s.driver, () => document.querySelector('#playground .notice').textContent);
        assert.equal(notice, `This link's settings were not valid (${why}); showing the default settings.`, q);
        assert.equal(st.scenario.seed, 1, `${q}: the default run`);
        assert.equal(st.scenario.window.random_seed, 0, `${q}: the default run`);
      }
      // The largest seed the page holds: the command line's run of it, and the field shows it
      // digit for digit (not rounded to 12 digits).
      for (const seed of [MAX, '123456789012345']) {
        await open(s, `?v=1&seed=${seed}&window.random_seed=${seed}`);
        const st = await pageState(s.driver, { hash: true });
        assert.equal(String(st.scenario.seed), seed);
        assert.equal(st.hash.slice(0, 16), simulate(st.scenario).hash, `seed ${seed}: the command line's run`);
        assert.match(st.runInfo, new RegExp(`seed ${seed}\\.`));
        assert.equal((await fieldMessage(s.driver, 'seed')).value, seed, 'the seed field');
        assert.equal((await fieldMessage(s.driver, 'window.random_seed')).value, seed, 'the random_seed field');
      }
      assert.deepEqual(await pageErrors(s), []);
    });

    test('the seed field refuses what it cannot hold exactly, with the range, and runs nothing', async () => {
      await open(s);
      const before = await pageState(s.driver);
      for (const typed of ['18446744073709551615', '9007199254740992', '9007199254740990.7', '1.00000000000000001']) {
        await setField(s.driver, 'seed', typed);
        await until(async () => (await fieldMessage(s.driver, 'seed')).text === `Enter a whole number from 0 to ${MAX}.`, `${typed} refused`);
        const st = await pageState(s.driver);
        assert.equal(st.scenario.seed, before.scenario.seed, `${typed}: the last valid run stays`);
      }
      const n = await runsShown(s.driver);
      await setField(s.driver, 'seed', '1e1');
      await waitSettled(s.driver, n);
      assert.equal((await pageState(s.driver)).scenario.seed, 10, 'a whole number however written');
    });

    test('a custom element whose scenario has a seed past 2^53 - 1 shows its preset and names the seed as written', async () => {
      await s.driver.get(`${s.url}docs-example.html`);
      await addPlaygrounds(s.driver, [{ id: 'big-seed', attrs: { preset: 'quiet-service', scenario: '{"duration": 60, "seed": 18446744073709551615}', panels: 'now' } }]);
      const r = await until(() => page(s.driver, () => {
        const el = document.getElementById('big-seed');
        if (!el || el.dataset.state !== 'ready') return null;
        const b = el.shadowRoot.querySelector('.banner');
        return { name: el.playground.state.scenario.name, banner: b ? b.textContent : '' };
      }), 'the element to show its preset', 60_000);
      assert.equal(r.name, 'quiet-service');
      assert.equal(r.banner, `The scenario's settings are not valid (seed = 18446744073709551615 is invalid: allowed a whole number 0 <= x <= ${MAX}); showing the preset instead.`);
    });

    test('two refused edits in a row end on the run shown, with the error kept, and ask no more', async () => {
      await open(s);
      await page(s.driver, () => {
        const e = window.playground.engine;
        window.__e2eReruns = 0;
        const call = e.call.bind(e);
        e.call = (op, a) => { if (op === 'rerun') window.__e2eReruns += 1; return call(op, a); };
        const set = (path, v) => {
          const input = document.querySelector(`#playground .controls .field[data-path="${path}"] input`);
          input.value = v;
          input.dispatchEvent(new Event('change', { bubbles: true }));
        };
        window.__e2eShown = window.playground.state.shownScenario;
        // Both under the fine rate (10%): the second is sent before the first is refused.
        set('statistical.broken_rate', '1');
        set('statistical.broken_rate', '2');
      });
      // Settled: a run loaded and no request unanswered. A rerun is only ever asked for in the
      // task that handles a reply (or an edit), so with none pending no more can come.
      const r = await until(() => page(s.driver, () => {
        const S = window.playground.state;
        if (!S.loaded || window.playground.engine.pending.size) return null;
        return { reruns: window.__e2eReruns, same: S.scenario === window.__e2eShown && S.shownScenario === window.__e2eShown };
      }), 'the page to settle after the two refused edits');
      // The two edits, the first again (the second had stopped it), then the run shown: no loop.
      assert.ok(r.reruns <= 4, `${r.reruns} runs asked for`);
      assert.equal(r.same, true, 'the run shown, and its settings');
      assert.equal((await fieldMessage(s.driver, 'statistical.broken_rate')).invalid, true);
      assert.deepEqual(await pageErrors(s), []);
    });
  });
}
