// Number formatting, and the label every number carries: what kind of number it is.

/** The four kinds of number the page shows (design §5), and a setting shown as it was set. */
export const KINDS = {
  exact: { label: 'exact', title: 'Computed exactly from the settings (up to floating point).' },
  bound: { label: 'bound', title: 'A guaranteed limit (an inequality), not an estimate.' },
  approximation: { label: 'approx.', title: 'An approximation (e.g. Wald\'s, ignoring overshoot).' },
  simulated: { label: 'simulated', title: 'Measured by simulation: on this deterministic run, or over the Monte Carlo runs given beside it.' },
  setting: { label: 'setting', title: 'One of your settings, as you set it.' },
};

/** A small badge saying what kind a number is. */
export function kindBadge(kind) {
  const k = KINDS[kind] || { label: kind, title: '' };
  const el = document.createElement('span');
  el.className = `kind kind-${kind}`;
  el.textContent = k.label;
  el.title = k.title;
  return el;
}

/** A number with its unit and kind badge: <span class="num">1.39 nats</span><badge>. */
export function num(value, { unit = '', digits = 3, kind } = {}) {
  const wrap = document.createElement('span');
  wrap.className = 'numwrap';
  const n = document.createElement('span');
  n.className = 'num';
  n.textContent = `${fmt(value, digits)}${unit ? ` ${unit}` : ''}`;
  wrap.append(n);
  if (kind) wrap.append(' ', kindBadge(kind));
  return wrap;
}

// One formatter for every call: `Number.prototype.toLocaleString` builds a new one each time
// (the same text, about 50 times slower), which made the panels' numbers the largest cost of
// a rerun.
const GROUPED = new Intl.NumberFormat('en-US');

/** A compact number: significant digits, thin grouping, no trailing zeros. */
export function fmt(v, digits = 3) {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (v === Infinity) return '∞';
  if (v === -Infinity) return '−∞';
  const a = Math.abs(v);
  // Every minus a true one (the exponent's too), and no trailing zeros ("1.00e-317" read so).
  // No "+" in a positive exponent ("1.16e303", as the other numbers read, not "1.16e+303").
  if (a !== 0 && (a >= 1e9 || a < 1e-4)) return v.toExponential(Math.max(0, digits - 1)).replace(/\.?0+e/, 'e').replace('e+', 'e').replace(/-/g, '−');
  let s;
  if (Number.isInteger(v) && a < 1e9) s = GROUPED.format(v);
  else if (a >= 1000) s = GROUPED.format(Math.round(v));
  else {
    // Rounded to its digits first: 999.9999999999998 (e^ln 1000) reads 1,000, grouped as 1000 is.
    const r = Number(v.toPrecision(digits));
    s = Math.abs(r) >= 1000 ? GROUPED.format(r) : String(r);
  }
  return s.replace(/^-/, '−');
}

/**
 * `n` with its noun, singular when it reads "1": `count(1, 'call', 'calls')` is "1 call", and so
 * is a ratio of 1.0004 at 3 digits ("one failure outweighs 1 success").
 */
export function count(n, one, many, digits = 3) {
  const shown = fmt(n, digits);
  return `${shown} ${shown === '1' ? one : many}`;
}

/**
 * A fraction in percent as a setting holds it, without float noise: 0.9999 is "99.99%", and a
 * tiny rate is written out (1e-9 is "0.0000001%", not JavaScript's "1e-7%").
 */
export function percentAsSet(x) {
  // Past what a setting can mean (a typed 1e308, a subnormal's floor), JavaScript's exponent:
  // written out, those took hundreds of zeros.
  const y = Number((x * 100).toPrecision(12));
  const a = Math.abs(y);
  return `${a !== 0 && (a < 1e-12 || a >= 1e21) ? String(y) : plain(y)}%`;
}

