// The page's number and time formats (www/src/format.js), in node: every number the page shows
// goes through them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmt, clock, percentAsSet, plain, pct, fileStem } from '../../www/src/format.js';

test('a number that rounds to 1000 or more is grouped as one that is 1000 or more', () => {
  // e^ln(1000) is 999.9999999999998: it read "1000" beside "18,255" (learn, step 6).
  assert.equal(fmt(Math.exp(Math.log(1000)), 4), '1,000');
  assert.equal(fmt(999.96), '1,000');
  assert.equal(fmt(-999.99), '−1,000');
  assert.equal(fmt(1000), '1,000');
  assert.equal(fmt(1234.5), '1,235');
  assert.equal(fmt(999.4), '999');
  assert.equal(fmt(12.345), '12.3');
  assert.equal(fmt(0.5), '0.5');
});

test('the clock is cut to the hundredth, and a time given in hundredths reads as itself', () => {
  for (let cs = 0; cs < 100000; cs += 7) {
    const s = cs / 100;
    const m = Math.floor(cs / 6000);
    const want = `${m}:${String(Math.floor((cs % 6000) / 100)).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
    assert.equal(clock(s), want, `${s} s`);
    // Any time up to the next hundredth reads the same.
    assert.equal(clock(s + 0.0099), want, `${s + 0.0099} s`);
  }
});

test('a rate as set is written out in percent, never in exponent notation', () => {
  assert.equal(percentAsSet(0.9999), '99.99%');
  assert.equal(percentAsSet(1e-9), '0.0000001%');
  assert.equal(percentAsSet(1.25e-10), '0.0000000125%');
  assert.equal(percentAsSet(0), '0%');
  assert.equal(plain(1e21), '1000000000000000000000');
  assert.equal(plain(-2.5e-7), '-0.00000025');
  // Written out, the digits read back as the same number, whatever its size.
  for (let k = -30; k <= 30; k++) {
    for (const m of [1, 1.5, 9.87654321, 3.141592653589793]) {
      const v = m * 10 ** k;
      const p = plain(v);
      assert.ok(!/e/i.test(p), p);
      assert.equal(Number(p), v, `${v} read as ${p}`);
    }
  }
});

test('the metrics table\'s "better": a time to close below 0 (closed while the dependency still failed) is never the better one', async () => {
  const { betterOf } = await import('../../www/src/panels.js');
  // It was by absolute value: −5 s beat +30 s, and was shown bold.
  assert.equal(betterOf('sooner', 30, -5), true);
  assert.equal(betterOf('sooner', -5, 30), false);
  assert.equal(betterOf('sooner', 0, -0.01), true);
  assert.equal(betterOf('sooner', -5, -50), true, 'of two early closes, the nearer the end');
  assert.equal(betterOf('sooner', 10, 30), true);
  assert.equal(betterOf('lower', 3, 4), true);
  assert.equal(betterOf('lower', 4, 3), false);
});

test('exponents read without a plus, and with a true minus', () => {
  // A verdict target of 1e308 s read "within 1.16e+303 d".
  assert.equal(fmt(1.16e303), '1.16e303');
  assert.equal(fmt(2.5e9), '2.5e9');
  assert.equal(fmt(-2.5e9), '−2.5e9');
  assert.equal(fmt(1.5e-7), '1.5e−7');
});

test('a chance short of 1 never reads 100%, nor one above 0 reads 0%', () => {
  // A recovered service's chance to close, 0.99999, read "100%" beside "exact".
  assert.equal(pct(0.99999, 4), '99.999%');
  assert.equal(pct(0.9999999, 3), '99.99999%');
  assert.equal(pct(0.9995, 3), '99.95%');
  assert.equal(pct(1, 4), '100%');
  assert.equal(pct(0.5, 4), '50%');
  assert.equal(pct(1e-9, 3), '1e−7%');
  assert.equal(pct(0, 3), '0%');
});

test('a scenario\'s name as a file\'s name keeps its letters, in any script', () => {
  assert.equal(fileStem('Ünïcode “edited” name/with slashes'), 'ünïcode-edited-name-with-slashes');
  assert.equal(fileStem('recovery-warmup'), 'recovery-warmup');
  assert.equal(fileStem('Мой сценарий 2'), 'мой-сценарий-2');
  assert.equal(fileStem('日本語のシナリオ'), '日本語のシナリオ');
  assert.equal(fileStem('../../etc/passwd'), 'etc-passwd');
  assert.equal(fileStem('a\\b:c*d?e"f<g>h|i'), 'a-b-c-d-e-f-g-h-i');
  assert.equal(fileStem('.hidden'), 'hidden');
  assert.equal(fileStem('“”/'), 'scenario');
  assert.equal(fileStem(''), 'scenario');
  // Combining marks are part of the letters (they were dashes: ह-न-द-पर-द-श-य).
  assert.equal(fileStem('हिन्दी परिदृश्य'), 'हिन्दी-परिदृश्य');
  assert.equal(fileStem('cafe\u0301 menu'), 'café-menu');
});
