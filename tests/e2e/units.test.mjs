// Durations typed with a unit in the form (www/src/units.js) against the simulator's own reader
// (breaker::units::parse_duration, through the page's wasm reading a scenario's `duration`):
// the same text is refused by both or gives the same seconds to the last bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wasm, byName } from './arbitrary.mjs';
import { parseDuration, MAX_DURATION_TEXT, fractionOfPercent, DECIMAL, decimal } from '../../www/src/units.js';
import { wholeOf } from '../../www/src/whole.js';
import { decode } from '../../www/src/urlstate.js';
import { fileStem, clipped } from '../../www/src/format.js';

// Traffic so light that no duration in range makes a run too large to accept (the simulator
// refuses past 1e9 calls expected): only the duration's own reading and range are tested.
const base = { ...byName['recovery-warmup'], traffic: { ...byName['recovery-warmup'].traffic, calls_per_minute: 0.001 } };

/** What the wasm makes of `text` as the run's duration: {ok, value} (its range is 0 < x <= 1e9). */
function simulator(text) {
  try {
    return { ok: true, value: wasm.normalizeScenario({ ...base, duration: text }).duration };
  } catch (e) {
    return { ok: false, message: String(e.message) };
  }
}

const number = fc.oneof(
  fc.double({ min: 0, max: 1e6, noNaN: true }).map(String),
  fc.integer({ min: 0, max: 100000 }).map(String),
  fc.constantFrom('0.1', '.5', '5.', '1e3', '2.5E-1', '+3', '-2', '1e', '', '.', '0x10', 'inf', 'nan', '1_0', '٣', '1e-400', '1e400'),
  // Long digit strings: read to the last bit the same way.
  fc.tuple(fc.stringMatching(/^[0-9]{1,60}$/), fc.stringMatching(/^[0-9]{0,60}$/)).map(([a, b]) => (b ? `${a}.${b}` : a)),
);
const unit = fc.constantFrom('', 's', 'sec', 'ms', 'm', 'min', 'h', 'd', 'w', 'S', 'hr', 'e', 'µs', 'days');
// Spaces as Rust's trim() and JS's trim() see them differently: U+FEFF (a byte order mark) is
// JS's only, U+0085 (next line) Rust's only.
const space = fc.constantFrom('', ' ', '  ', '\t', '\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u0085', '\u200b');

test('a duration typed with a unit reads as the simulator reads it, bit for bit', () => {
  for (const [text, want] of [['500ms', 0.5], ['1.5m', 90], ['2 h', 7200], ['30d', 2592000], ['1w', 604800], ['5sec', 5], ['2min', 120], [' 12.5 ', 12.5], ['1e3', 1000]]) {
    assert.deepEqual(parseDuration(text), { ok: true, value: want }, text);
  }
  assert.match(parseDuration('3 fortnights').message, /unknown duration unit “fortnights”/);
  assert.match(parseDuration('soon').message, /“soon” is not a duration/);
  // Past the longest text read, refused (Rust would stop reading a long exponent's digits).
  assert.equal(parseDuration(`0.${'0'.repeat(300)}1e301`).ok, false);
  assert.equal(parseDuration(`${'1'.repeat(MAX_DURATION_TEXT - 1)}s`).ok, true);
  fc.assert(fc.property(space, number, space, unit, space, (a, n, b, u, c) => {
    const text = `${a}${n}${b}${u}${c}`;
    const js = parseDuration(text);
    if (text.length > MAX_DURATION_TEXT) {
      assert.equal(js.ok, false, 'too long for the form');
      return;
    }
    const rs = simulator(text);
    if (js.ok && js.value > 0 && js.value <= 1e9) {
      assert.equal(rs.ok, true, `${JSON.stringify(text)}: the form reads ${js.value}, the simulator refuses: ${rs.message}`);
      assert.ok(Object.is(rs.value, js.value), `${JSON.stringify(text)}: ${js.value} vs ${rs.value}`);
    } else if (!js.ok) {
      assert.equal(rs.ok, false, `${JSON.stringify(text)}: the form refuses (${js.message}), the simulator reads ${rs.value}`);
    }
  }), { numRuns: 1000 });
});

