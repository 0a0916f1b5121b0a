// "How it works": the guided walkthrough (www/learn.html).
//
// URL: learn.html?step=N (1..10) plus the reader's settings when they differ from the defaults:
// fine, broken, a, b (fractions), period (seconds), cpm (calls per minute). Each step sets up a
// small run in a compact playground (chart, now, trace, metrics; no settings form) and writes its
// text with live numbers: every number is an expression over `breaker analyze` reports computed
// by the wasm `analyze()` for the current settings (the same JSON the native command line prints;
// the commands are shown under the text), over the step's scenario, or over the step's simulated
// run. Each number carries its kind (exact, bound, approx., simulated, or a setting).
//
// Keyboard: ← / → (or p / n) change steps when the focus is not in a field or the playground;
// the step heading takes the focus. Numbers are updated in place, not read out one by one as
// they come (a dozen fragments such as "0.23 simulated"): the status line says once when they
// are all in.

import { mountPlayground } from './app.js';
import { h, replace, singleKeys, refuseComma } from './dom.js';
import { fmt, pct, duration, signed, kindBadge, clipped } from './format.js';
import { encode } from './urlstate.js';
import { decimal, fractionOfPercent } from './units.js';
import { getPath } from './paths.js';
import { STEPS, DEFAULTS, OPS, FIELDS } from './learn-steps.js';

/** Settings from a query string (bad or missing values fall back to the defaults). */
export function readSettings(search) {
  const q = new URLSearchParams(search);
  const S = { ...DEFAULTS };
  let problem = null;
  for (const f of FIELDS) {
    if (!q.has(f.key)) continue;
    const raw = q.get(f.key);
    // Decimal only, as the playground's links are read (`Number` alone takes 0x10 as 16).
    const v = decimal(raw);
    if (raw.trim() === '' || !Number.isFinite(v) || v * f.scale < f.min || v * f.scale > f.max) {
      problem = problem || `${outOfRange(f, `“${f.key}” = ${clipped(raw)}`)}; in a link, ${linkRange(f)}`;
    } else S[f.key] = v;
  }
  const rawStep = q.get('step');
  const n = Number(rawStep);
  const stepOk = rawStep === null || (/^\s*\d+\s*$/.test(rawStep) && n >= 1 && n <= STEPS.length);
  problem = problem || validate(S);
  return {
    S: problem ? { ...DEFAULTS } : S,
    step: stepOk && rawStep !== null ? n : 1,
    problem,
    stepProblem: stepOk ? null : `This link’s “step” = ${rawStep} is not a step (a whole number from 1 to ${STEPS.length}); showing step 1.`,
  };
}

/**
 * A field's range in a link's own terms (fractions, seconds): the form's percent or days were
 * given for a link's `fine=50`, which is inside "0.001 to 99.9 %" as written.
 */
function linkRange(f) {
  const at = (x) => Number((x / f.scale).toPrecision(12));
  const what = f.unit === '%' ? 'a fraction' : f.unit === 'days' ? 'seconds' : f.unit;
  return `${f.key} is ${what} from ${at(f.min)} to ${at(f.max)}`;
}

/** The message for a setting outside its field's range (in the field's unit). */
function outOfRange(f, what) {
  // The label quoted: "At most one false alarm per goes from ..." read as one broken phrase.
  return `${what} is not allowed: “${f.label}” goes from ${f.min} to ${f.max} ${f.unit}`;
}

/** Why settings cannot be used, or null. */
export function validate(S) {
  const p = problemOf(S);
  return p ? p.msg : null;
}

/** Each rule on the settings: whether `S` keeps it, its message, and the fields it is about. */
const RULES = [
  [(S) => S.fine > 0 && S.fine < 1, 'p0 must be between 0% and 100%.', ['fine']],
  [(S) => S.broken > S.fine && S.broken < 1, 'p1 must be above p0 and below 100%.', ['broken', 'fine']],
  [(S) => S.a > 0 && S.b > 0 && S.a + S.b < 1, 'a and b must be positive with a + b below 100%.', ['a', 'b']],
  [(S) => S.period > 0, 'The false-alarm period must be positive.', ['period']],
  [(S) => S.cpm > 0, 'The traffic must be positive.', ['cpm']],
];

