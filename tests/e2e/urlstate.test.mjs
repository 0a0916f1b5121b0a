// The page's links (www/src/urlstate.js) as properties, in node (no browser): any settings the
// page can hold, written as a link relative to any preset and read back, are the same settings,
// and the simulator (the page's own wasm, www/dist/pkg) gives the same run from them. fast-check
// draws the edits; a failure prints the smallest it found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wasm, PRESETS, byName, settings, nearSettings } from './arbitrary.mjs';
import { encode, decode } from '../../www/src/urlstate.js';
import { flatten, clone, getPath } from '../../www/src/paths.js';

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

/** Names an object has without owning them: a lookup by a link's text must not find them. */
const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

test('any link, however hostile, reads as a preset\'s settings edited, or as the defaults with a notice; it never throws', () => {
  const leaves = [...new Set(PRESETS.flatMap((p) => Object.keys(flatten(p.scenario))))];
  const key = fc.oneof(
    fc.constantFrom(...leaves, 'v', 'preset', 't', 'embed', 'panels', 'step', 'goal.max_dead_calls'),
    fc.constantFrom(...INHERITED, ...INHERITED.map((k) => `${k}.x`), ...INHERITED.map((k) => `statistical.${k}`)),
    fc.string({ maxLength: 8 }),
  );
  const value = fc.oneof(
    fc.constantFrom('1', '-1', '0.5', '1e400', 'NaN', 'null', 'true', '', '{}', '[]', '[{}]', '{"__proto__": {"x": 1}}',
      '9007199254740993', ...PRESETS.map((p) => p.name), ...INHERITED),
    fc.string({ unit: 'binary', maxLength: 10 }),
    fc.json({ maxDepth: 2 }),
  );
  const link = fc.tuple(
    fc.option(fc.constantFrom('1', '2', ''), { nil: undefined }),
    fc.option(fc.constantFrom(...PRESETS.map((p) => p.name), ...INHERITED), { nil: undefined }),
    fc.array(fc.tuple(key, value), { maxLength: 4 }),
  ).map(([v, preset, pairs]) => {
    const q = new URLSearchParams();
    if (v !== undefined) q.append('v', v);
    if (preset !== undefined) q.append('preset', preset);
    for (const [k, x] of pairs) q.append(k, x);
    return `?${q}`;
  });
  fc.assert(fc.property(link, (q) => {
    const d = decode(q, byName, DEFAULT);
    assert.ok(Object.hasOwn(byName, d.preset), `${q}: the preset ${d.preset} is one`);
    assert.deepEqual(Object.keys(d.scenario).sort(), Object.keys(byName[d.preset]).sort(), `${q}: a preset's settings`);
    if (d.notice !== null) assert.equal(typeof d.notice, 'string');
    assert.equal(({}).x, undefined, `${q}: nothing was added to every object`);
  }), { numRuns: 3000 });
});

test('a preset named as an object\'s own property is unknown (the defaults, with a notice)', () => {
  for (const name of INHERITED) {
    const d = decode(`?v=1&preset=${name}&seed=3`, byName, DEFAULT);
    assert.equal(d.preset, DEFAULT, name);
    assert.equal(d.notice, `This link names an unknown preset “${name}”; showing the default settings.`);
  }
});

test('a link\'s number is read as decimal only, as the command line and JSON read numbers; other text is left to the simulator', () => {
  const q = (k, x) => decode(`?v=1&preset=${DEFAULT}&${k}=${encodeURIComponent(x)}`, byName, DEFAULT);
  const rate = 'traffic.calls_per_minute';
  assert.equal(q(rate, '60').scenario.traffic.calls_per_minute, 60);
  assert.equal(q(rate, '1.5e2').scenario.traffic.calls_per_minute, 150);
  assert.equal(q(rate, '60').text, false);
  for (const bad of ['', ' ']) {
    const d = q(rate, bad);
    assert.equal(d.notice, `This link's “${rate}” is not a number; showing the default settings.`, bad);
    assert.deepEqual(d.scenario, byName[DEFAULT], bad);
  }
  // Not read as JS reads it (0x3C is not 60): kept as written, for the simulator to read as a
  // scenario file's text ("2h", "5%") or to refuse with the field's name and range (app.js).
  for (const [k, text] of [[rate, '0x3C'], [rate, '0b111100'], [rate, 'Infinity'], [rate, '6_0'], [rate, '60s'], ['duration', '2h'], ['statistical.fine_rate', '5%']]) {
    const d = q(k, text);
    assert.equal(d.notice, null, text);
    assert.equal(d.text, true, text);
    assert.equal(d.fromLink, true, text);
    assert.equal(getPath(d.scenario, k), text, text);
  }
  // Past the longest duration text the simulator reads: refused here, not quoted whole in the
  // simulator's message (100,000 characters filled the notice).
  const long = q(rate, 'x'.repeat(100_000));
  assert.equal(long.notice, `This link's “${rate}” is not a number; showing the default settings.`);
  assert.ok(!long.fromLink);
  assert.equal(q(rate, `${'0'.repeat(250)}60`).scenario.traffic.calls_per_minute, 60);
  assert.equal(q('t', '12.5').t, 12.5);
  assert.equal(q('t', '0x10').t, 0);
  assert.match(q('t', '0x10').notice, /time “t” = 0x10 is not a time in seconds/);
});
