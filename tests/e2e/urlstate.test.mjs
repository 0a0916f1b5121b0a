// The page's links (www/src/urlstate.js) as properties, in node (no browser): any settings the
// page can hold, written as a link relative to any preset and read back, are the same settings,
// and the simulator (the page's own wasm, www/dist/pkg) gives the same run from them. fast-check
// draws the edits; a failure prints the smallest it found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ROOT } from './helpers.mjs';
import { encode, decode } from '../../www/src/urlstate.js';
import { flatten, setPath, clone } from '../../www/src/paths.js';
import { wholeRange } from '../../www/src/whole.js';

const pkg = join(ROOT, 'www/dist/pkg');
const wasm = await import(join(pkg, 'breaker_wasm.js'));
await wasm.default({ module_or_path: readFileSync(join(pkg, 'breaker_wasm_bg.wasm')) });
const PRESETS = wasm.presets().map((p) => ({ name: p.name, scenario: p.scenario }));
const byName = Object.fromEntries(PRESETS.map((p) => [p.name, p.scenario]));
const DEFAULT = PRESETS[0].name;

/** Text the settings take: names with link syntax, quotes, non-ASCII, and the word null. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('null', 'true', '0', '', ' ', '&v=2', 'a=b&c', '#t=5', '%20+%', '"q"', '{}', '[]', 'é漢🙂'),
);

/** A value for a leaf holding `old`: of the same kind, drawn widely. */
function valueFor(path, old) {
  if (typeof old === 'boolean') return fc.boolean();
  if (typeof old === 'string' || old === null) return path === 'trace' ? fc.constant(null) : text;
  // A whole-number setting within its range: the page holds no other (it is refused on its
  // field, and a link is written only of settings the simulator accepted).
  const range = wholeRange(path);
  if (range) return fc.integer({ min: range[0], max: range[1] });
  return fc.oneof(
    fc.double({ min: -1e12, max: 1e12, noNaN: true }),
    fc.constantFrom(0, 1e-300, 5e-324, 0.1 + 0.2, 1 / 3, 2 ** 53 - 1, 1e21, -1e-7),
  );
}

/** Settings the page can hold: a preset with up to four leaves changed (a phase's too). */
const settings = fc.constantFrom(...PRESETS).chain((p) => {
  const leaves = Object.entries(flatten(p.scenario)).filter(([k]) => k !== 'trace');
  const edit = fc.constantFrom(...leaves).chain(([k, old]) => valueFor(k, old).map((v) => [k, v]));
  return fc.array(edit, { maxLength: 4 }).map((edits) => {
    const s = clone(p.scenario);
    for (const [k, v] of edits) setPath(s, k, v);
    return s;
  });
});

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
  fc.assert(fc.property(settings, fc.constantFrom(...PRESETS.map((p) => p.name)), (s, base) => {
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
  assert.ok(ran >= 20, `${ran} of 150 settings were valid`);
});