/** The first rule `S` breaks, as `{msg, keys}` (the fields it is about), or null. */
function problemOf(S) {
  const r = RULES.find(([keeps]) => !keeps(S));
  return r ? { msg: r[1], keys: r[2] } : null;
}

/** The query string for a step and settings (only settings that differ from the defaults). */
export function query(step, S) {
  const q = new URLSearchParams({ step: String(step) });
  for (const k of Object.keys(DEFAULTS)) if (S[k] !== DEFAULTS[k]) q.set(k, String(S[k]));
  return `?${q}`;
}

/**
 * Evaluate a number's expression against `env` = {c: [reports], s: settings, sc: scenario,
 * run: metrics}. Returns {value, kind} (kind from a figure object when the expression is one),
 * or {pending: true} when a part is not computed yet.
 */
export function evaluate(expr, env) {
  if (typeof expr === 'number') return { value: expr };
  if (typeof expr === 'string') {
    const m = /^(c(\d+)|s|sc|run):(.*)$/.exec(expr);
    if (!m) throw new Error(`bad reference ${expr}`);
    const src = m[2] !== undefined ? env.c && env.c[Number(m[2])] : env[m[1]];
    if (!src) return { pending: true };
    const v = getPath(src, m[3]);
    if (v && typeof v === 'object' && 'kind' in v) return { value: v.value, kind: v.kind };
    if (v === undefined) throw new Error(`${expr} is not in the report`);
    return { value: v };
  }
  const [op, ...args] = expr;
  const vals = args.map((a) => evaluate(a, env));
  if (vals.some((v) => v.pending)) return { pending: true };
  return { value: OPS[op](...vals.map((v) => v.value)) };
}

/**
 * Why a figure is not in its report: the notes (`exact_note`, `simulation_note`, `note`) the
 * report gives beside it, on the path to the figure, for its first reference; '' if none.
 */
export function noteOf(expr, env) {
  const ref = typeof expr === 'string' ? expr : JSON.stringify(expr).match(/"((?:c\d+|s|sc|run):[^"]*)"/)?.[1];
  const m = ref && /^c(\d+):(.*)$/.exec(ref);
  let o = m && env.c && env.c[Number(m[1])];
  const path = m ? m[2].split('.') : [];
  const notes = [];
  for (const k of path) {
    if (!o || typeof o !== 'object') break;
    for (const [key, v] of Object.entries(o)) if (/(^|_)note$/.test(key) && typeof v === 'string') notes.push([key, v]);
    o = o[k];
  }
  // A simulated figure's note is the simulation's, an exact one's the exact figure's.
  // An error estimate's is its figure's: `exact_error` goes with `exact_note`.
  const own = notes.filter(([key]) => key === 'note' || path.some((k) => key === `${k}_note` || key === `${k.replace(/_error$/, '')}_note` || (k === 'simulated' && key === 'simulation_note')));
  // None of its own: no other figure's reason (a chain left out said "not simulated: ...").
  return own.map(([, v]) => v).join('; ');
}

/**
 * A count's unit, singular at 1 (as shown) for a plural of one or two words ("1 false alarm",
 * "1 call", "1 success"), also before "per", "from", "in" or "ignored" ("1 trip per day",
 * "1 opening from closed", "1 failure in a row", "1 result ignored (late or lost)"); others
 * ("of its own successes") and "calls/min" as they are.
 */
function unitOf(value, unit) {
  if (!unit) return '';
  const m = value === 1 && /^([a-z]+ )?([a-z]+)s( (?:per|from|in|ignored) .*)?$/i.exec(unit);
  if (!m) return ` ${unit}`;
  const noun = m[2].endsWith('sse') ? m[2].slice(0, -1) : m[2];
  return ` ${m[1] || ''}${noun}${m[3] || ''}`;
}

/**
 * A figure's text. An approximation or a simulated estimate (a mean, an interval's end) of
 * 10,000 or more is given to 4 significant digits, as the command line gives it (2.759e7):
 * "27,590,000 calls", not "27,591,023" beside an error of ± 116,964. Exact figures, settings and
 * counts (the calls of one simulated run) keep their digits, and so does an estimate the text
 * measures against another (`opts.keep`): Brook and Evans' 47,460,000 calls said to lie 0.0012
 * calls from the exact 47,461,386.
 */
