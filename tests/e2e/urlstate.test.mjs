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
    fc.constantFrom(...INHERITED, ...INHERITED.map((k) => `${k}.x`), ...INHERITED.map((k) => `statistical.${k}`),
      ...INHERITED.map((k) => `dependency.0.${k}`), ...INHERITED.map((k) => `dependency.${k}.start`), 'dependency.0.burst', 'dependency.99.start'),
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

test('a link takes a phase\'s setting by its path, as `--set dependency.1.latency=200ms` does, and runs the command line\'s run', () => {
  const link = (q) => decode(`?v=1&${q}`, byName, DEFAULT);
  // Refused before: "This link has a setting “dependency.1.latency” this page does not know".
  const d = link('preset=bad-day&dependency.1.latency=200ms&dependency.3.burst.enter=0.001');
  assert.equal(d.notice, null);
  assert.equal(d.text, true, 'the unit is read by the simulator, as for any setting');
  assert.equal(d.scenario.dependency[1].latency, '200ms');
  assert.equal(d.scenario.dependency[3].burst.enter, 0.001);
  const want = clone(byName['bad-day']);
  want.dependency[1].latency = 0.2;
  want.dependency[3].burst.enter = 0.001;
  assert.deepEqual(wasm.normalizeScenario(d.scenario), want);
  // `breaker run --preset bad-day --set dependency.1.latency=200ms` prints trace 3380d0fb9b64db4b.
  const only = wasm.normalizeScenario(link('preset=bad-day&dependency.1.latency=200ms').scenario);
  const pg = new wasm.Playground(only);
  while (!pg.finished()) pg.advance(1_000_000);
  assert.equal(pg.traceHash().slice(0, 16), '3380d0fb9b64db4b');
  pg.free();
  // Into the link's own list, when it gives one first.
  const list = [{ start: 0, failure_rate: 0.01 }, { start: 60, failure_rate: 0.5 }];
  const own = link(`preset=bad-day&dependency=${encodeURIComponent(JSON.stringify(list))}&dependency.1.failure_rate=0.9`);
  assert.equal(own.notice, null);
  assert.deepEqual(own.scenario.dependency, [list[0], { ...list[1], failure_rate: 0.9 }]);
  // Not a leaf the phase has: refused as any unknown setting is.
  for (const k of ['dependency.7.latency', 'dependency.1.lateny', 'dependency.1.burst', 'dependency.01.latency', 'dependency.1.constructor', 'dependency.-1.latency']) {
    const r = link(`preset=bad-day&${k}=1`);
    assert.equal(r.notice, `This link has a setting “${k}” this page does not know; showing the default settings.`, k);
    assert.deepEqual(r.scenario, byName[DEFAULT], k);
  }
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
