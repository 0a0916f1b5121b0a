// Whole-number settings read exactly, or refused.
//
// The page holds settings as JS numbers, which hold whole numbers exactly only up to 2^53 − 1
// (Number.MAX_SAFE_INTEGER): Number("9007199254740993") is 9007199254740992, and
// JSON.parse('{"seed": 18446744073709551615}') gives 18446744073709552000. The simulator's seeds
// are u64 (the command line takes any up to 18446744073709551615), so a seed read that way would
// run another seed than the one written, silently. The page does not carry seeds past 2^53 − 1:
// a whole-number setting (a seed, a count) is read from its text exactly (as a BigInt) and
// refused when it is past its range, or when its text is not a whole number but a JS number
// would round it to one (9007199254740990.7), with the message the simulator gives for a value
// out of range, naming the field and the value as written:
// `seed = 18446744073709551615 is invalid: allowed a whole number 0 <= x <= 9007199254740991`.

import { WHOLE } from './schema.js';

/** The largest whole number the page carries exactly. */
export const MAX_WHOLE = Number.MAX_SAFE_INTEGER;

/**
 * The whole number `text` writes (decimal digits, optional sign, fraction and exponent: `12`,
 * `1e3`, `5.0`), exactly, as a BigInt; null when it writes no number or one with a fraction.
 */
export function wholeOf(text) {
  // Trimmed first: `^\s*...\s*$` around an empty number split a run of spaces in as many ways
  // as it is long (100,000 spaces then a letter: 2.8 s).
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(String(text).trim());
  if (!m || (m[2] === '' && !m[3])) return null;
  const frac = m[3] || '';
  let digits = (m[2] + frac).replace(/^0+(?=\d)/, '');
  let exp = Number(m[4] || 0) - frac.length;
  if (/^0*$/.test(digits)) return 0n;
  if (exp < 0) {
    // The digits past the point must all be 0.
    const keep = digits.length + exp;
    if (!/^0*$/.test(digits.slice(Math.max(0, keep)))) return null;
    digits = keep > 0 ? digits.slice(0, keep) : '0';
    exp = 0;
  }
  // Past 10^40 every range here is long passed: the size is enough, not the exact value.
  const n = BigInt(digits) * 10n ** BigInt(Math.min(exp, 40));
  return m[1] === '-' ? -n : n;
}

/** The range of the whole-number setting at `path` (a dotted path), or null if it is not one. */
export function wholeRange(path) {
  const key = String(path).replace(/^(\w+)\.\d+\./, '$1.*.');
  // Its own keys only: "constructor" or "toString" is a path a host's JSON can hold.
  return Object.hasOwn(WHOLE, key) ? WHOLE[key] : null;
}

/** The simulator's message for `path` = `text` out of `[lo, hi]`. */
export function wholeMessage(path, text, [lo, hi]) {
  return `${path} = ${String(text).trim()} is invalid: allowed a whole number ${lo} <= x <= ${hi}`;
}

/**
 * `text` for the whole-number setting `path`: {ok, value} (a JS number, exact) or {ok: false,
 * message}. A text that is no number at all is left to the caller (value NaN, ok true): its own
 * message says so.
 */
export function readWhole(path, text, range = wholeRange(path)) {
  const n = wholeOf(text);
  if (n === null) {
    const x = String(text).trim() === '' ? NaN : Number(text);
    // A fraction that stays one (2.5) is the simulator's to refuse; one a JS number rounds to
    // a whole number is refused here, as written.
    if (!Number.isInteger(x)) return { ok: true, value: x };
    return { ok: false, message: wholeMessage(path, text, range) };
  }
  if (n < BigInt(range[0]) || n > BigInt(range[1])) return { ok: false, message: wholeMessage(path, text, range) };
  return { ok: true, value: Number(n) };
}

const MARK = '\u0000whole:';

/**
 * JSON text read as JSON.parse reads it, except that a number JSON.parse would not hold exactly
 * (a whole number past 2^53 − 1, or a fraction it would round to a whole number) is checked
 * where it lands: at a whole-number setting it is refused ({ok: false, path, message}: its path
 * under `prefix`, and a message naming it and the value as written); anywhere else it is the
 * number JSON.parse gives. Nested past MAX_NESTING, it is refused as the wasm refuses it.
 * Throws as JSON.parse does on text that is not JSON.
 */
