// The settings form: presets, seed, the five prominent statistical settings, and every other
// setting of the scenario and both breakers, with units and inline validation messages.
//
// Values live in one plain object, the scenario (same JSON as the simulator's Scenario). A control
// is shown only when its path exists in the scenario, so the form follows the simulator's format.
// Range checks are the Rust side's: an invalid scenario comes back as an error naming the field,
// and `showError` puts the message next to that field.

import { h, uniqueId, replace, debounce, refuseComma } from './dom.js';
import { getPath, setPath, clone } from './paths.js';
import { PROMINENT, SECTIONS, SEED } from './schema.js';
import { wholeOf } from './whole.js';
import { percentAsSet } from './format.js';
import { parseDuration, isBlank, fractionOfPercent } from './units.js';

/** Show a stored value in an input (scale e.g. 100 for percentages), without float noise. */
function toInput(v, f) {
  if (v === undefined || v === null) return '';
  if (f.type === 'checkbox') return Boolean(v);
  if (f.type === 'select') return String(v);
  if (f.type === 'textarea') return v === null || v === undefined ? '' : String(v);
  if (typeof v !== 'number') return String(v);
  // A whole number digit for digit: 12 significant digits would show seed 123456789012345 as
  // 123456789012000, and committing the field would run that seed.
  if (f.int && Number.isSafeInteger(v)) return String(v);
  const x = v * (f.scale || 1);
  return String(Number(x.toPrecision(12)));
}

/**
 * The simulator's range of a rate, in the form's percent: "0 < x < 1" as "0% < x < 100%" (each
 * number that stands alone, times 100, without float noise).
 */
export function percentOf(text) {
  return text.replace(/(?<![\w.])(\d+(?:\.\d+)?(?:e[+-]?\d+)?)(?![\w.%])/g,
    (n) => percentAsSet(Number(n)));
}

/**
 * A rate's message in the form's percent, or null if it is in percent already. Some come with
 * the simulator's own gloss in percent after fractions ("dependency.1.failure_rate = -0.05 is
 * invalid: allowed 0 <= x <= 1 (0% to 100%)", a threshold's "(0% < x <= 100%)"): the gloss goes
 * and the fractions are converted (the gloss's % had kept a typed -5 shown as -0.05).
 */
export function rateInPercent(message) {
  const bare = message.replace(/ \([^()]*%[^()]*\)$/, '');
  return bare.includes('%') ? null : percentOf(bare);
}

/**
 * Show `text` in a text box, or, past BIG_TEXT characters, hold it beside the box (`held`, read
 * back by fromInput) with the box empty, its placeholder saying what is held, and `drop` shown;
 * `typed`: what the box holds now (typing replaces a held text).
 */
function showText(input, drop, text, typed = '') {
  const big = typeof text === 'string' && text.length > BIG_TEXT;
  input.held = big ? text : null;
  input.value = big ? '' : (text ?? typed);
  if (big) {
    const lines = text.split('\n').filter((l) => l.trim() !== '').length;
    input.placeholder = `A trace of ${lines.toLocaleString('en-US')} lines (${(text.length / 1e6).toFixed(1)} MB) is loaded, too long to show here: it runs as it is. Type or paste here to replace it, or drop it.`;
  } else input.placeholder = TRACE_PLACEHOLDER;
  if (drop) drop.hidden = !big;
}

/** What a duration field takes (its tooltip, and its label's unit for a screen reader). */
const DURATION_HINT = 'seconds, or with a unit: 500ms, 1.5m, 2h, 30d, 1w';

/**
 * Text past this many characters (a trace of some 50,000 lines) is held beside its text box, not
 * put in it: the box's layout of a million lines froze the page for some 20 s.
 */
export const BIG_TEXT = 1_000_000;
const TRACE_PLACEHOLDER = '0.0,success,0.05\n0.2,timeout,30';