function format(value, opts, kind) {
  if (value === null || value === undefined) return opts.none || '∞';
  const estimate = (kind === 'approximation' || kind === 'simulated') && !Number.isInteger(value);
  if (estimate && Math.abs(value) >= 1e4 && !opts.fmt && !opts.keep) {
    value = Number(value.toPrecision(4));
  }
  switch (opts.fmt) {
    case 'pct': return pct(value, 4);
    case 'dur': return duration(value);
    // The unit agrees with the number as shown: 0.99999999 shows as "1 point per call".
    case 'signed': { const t = signed(value, 4); return `${t}${unitOf(/^[+−-]?1$/.test(t) ? 1 : value, opts.unit)}`; }
    default: { const t = fmt(value, 4); return `${t}${unitOf(t === '1' ? 1 : value, opts.unit)}`; }
  }
}

/** Between a figure's text and its kind badge: a no-break space, so on a phone (where a figure's
 * words may wrap, learn.css) the last word stays with its badge. */
const KEEP = '\u00a0';

/** A setting here may also be the step's own run's (its duration, its outage). */
const KIND_SETTING = { title: 'One of your settings (or of this step’s run).' };

function badge(kind) {
  const el = kindBadge(kind);
  if (kind === 'setting') el.title = KIND_SETTING.title;
  return el;
}

