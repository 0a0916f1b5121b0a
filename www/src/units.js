// Durations as people write them, read as the simulator reads them (breaker::units
// ::parse_duration in crates/breaker/src/units.rs): `500ms`, `5s`, `1.5m`, `2h`, `30d`, `1w`, or
// bare seconds. The same text gives the same seconds to the last bit in the form as in a scenario
// file: the number is read as Rust reads a float (JS's Number() of the same decimal text is
// correctly rounded too) and multiplied by the same scale. A test compares it with the wasm.

/** Seconds per unit; `sec` and `min` are `s` and `m`, and no unit is seconds. */
const SCALE = { '': 1, s: 1, sec: 1, ms: 1e-3, m: 60, min: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * A decimal number as the simulator reads one: Rust's `f64` syntax without `inf` and `nan`
 * (letters, which in a duration read as a unit). Links read their numbers with it too.
 */
// (`\d+(\.\d*)?`, not `\d+\.?\d*`: that splits a run of digits in as many ways as it is long,
// and a link's 100,000 digits then a letter took 8 s to refuse, the page frozen.)
export const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A link's number as the simulator reads one: decimal digits with an optional sign, point and
 * exponent (`60`, `-1.5`, `1e-7`), else NaN. `Number()` alone also reads `0x3C` (60), `0b1`,
 * `Infinity` and blanks, which no command line or JSON file takes.
 */
export function decimal(raw) {
  return raw !== null && DECIMAL.test(raw.trim()) ? Number(raw) : NaN;
}

/**
 * A percentage typed in a field, as the fraction the simulator reads from the same text with a
 * `%` (breaker::units::parse_rate): a decimal with no exponent has its point moved, rounded once
 * ("49.999" is 0.49999, where 49.999 / 100 is 0.49999000000000005 and went into links and
 * commands so); one with an exponent, or another number JS reads, is divided by 100.
 */
export function fractionOfPercent(text) {
  const t = String(text).trim();
  return DECIMAL.test(t) && !/[eE]/.test(t) ? Number(`${t}e-2`) : Number(t) / 100;
}

/**
 * The longest text read. Past it the form refuses what a file might take: Rust stops reading an
 * exponent's digits past 65,536 (`0.<700,000 zeros>1e700001` is 0 there, 1 in JS), and no
 * duration needs more.
 */
export const MAX_DURATION_TEXT = 256;

/**
 * Rust's `str::trim`: Unicode White_Space, which is not JS's `trim()` set (JS also strips
 * U+FEFF, the byte order mark, and keeps U+0085, next line).
 */
const SPACE = '\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000';
const TRIM = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'g');
const rustTrim = (s) => s.replace(TRIM, '');

/**
 * Seconds from `text`: {ok: true, value} or {ok: false, message} with the simulator's message.
 * Negative if written so: the range is the field's to check.
 */
export function parseDuration(text) {
  const s = String(text);
  if (s.length > MAX_DURATION_TEXT) {
    return { ok: false, message: `a duration of ${s.length} characters is too long: at most ${MAX_DURATION_TEXT}` };
  }
  const t = rustTrim(s);
  // The unit is the ASCII letters at the end, so that the `e` of `1e3` stays in the number.
  let split = t.length;
  while (split > 0 && /[A-Za-z]/.test(t[split - 1])) split -= 1;
  const num = rustTrim(t.slice(0, split));
  const unit = t.slice(split);
  if (!DECIMAL.test(num)) {
    return { ok: false, message: `“${s}” is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d)` };
  }
  if (!Object.hasOwn(SCALE, unit)) {
    return { ok: false, message: `unknown duration unit “${unit}” in “${s}”: allowed ms, s, m, h, d, w` };
  }
  const v = Number(num) * SCALE[unit];
  return Number.isFinite(v) ? { ok: true, value: v } : { ok: false, message: `“${s}” is not a finite duration` };
}

/** Whether `text` is blank as Rust reads it (an emptied field). */
export const isBlank = (text) => rustTrim(String(text)) === '';