/** `String(v)` without exponent notation: the same digits, written out with zeros. */
export function plain(v) {
  const s = String(v);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, rest = '', e] = m;
  const digits = lead + rest;
  const exp = Number(e);
  return exp < 0
    ? `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
    : `${sign}${digits}${'0'.repeat(Math.max(0, exp - rest.length))}`;
}

/** Signed, for weights: +8, −1. */
export function signed(v, digits = 3) {
  const s = fmt(v, digits);
  return v > 0 ? `+${s}` : s;
}

/** A percentage from a fraction. */
export function pct(v, digits = 3) {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  let s = fmt(v * 100, digits);
  // A chance short of 1 never reads 100% (a recovered service's 0.99999 chance to close, beside
  // "exact"): it takes the digits that show it short, 99.999%.
  while (v < 1 && s === '100' && digits < 17) s = fmt(v * 100, ++digits);
  return `${s}%`;
}

/** A duration in seconds as people read it: 200 ms, 45 s, 3.5 min, 2 h, 30 d. */
export function duration(s) {
  if (s === null || s === undefined || Number.isNaN(s)) return '—';
  if (!Number.isFinite(s)) return '∞';
  const a = Math.abs(s);
  if (a < 1) return `${fmt(s * 1000, 3)} ms`;
  if (a < 120) return `${fmt(s, 3)} s`;
  if (a < 7200) return `${fmt(s / 60, 3)} min`;
  if (a < 172800) return `${fmt(s / 3600, 3)} h`;
  return `${fmt(s / 86400, 3)} d`;
}

/**
 * A clock-like time for the transport: 1:02:03.40 or 12 d 03:04:05.00. Cut to the hundredth, as
 * a stopwatch is, never rounded up: rounded, the clock at 29.597 s read 0:29.60 beside "call
 * 147" while call 148 comes at 29.60, and a run cancelled at 59.999 s of 60 read "1:00.00 of
 * 1:00.00". (The 1e-6 takes a time written in hundredths, 0.29 = 28.999999999999996 / 100,
 * as the hundredth it is.) Cut first, then split, so the fields never carry over (0:60.00).
 */
export function clock(s) {
  if (!Number.isFinite(s)) return '—';
  const neg = s < 0;
  let cs = Math.floor(Math.abs(s) * 100 + 1e-6);
  const d = Math.floor(cs / 8640000); cs -= d * 8640000;
  const hh = Math.floor(cs / 360000); cs -= hh * 360000;
  const mm = Math.floor(cs / 6000); cs -= mm * 6000;
  const ss = (cs / 100).toFixed(2).padStart(5, '0');
  const p2 = (x) => String(x).padStart(2, '0');
  const body = d > 0 ? `${d} d ${p2(hh)}:${p2(mm)}:${ss}` : hh > 0 ? `${hh}:${p2(mm)}:${ss}` : `${mm}:${ss}`;
  return (neg ? '−' : '') + body;
}

/** State names as the page shows them. */
export const STATE_NAMES = ['closed', 'half-open', 'open'];
export function stateName(s) {
  if (typeof s === 'number') return STATE_NAMES[s] ?? '—';
  return String(s).replace('_', '-');
}

/**
 * A scenario's name as a file's name: lower case, letters (of any script) and digits kept, any
 * other run of characters one `-` ("Ünïcode “edited” name/with slashes" is
 * `ünïcode-edited-name-with-slashes`; ASCII only, it was `n-code-edited-...`; combining marks
 * kept, `हिन्दी` whole), `scenario` if nothing is left.
 */
export function fileStem(name) {
  // At most 100 characters, a file name's part: a link's name of 60,000 dashes was one.
  return [...String(name).normalize('NFC')].slice(0, 100).join('').toLowerCase().replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '-').replace(/^[-.]+|-+$/g, '') || 'scenario';
}

/**
 * User text quoted in a message: whole up to 80 characters, else its first 60 and its length
 * (`1111…` (100000 characters)), as the simulator's messages quote it: a link's 100,000-character
 * value filled the notice.
 */
export function clipped(text) {
  // By characters as a reader counts them (graphemes: a flag, a family emoji, a letter with its
  // accents), not UTF-16 units, which split an emoji in half.
  const t = String(text);
  const chars = typeof Intl !== 'undefined' && Intl.Segmenter
    ? Array.from(new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(t), (x) => x.segment)
    : [...t];
  return chars.length <= 80 ? t : `${chars.slice(0, 60).join('')}… (${chars.length} characters)`;
}
