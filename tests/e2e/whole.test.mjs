// Whole numbers read exactly from text (www/src/whole.js), as properties in node: a seed or a
// count typed in any decimal form is the number written, to the last digit, or refused; never
// another number. fast-check draws the numbers and the ways of writing them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wholeOf, readWhole, wholeRange, parseExact, exactCopy, MAX_WHOLE, MAX_NESTING } from '../../www/src/whole.js';

/** `n` (a BigInt) written with a point and zeros, or an exponent, or plain. */
const written = fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.boolean()).chain(([n, plus]) => {
  const digits = (n < 0n ? -n : n).toString();
  const sign = n < 0n ? '-' : plus ? '+' : '';
  return fc.oneof(
    fc.constant(`${sign}${digits}`),
    fc.integer({ min: 1, max: 5 }).map((z) => `${sign}${digits}.${'0'.repeat(z)}`),
    // d1.d2...e(k): the point moved left k places, written back with an exponent.
    fc.integer({ min: 0, max: digits.length - 1 }).map((k) => {
      const head = digits.slice(0, digits.length - k);
      const tail = digits.slice(digits.length - k);
      return `${sign}${head}${tail ? `.${tail}` : ''}e${k}`;
    }),
    // Zeros moved into the exponent: 1200 as 12e2.
    fc.constant(digits.replace(/0+$/, '') || '0').map((d) => {
      const k = digits.length - d.length;
      return `${sign}${d}${k ? `e+${k}` : ''}`;
    }),
    fc.constant(`  ${sign}${digits} `),
  ).map((text) => ({ n, text }));
});

test('a whole number in any decimal form reads as itself, exactly', () => {
  fc.assert(fc.property(written, ({ n, text }) => {
    assert.equal(wholeOf(text), n, text);
  }), { numRuns: 3000 });
});

test('a number with a fraction is not a whole number, however close (no rounding)', () => {
  fc.assert(fc.property(
    fc.bigInt({ min: 0n, max: 10n ** 20n }),
    fc.stringMatching(/^[0-9]{0,8}[1-9]$/),
    (n, frac) => {
      assert.equal(wholeOf(`${n}.${frac}`), null);
      // 9007199254740990.7 is a whole number to a JS number, not to the reader.
      assert.equal(wholeOf(`${n}${frac}e-${frac.length}`), null);
    },
  ), { numRuns: 2000 });
});

test('a seed past 2^53 - 1 is refused naming the value as written, never run as another seed', () => {
  fc.assert(fc.property(fc.bigInt({ min: BigInt(MAX_WHOLE) + 1n, max: 2n ** 64n }), (n) => {
    const r = readWhole('seed', String(n));
    assert.equal(r.ok, false, String(n));
    assert.equal(r.message, `seed = ${n} is invalid: allowed a whole number 0 <= x <= ${MAX_WHOLE}`);
  }), { numRuns: 500 });
  fc.assert(fc.property(fc.bigInt({ min: 0n, max: BigInt(MAX_WHOLE) }), (n) => {
    const r = readWhole('seed', String(n));
    assert.deepEqual(r, { ok: true, value: Number(n) });
    assert.equal(BigInt(r.value), n, 'exact');
  }), { numRuns: 500 });
});

test('a key named as an object\'s own property ("constructor", "toString") is no whole-number setting', () => {
  for (const k of ['constructor', 'toString', '__proto__', 'valueOf', 'statistical.constructor']) {
    assert.equal(wholeRange(k), null, k);
    // JSON.parse keeps each as a key of its own; the big number stays the number it parses as.
    const r = parseExact(`{"${k}": 1e30, "seed": 3}`);
    assert.equal(r.ok, true, k);
    assert.equal(r.value[k], 1e30, k);
  }
});

