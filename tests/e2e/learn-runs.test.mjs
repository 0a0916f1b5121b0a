// The walkthrough's runs at the reader's settings: every step's scenario, built from its own
// reports (www/src/learn-steps.js, run in node against the page's wasm), is one the simulator
// takes, for settings anywhere in the walkthrough form's ranges. Step 5 sized its run for
// bursts alone and, at p0 0.009%, p1 0.01% and 60,000 calls/min, asked for 2.6e9 calls (the
// simulator takes 1e9): the step said "Could not compute this step". It now stops at 1e8 calls,
// seconds in a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wasm } from './arbitrary.mjs';
import { STEPS, FIELDS } from '../../www/src/learn-steps.js';

const range = Object.fromEntries(FIELDS.map((f) => [f.key, [f.min / f.scale, f.max / f.scale]]));

/** A value of field `key` spread evenly in log scale over its range (ends included). */
const field = (key) => {
  const [lo, hi] = range[key];
  return fc.oneof(fc.constantFrom(lo, hi), fc.double({ min: Math.log(lo), max: Math.log(hi), noNaN: true }).map((x) => Math.min(hi, Math.max(lo, Math.exp(x)))));
};

/**
 * Each step's reports and run at `S`: null where an analysis refuses the settings (the page
 * says so, with the command's message), else the scenario's normalized form or the
 * simulator's refusal.
 */
function steps(S) {
  return STEPS.map((def, i) => {
    const reports = [];
    for (const c of def.commands(S)) {
      const args = typeof c === 'function' ? c(S, reports) : c;
      try {
        reports.push(wasm.analyze(args));
      } catch {
        return null;
      }
    }
    const sc = def.scenario(S, reports);
    try {
      wasm.normalizeScenario(sc);
      return { step: i + 1, ok: true, sc };
    } catch (e) {
      return { step: i + 1, ok: false, message: e.message, sc };
    }
  }).filter(Boolean);
}

const refused = (S) => steps(S).filter((r) => !r.ok).map((r) => `step ${r.step}: ${r.message}`);

test('step 5 at p0 0.009%, p1 0.01% and 60,000 calls/min: a run the simulator takes, of at most 100 million calls', () => {
  for (const cpm of [60000]) {
    const S = { fine: 0.00009, broken: 0.0001, a: 0.01, b: 0.05, period: 365 * 86400, cpm };
    assert.deepEqual(refused(S), [], `cpm ${cpm}`);
    const five = steps(S).find((r) => r.step === 5);
    assert.ok(five.sc.duration * cpm / 60 <= 1e8, `${five.sc.duration} s at ${cpm} calls/min`);
  }
});

test('every step\'s run is one the simulator takes, anywhere in the form\'s ranges', () => {
  fc.assert(fc.property(field('fine'), field('broken'), field('a'), field('b'), field('period'), field('cpm'),
    (fine, broken, a, b, period, cpm) => {
      fc.pre(fine < broken && a + b < 1);
      const S = { fine, broken, a, b, period, cpm };
      assert.deepEqual(refused(S), [], JSON.stringify(S));
    }), { numRuns: 30, seed: 5 });
});