/** Read an input back; returns {ok, value} or {ok:false, message, range}. */
function fromInput(el, f) {
  if (f.type === 'checkbox') return { ok: true, value: el.checked };
  // An empty box holding a text too long to show (`held`) reads as that text.
  if (f.type === 'textarea') return { ok: true, value: el.value.trim() === '' ? (el.held ?? null) : el.value };
  if (f.type === 'select') {
    const raw = el.value;
    const opt = f.options.find(([v]) => String(v) === raw);
    return { ok: true, value: opt ? opt[0] : (Number.isNaN(Number(raw)) ? raw : Number(raw)) };
  }
  if (f.duration) {
    // Seconds, or with a unit as a scenario file takes it ("500ms", "2h", "30d"), read from the
    // text as typed: units.js trims as the simulator does, which is not String.trim().
    if (isBlank(el.value)) return { ok: false, message: 'Enter a duration.', range: true };
    const d = parseDuration(el.value);
    // A text that is no duration: its message says why, and the field's range is added to it
    // (as the simulator adds it to the same message in a link, a file or `--set`).
    return d.ok ? { ok: true, value: d.value } : { ...d, range: true };
  }
  const raw = el.value.trim();
  const x = Number(raw);
  // A whole number's field says its range below (empty and not a number included); another's
  // range is the simulator's to say (`range`: see sayRange).
  if (!f.int && raw === '') return { ok: false, message: 'Enter a number.', range: true };
  if (!f.int && !Number.isFinite(x)) return { ok: false, message: `“${raw}” is not a number.`, range: true };
  if (f.int) {
    // Read from the text exactly (whole.js): a JS number holds whole numbers exactly only up to
    // 2^53 - 1, and rounds 9007199254740990.7 to a whole number; either would run another value
    // than the one typed.
    const lo = f.min ?? -Number.MAX_SAFE_INTEGER;
    const hi = f.max ?? Number.MAX_SAFE_INTEGER;
    const n = wholeOf(raw);
    if (n === null || n < BigInt(lo) || n > BigInt(hi)) return { ok: false, message: `Enter a whole number from ${lo} to ${hi}.` };
    return { ok: true, value: Number(n) };
  }
  return { ok: true, value: f.scale === 100 ? fractionOfPercent(raw) : f.scale ? x / f.scale : x };
}

// Each group of settings is a <form> of its own (the head, the prominent five, each section's
// fields, each phase of a list): a browser's autofill inspects every control of the form an
// edited control belongs to, on every change (Chromium: about 3.5 ms for one form of all the
// settings, before the run's reply can be handled), so small forms keep an edit cheap. Enter
// must not submit any of them.
// novalidate: Enter in a form of one field submits it, and the browser would first show its own
// bubble for an out-of-range number beside the page's message; the page validates every field.
/** The most forms a list of phases is split into (see `listEditor`). */
const LIST_FORMS = 40;
/**
 * The most phases a list shows at once; the others are a page away (Previous, Next, "Go to
 * phase"). All shown, 1,000 phases (15,000 controls) took 5.8 s to show in Chromium and 4,000
 * took 30-48 s, the page frozen; "Open scenario…" reaches them with one click.
 */
const LIST_PAGE = 50;

const form = (props, ...children) => h('form', {
  ...props,
  attrs: { ...(props && props.attrs), novalidate: true },
  on: { submit: (e) => e.preventDefault() },
}, ...children);

/**
 * Build the form inside `root`. `onChange(scenario, path)` is called with a fresh copy after every
 * committed edit (typing is debounced). Returns {element, set, showError, clearErrors,
 * setPresets, showPreset, hasLocal, hasLocalErrors}.
 */
