// Settings drawn at random for property tests in node (fast-check), and the page's own wasm
// (www/dist/pkg, built by `cargo xtask dist`) to read and run them with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ROOT } from './helpers.mjs';
import { flatten, setPath, clone } from '../../www/src/paths.js';
import { wholeRange } from '../../www/src/whole.js';

const pkg = join(ROOT, 'www/dist/pkg');
export const wasm = await import(join(pkg, 'breaker_wasm.js'));
await wasm.default({ module_or_path: readFileSync(join(pkg, 'breaker_wasm_bg.wasm')) });
export const PRESETS = wasm.presets().map((p) => ({ name: p.name, scenario: p.scenario }));
export const byName = Object.fromEntries(PRESETS.map((p) => [p.name, p.scenario]));

/** Text the settings take: names with link syntax, quotes, non-ASCII, and the word null. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('null', 'true', '0', '', ' ', '&v=2', 'a=b&c', '#t=5', '%20+%', '"q"', '{}', '[]', 'é漢🙂'),
);

/** A value for a leaf holding `old`: of the same kind, drawn widely. */
function wideValue(path, old) {
  if (typeof old === 'boolean') return fc.boolean();
  if (typeof old === 'string' || old === null) return path === 'trace' ? fc.constant(null) : text;
  // A whole-number setting within its range: the page holds no other (it is refused on its
  // field, and a link is written only of settings the simulator accepted).
  const range = wholeRange(path);
  if (range) return fc.integer({ min: range[0], max: range[1] });
  return fc.oneof(
    fc.double({ min: -1e12, max: 1e12, noNaN: true }),
    fc.constantFrom(0, 1e-300, 5e-324, 0.1 + 0.2, 1 / 3, 2 ** 53 - 1, 1e21, -1e-7),
  );
}

/** A value near `old`, so that most settings stay valid and run: a number scaled by 0 to 3
 * (whole numbers rounded), a flag flipped, an option of the field's kind. */
function nearValue(path, old) {
  if (typeof old === 'boolean') return fc.boolean();
  if (path.endsWith('.condition')) return fc.constantFrom('fine', 'degraded', 'outage');
  if (path.endsWith('.failure')) return fc.constantFrom('timeout', 'refused', 'server_error', 'overload', 'input_rejected', 503, 429);
  if (path === 'traffic.arrivals') return fc.constantFrom('poisson', 'even');
  if (path === 'window.sliding_window_type') return fc.constantFrom('count_based', 'time_based');
  if (typeof old !== 'number') return fc.constant(old);
  const scale = fc.oneof(fc.double({ min: 0, max: 3, noNaN: true }), fc.constantFrom(0, 0.5, 1, 2));
  return wholeRange(path) ? scale.map((f) => Math.round(old * f)) : scale.map((f) => old * f);
}

/** A preset with up to `most` leaves changed (a phase's too), each drawn by `value`. */
function edited(value, most) {
  return fc.constantFrom(...PRESETS).chain((p) => {
    const leaves = Object.entries(flatten(p.scenario)).filter(([k]) => k !== 'trace');
    const edit = fc.constantFrom(...leaves).chain(([k, old]) => value(k, old).map((v) => [k, v]));
    return fc.array(edit, { maxLength: most }).map((edits) => {
      const s = clone(p.scenario);
      for (const [k, v] of edits) setPath(s, k, v);
      return s;
    });
  });
}

/** Settings the page can hold, drawn widely (most of them invalid to the simulator). */
export const settings = edited(wideValue, 4);

/** Settings near the presets' (most of them valid). */
export const nearSettings = edited(nearValue, 4);