export function mountLearn(root) {
  let { S, step, problem, stepProblem } = readSettings(location.search);
  const presets = { list: null };
  let figs = [];
  let conds = [];
  let env = {};
  let token = 0;

  // ---- skeleton ----
  const nav = h('nav', { class: 'learn-steps', attrs: { 'aria-label': 'Steps' } });
  const stepList = h('ol');
  nav.append(stepList);
  const heading = h('h2', { class: 'learn-title', tabIndex: -1 });
  const counter = h('p', { class: 'learn-counter muted' });
  const text = h('div', { class: 'learn-text' });
  const look = h('p', { class: 'learn-look' });
  // What the step points at, when its run does not show it at the reader's settings.
  const lookNote = h('p', { class: 'learn-look-note notice', hidden: true });
  const cmds = h('details', { class: 'learn-cmds' });
  const status = h('p', { class: 'learn-status muted', attrs: { role: 'status' } });
  const noticeText = [problem && `This link’s settings were not valid (${problem}); showing the defaults.`, stepProblem].filter(Boolean).join(' ');
  const notice = h('p', { class: 'notice', hidden: !noticeText, text: noticeText });
  const prev = h('button', { type: 'button', text: '← Previous', on: { click: () => go(step - 1) } });
  const next = h('button', { type: 'button', class: 'primary', text: 'Next →', on: { click: () => go(step + 1) } });
  const openFull = h('a', { class: 'learn-open', text: 'Open this run in the full playground' });
  const form = h('form', { class: 'learn-settings', attrs: { 'aria-label': 'Your settings' }, on: { submit: (e) => e.preventDefault() } });
  const formMsg = h('p', { class: 'msg', id: 'learn-settings-msg', attrs: { role: 'alert' } });
  const inputs = {};
  form.append(h('h2', { text: 'Your settings' }),
    h('p', { class: 'help', text: 'Every number in the text is computed from these. Change them and the numbers follow.' }));
  for (const f of FIELDS) {
    const id = `learn-${f.key}`;
    const input = h('input', { id, type: 'number', step: 'any', min: String(f.min), max: String(f.max), attrs: { 'aria-invalid': 'false' }, on: { change: readForm } });
    inputs[f.key] = input;
    refuseComma(input, (m) => formError(`“${f.label}”: ${m}`, [f.key]));
    // The unit is part of the field's name (a screen reader says the label, not the text beside).
    form.append(h('div', { class: 'field' }, h('label', { for: id }, f.label, h('span', { class: 'sr-only', text: ` (${f.unit})` })),
      h('div', { class: 'inputrow' }, input, h('span', { class: 'unit', attrs: { 'aria-hidden': 'true' }, text: f.unit }))));
  }
  form.append(formMsg, h('button', { type: 'button', class: 'small', text: 'Reset to the defaults', on: { click: () => { S = { ...DEFAULTS }; fillForm(); changed(); } } }));
  const pgRoot = h('div', { class: 'learn-playground playground' });
  const article = h('article', { class: 'learn-step', attrs: { 'aria-labelledby': 'learn-title' } }, counter, heading, text, look, lookNote, cmds, status,
    h('div', { class: 'learn-buttons' }, prev, next, openFull));
  heading.id = 'learn-title';
  replace(root, notice, h('div', { class: 'learn-layout' }, h('div', { class: 'learn-side' }, nav, form), h('div', { class: 'learn-main' }, article, pgRoot)));

  STEPS.forEach((s, i) => {
    const a = h('a', { href: query(i + 1, S), text: s.title, on: { click: (e) => { if (e.button === 0 && !e.metaKey && !e.ctrlKey) { e.preventDefault(); go(i + 1); } } } });
    stepList.append(h('li', {}, a));
  });

  const pg = mountPlayground(pgRoot, {
    panels: ['now', 'chart', 'trace', 'metrics'],
    controls: false,
    embedded: true,
    scenario: { duration: 1 },
    onRun: (state) => { onRun(state); },
  });
  window.__learn = { get step() { return step; }, get settings() { return { ...S }; }, get env() { return env; }, playground: pg };

  /** A setting as its field shows it: ten significant digits. */
  const shownAs = (f, v) => String(Number((v * f.scale).toPrecision(10)));
  function fillForm() {
    for (const f of FIELDS) inputs[f.key].value = shownAs(f, S[f.key]);
  }
  /** Say `text` under the form, tied to the fields it is about (marked invalid); '' clears. */
  function formError(text, keys = []) {
    formMsg.textContent = text;
    for (const f of FIELDS) {
      const el = inputs[f.key];
      const bad = Boolean(text) && keys.includes(f.key);
      el.setAttribute('aria-invalid', bad ? 'true' : 'false');
      if (bad) el.setAttribute('aria-describedby', formMsg.id); else el.removeAttribute('aria-describedby');
      el.closest('.field').classList.toggle('invalid', bad);
    }
  }
  function readForm() {
    const T = { ...S };
    for (const f of FIELDS) {
      // A field as it was filled keeps its setting to the last digit: an edit of another field
      // re-read it from its ten digits, and a link's 42.857142857142854 calls/min became
      // 42.85714286.
      if (inputs[f.key].value === shownAs(f, S[f.key])) continue;
      const v = Number(inputs[f.key].value);
      if (inputs[f.key].value === '' || !Number.isFinite(v)) { formError(`“${f.label}”: enter a number from ${f.min} to ${f.max} ${f.unit}.`, [f.key]); return; }
      if (v < f.min || v > f.max) { formError(`${outOfRange(f, `${v} ${f.unit}`)}.`, [f.key]); return; }
      T[f.key] = f.scale === 100 ? fractionOfPercent(inputs[f.key].value) : v / f.scale;
    }
    const bad = problemOf(T);
    formError(bad ? bad.msg : '', bad ? bad.keys : []);
    if (bad) return;
    S = T;
    changed();
  }
  function changed() {
    formError('');
    notice.hidden = true;
    history.replaceState({ step }, '', query(step, S));
    updateLinks();
    show(false, false);
  }
  function updateLinks() {
    [...stepList.querySelectorAll('a')].forEach((a, i) => {
      a.href = query(i + 1, S);
      if (i + 1 === step) a.setAttribute('aria-current', 'step'); else a.removeAttribute('aria-current');
    });
  }

  function go(n, push = true) {
    if (n < 1 || n > STEPS.length || n === step) return;
    step = n;
    if (push) history.pushState({ step }, '', query(step, S));
    updateLinks();
    show(true);
  }
  // Back and Forward move between steps; the reader's settings stay as they are now (an older
  // entry's settings came back silently, its numbers for rates no longer in the form), and the
  // entry's address is made to say them.
  window.addEventListener('popstate', () => {
    step = readSettings(location.search).step;
    history.replaceState({ step }, '', query(step, S));
    updateLinks(); show(true);
  });
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const el = document.activeElement;
    if (el && (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) || el.isContentEditable)) return;
    if (pgRoot.contains(el) || pgRoot.matches(':hover')) return; // the playground's own keys
    if (!singleKeys()) return; // turned off with the playground's "Keyboard shortcuts" 
    if (e.key === 'ArrowRight' || e.key === 'n') { e.preventDefault(); go(step + 1); }
    else if (e.key === 'ArrowLeft' || e.key === 'p') { e.preventDefault(); go(step - 1); }
  });

  /** Render the step's text (numbers pending), then compute its reports and run. */
  async function show(focus, rebuild = true) {
    const id = ++token;
    const def = STEPS[step - 1];
    env = { s: { ...S } };
    if (rebuild) build(def, focus);
    else for (const f of figs) f.el.classList.add('stale');
    root.dataset.step = String(step);
    root.dataset.ready = '';
    status.textContent = 'Computing the numbers…';
    update();
    await compute(id, def);
  }

  function build(def, focus) {
    document.title = `${step}. ${def.title} — How it works — the breaker playground`;
    counter.textContent = `Step ${step} of ${STEPS.length}`;
    heading.textContent = def.title;
    prev.disabled = step === 1;
    next.disabled = step === STEPS.length;
    figs = [];
    conds = [];
    const t = {
      p: (...c) => h('p', {}, ...c),
      em: (x) => h('em', { text: x }),
      // Words shown only while `expr` is true (not 0): a remark that holds at some settings.
      when: (expr, ...c) => {
        const el = h('span', { class: 'when', hidden: true, dataset: { when: JSON.stringify(expr) } }, ...c);
        conds.push({ el, expr });
        return el;
      },
      f: (expr, opts = {}) => {
        const num = h('span', { class: 'num', text: '…' });
        const el = h('span', { class: 'fig', dataset: { expr: JSON.stringify(expr), fmt: opts.fmt || 'num', ...(opts.none ? { none: opts.none } : {}), ...(opts.keep ? { keep: '1' } : {}) } }, num);
        figs.push({ el, num, expr, opts });
        return el;
      },
    };
    // A new step is announced by its heading (focused); the numbers by the status line.
    replace(text, ...def.body(t));
    replace(look, h('strong', { text: 'Look at ' }), def.look.text);
    lookNote.hidden = true;
    for (const p of ['now', 'chart', 'trace', 'metrics']) {
      const sec = pgRoot.querySelector(`.panel-${p}`);
      if (sec) sec.classList.toggle('learn-focus', p === def.look.panel);
    }
    if (focus) heading.focus();
  }

  async function compute(id, def) {
    try {
      await pg.engine.ready;
      // The reports, in order (a later command may use an earlier one's result).
      const reports = [];
      const argv = [];
      for (const c of def.commands(S)) {
        const args = typeof c === 'function' ? c(S, reports) : c;
        argv.push(args);
        reports.push(await pg.engine.call('analyze', { args }));
        if (id !== token) return;
      }
      env.c = reports;
      showCommands(argv);
      // The step's run.
      const sc = await pg.engine.call('normalize', { scenario: def.scenario(S, reports) });
      if (id !== token) return;
      env.sc = sc;
      update();
      status.textContent = 'Running this step’s scenario…';
      env.runPending = true;
      openFull.href = `./index.html?${encode(sc, null, null)}`;
      // Refused (the page's message goes to its settings form, which the walkthrough hides):
      // said here, not left "Running" for good.
      const ran = await pg.load(sc, 0);
      if (id !== token) return;
      if (!ran) {
        env.runPending = false;
        status.textContent = `Could not run this step’s scenario: ${pg.state.lastError || 'refused'}`;
      }
    } catch (e) {
      if (id !== token) return;
      status.textContent = `Could not compute this step: ${e.message}`;
    }
  }

  async function onRun(state) {
    const id = token;
    const def = STEPS[step - 1];
    if (!env.sc || !env.runPending || JSON.stringify(state.scenario) !== JSON.stringify(env.sc)) return;
    env.runPending = false;
    env.run = state.metrics;
    update();
    // Point the cursor where the step's text looks.
    let t = typeof def.seek === 'number' ? def.seek : 0;
    let missing = '';
    if (typeof def.seek === 'string') {
      const ev = await pg.engine.call('events', { limit: 5000 });
      const want = def.seek === 'first-opening' ? 'open' : 'closed';
      const hit = ev.list.find((e) => e.breaker === 'statistical' && e.to === want && (def.seek !== 'first-close' || e.from === 'half_open'));
      if (hit) t = hit.t_s;
      else if (ev.list.some((e) => e.breaker === 'statistical' && e.to === 'open')) missing = 'no close of the statistical breaker after a half-open';
      else missing = 'no opening of the statistical breaker';
    }
    if (id !== token) return;
    for (const [expr, what] of def.needs || []) {
      if (missing) break;
      const r = evaluate(expr, env);
      if (!r.pending && !r.value) missing = what;
    }
    // Said, not left for the reader to hunt for: the text stays true, the run just has none.
    const calls = state.metrics.calls;
    lookNote.hidden = !missing;
    lookNote.textContent = missing
      ? `At your settings this run shows ${missing} (${calls.toLocaleString('en-US')} ${calls === 1 ? 'call' : 'calls'} in all${typeof def.seek === 'string' ? ', so the cursor is at the start' : ''}); the numbers in the text still hold.`
      : '';
    await pg.seek(t);
    // A change or another step meanwhile: its numbers are still coming, and its own run says so.
    if (id !== token) return;
    status.textContent = 'The numbers are in.';
    root.dataset.ready = String(step);
  }

  function showCommands(argv) {
    replace(cmds, h('summary', { text: 'The same numbers on the command line' }),
      h('p', { class: 'help', text: 'The numbers in the text come from these reports (breaker analyze … --format json), computed here by the same Rust code compiled to WebAssembly, or from the step’s run (its counts, marked simulated), or are your settings (marked setting).' }),
      h('ol', { start: 0 }, argv.map((a, i) => h('li', {}, h('code', { class: 'cmd', dataset: { index: String(i), args: JSON.stringify(a) }, text: `breaker analyze ${a.join(' ')}` })))));
  }

  /**
   * Figure `f` as not computed: the report's own reason where it gives one ("not simulated: 200
   * runs of ... would pass the 2e10 simulated calls allowed"), or the step's (`missing`), else
   * which part is missing; a kind badge left from a step before is dropped.
   */
  function notComputed(f, note, why) {
    f.num.textContent = '—';
    f.el.title = note || why;
    // Not computing any more: not greyed as if it were.
    f.el.classList.remove('stale');
    f.el.dataset.kind = 'none';
    const old = f.el.querySelector('.kind');
    const b = h('span', { class: 'kind', text: 'not computed', title: note ? `Not in this report: ${note}` : 'Not in this report: see the notes in the command\'s JSON output.' });
    b.dataset.kind = 'none';
    if (old) old.replaceWith(b); else f.el.append(KEEP, b);
  }

  function update() {
    for (const c of conds) {
      let r;
      try { r = evaluate(c.expr, env); } catch { r = null; }
      c.el.hidden = !(r && !r.pending && r.value);
    }
    for (const f of figs) {
      let r;
      try {
        r = evaluate(f.expr, env);
      } catch (e) {
        // Not in the report (e.g. an exact figure left out at its work cap, with a note in
        // the command's JSON).
        notComputed(f, noteOf(f.expr, env) || f.opts.missing || '', e.message);
        continue;
      }
      if (r.pending) continue;
      // No value, with a reason in the report (an exact figure's error estimate, null beside the
      // exact figure's note): not computed, not "∞".
      if (r.value === null && !f.opts.none) {
        const note = noteOf(f.expr, env);
        if (note) { notComputed(f, note, ''); continue; }
      }
      const kind = f.opts.kind || r.kind;
      // Every number says what it is: one that does not is a fault of the step, not an exact
      // figure (the browser tests then find a number "not computed" that the command line gives).
      if (!kind) { notComputed(f, '', `${JSON.stringify(f.expr)} carries no kind`); continue; }
      const textValue = format(r.value, f.opts, kind);
      if (f.num.textContent !== textValue) f.num.textContent = textValue;
      f.el.classList.remove('stale');
      // A "not in the report" from a setting before is no longer so.
      f.el.removeAttribute('title');
      f.el.dataset.value = r.value === null ? 'null' : String(r.value);
      f.el.dataset.kind = kind;
      const old = f.el.querySelector('.kind');
      if (!old || old.dataset.kind !== kind) {
        const b = badge(kind);
        b.dataset.kind = kind;
        if (old) old.replaceWith(b); else f.el.append(KEEP, b);
      }
    }
  }

  fillForm();
  updateLinks();
  history.replaceState({ step }, '', query(step, S));
  show(false);
  return { go, get step() { return step; } };
}