export function createControls(root, { onChange, onPreset, onLocal = () => {}, rangeOf = async () => null }) {
  let scenario = {};
  let presets = [];
  const fields = new Map(); // path -> {f, input, msg, wrap}
  // The simulator's message last put beside a field ({path, text}), shown again when a list
  // page leaves and comes back to it.
  let lastError = null;
  // Bumped at each committed value: an answer about the settings before it is not shown.
  let version = 0;

  const general = h('p', { class: 'msg general', attrs: { role: 'alert', 'aria-live': 'polite' } });
  const presetId = uniqueId('preset');
  const presetSel = h('select', { id: presetId, on: { change: () => onPreset(presetSel.value) } });
  const presetDesc = h('p', { class: 'help preset-desc' });
  const seedF = SEED;

  const head = form({ class: 'control-head' },
    h('div', { class: 'field' }, h('label', { for: presetId, text: 'Preset' }), presetSel),
    field(seedF));
  const prom = form({}, h('fieldset', { class: 'prominent' },
    h('legend', { text: 'What the statistical breaker decides' }),
    PROMINENT.map((f) => field(f))));
  const sections = h('div', { class: 'sections' });
  // The settings' heading, for the headings' outline (the list titles below are its h3s).
  replace(root, h('h2', { class: 'sr-only', text: 'Settings' }), general, head, presetDesc, prom, sections);

  function field(f, pathOverride) {
    const path = pathOverride || f.path;
    const id = uniqueId('f');
    const msgId = `${id}-msg`;
    const helpId = `${id}-help`;
    let input;
    const describedBy = [msgId, f.help ? helpId : null].filter(Boolean).join(' ');
    if (f.type === 'select') {
      input = h('select', { id, attrs: { 'aria-describedby': describedBy } },
        f.options.map(([v, label]) => h('option', { value: String(v), text: label })));
    } else if (f.type === 'checkbox') {
      input = h('input', { id, type: 'checkbox', attrs: { 'aria-describedby': describedBy } });
    } else if (f.type === 'textarea') {
      input = h('textarea', { id, rows: 4, spellcheck: false, attrs: { 'aria-describedby': describedBy, placeholder: TRACE_PLACEHOLDER } });
    } else if (f.duration) {
      // Text, not a number input: a unit is letters ("2h"), which a number input empties.
      input = h('input', {
        id, type: 'text', spellcheck: false,
        attrs: { autocomplete: 'off', autocapitalize: 'off', autocorrect: 'off', title: DURATION_HINT, 'aria-describedby': describedBy },
      });
    } else {
      input = h('input', {
        id, type: 'number', inputMode: f.int ? 'numeric' : 'decimal',
        attrs: { step: f.step ?? 'any', min: f.min, max: f.max, 'aria-describedby': describedBy },
      });
    }
    const unit = f.unit ? h('span', { class: 'unit', attrs: { 'aria-hidden': 'true' }, text: f.unit }) : null;
    const label = h('label', { for: id }, f.label, f.unit ? h('span', { class: 'sr-only', text: ` (${f.duration ? DURATION_HINT : f.unit})` }) : null);
    const msg = h('p', { class: 'msg', id: msgId, attrs: { 'aria-live': 'polite' } });
    // A text held beside its box (too long to show) is dropped with this, or replaced by typing.
    const drop = f.type === 'textarea'
      ? h('button', { type: 'button', class: 'small drop-held', text: 'Drop this trace', hidden: true, on: { click: () => { showText(input, drop, null); commit(); } } })
      : null;
    if (drop) input.addEventListener('input', () => { if (input.value !== '' && input.held != null) showText(input, drop, null, input.value); });
    const wrap = h('div', { class: `field${f.type === 'checkbox' ? ' check' : ''}`, dataset: { path } },
      label, h('div', { class: 'inputrow' }, input, unit), drop,
      f.help ? h('p', { class: 'help', id: helpId, text: f.help }) : null, msg);
    const commit = () => {
      const c = fields.get(path);
      // This control was replaced (a page of a list left, the list rebuilt) while its typing
      // waited to commit: leaving it committed it already.
      if (!c || c.input !== input) return;
      const r = fromInput(input, f);
      // Emptied for a comma (`refuseComma`): what is typed on after it without a pause (the 5
      // of "2,5") runs on no Enter and no leaving the field, and its message stays (committed
      // on Enter, 2,5 ran as 5). A pause, a deletion or an undo ends it: the reader's own fix.
      if (c.comma) return;
      // `onLocal(true)`: some field holds what its input cannot take (the run shown does not use
      // it), so the app marks the run as the last valid one; `false` once none does.
      if (!r.ok) {
        c.local = true; c.rangeFor = null; setMsg(path, r.message); onLocal(true);
        if (r.range) sayRange(path, r.message);
        return;
      }
      // Typing commits after a pause and leaving the field commits again: run once per value,
      // and keep the message that value's run gave (only a message of the input's own goes).
      if (Object.is(getPath(scenario, path), r.value)) {
        if (c.local) { c.local = false; setMsg(path, ''); onLocal(anyLocal()); }
        return;
      }
      if (c.local) { c.local = false; onLocal(anyLocal()); }
      setMsg(path, '');
      setPath(scenario, path, r.value);
      version += 1;
      onChange(clone(scenario), path);
      refreshRanges();
    };
    const typed = debounce(commit, 400);
    input.addEventListener('change', commit);
    // A duration typed with a unit reads back in seconds once the field is left, as the unit
    // beside it says ("2h" becomes 7200), every digit kept (the text is what runs if committed).
    if (f.duration) {
      input.addEventListener('change', () => {
        const r = fromInput(input, f);
        if (r.ok && /[A-Za-z]/.test(input.value)) input.value = String(r.value);
      });
    }
    if (f.type !== 'select' && f.type !== 'checkbox' && f.type !== 'textarea') input.addEventListener('input', typed);
    // The field's own message, as for any text it cannot take: it stays until the field is fixed.
    if (input.type === 'number') {
      refuseComma(input, (m) => {
        const c = fields.get(path);
        if (!c || c.input !== input) return;
        c.local = true; c.comma = true; c.commaAt = performance.now(); c.rangeFor = null; setMsg(path, m); onLocal(true);
      });
      // Typed on after the comma: text inserted (typed, pasted, composed) less than a second
      // after the last. Anything else, or after a pause, is an edit the reader chose.
      input.addEventListener('input', (ev) => {
        const c = fields.get(path);
        if (!c || c.input !== input || !c.comma) return;
        const now = performance.now();
        if (/^insert(Text|FromPaste|CompositionText)$/.test(ev.inputType || '') && now - c.commaAt < 1000) c.commaAt = now;
        else c.comma = false;
      });
    }
    // `local`: the message is the input's own (not a number, ...): it stays until the input is
    // fixed, whatever runs meanwhile, since the run shown does not use what the field shows.
    fields.set(path, { f, input, msg, wrap, drop, local: false });
    return wrap;
  }
  const anyLocal = () => [...fields.values()].some((c) => c.local);

  /**
   * The simulator's `message` about the field at `path` as the form says it: in percent where
   * the form is (the simulator speaks in fractions: "= -0.01 ... allowed 0 < x < 1" is "= -1% ...
   * allowed 0% < x < 100%"), unless it gives the percentages itself ("0 < x <= 1 (0% < x <=
   * 100%)") or quotes a text (whose digits are not a rate); if it cannot be, a note says so.
   * And a note where it counts a list's items from 0 and the form says "Phase 2" of dependency.1.
   */
  function inFormTerms(path, message) {
    const notes = [];
    let said = message;
    const inPercent = fields.get(path).f.scale === 100 ? rateInPercent(message) : null;
    if (inPercent !== null) {
      if (/["“]/.test(message)) notes.push('rates are fractions there: 1 is 100%');
      else said = inPercent;
    }
    const item = /^([a-z_]+)\.(\d+)\./.exec(path);
    if (item && message.includes(`${item[1]}.${item[2]}.`)) notes.push(`${item[1]}.${item[2]} is phase ${Number(item[2]) + 1}: the settings count from 0`);
    return notes.length ? `${said} (${notes.join('; ')})` : said;
  }

  /**
   * Add what the field at `path` allows to its own `message` (empty, not a number), as the
   * simulator says it (`rangeOf`), once that answer comes: if the message is still the one shown
   * (the field was not fixed or changed meanwhile), and if the simulator's answer is about this
   * field (another invalid field can make it name that one instead: then nothing is added).
   */
  function sayRange(path, message) {
    const c0 = fields.get(path);
    if (!c0) return;
    c0.rangeFor = message;
    const v = version;
    const at = (x) => {
      const probe = clone(scenario);
      setPath(probe, path, x);
      return Promise.resolve(rangeOf(path, probe));
    };
    // As the simulator's own explanation tries them: the smallest positive normal number
    // (Rust's f64::MIN_POSITIVE; a subnormal rate is refused as such) meets a lower end that
    // depends on another field (the broken rate's "fine_rate (0.05) < x < 1"), the largest
    // number below 1 an upper end that does ("0 < x < 1 - trial_wrongly_opens (0.7)"), and 1e300
    // the field's own range ("0 < x < 1").
    at(2.2250738585072014e-308).then((a) => a || at(0.9999999999999999)).then((a) => a || at(1e300)).then((allowed) => {
      const c = fields.get(path);
      // Not for settings changed since it was asked (another field's value in the range would
      // be old: the change asks again, see refreshRanges), nor for a message no longer shown.
      if (!allowed || version !== v || c !== c0 || !c.local || c.rangeFor !== message) return;
      // A message that says what the text may be ("use seconds or a unit (...)", "allowed ms,
      // s, ...") takes the range after a comma, as the simulator writes it.
      const said = inFormTerms(path, allowed);
      setMsg(path, /: (use|allowed) /.test(message) ? `${message}, ${said}` : `${message.replace(/\.$/, '')}: allowed ${said}.`);
    }, () => {});
  }

  /** Ask again what each field holding an invalid text allows: a range can quote another field. */
  function refreshRanges() {
    for (const [path, c] of fields) if (c.local && c.rangeFor) sayRange(path, c.rangeFor);
  }

  function setMsg(path, text) {
    const c = fields.get(path);
    if (!c) return;
    c.msg.textContent = text;
    c.wrap.classList.toggle('invalid', Boolean(text));
    c.input.setAttribute('aria-invalid', text ? 'true' : 'false');
  }

  /**
   * Whether the settings stand beside the panels: as laid out (an element's own width decides
   * its layout, by a container query, whatever the window's), else by the window's width, as the
   * style sheet's media query does.
   */
  function wide() {
    const side = root.closest('.side');
    const stage = side && side.parentElement.querySelector(':scope > .stage');
    if (stage && side.getClientRects().length && stage.getClientRects().length) {
      return side.getBoundingClientRect().right <= stage.getBoundingClientRect().left;
    }
    return !window.matchMedia || window.matchMedia('(min-width: 53.8125em)').matches;
  }

  /**
   * Build the sections from the scenario. `keepOpen`: a section open now stays open (an edit of
   * the phase list rebuilds them: the section the user is working in must not fold up, as it
   * would on a narrow screen where every section starts folded).
   */
  function buildSections(keepOpen = false) {
    const openNow = keepOpen ? new Set([...sections.querySelectorAll(':scope > details[open]')].map((d) => d.dataset.section)) : null;
    for (const path of [...fields.keys()]) {
      if (path !== 'seed' && !PROMINENT.some((p) => p.path === path)) fields.delete(path);
    }
    const isWide = !openNow && wide();
    const nodes = SECTIONS.map((s) => {
      const shown = s.fields.filter((f) => getPath(scenario, f.path) !== undefined);
      let list = null;
      const items = s.list ? getPath(scenario, s.list.path) : undefined;
      if (s.list && Array.isArray(items)) list = listEditor(s.list, items);
      if (!shown.length && !list) return null;
      const open = openNow ? openNow.has(s.id) : s.open && isWide;
      const d = h('details', { class: 'section', open: open || undefined, dataset: { section: s.id } },
        h('summary', { text: s.title }), shown.length ? form({}, h('div', { class: 'grid' }, shown.map((f) => field(f)))) : null, list);
      return d;
    });
    replace(sections, nodes);
  }

  // The first item each list shows (a multiple of LIST_PAGE), by the list's path.
  const listFrom = new Map();
  /** The first item of the page holding item `i` (from 0). */
  const pageStart = (i) => Math.floor(i / LIST_PAGE) * LIST_PAGE;
  /** The list editor of the list at `path`, as shown. */
  const listEl = (path) => sections.querySelector(`.list[data-list="${path}"]`);

  function listEditor(spec, items) {
    const keys = spec.item.filter((f) => items.some((it) => it && getPath(it, f.key) !== undefined));
    const n = items.length;
    const last = pageStart(Math.max(0, n - 1));
    const from = Math.min(listFrom.get(spec.path) ?? 0, last);
    listFrom.set(spec.path, from);
    const to = Math.min(n, from + LIST_PAGE);
    const phases = items.slice(from, to).map((it, j) => {
      const i = from + j;
      return h('fieldset', { class: 'phase' },
        h('legend', { text: `Phase ${i + 1}${it && it.label ? `: ${it.label}` : ''}` }),
        h('div', { class: 'grid' }, keys.filter((f) => getPath(it, f.key) !== undefined).map((f) => field(f, `${spec.path}.${i}.${f.key}`))),
        n > 1 ? h('button', { type: 'button', class: 'small remove-phase', text: `Remove phase ${i + 1}`, on: { click: () => {
          items.splice(i, 1);
          // The first phase starts the run (the scenario's rule): removing it, the next one
          // now first starts at 0 (it was left at its own start, and the settings refused).
          if (i === 0 && items[0] && typeof items[0].start === 'number') items[0].start = 0;
          version += 1; rebuild(true); onChange(clone(scenario), spec.path);
          // The focus was on the button just removed: the next phase's (now at this place), the
          // last one's, or "Add a phase".
          // (On its page: the removed phase may have been the last page's only one.)
          const list = listEl(spec.path);
          const removes = list ? list.querySelectorAll('button.remove-phase') : [];
          const at = Math.min(i, items.length - 1) - listFrom.get(spec.path);
          const to = removes[Math.min(at, removes.length - 1)] || (list && list.querySelector('button.add-phase'));
          if (to) to.focus();
        } } }) : null);
    });
    // A form per phase, as for every group of settings (see `form`); but a long page of them in
    // at most LIST_FORMS forms, several phases each: Chromium's cost of forms added to a page
    // grows with the square of their number (2,000 phases took 17 s to show, one form each;
    // 2.9 s with none), while an edit's grows only with its own form.
    const per = Math.max(1, Math.ceil(phases.length / LIST_FORMS));
    const rangeId = uniqueId('range');
    const rows = [];
    for (let k = 0; k < phases.length; k += per) rows.push(form({}, phases.slice(k, k + per)));
    const add = h('button', { type: 'button', class: 'small add-phase', text: 'Add a phase', on: { click: () => {
      const lastItem = clone(items[items.length - 1]) || {};
      if (typeof lastItem.start === 'number') lastItem.start += 10;
      items.push(lastItem);
      listFrom.set(spec.path, Infinity); // the page of the new phase: the last
      version += 1; rebuild(true); onChange(clone(scenario), spec.path);
      // The new phase's first field, where its start is set.
      const list = listEl(spec.path);
      const shown = list ? list.querySelectorAll('fieldset.phase') : [];
      const first = shown.length ? shown[shown.length - 1].querySelector('input, select, textarea') : null;
      if (first) first.focus();
    } } });
    return h('div', { class: 'list', dataset: { list: spec.path } }, h('h3', { text: spec.title }),
      n > LIST_PAGE ? listNav(spec, from, to, n, 'top', rangeId) : null, rows,
      n > LIST_PAGE ? listNav(spec, from, to, n, 'bottom', rangeId) : null, add);
  }

  /**
   * The paging of a long list: which items are shown, Previous and Next, and "Go to phase" (the
   * page holding it, with the focus in that phase). `where`: above or below the phases. The
   * paging buttons are described by the range above (`rangeId`), which a screen reader then
   * says with the button the focus lands on after a page change.
   */
  function listNav(spec, from, to, n, where, rangeId) {
    const go = (start, focusItem = null) => {
      showListPage(spec, start);
      const list = listEl(spec.path);
      if (!list) return;
      if (focusItem !== null) {
        const fs = list.querySelectorAll('fieldset.phase')[focusItem - listFrom.get(spec.path)];
        const first = fs && fs.querySelector('input, select, textarea');
        if (first) first.focus();
      } else {
        // The same button above the new page (its other one at an end of the list): the page
        // is read from its top, whichever end it was asked from.
        const nav = list.querySelector('.list-nav[data-where="top"]');
        const b = nav && ([...nav.querySelectorAll('button')].find((x) => !x.disabled && x.dataset.go === String(start > from)) || nav.querySelector('button:not(:disabled)'));
        if (b) b.focus();
      }
    };
    const id = uniqueId('goto');
    const goto = h('input', {
      id, type: 'number', inputMode: 'numeric', class: 'goto',
      attrs: { min: 1, max: n, step: 1, placeholder: String(from + 1) },
      on: { change: (e) => {
        if (isBlank(e.target.value) || !Number.isFinite(Number(e.target.value))) return;
        // Past either end: the first or the last phase.
        const k = Math.min(n, Math.max(1, Math.floor(Number(e.target.value))));
        go(pageStart(k - 1), k - 1);
      } },
    });
    // In a form of its own, as every control of the settings (see `form`).
    return form({ class: 'list-nav', dataset: { where } },
      h('span', { class: 'list-range', id: where === 'top' ? rangeId : undefined, text: `Phases ${from + 1}–${to} of ${n}` }), ' ',
      h('button', { type: 'button', class: 'small', disabled: from === 0, dataset: { go: 'false' }, attrs: { 'aria-describedby': rangeId }, on: { click: () => go(from - LIST_PAGE) } },
        h('span', { attrs: { 'aria-hidden': 'true' }, text: '◀ ' }), `Previous ${LIST_PAGE}`), ' ',
      h('button', { type: 'button', class: 'small', disabled: to >= n, dataset: { go: 'true' }, attrs: { 'aria-describedby': rangeId }, on: { click: () => go(from + LIST_PAGE) } },
        `Next ${LIST_PAGE}`, h('span', { attrs: { 'aria-hidden': 'true' }, text: ' ▶' })), ' ',
      h('label', { for: id, text: 'Go to phase' }), ' ', goto);
  }

  /**
   * Show the page of `spec`'s list that starts at item `start`: the list alone is built again
   * and filled; a field left holding what its input could not take goes with its page (the run
   * shown never used it), and the message last shown for a field of the new page comes back.
   */
  function showListPage(spec, start) {
    const old = listEl(spec.path);
    const items = getPath(scenario, spec.path);
    if (!old || !Array.isArray(items)) return;
    listFrom.set(spec.path, Math.max(0, start));
    const prefix = `${spec.path}.`;
    let droppedLocal = false;
    for (const [path, c] of [...fields]) {
      if (!path.startsWith(prefix)) continue;
      droppedLocal ||= c.local;
      fields.delete(path);
    }
    const list = listEditor(spec, items);
    old.replaceWith(list);
    fill((path) => path.startsWith(prefix));
    // Said only when a field that held what it could not take went: the run line says more
    // than that (computing, stopped) and must not be written over.
    if (droppedLocal) onLocal(anyLocal());
    if (lastError && lastError.path && lastError.path.startsWith(prefix) && fields.has(lastError.path)) {
      setMsg(lastError.path, lastError.text);
    }
  }

  /**
   * The list item a field path names (`dependency.734.start`) when it is on a page of its list
   * not shown: {spec, index, key}; else null.
   */
  function itemAway(norm) {
    for (const s of SECTIONS) {
      if (!s.list || !norm.startsWith(`${s.list.path}.`)) continue;
      const m = /^(\d+)(?:\.(.+))?$/.exec(norm.slice(s.list.path.length + 1));
      if (!m) continue;
      const index = Number(m[1]);
      const from = listFrom.get(s.list.path) ?? 0;
      const items = getPath(scenario, s.list.path);
      if (!Array.isArray(items) || index >= items.length) continue;
      if (index < from || index >= from + LIST_PAGE) return { spec: s.list, index, key: m[2] || '' };
    }
    return null;
  }

  /**
   * Put `message` next to the control of `fieldPath`; see the returned object's `showError`.
   * A field on another page of a list brings that page up, unless the focus is in that list:
   * the page the user is working in is not taken from under them (a refusal comes 400 ms after
   * typing stops). The message then goes above the settings with a button to the field.
   */
  function showError(fieldPath, message, { page = false } = {}) {
    general.textContent = '';
    lastError = null;
    const norm = String(fieldPath || '').replace(/\[(\d+)\]/g, '.$1');
    const away = itemAway(norm);
    if (away) {
      const list = listEl(away.spec.path);
      const phase = `Phase ${away.index + 1}`;
      const f = away.spec.item.find((x) => x.key === away.key);
      const name = f ? `${phase} › ${f.label}` : phase;
      if (!page && list && list.contains(document.activeElement)) {
        replace(general, `${message} (${away.spec.path}.${away.index} is phase ${away.index + 1}, on another page of the list) `,
          h('button', { type: 'button', class: 'small', text: `Show phase ${away.index + 1}`, on: { click: () => {
            showError(fieldPath, message, { page: true });
            const c = fields.get(norm);
            if (c) c.input.focus();
          } } }));
        return name;
      }
      showListPage(away.spec, pageStart(away.index));
    }
    let best = null;
    for (const path of fields.keys()) {
      if (norm === path || norm.endsWith(`.${path}`) || path.endsWith(`.${norm}`)) {
        if (!best || path.length > best.length) best = path;
      }
    }
    if (best && !fields.get(best).wrap.hidden) {
      lastError = { path: best, text: inFormTerms(best, message) };
      setMsg(best, lastError.text);
      const { wrap } = fields.get(best);
      const d = wrap.closest('details');
      if (d) d.open = true;
      const label = wrap.querySelector('label');
      const name = label ? label.firstChild.textContent.trim() : best;
      const phase = /^dependency\./.test(best) && wrap.closest('fieldset');
      const legend = phase && phase.querySelector('legend');
      return legend ? `${legend.textContent.trim()} › ${name}` : name;
    }
    general.textContent = message;
    return null;
  }

  function rebuild(keepOpen = false) {
    buildSections(keepOpen);
    fill();
  }

  /** Show the scenario's values in the fields (those whose path `only` takes, or all). */
  function fill(only = null) {
    for (const [path, c] of fields) {
      if (only && !only(path)) continue;
      const v = getPath(scenario, path);
      c.wrap.hidden = v === undefined;
      if (c.f.type === 'checkbox') c.input.checked = Boolean(v);
      else if (c.f.type === 'textarea') showText(c.input, c.drop, toInput(v, c.f));
      else if (c.f.type === 'select') {
        const s = String(v);
        if (v !== undefined && ![...c.input.options].some((o) => o.value === s)) {
          c.input.append(h('option', { value: s, text: `custom: ${c.f.custom ? c.f.custom(v) : v}` }));
        }
        c.input.value = s;
      } else c.input.value = toInput(v, c.f);
      c.local = false;
      c.comma = false;
      setMsg(path, '');
    }
  }

  // "custom" in the preset list is a state, not a choice: it is listed and selected exactly while
  // the settings are no preset's, and never choosable (choosing it could only keep the settings
  // as they are, which is what not choosing does). A preset is chosen; editing its settings
  // shows "custom"; editing them back shows the preset again.
  let customOpt = null;
  /**
   * Show the preset `name` as the one the settings are, or (`name` '') that they are none:
   * `edited` says they were a preset's (a link's, or the user's edits), else a host's own.
   * Writes only what changes (a select's value set from script is a change a browser's autofill
   * looks at; the same text again is laid out again).
   */
  function showPreset(name, edited = true) {
    if (customOpt && customOpt.hidden !== Boolean(name)) customOpt.hidden = Boolean(name);
    if (presetSel.value !== name) presetSel.value = name;
    const p = name && presets.find((x) => x.name === name);
    const text = p ? p.story || '' : edited ? 'Edited: no longer a preset.' : 'Custom settings: not a preset.';
    if (presetDesc.textContent !== text) {
      // The first edit swaps a preset's story (several lines) for one: the story's height is
      // kept until a preset is shown again, so the fields below do not move up under the
      // pointer as it heads for the next one (a click there landed on the help under it).
      presetDesc.style.minHeight = p || !presetDesc.textContent ? '' : `${presetDesc.getBoundingClientRect().height}px`;
      presetDesc.textContent = text;
    }
  }

  return {
    /**
     * Show `sc` (a scenario object) in the form; `presetName` is the preset whose settings they
     * are, or '' when none (`edited`: see showPreset).
     */
    set(sc, presetName, edited = true) {
      scenario = clone(sc);
      version += 1;
      listFrom.clear(); // other settings: their lists from the first page
      rebuild();
      showPreset(presetName ?? presetSel.value, edited);
    },
    setPresets(list, current) {
      presets = list;
      customOpt = h('option', { value: '', text: 'custom', disabled: true, hidden: !current });
      replace(presetSel, list.map((p) => h('option', { value: p.name, text: p.name.replace(/-/g, ' ') })), customOpt);
      presetSel.value = current ?? '';
    },
    showPreset,
    /**
     * Put `message` next to the control of `field` (a dotted path, possibly with [i]). Returns
     * the field's name as the form shows it ("Phase 3: normal › Starts at"), or null when the
     * message went to the form's general line: the run line says where to look, since a value
     * can be refused at a field other than the one edited (a later phase's start).
     */
    showError: (fieldPath, message) => showError(fieldPath, message),
    clearErrors() {
      general.textContent = '';
      lastError = null;
      for (const [path, c] of fields) if (!c.local) setMsg(path, '');
    },
    /** Whether a field holds what its input cannot take (see `onLocal`). */
    hasLocal: () => anyLocal(),
    hasLocalErrors() {
      return [...fields.values()].some((c) => c.msg.textContent && !c.wrap.hidden);
    },
    element: root,
  };
}
