// What an emptied field says it allows comes from the simulator (www/src/controls.js, sayRange):
// the page sends the settings with the smallest positive normal number at the field, then 1e300 if that
// is taken, and reads the range from the refusal. In
// node, on the page's own wasm: for every number setting of every preset (whole numbers say
// their range in the form itself), the refusal names that field, so the form has a range to
// show, and the range it shows for a rate is in the form's percent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wasm, PRESETS } from './arbitrary.mjs';
import { flatten, setPath, clone } from '../../www/src/paths.js';
import { wholeRange } from '../../www/src/whole.js';
import { percentOf, rateInPercent } from '../../www/src/controls.js';

test('every number setting of every preset, set to 1e300, is refused naming itself and its range', () => {
  let probed = 0;
  for (const p of PRESETS) {
    for (const [k, v] of Object.entries(flatten(p.scenario))) {
      if (typeof v !== 'number' || wholeRange(k)) continue;
      const s = clone(p.scenario);
      setPath(s, k, 1e300);
      probed += 1;
      assert.throws(() => wasm.normalizeScenario(s), (e) => {
        const m = /^([\w.[\]]+) = 1e300 is invalid: allowed (.+)$/.exec(e.message);
        assert.ok(m, `${p.name} ${k}: ${e.message}`);
        assert.equal(m[1].replace(/\[(\d+)\]/g, '.$1'), k, `${p.name}: ${e.message}`);
        return true;
      });
    }
  }
  assert.ok(probed >= 400, `${probed} settings probed`);
});

test('the smallest positive normal number meets a range that depends on another field, where 1e300 meets the general one', () => {
  const p = PRESETS.find((x) => x.name === 'recovery-warmup');
  const at = (x) => {
    const s = clone(p.scenario);
    setPath(s, 'statistical.broken_rate', x);
    try { wasm.normalizeScenario(s); return null; } catch (e) { return e.message; }
  };
  const fine = p.scenario.statistical.fine_rate;
  assert.equal(at(2.2250738585072014e-308), `statistical.broken_rate = 2.2250738585072014e-308 is invalid: allowed fine_rate (${fine}) < x < 1`);
  assert.equal(at(1e300), 'statistical.broken_rate = 1e300 is invalid: allowed 0 < x < 1');
});

test('a rate\'s range is said in percent', () => {
  assert.equal(percentOf('0 < x < 1'), '0% < x < 100%');
  assert.equal(percentOf('fine_rate (0.1) < x < 1'), 'fine_rate (10%) < x < 100%');
  assert.equal(percentOf('0.001 <= x <= 0.999'), '0.1% <= x <= 99.9%');
  assert.equal(percentOf('statistical.fine_rate = -0.01 is invalid: allowed 0 < x < 1'),
    'statistical.fine_rate = -1% is invalid: allowed 0% < x < 100%');
  // A path's digits are not a rate.
  assert.equal(percentOf('dependency.2.failure_rate = 2 is invalid'), 'dependency.2.failure_rate = 200% is invalid');
});

test('a phase\'s rate, glossed "(0% to 100%)" by the simulator, is said in percent all the same', () => {
  // It said "= -0.05 ... allowed 0 <= x <= 1 (0% to 100%)" in a field where the user typed -5.
  assert.equal(rateInPercent('dependency.1.failure_rate = -0.05 is invalid: allowed 0 <= x <= 1 (0% to 100%)'),
    'dependency.1.failure_rate = -5% is invalid: allowed 0% <= x <= 100%');
  assert.equal(rateInPercent('statistical.fine_rate = -0.01 is invalid: allowed 0 < x < 1'),
    'statistical.fine_rate = -1% is invalid: allowed 0% < x < 100%');
  assert.equal(rateInPercent('window.failure_rate_threshold = -0.01 is invalid: allowed 0 < x <= 1 (0% < x <= 100%)'),
    'window.failure_rate_threshold = -1% is invalid: allowed 0% < x <= 100%');
  assert.equal(rateInPercent('fine_rate (10%) < x < 100%'), null, 'in percent already');
  // The simulator's own message, from the page's wasm.
  const p = PRESETS.find((x) => x.name === 'recovery-warmup');
  const s = clone(p.scenario);
  setPath(s, 'dependency.1.failure_rate', -0.05);
  assert.throws(() => wasm.normalizeScenario(s), (e) => {
    assert.equal(rateInPercent(e.message), 'dependency.1.failure_rate = -5% is invalid: allowed 0% <= x <= 100%');
    return true;
  });
});

test('a number field\'s min and max (the browser\'s range, its arrows\' ends) are the simulator\'s bounds where those include their end, inside them where not', async () => {
  // The traffic field said min 0.001 while 0.0001 ran and the message said 1e-6 <= x <= 1e7.
  const { PROMINENT, SECTIONS } = await import('../../www/src/schema.js');
  const base = PRESETS.find((x) => x.name === 'recovery-warmup').scenario;
  // The phases' fields as the first phase's.
  const phase = (s) => (s.list ? s.list.item.map((f) => ({ ...f, path: `${s.list.path}.0.${f.key}` })) : []);
  const fields = [...PROMINENT, ...SECTIONS.flatMap((s) => [...(s.fields || []), ...phase(s)])].filter((f) => !f.int && !f.type);
  const refusal = (path, v) => {
    const s = clone(base);
    setPath(s, path, v);
    try { wasm.normalizeScenario(s); return null; } catch (e) { return e.message; }
  };
  // The simulator's own bound of `path` (not another field's): [end, inclusive], or null.
  const bound = (path, msg, side) => {
    if (!msg || !msg.startsWith(`${path} = `)) return null;
    const m = side === 'min' ? /allowed (-?[\d.e+-]+) (<=?) x/.exec(msg) : /x (<=?) (-?[\d.e+-]+)/.exec(msg);
    if (!m) return null;
    return side === 'min' ? [Number(m[1]), m[2] === '<='] : [Number(m[2]), m[1] === '<='];
  };
  let checked = 0;
  for (const f of fields) {
    const scale = f.scale || 1;
    for (const side of ['min', 'max']) {
      if (f[side] === undefined) continue;
      const end = f[side] / scale;
      const past = side === 'min' ? end - Math.max(Math.abs(end) * 1e-6, 1e-12) : end + Math.max(Math.abs(end) * 1e-6, 1e-12);
      const b = bound(f.path, refusal(f.path, past), side) || bound(f.path, refusal(f.path, side === 'min' ? -1e300 : 1e300), side);
      if (!b) continue; // bounded by another field (fine < broken): the hint is the page's
      checked += 1;
      if (b[1]) assert.equal(end, b[0], `${f.path}: the form's ${side} ${f[side]}, the simulator's ${b[0]} (inclusive)`);
      else assert.ok(side === 'min' ? end > b[0] : end < b[0], `${f.path}: the form's ${side} ${f[side]} inside the simulator's exclusive ${b[0]}`);
      const at = refusal(f.path, end);
      // (Unless by a bound another field sets: "allowed fine_rate (0.1) < x".)
      assert.ok(at === null || !at.startsWith(`${f.path} = `) || /allowed .*[a-z_]+ \(/.test(at), `${f.path}: its ${side} ${f[side]} is refused: ${at}`);
    }
  }
  assert.ok(checked >= 25, `${checked} ends checked`);
});
