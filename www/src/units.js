// Durations as people write them, read as the simulator reads them (breaker::units
// ::parse_duration in crates/breaker/src/units.rs): `500ms`, `5s`, `1.5m`, `2h`, `30d`, `1w`, or
// bare seconds. The same text gives the same seconds to the last bit in the form as in a scenario
// file: the number is read as Rust reads a float (JS's Number() of the same decimal text is
// correctly rounded too) and multiplied by the same scale. A test compares it with the wasm.

/** Seconds per unit; `sec` and `min` are `s` and `m`, and no unit is seconds. */
const SCALE = { '': 1, s: 1, sec: 1, ms: 1e-3, m: 60, min: 60, h: 3600, d: 86_400, w: 604_800 };

/** Rust's `f64` syntax without `inf` and `nan` (those are letters: they read as a unit). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Seconds from `text`: {ok: true, value} or {ok: false, message} with the simulator's message.
 * Negative if written so: the range is the field's to check.
 */
export function parseDuration(text) {
  const t = String(text).trim();
  // The unit is the letters at the end, so that the `e` of `1e3` stays in the number.
  const [, num, unit] = /^(.*?)([A-Za-z]*)$/s.exec(t);
  if (!NUMBER.test(num.trim())) {
    return { ok: false, message: `“${text}” is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d)` };
  }
  if (!Object.hasOwn(SCALE, unit)) {
    return { ok: false, message: `unknown duration unit “${unit}” in “${text}”: allowed ms, s, m, h, d, w` };
  }
  const v = Number(num.trim()) * SCALE[unit];
  return Number.isFinite(v) ? { ok: true, value: v } : { ok: false, message: `“${text}” is not a finite duration` };
}
