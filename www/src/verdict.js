// A verdict line per run: the user sets targets (no false opening, at most N failed calls let
// through while the dependency is unhealthy, closed for good within T s of full health, no
// re-trip after closing) and sees which breaker meets them on this run. Changing a target only
// re-reads the metrics; nothing is re-run.

import { h, replace, uniqueId } from './dom.js';
import { fmt, count, duration, kindBadge, stateName } from './format.js';
import { wholeOf, MAX_WHOLE } from './whole.js';
import { parseDuration } from './units.js';

export const DEFAULT_TARGETS = { no_false_open: true, max_dead_calls: 50, close_within: 60, no_retrip: true };

/**
 * A target read from text (an input or a link): `{ok, value}`. A yes/no target is "true" or
 * "false"; a number target is empty (no target, null) or a number >= 0, whole for calls, and T a
 * duration, seconds or with a unit ("2h") as every duration setting takes it.
 */
export function readTarget(key, raw) {
  if (typeof DEFAULT_TARGETS[key] === 'boolean') {
    return raw === 'true' || raw === 'false' ? { ok: true, value: raw === 'true' } : { ok: false };
  }
  const text = String(raw).trim();
  if (text === '') return { ok: true, value: null };
  if (key === 'max_dead_calls') {
    // A count read exactly, as every whole-number setting is (whole.js): 1e20 or
    // 9007199254740993 would be carried rounded, and said as another number than written.
    const w = wholeOf(text);
    return w !== null && w >= 0n && w <= BigInt(MAX_WHOLE) ? { ok: true, value: Number(w) } : { ok: false };
  }
  // Decimal only, as a link's settings are read (`Number` alone takes 0x10 as 16), with a unit
  // if any (a number input read "2h" as 2 s); -0 as 0.
  const d = parseDuration(text);
  return d.ok && d.value >= 0 ? { ok: true, value: d.value + 0 } : { ok: false };
}

/** When the dependency is fully healthy for good: the start of the fine phase after the last
 * phase that is not fine (null if the run ends unhealthy; 0 if it is never unhealthy). */
export function fullHealthAt(scenario) {
  const ph = (scenario && scenario.dependency) || [];
  let at = 0;
  for (let i = 0; i < ph.length; i++) {
    if (ph[i].condition !== 'fine') at = i + 1 < ph.length ? ph[i + 1].start : null;
  }
  return at;
}

/**
 * The numbers a verdict needs for one breaker, from the simulator's metrics (`m`, the worker's
 * `metrics`): false openings and failed calls let through while unhealthy (metrics), and
 * from `changes` (caller 0's state changes in brief, over the run computed: `sim::Changes`) when it
 * closed for good relative to full health, and its re-trips.
 */
export function verdictNumbers(m, breaker, healthAt) {
  const { last_s: lastS, last_to: lastTo, opened, retrips } = m[breaker].changes;
  let closedForGood = null;
  if (!opened) closedForGood = 0;
  else if (lastTo === 'closed' && lastS != null && healthAt !== null) closedForGood = lastS - healthAt;
  return {
    false_openings: m[breaker].metrics.false_openings,
    dead_calls: m[breaker].metrics.failed_while_unhealthy,
    closed_for_good_after: closedForGood,
    // No full health in the run (it ends in an outage or degraded): nothing to close after.
    never_healthy: healthAt === null,
    last_to: lastTo,
    retrips,
    opened,
  };
}

