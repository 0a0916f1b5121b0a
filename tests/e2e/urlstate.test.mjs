// The page's links (www/src/urlstate.js) as properties, in node (no browser): any settings the
// page can hold, written as a link relative to any preset and read back, are the same settings,
// and the simulator (the page's own wasm, www/dist/pkg) gives the same run from them. fast-check
// draws the edits; a failure prints the smallest it found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wasm, PRESETS, byName, settings, nearSettings } from './arbitrary.mjs';
import { encode, decode } from '../../www/src/urlstate.js';
import { flatten, clone } from '../../www/src/paths.js';

const DEFAULT = PRESETS[0].name;

test('a scenario named "null" keeps its name through a link (only the trace reads `null` as none)', () => {
  const s = { ...clone(byName[DEFAULT]), name: 'null' };
  const back = decode(`?${encode(s, DEFAULT, byName[DEFAULT])}`, byName, DEFAULT);
  assert.equal(back.notice, null);
  assert.equal(back.scenario.name, 'null');
  assert.equal(back.scenario.trace, null);
});

test('a link of any settings, relative to any preset, reads back as the same settings', () => {
  fc.assert(fc.property(settings, fc.constantFrom(...PRESETS.map((p) => p.name)), (s, base) => {
    const q = encode(s, base, byName[base]);
    const back = decode(`?${q}`, byName, DEFAULT);
    if (back.notice !== null) throw new Error(`${back.notice} (link ${q})`);
    // As JSON: what the page sends the simulator (-0 is 0 there). The first leaf that differs.
    const [got, want] = [flatten(clone(back.scenario)), flatten(clone(s))];
    const diff = [...new Set([...Object.keys(got), ...Object.keys(want)])].find((k) => !Object.is(got[k], want[k]));
    if (diff !== undefined) throw new Error(`${diff}: read back ${JSON.stringify(got[diff])}, was ${JSON.stringify(want[diff])} (link ${q})`);
    assert.deepEqual(clone(back.scenario), clone(s));
  }), { numRuns: 1500 });
});

test('a link of valid settings gives the same run: the same trace hash from the page\'s wasm', () => {
  let ran = 0;
  fc.assert(fc.property(nearSettings, fc.constantFrom(...PRESETS.map((p) => p.name)), (s, base) => {
    let before;
    try { before = new wasm.Playground(clone({ ...s, duration: Math.min(s.duration, 3600) })); } catch { return; } // refused settings: the first property covers their link
    ran += 1;
    const q = encode(s, base, byName[base]);
    const back = decode(`?${q}`, byName, DEFAULT).scenario;
    const after = new wasm.Playground(clone({ ...back, duration: Math.min(back.duration, 3600) }));
    for (const pg of [before, after]) while (!pg.finished()) pg.advance(50_000);
    assert.equal(after.traceHash(), before.traceHash(), q);
    before.free();
    after.free();
  }), { numRuns: 150 });
  assert.ok(ran >= 60, `${ran} of 150 settings were valid`);
});