export function parseExact(text, prefix = '') {
  const plain = JSON.parse(text);
  // Past the nesting the simulator reads, refused as such (the walk below recurses: thousands
  // deep, it overflowed the stack, and valid JSON was reported as not JSON).
  const deep = refusal(plain, prefix, prefix ? prefix.split('.').length + 1 : 1);
  if (deep) return { ok: false, ...deep };
  let inexact = false;
  // Strings are matched whole (and kept) so a number inside one is never touched.
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (tok) => {
    if (tok[0] === '"') return tok;
    const n = wholeOf(tok);
    const x = Number(tok);
    const exact = n === null ? !Number.isInteger(x) || !Number.isFinite(x) : Number.isSafeInteger(x) && BigInt(x) === n;
    if (exact) return tok;
    inexact = true;
    return JSON.stringify(MARK + tok);
  });
  if (!inexact) return { ok: true, value: plain };
  let error = null;
  const walk = (v, path) => {
    if (typeof v === 'string' && v.startsWith(MARK)) {
      const tok = v.slice(MARK.length);
      const range = wholeRange(path);
      if (range && !error) {
        const r = readWhole(path, tok, range);
        if (!r.ok) error = { path, message: r.message };
      }
      // Past a double's range (1e400): the text as written, which the simulator refuses,
      // naming the field and its range (as a number, it read "= null").
      const x = Number(tok);
      return Number.isFinite(x) ? x : tok;
    }
    // In place: every key is the parsed object's own (a "__proto__" key stays a key).
    if (Array.isArray(v)) v.forEach((x, i) => { v[i] = walk(x, path ? `${path}.${i}` : String(i)); });
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) v[k] = walk(x, path ? `${path}.${k}` : k);
    }
    return v;
  };
  const value = walk(JSON.parse(marked), prefix);
  return error ? { ok: false, ...error } : { ok: true, value };
}

/**
 * The most levels of objects and lists, one in another, that settings may have: as many as the
 * simulator reads (JSON's recursion limit; the wasm refuses more, naming the field).
 */
export const MAX_NESTING = 127;

/**
 * A deep copy of `value` (plain data, as `load(scenario)` takes it), as a JSON round trip makes
 * it, except that a BigInt is read instead of thrown on: at a whole-number setting it becomes a
 * JS number if its range allows it, else the copy is refused as a typed value would be
 * ({ok: false, path, message}, `seed: 2n ** 64n - 1n`); anywhere else it becomes the number
 * Number() gives. A value nested past MAX_NESTING levels (one that holds itself, `s.name = s`,
 * never ends) is refused naming where, rather than overflowing the stack. {ok: true, value}
 * otherwise.
 */
export function exactCopy(value) {
  const refused = refusal(value, '', 1);
  if (refused) return { ok: false, ...refused };
  // Said as written: posted to the worker, undefined arrived as null ("scenario = null").
  if (value === undefined) return { ok: false, path: '', message: 'scenario = undefined is invalid: allowed an object of settings' };
  // NaN and ±Infinity as their names (JSON would write null, refused as "= null"), which the
  // simulator refuses naming the field and its range, except where text is taken (a name, a
  // label: null is refused there, where "NaN" would be a name).
  const copy = (k, v) => (typeof v === 'bigint' ? Number(v)
    : typeof v === 'number' && !Number.isFinite(v) ? (k === 'name' || k === 'label' ? null : String(v)) : v);
  return { ok: true, value: JSON.parse(JSON.stringify(value, copy)) };
}

/**
 * The first reason to refuse `value` (at `level`, settings at 1): a BigInt at a whole-number
 * setting outside its range, a value that is not plain data (a function, a symbol, a Map, a
 * Date), or an object or list past MAX_NESTING. {path, message} or null.
 */
function refusal(value, prefix, level) {
  if (typeof value === 'bigint') {
    const range = wholeRange(prefix);
    if (range && (value < BigInt(range[0]) || value > BigInt(range[1]))) {
      return { path: prefix, message: wholeMessage(prefix, String(value), range) };
    }
    return null;
  }
  // What JSON would drop or empty unsaid (a function, a symbol, a Map's entries): `load({seed:
  // Symbol()})` ran seed 1. Checked by its tag, not its prototype, so an object from another
  // frame is still plain.
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  if (typeof value === 'function' || typeof value === 'symbol' || (value !== null && typeof value === 'object' && !['Object', 'Array'].includes(tag))) {
    return { path: prefix.split('.')[0], message: `${prefix || 'scenario'} = ${typeof value === 'object' ? `a ${tag}` : `a ${typeof value}`} is invalid: allowed plain data (numbers, text, true/false, null, lists and objects)` };
  }
  if (value === null || typeof value !== 'object') return null;
  if (level > MAX_NESTING) {
    // The path down to here is MAX_NESTING keys long: its first keys say where.
    const keys = prefix.split('.');
    const where = keys.length > 3 ? `${keys.slice(0, 3).join('.')}.…` : prefix;
    return {
      path: keys[0],
      message: `${where} = ${Array.isArray(value) ? '[…]' : '{…}'} is invalid: nested too deep: `
        + `at most ${MAX_NESTING} levels of objects and lists, one in another, as in JSON `
        + '(a value that holds itself never ends)',
    };
  }
  for (const [k, v] of Object.entries(value)) {
    const r = refusal(v, prefix ? `${prefix}.${k}` : k, level + 1);
    if (r) return r;
  }
  return null;
}