export function createVerdict(root, onTargets) {
  let targets = { ...DEFAULT_TARGETS };
  let metrics = null;
  let healthAt = 0;
  const id = uniqueId('goal');
  const fa = h('input', { type: 'checkbox', id: `${id}-fa` });
  const dead = h('input', { type: 'number', id: `${id}-dead`, min: '0', step: '1', inputMode: 'numeric' });
  // Text, not a number input: T takes a unit ("90s", "2h") as the duration settings do.
  // No numeric inputMode: a phone's digit pad has no letters for the unit.
  const close = h('input', { type: 'text', id: `${id}-close`, spellcheck: false, title: 'seconds, or with a unit: 500ms, 1.5m, 2h, 30d, 1w' });
  const retrip = h('input', { type: 'checkbox', id: `${id}-rt` });
  // Only the one-line summary is live, and only when it changes: the whole verdict (both
  // breakers' lists) redrawn on every run was read out in full after each edit.
  const out = h('div', { class: 'verdict-out' });
  const said = h('p', { class: 'sr-only', attrs: { 'aria-live': 'polite' } });
  const form = h('div', { class: 'targets' },
    h('div', { class: 'field check' }, h('div', { class: 'inputrow' }, fa, h('label', { for: fa.id, text: 'no false opening' }))),
    h('div', { class: 'field' }, h('label', { for: dead.id, text: 'at most N failed calls let through while unhealthy' }), h('div', { class: 'inputrow' }, dead, h('span', { class: 'unit', text: 'calls' }))),
    h('div', { class: 'field' }, h('label', { for: close.id, text: 'closed for good within T of full health' }), h('div', { class: 'inputrow' }, close, h('span', { class: 'unit', text: 's' }))),
    h('div', { class: 'field check' }, h('div', { class: 'inputrow' }, retrip, h('label', { for: retrip.id, text: 'no re-trip after closing' }))));
  replace(root, form, out, said);

  // A number target: empty is no target; otherwise a number >= 0 (whole for calls). A bad
  // entry keeps the target in force and says so next to the input.
  const msgs = new Map([[dead, h('p', { class: 'msg', id: `${id}-dead-msg`, attrs: { 'aria-live': 'polite' } })],
    [close, h('p', { class: 'msg', id: `${id}-close-msg`, attrs: { 'aria-live': 'polite' } })]]);
  for (const [el, m] of msgs) { el.setAttribute('aria-describedby', m.id); el.closest('.field').append(m); }
  const number = (el, key, whole) => {
    // Text the number input cannot read ("1e", or "abc" in Firefox) leaves `value` empty, as if
    // the field were cleared: it is a bad entry, not "no target".
    const { ok, value } = el.validity && el.validity.badInput ? { ok: false } : readTarget(key, el.value);
    const m = msgs.get(el);
    // Which target the verdict keeps meanwhile is said (it was left to be guessed).
    const kept = targets[key] === null || targets[key] === undefined ? 'no target' : whole ? `${targets[key]} calls` : duration(targets[key]);
    m.textContent = ok ? '' : `Enter ${whole ? `a whole number from 0 to ${MAX_WHOLE}` : 'a duration ≥ 0 (seconds, or with a unit: 90s, 5m, 2h)'}, or leave it empty for no target; the verdict keeps ${kept}.`;
    // Read, it shows in seconds beside its unit, as a duration setting's field does ("2h": 7200).
    if (ok && value !== null && !whole) el.value = String(value);
    el.setAttribute('aria-invalid', ok ? 'false' : 'true');
    el.closest('.field').classList.toggle('invalid', !ok);
    return ok ? value : targets[key];
  };
  const read = () => {
    targets = {
      no_false_open: fa.checked,
      max_dead_calls: number(dead, 'max_dead_calls', true),
      close_within: number(close, 'close_within', false),
      no_retrip: retrip.checked,
    };
    render();
    onTargets(targets);
  };
  for (const el of [fa, dead, close, retrip]) el.addEventListener('change', read);
  // Firefox fires no change for such text (the value stays empty): say so when the field is left.
  // Nor does any browser when that text is then cleared ("" before and after): a field refused
  // is read again when left, so an emptied one is no target and its message goes.
  for (const el of [dead, close]) {
    el.addEventListener('blur', () => { if (el.validity.badInput || el.getAttribute('aria-invalid') === 'true') read(); });
  }

  function fill() {
    fa.checked = targets.no_false_open;
    dead.value = targets.max_dead_calls ?? '';
    close.value = targets.close_within ?? '';
    retrip.checked = targets.no_retrip;
  }

  /** One breaker's checks: [{label, ok, measured}] from its verdict numbers. */
  function checks(v) {
    const out = [];
    if (targets.no_false_open) out.push({ label: 'no false opening', ok: v.false_openings === 0, measured: count(v.false_openings, 'false opening', 'false openings') });
    if (targets.max_dead_calls != null) out.push({ label: `≤ ${fmt(targets.max_dead_calls, 16)} failed calls let through while unhealthy`, ok: v.dead_calls <= targets.max_dead_calls, measured: count(v.dead_calls, 'call', 'calls') });
    if (targets.close_within != null) {
      const t = v.closed_for_good_after;
      out.push({ label: `closed for good within ${duration(targets.close_within)}`, ok: t != null && Number.isFinite(t) && t <= targets.close_within,
        measured: t == null || !Number.isFinite(t)
          ? (v.never_healthy && v.opened ? `the dependency is not fully healthy by the run's end (${stateName(v.last_to)} then)` : 'not closed at the end')
          : t === 0 && !v.opened ? 'never opened' : t < 0 ? `closed ${duration(-t)} before full health` : `${duration(t)} after full health` });
    }
    if (targets.no_retrip) out.push({ label: 'no re-trip after closing', ok: v.retrips === 0, measured: count(v.retrips, 're-trip', 're-trips') });
    return out;
  }

  function render() {
    if (!metrics || !metrics.verdict) { replace(out, h('p', { class: 'muted', text: 'Run a scenario to see the verdict.' })); return; }
    const lines = ['statistical', 'window'].map((b) => {
      const c = checks(metrics.verdict[b]);
      const pass = c.every((x) => x.ok);
      return h('div', { class: `verdict ${pass ? 'pass' : 'fail'}` },
        h('strong', { text: `${b === 'statistical' ? 'Statistical' : 'Window'} breaker: ${pass ? 'meets' : 'misses'} the targets` }), ' ',
        kindBadge('simulated'),
        h('ul', {}, c.map((x) => h('li', { class: x.ok ? 'ok' : 'bad' }, `${x.ok ? '✓' : '✗'} ${x.label}: ${x.measured}`))));
    });
    const ok = ['statistical', 'window'].filter((b) => checks(metrics.verdict[b]).every((x) => x.ok));
    // The failed calls are those while a phase is not fine: a fine dependency's own failures
    // (1% of a week's calls is thousands) would swamp a target of 50, and are not the breaker's.
    const from = healthAt === null ? '— (the run ends unhealthy)' : healthAt === 0 ? 'the start (no phase is unhealthy)' : `${duration(healthAt)} (exact, from the phases)`;
    const note = h('p', { class: 'help', text: `Full health from ${from}; failed calls let through are admitted calls that failed while the dependency was not fine (an outage or a degraded stretch; a fine dependency's own failures do not count); re-trips are openings after the first close; ${metrics.callers > 1
      ? `false openings and failed calls are summed over the ${metrics.callers} callers' breakers (as in the metrics), closing and re-trips are caller 0's.`
      : 'caller 0\'s breaker.'}` });
    const whole = ok.length === 2 ? 'Both breakers meet the targets on this run.'
      : ok.length === 0 ? 'Neither breaker meets the targets on this run.'
        : `Only the ${ok[0]} breaker meets the targets on this run.`;
    // A cancelled run, or one cut short, is judged on the part computed only, and says so.
    const part = whole.replace('on this run', 'on that part');
    const summary = metrics.cut ? `The run was cut short (a breaker changed state over a million times): judged on the part computed only. ${part}`
      : metrics.complete ? whole : `The run was cancelled: judged on the part computed only. ${part}`;
    replace(out, h('p', { class: 'verdict-summary', text: summary }), lines, note);
    if (said.textContent !== `Verdict: ${summary}`) said.textContent = `Verdict: ${summary}`;
  }

  fill();
  return {
    setTargets(t) { targets = { ...DEFAULT_TARGETS, ...t }; fill(); render(); },
    /**
     * A finished (or cancelled) run: its metrics (with `changes`), the scenario for full health,
     * and where the run (or the part computed) ends.
     */
    setRun(m, scenario, end) {
      // Full health in the run, from the phases begun by its end (or by the cut of a run cut
      // short): a phase after it is none of the run's, and with its last phase not fine the run
      // ends unhealthy. (A run ending in a warm-up had full health "from 40 s", after its end,
      // and passed a breaker for closing before it.)
      const until = m.cut_at_s ?? end;
      healthAt = fullHealthAt(until != null && scenario && scenario.dependency
        ? { ...scenario, dependency: scenario.dependency.filter((p, i) => i === 0 || p.start < until) }
        : scenario);
      const callers = scenario && scenario.callers && !scenario.callers.shared_state ? scenario.callers.count || 1 : 1;
      metrics = {
        callers,
        complete: m.complete !== false,
        cut: m.cut_at_s != null,
        verdict: Object.fromEntries(['statistical', 'window'].map((b) => [b, verdictNumbers(m, b, healthAt)])),
      };
      render();
    },
    targets: () => targets,
  };
}