test('a copy of settings that hold themselves, or nest past the limit, is refused naming where', () => {
  const s = { seed: 1 };
  s.name = s;
  const r = exactCopy(s);
  assert.equal(r.ok, false);
  assert.equal(r.path, 'name');
  assert.match(r.message, /^name\.name\.name\.… = \{…\} is invalid: nested too deep: at most 127 levels/);
  // Levels as the wasm counts them: the settings object is level 1.
  const nest = (levels) => {
    let v = 1;
    for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { x: v };
    return { seed: 1, traffic: v };
  };
  assert.equal(MAX_NESTING, 127);
  assert.equal(exactCopy(nest(MAX_NESTING - 1)).ok, true);
  const deep = exactCopy(nest(MAX_NESTING));
  assert.equal(deep.ok, false);
  assert.equal(deep.path, 'traffic');
  assert.match(deep.message, /^traffic\.(x|0)\.(x|0)\.… = (\{…\}|\[…\]) is invalid: nested too deep/);
  // Thousands deep: refused, not a RangeError.
  assert.equal(exactCopy(nest(100000)).ok, false);
  // undefined is named as such (the worker received it as null: "scenario = null").
  assert.deepEqual(exactCopy(undefined), { ok: false, path: '', message: 'scenario = undefined is invalid: allowed an object of settings' });
});

test('JSON text with a whole number past its range is refused with the path of its field', () => {
  const r = parseExact('{"name": "x 18446744073709551615", "callers": {"count": 3}, "seed": 18446744073709551615}');
  assert.equal(r.ok, false);
  assert.equal(r.path, 'seed');
  assert.equal(r.message, 'seed = 18446744073709551615 is invalid: allowed a whole number 0 <= x <= 9007199254740991');
  const under = parseExact('{"count": 1e300}', 'callers');
  assert.deepEqual([under.ok, under.path], [false, 'callers.count']);
});

test('JSON text nested past the limit is refused as nested too deep, whatever numbers it holds', () => {
  // With a number JSON.parse rounds inside, the exact walk recursed 20,000 deep and overflowed.
  for (const inner of ['9007199254740993', '1']) {
    const r = parseExact(`{"seed":1,"x":${'['.repeat(20000)}${inner}${']'.repeat(20000)}}`);
    assert.equal(r.ok, false, inner);
    assert.equal(r.path, 'x');
    assert.match(r.message, /^x\.0\.0\.… = \[…\] is invalid: nested too deep/);
  }
  assert.equal(parseExact(`{"x":${'['.repeat(MAX_NESTING - 1)}1${']'.repeat(MAX_NESTING - 1)}}`).ok, true);
  assert.equal(parseExact(`{"x":${'['.repeat(MAX_NESTING)}1${']'.repeat(MAX_NESTING)}}`).ok, false);
});

test('a value that is not plain data is refused naming where, not dropped by JSON (load({seed: Symbol()}) ran seed 1)', () => {
  const msg = (v) => exactCopy(v);
  assert.deepEqual(msg({ seed: Symbol('s') }), { ok: false, path: 'seed', message: 'seed = a symbol is invalid: allowed plain data (numbers, text, true/false, null, lists and objects)' });
  assert.deepEqual(msg({ seed: () => 1 }).message, 'seed = a function is invalid: allowed plain data (numbers, text, true/false, null, lists and objects)');
  assert.deepEqual(msg({ traffic: { arrivals: new Map([[1, 2]]) } }), { ok: false, path: 'traffic', message: 'traffic.arrivals = a Map is invalid: allowed plain data (numbers, text, true/false, null, lists and objects)' });
  assert.equal(msg(new Map()).message, 'scenario = a Map is invalid: allowed plain data (numbers, text, true/false, null, lists and objects)');
  assert.equal(msg({ name: new Date(0) }).ok, false);
  // Plain data passes, an object without a prototype and a class's instance too.
  assert.equal(msg({ seed: 1, dependency: [{ start: 0 }], name: 'x', n: null, b: true }).ok, true);
  assert.equal(msg(Object.assign(Object.create(null), { seed: 2 })).ok, true);
  assert.equal(msg(new (class S { constructor() { this.seed = 3; } })()).ok, true);
});