test('a rate typed in percent in a form is the fraction the simulator reads from the same text with “%”, bit for bit', () => {
  /** The simulator's reading of `text`% as the fine rate (0 < x < 1), or null if it refuses. */
  const rate = (text) => {
    try {
      return wasm.normalizeScenario({ ...base, statistical: { ...base.statistical, fine_rate: `${text}%`, broken_rate: 0.999999 } }).statistical.fine_rate;
    } catch {
      return null;
    }
  };
  // 49.999 / 100 is 0.49999000000000005; "49.999%" is 0.49999, and so is the form's now.
  assert.equal(fractionOfPercent('49.999'), 0.49999);
  assert.equal(rate('49.999'), 0.49999);
  assert.equal(fractionOfPercent(' 35 '), 0.35);
  const percent = fc.oneof(
    fc.double({ min: 1e-6, max: 99.99, noNaN: true }).map(String),
    fc.tuple(fc.integer({ min: 0, max: 99 }), fc.stringMatching(/^[0-9]{1,20}$/)).map(([a, b]) => `${a}.${b}`),
    fc.tuple(fc.integer({ min: 1, max: 99999 }), fc.integer({ min: -6, max: -1 })).map(([m, e]) => `${m}e${e}`),
  );
  let compared = 0;
  fc.assert(fc.property(percent, (text) => {
    const want = rate(text);
    if (want === null) return;
    compared += 1;
    assert.ok(Object.is(fractionOfPercent(text), want), `${text}: form ${fractionOfPercent(text)}, simulator ${want}`);
  }), { numRuns: 2000 });
  assert.ok(compared > 1000, `${compared} compared`);
});

// The pattern before: the same texts, in time linear in their length (it split a run of digits
// in as many ways as it was long: a link's 100,000 digits then a letter froze the page 8 s).
const OLD_DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

test('a link\'s number is read by the same texts as before, and a long bad one is refused at once', () => {
  fc.assert(fc.property(fc.stringMatching(/^[-+0-9.eE x]{0,12}$/), (t) => {
    assert.equal(DECIMAL.test(t), OLD_DECIMAL.test(t), JSON.stringify(t));
  }), { numRuns: 20000 });
  for (const t of ['1', '1.', '.5', '1.5e3', '+1E-7', '-0.0', '007']) assert.ok(DECIMAL.test(t), t);
  for (const t of ['', '.', 'e3', '1e', '1..2', '1.2.3', '--1', '1e3.5']) assert.ok(!DECIMAL.test(t), t);
  // 200,000 digits then a letter (the old pattern: some 30 s), and the same in whole numbers
  // (spaces around nothing: `+` in a link is a space).
  const long = `${'1'.repeat(200_000)}x`;
  assert.ok(Number.isNaN(decimal(long)));
  assert.equal(wholeOf(`${' '.repeat(200_000)}x`), null);
  assert.equal(wholeOf(`${'+ '.repeat(100_000)}x`), null);
  assert.equal(wholeOf(' 12 '), 12n);
  assert.equal(wholeOf('\t-3e2\n'), -300n);
  // The link's notice quotes the value in part, as the simulator's messages do.
  const d = decode(`?t=${long}`, { a: { seed: 1 } }, 'a');
  assert.equal(d.notice, `This link's time “t” = ${'1'.repeat(60)}… (200001 characters) is not a time in seconds (a number ≥ 0); starting at the beginning of the run.`);
  assert.equal(clipped('x'.repeat(80)), 'x'.repeat(80));
  // By characters: an emoji is not cut in half.
  assert.equal(clipped(`${'a'.repeat(59)}${'😀'.repeat(30)}`), `${'a'.repeat(59)}😀… (89 characters)`);
  // Nor a flag or a family (several code points, one character).
  assert.equal(clipped(`${'a'.repeat(59)}${'🇩🇪'.repeat(30)}`), `${'a'.repeat(59)}🇩🇪… (89 characters)`);
  assert.equal(clipped(`${'a'.repeat(59)}${'👨‍👩‍👧'.repeat(30)}`), `${'a'.repeat(59)}👨‍👩‍👧… (89 characters)`);
  // A file name from a name of 60,000 dashes: 100 characters at most.
  assert.equal(fileStem(`a${'-'.repeat(60_000)}b`), 'a');
  assert.ok(fileStem('é'.repeat(500)).length <= 100);
});
