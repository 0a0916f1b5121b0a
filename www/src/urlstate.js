// The whole settings state in the URL, versioned, so a copied link reproduces the run.
//
// Format v=1: `?v=1&preset=<name>&<dotted.path>=<value>&...&t=<cursor seconds>`. Only settings
// that differ from the named preset are written. A list (e.g. the dependency phases) that differs
// is written whole, as JSON. Reading a link that is bad or from another version gives the defaults
// and a message to show.

import { flatten, getPath, setPath, clone } from './paths.js';
import { wholeRange, readWhole, parseExact } from './whole.js';
import { decimal, MAX_DURATION_TEXT } from './units.js';
import { clipped } from './format.js';

export const URL_VERSION = 1;
const RESERVED = new Set(['v', 'preset', 't', 'embed', 'panels', 'step']);

function listPaths(obj, prefix = '', out = []) {
  if (Array.isArray(obj)) { out.push(prefix); return out; }
  if (obj !== null && typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj)) listPaths(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

function leafPaths(obj) {
  // Leaves outside arrays, plus each array as one unit.
  const arrays = listPaths(obj);
  const flat = flatten(obj);
  const leaves = Object.keys(flat).filter((p) => !arrays.some((a) => a && p.startsWith(`${a}.`)));
  return [...leaves, ...arrays.filter((a) => a && !leaves.includes(a))];
}

/**
 * Whether `path` is a setting of one of the phases `scenario` has (`dependency.1.latency`), as
 * the command line's `--set` takes it: a link wrote the phases only as the whole list
 * (`dependency=[...]`, which the page writes), and refused the path `--set` takes. Own keys only
 * ("constructor" is no setting), and only a leaf that phase has (`dependency.1.burst.enter`, not
 * `dependency.1.burst`, nor a phase past the list's end).
 */
function phaseLeaf(scenario, path) {
  const keys = path.split('.');
  if (keys.length < 3 || keys[0] !== 'dependency' || !/^(0|[1-9]\d*)$/.test(keys[1])) return false;
  let o = scenario;
  for (const k of keys) {
    if (o === null || typeof o !== 'object' || !Object.hasOwn(o, k)) return false;
    o = o[k];
  }
  return o === null || typeof o !== 'object';
}

/** The query string for `scenario`, relative to the preset `base` named `presetName`. */
export function encode(scenario, presetName, base, extra = {}) {
  const q = new URLSearchParams();
  q.set('v', String(URL_VERSION));
  if (presetName) q.set('preset', presetName);
  for (const p of leafPaths(scenario)) {
    const v = getPath(scenario, p);
    const b = base ? getPath(base, p) : undefined;
    if (JSON.stringify(v) === JSON.stringify(b)) continue;
    // No value (a scenario without a trace) is what a link without the key gives.
    if (v === null && (b === undefined || b === null)) continue;
    q.set(p, v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  // An empty value is written (`goal.max_dead_calls=`: no target), as a link must say it.
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null) q.set(k, String(v));
  return q.toString();
}

/**
 * Read a query string. `presetsByName` maps names to scenarios; `defaultName` is used when the
 * link names none. Returns {scenario, preset, t, notice, params, text, fromLink} where `notice` is
 * a sentence to show when the link was not used as is, `fromLink` whether the settings are the
 * link's (not the defaults it fell back to), and `text` whether a number was left as its text.
 */
export function decode(search, presetsByName, defaultName) {
  const q = new URLSearchParams(search);
  const params = Object.fromEntries(q.entries());
  const fallback = (notice) => ({
    scenario: clone(presetsByName[defaultName]), preset: defaultName, t: 0, notice, params,
  });
  const rawT = q.get('t');
  const t = decimal(rawT);
  const tOk = rawT === null || (rawT.trim() !== '' && Number.isFinite(t) && t >= 0);
  const tNotice = tOk ? null : `This link's time “t” = ${clipped(rawT)} is not a time in seconds (a number ≥ 0); starting at the beginning of the run.`;
  const at = tOk && rawT !== null ? t : 0;
  // A link with no settings (only a time, say) is the default settings: no version needed.
  const keys = [...q.keys()].filter((k) => !['embed', 'panels', 'step', 't'].includes(k) && !k.startsWith('goal.'));
  if (keys.length === 0) return { ...fallback(tNotice), t: at };
  const v = q.get('v');
  if (v !== String(URL_VERSION)) {
    return fallback(v === null
      ? 'This link has no settings version; showing the default settings.'
      : `This link is from settings version ${v}, which this page cannot read (it reads version ${URL_VERSION}); showing the default settings.`);
  }
  const name = q.get('preset') || defaultName;
  // The presets' own names only: a link's "constructor" or "__proto__" is no preset.
  const base = Object.hasOwn(presetsByName, name) ? presetsByName[name] : undefined;
  if (!base) return fallback(`This link names an unknown preset “${name}”; showing the default settings.`);
  const scenario = clone(base);
  const valid = new Set(leafPaths(base));
  // Whether a number was left as its text ("2h", "5%"): the simulator reads it (app.js normalizes).
  let text = false;
  for (const [k, raw] of q.entries()) {
    if (RESERVED.has(k) || k.startsWith('goal.')) continue;
    const phase = !valid.has(k) && phaseLeaf(scenario, k);
    if (!valid.has(k) && !phase) return fallback(`This link has a setting “${k}” this page does not know; showing the default settings.`);
    const old = phase ? getPath(scenario, k) : getPath(base, k);
    // A whole number (a seed, a count) past what a JS number holds exactly, or a fraction one
    // would round to a whole number, is refused as written (whole.js), not run as another value.
    const invalid = (why) => fallback(`This link's settings were not valid (${why}); showing the default settings.`);
    let val;
    if (typeof old === 'number') {
      const range = wholeRange(k);
      const r = range ? readWhole(k, raw, range) : { ok: true, value: decimal(raw) };
      if (!r.ok) return invalid(r.message);
      val = r.value;
      // Blank, or too long for any number or duration the simulator reads (its message would
      // quote all of it: 100,000 characters filled the notice).
      if (raw.trim() === '' || raw.length > MAX_DURATION_TEXT) return fallback(`This link's “${k}” is not a number; showing the default settings.`);
      // Any other text goes to the simulator as a scenario file's would: a duration with its
      // unit ("2h") or a rate in percent ("5%") is read as the form reads it (the link refused
      // them); anything else is refused there with the field's name and range.
      if (!Number.isFinite(val)) { val = raw; text = true; }
    } else if (typeof old === 'boolean') {
      if (raw !== 'true' && raw !== 'false') return fallback(`This link's “${k}” is not true or false; showing the default settings.`);
      val = raw === 'true';
    } else if (old !== null && typeof old === 'object') {
      let r;
      try { r = parseExact(raw, k); } catch { return fallback(`This link's “${k}” is not readable; showing the default settings.`); }
      if (!r.ok) return invalid(r.message);
      val = r.value;
      if (!Array.isArray(val) && Array.isArray(old)) return fallback(`This link's “${k}” is not a list; showing the default settings.`);
    } else {
      // A text setting that may be absent (the trace): `null` is written for none. Any other
      // text setting keeps the text, `null` too (a scenario may be named "null").
      val = raw === 'null' && (old === null || k === 'trace') ? null : raw;
    }
    setPath(scenario, k, val);
  }
  return { scenario, preset: q.get('preset') ? name : defaultName, t: at, params, notice: tNotice, text, fromLink: true };
}

/** Copy text to the clipboard; falls back to selecting it in a prompt-free way. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}
