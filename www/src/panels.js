// The read-only panels: the state at the cursor, the event trace, the metrics side by side and the
// derived numbers. Each takes plain results from the worker and renders them with textContent.

import { h, replace } from './dom.js';
import { patch } from './morph.js';
import { fmt, count, signed, pct, percentAsSet, duration, clock, stateName, kindBadge } from './format.js';

const pt = (nats, point) => (Number.isFinite(nats) ? `${fmt(nats / point, 3)} pt` : '—');
const nat = (nats) => (Number.isFinite(nats) ? `${fmt(nats, 4)} nats` : '—');
/**
 * Failures in a row from a score of 0 to `line`: a tie to rounding reaches it, as the breaker
 * compares (breaker::score::reach: a relative 1e-12, less than a quarter of either weight): two
 * failures of ln 3 reach ln 9.
 */
const failuresTo = (line, wFail, point) => Math.ceil((line - Math.min(line * 1e-12, Math.min(wFail, point) / 4)) / wFail);

function row(label, value, detail) {
  return h('tr', {}, h('th', { scope: 'row', text: label }), h('td', {}, value), h('td', { class: 'muted' }, detail ?? ''));
}

/** A traffic as the page says it: "1 call/min", "2.5 calls/min" (the unit agrees with the number shown). */
const callsPerMin = (v) => { const t = fmt(v, 4); return `${t} ${t === '1' ? 'call' : 'calls'}/min`; };

/** The window's rows while it is open: not judged then, though late answers still come into it. */
const HELD = 'the window as it opened (from half-open: the probes\' results) and the answers that came in since (a time window also slides); not judged while open';

/**
 * The state of both breakers at the cursor; `period` is the false-alarm period (s) N counts over;
 * `changes`, the state changes at the cursor's time (the trace's), said under the last call: the
 * call shown is the last to arrive, and a change at its time may come from another call's result
 * or a time limit instead.
 */
export function renderNow(root, snap, point, period, changes = []) {
  if (!snap) { replace(root, h('p', { class: 'muted', text: 'No run yet.' })); return; }
  const s = snap.statistical || {};
  const w = snap.window || {};
  const badge = (st) => h('span', { class: `state state-${String(st).replace('_', '-')}`, text: stateName(st) });
  const last = snap.last_call;
  replace(root,
    h('div', { class: 'now-head' },
      h('span', { text: `t = ${clock(snap.t_s)}` }),
      snap.calls !== undefined ? h('span', { text: ` · call ${fmt(snap.calls, 6)}` }) : null,
      ' ', kindBadge('simulated')),
    h('div', { class: 'two' },
      h('table', { class: 'kv' }, h('caption', {}, 'Statistical ', badge(s.state)),
        h('tbody', {},
          // The closed score applies only while closed: open and half-open hold it unused (the
          // observation gives no value then) until a close restarts it from 0.
          s.state === 'closed' || !s.state ? row('closed score', pt(s.level, point), nat(s.level))
            : row('closed score', 'not in use', s.state === 'open'
              ? 'held unused while open; restarts from 0 at the next close'
              : 'held unused while half-open (the trials have their own score); restarts from 0 if they close'),
          row('line', pt(s.threshold, point), `${nat(s.threshold)}; N = ${fmt(s.count, 4)} calls per ${Number.isFinite(period) ? duration(period) : 'false-alarm period'}`),
          row('trial score', pt(s.trial, point), nat(s.trial)),
          // Half-open, no wait is in force: the one shown was served, and the next (if the
          // trials open it again) is longer by the backoff factor, up to the cap.
          row('wait', duration(s.wait), s.state === 'closed' ? 'next opening'
            : s.state === 'half_open' ? 'served; longer if the trials open again' : 'in force'),
          row('traffic estimate', Number.isFinite(s.rate) ? callsPerMin(s.rate * 60) : '—', 'damped count / τ'),
          row('generation', String(s.generation ?? '—')))),
      h('table', { class: 'kv' }, h('caption', {}, 'Window ', badge(w.state)),
        h('tbody', {},
          // Half-open, the window's rate is not kept: the probes are counted apart, and judged
          // once min(minimumNumberOfCalls, permittedNumberOfCallsInHalfOpenState) results are in
          // (windowHalfOpen, below).
          // Open, the window is not judged: it holds what it held as it opened (from half-open,
          // the probes' results) and the answers that come in since (late calls), as resilience4j
          // keeps it; it read "in the window" as if counted from the calls now.
          row('failure rate', pct(w.level), w.state === 'open' ? HELD
            : Number.isFinite(w.level) ? 'in the window'
              : w.state === 'half_open' ? 'not kept while half-open: see the probes' : 'below minimumNumberOfCalls'),
          row('threshold', pct(w.threshold), 'failureRateThreshold: a setting (exact)'),
          row('probes\' failure rate', pct(w.trial), w.state === 'half_open' ? 'of the probes answered so far' : ''),
          row('calls in window', fmt(w.count, 6), w.state === 'open' ? HELD : undefined),
          row('wait', duration(w.wait)),
          row('generation', String(w.generation ?? '—'))))),
    // Under the tables, whose place then stays as the cursor moves: this sentence is one line or
    // three as the call goes (and the changes' one at a change only), and above them it moved the
    // tables up and down by 20 px at most frames of play. Always a line, so the panel does not
    // grow under the reader at the first call.
    last ? h('p', { class: 'lastcall', text: describeCall(last) })
      : h('p', { class: 'lastcall muted', text: 'No call has arrived yet.' }),
    changes.length ? h('p', { class: 'changes', text: `Changed at this time: ${changes.map((e) => `${e.caller ? `${e.breaker} (caller ${e.caller})` : e.breaker} ${stateName(e.from)} → ${stateName(e.to)}, ${reasonText(e, point)}`).join('; ')}. (The call above is the last to arrive; a change may also come from an earlier call's result arriving now, or a time limit.)` }) : null);
}

/**
 * A state change's reason as the page says it: the statistical breaker's scores and lines in
 * points, as the chart draws them, with nats (the command line's unit) beside. `point` is the
 * weight of one success in nats (derived `point`); without it, the command line's sentence.
 */
export function reasonText(e, point) {
  const d = e.detail || {};
  if (!(point > 0) || !d.kind) return e.reason || '';
  const pt = (x) => `${fmt(x / point, 3)} pt (${fmt(x, 3)} nats)`;
  switch (d.kind) {
    case 'score_reached_line': return `score ${pt(d.score)} reached the line ${pt(d.line)}`;
    case 'trial_reached_upper': return `trial score ${pt(d.trial)} reached the upper line ${pt(d.upper)}`;
    case 'trial_reached_lower': return `trial score ${pt(d.trial)} reached the lower line ${pt(d.lower)}`;
    case 'half_open_time_limit': return `half-open limit of ${duration(d.limit)} ran out with the trial score at ${pt(d.trial)}`
      + ` (${d.trial < 0 ? 'below 0: closes' : 'at or above 0: opens again'})`;
    default: return e.reason || '';
  }
}

/** The event trace; `onJump(t)` when a row is chosen. `now` highlights the latest event <= now. */
export function createTrace(root, onJump) {
  const summary = h('p', { class: 'help' });
  const body = h('tbody');
  const table = h('table', { class: 'trace' },
    h('thead', {}, h('tr', {}, ['time', 'breaker', 'change', 'generation', 'reason'].map((c) => h('th', { scope: 'col', text: c })))),
    body);
  // Named: Firefox gives a box that scrolls a Tab stop of its own, which said nothing.
  replace(root, summary, h('div', { class: 'scroll', attrs: { role: 'group', 'aria-label': 'Event trace (scrolls)' } }, table));
  // One listener for every row's button (rows are patched in place on a new run, so a button
  // must not hold its own event).
  body.addEventListener('click', (ev) => {
    const b = ev.target.closest('button');
    const tr = b && b.closest('tr');
    if (!tr || !body.contains(tr)) return;
    const i = Number(tr.dataset.i);
    if (events[i]) onJump(events[i].t_s, i);
  });
  let events = [];
  let cur = -1;
  const LIMIT = 2000;
  // Events are in time order: the index of the first at `x` or later (`atToo`), or after it, by
  // bisection (events.length if none).
  const firstAfter = (x, atToo) => {
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (events[mid].t_s < x || (!atToo && events[mid].t_s === x)) lo = mid + 1; else hi = mid;
    }
    return lo;
  };
  return {
    /** `point`: one success's weight in nats, to give the scores in points (see `reasonText`). */
    set(list, total, point) {
      events = list || [];
      cur = -1;
      const n = total ?? events.length;
      const listed = Math.min(events.length, LIMIT);
      summary.textContent = n > listed
        ? `${n} state changes (simulated; in their reasons the closed line is the traffic meter's at that moment, the thresholds and Wald's lines come from the settings, all rounded as printed); the first ${listed} are listed. Choose one to jump there.`
        : `${n} state change${n === 1 ? '' : 's'} (simulated; in their reasons the closed line is the traffic meter's at that moment, the thresholds and Wald's lines come from the settings, all rounded as printed). Choose one to jump there.`;
      patch(body, (el) => replace(el, events.slice(0, LIMIT).map((e, i) => {
        // The name says which change the row is (tabbing through the buttons, a screen reader
        // says only the button), and starts with the time it shows.
        const who = e.caller ? `${e.breaker}, caller ${e.caller}` : e.breaker;
        const b = h('button', { type: 'button', class: 'link', text: clock(e.t_s), attrs: { 'aria-label': `Jump to ${clock(e.t_s)} (${who}: ${stateName(e.from)} to ${stateName(e.to)})` } });
        return h('tr', { dataset: { i: String(i) } },
          h('td', {}, b), h('td', { text: e.caller ? `${e.breaker} (caller ${e.caller})` : e.breaker }),
          h('td', {}, h('span', { class: `state state-${String(e.from).replace('_', '-')}`, text: stateName(e.from) }), ' → ',
            h('span', { class: `state state-${String(e.to).replace('_', '-')}`, text: stateName(e.to) })),
          h('td', { text: String(e.generation ?? '') }),
          h('td', { text: reasonText(e, point) }));
      })));
    },
    /** The state changes listed at time `t` (within a nanosecond), in the list's order. */
    at(t) {
      const out = [];
      for (let i = firstAfter(t - 1e-9, true); i < Math.min(events.length, LIMIT) && events[i].t_s <= t + 1e-9; i++) out.push(events[i]);
      return out;
    },
    highlight(t) {
      // The latest at or before t; none when that one is past the rows drawn (the last row drawn
      // is not the state change at the cursor).
      const lo = firstAfter(t + 1e-9, false);
      const next = lo - 1 < LIMIT ? lo - 1 : -1;
      if (next === cur) return;
      const rows = body.children;
      // The current row is said (aria-current) and marked by a bar, not by its tint alone.
      if (cur >= 0 && rows[cur]) { rows[cur].classList.remove('current'); rows[cur].removeAttribute('aria-current'); }
      if (next >= 0 && rows[next]) { rows[next].classList.add('current'); rows[next].setAttribute('aria-current', 'true'); }
      cur = next;
    },
  };
}

/** The simulator's metrics, in the order shown, with what is better. */
export const METRIC_ROWS = [
  ['metrics', 'openings', 'openings', '', null],
  ['metrics', 'false_openings', 'openings while the dependency was fine (false alarms)', '', 'lower'],
  ['metrics', 'calls_waited_on_failure', 'admitted calls that ended in a timeout (hung or timed out)', '', 'lower'],
  ['metrics', 'good_calls_to_fallback', 'good calls sent to the fallback (the dependency would have answered them, within its capacity)', '', 'lower'],
  ['metrics', 'failed_while_unhealthy', 'failed calls let through while the dependency was unhealthy', '', 'lower'],
  ['metrics', 'calls_rejected', 'calls sent to the fallback', '', null],
  ['metrics', 'time_to_open_s', 'time to open after an outage starts (mean over the outages it opened for; one it was already open at, after a false alarm, counts 0 s)', 's', 'lower'],
  ['metrics', 'time_to_close_s', 'time to close after an outage ends (mean over those it opened for; below 0: closed before the outage ended)', 's', 'sooner'],
  ['metrics', 'late_results_ignored', 'late results ignored', '', null],
  ['metrics', 'late_results_in_half_open', 'late results judged in half-open (calls let in before it: resilience4j records them with the probes\')', '', null],
  ['metrics', 'dropped_updates', 'shared-state changes dropped (lock timeout)', '', 'lower'],
  ['totals', 'calls', 'calls', '', null],
  ['totals', 'admitted', 'calls admitted', '', null],
  ['totals', 'trials', 'half-open trials / probes', '', null],
  ['totals', 'answered', 'admitted calls answered', '', null],
  ['totals', 'failed', 'admitted calls failed', '', null],
  ['totals', 'results_counted', 'results counted', '', null],
  ['totals', 'results_neutral', 'results ignored as neutral', '', null],
  ['totals', 'in_flight_at_end', 'in flight at the end', '', null],
];

/**
 * Whether `a` is better than `b`: `lower` the lower; `sooner` (a time to close) the lower when
 * neither is negative, and a negative one (closed while the dependency still failed) after
 * every other, the nearer 0 the better.
 */
export function betterOf(better, a, b) {
  if (better === 'sooner' && (a < 0 || b < 0)) return a < 0 && b < 0 ? a > b : b < 0;
  return a < b;
}

/**
 * Metrics for both breakers, side by side: `m` = {statistical: {metrics, totals}, window: ...}.
 * `unjudged`: a replayed trace whose phases mark no outage, said under the table; `slow`: a
 * replayed trace's calls at the call timeout (tracenote.js), said there too; `judgedBy`: the
 * phases a replay is judged against (tracenote.js `phasesNote`).
 */
export function renderMetrics(root, m, unjudged = false, slow = null, judgedBy = null) {
  if (!m || !m.statistical) { replace(root, h('p', { class: 'muted', text: 'No run yet.' })); return; }
  const val = (v, unit) => {
    if (v === null || v === undefined || Number.isNaN(v)) return '—';
    if (unit === 's') return duration(v);
    return fmt(v, 6);
  };
  const rows = METRIC_ROWS.filter(([g, k]) => m.statistical[g] && k in m.statistical[g]);
  // "Bold: the better" only where a row has one (a run of no calls had none).
  let anyBetter = false;
  // On a phone the table scrolls sideways: its box takes the focus, so the keyboard can scroll it
  // (WCAG 2.1.1; it holds nothing focusable of its own).
  replace(root, h('div', { class: 'scroll-x', attrs: { tabindex: '0', role: 'group', 'aria-label': 'Metrics of both breakers (scrolls sideways on a narrow screen)' } }, h('table', { class: 'metrics' },
    h('caption', { class: 'sr-only', text: 'Metrics of both breakers on the same calls' }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'on the same calls' }), h('th', { scope: 'col', text: 'statistical' }), h('th', { scope: 'col', text: 'window' }), h('th', { scope: 'col', text: 'kind' }))),
    h('tbody', {}, rows.map(([g, k, label, unit, better]) => {
      const s = m.statistical[g][k];
      const w = m.window[g][k];
      const cmp = better && Number.isFinite(s) && Number.isFinite(w) && s !== w
        ? (betterOf(better, s, w) ? 's' : 'w') : '';
      if (cmp) anyBetter = true;
      return h('tr', {}, h('th', { scope: 'row', text: label }),
        h('td', { class: cmp === 's' ? 'better' : '', text: val(s, unit) }),
        h('td', { class: cmp === 'w' ? 'better' : '', text: val(w, unit) }),
        h('td', {}, kindBadge('simulated')));
    })))),
  h('p', { class: 'help', text: m.cut_at_s != null ? `The run was cut short: these count the part computed.${anyBetter ? ' Bold: the better of the two there.' : ''}`
    : m.complete ? (anyBetter ? 'Bold: the better of the two on this run.' : 'Neither is better on any row of this run.') : 'The run was cancelled: these count the part computed.' }),
  slow ? h('p', { class: 'notice slow-trace', text: slow }) : null,
  unjudged ? h('p', { class: 'notice unjudged', text: UNJUDGED }) : null,
  judgedBy ? h('p', { class: 'notice judged-by', text: judgedBy }) : null);
}

/** Under the metrics of a replayed trace whose phases are all fine (`breaker run --trace` says the same). */
export const UNJUDGED = 'No phase marks an outage in this trace: the dependency counts as fine throughout, so every opening counts as false and the times to open and close have nothing to measure. Give the trace\'s outages as phases (Dependency: condition outage) to judge them.';

/** A rate setting in percent as set (as its field shows it). */
const asSet = (v) => (Number.isFinite(v) ? percentAsSet(v) : '—');

/**
 * The derived-numbers panel that teaches: the two worlds, weights and points, the line in points at
 * the current traffic, Wald's lines, trials to close, the zero-drift rate, each with its formula.
 * `d` comes from the wasm `derived()`, `snap` is the state at the cursor (traffic, line), `win`
 * the run's window settings (when the window breaker is first judged, its half-open),
 * `callTimeout` the callers' call timeout (how long a hung probe holds half-open).
 */
export function renderDerived(root, d, snap, win, callTimeout, openDelay = null, start = null, traffic = null, stat = null, callers = null) {
  if (!d) { replace(root, h('p', { class: 'muted', text: 'No settings yet.' })); return; }
  const s = (snap && snap.statistical) || {};
  const item = (title, value, formula, kind, text) => h('div', { class: 'derived-item' },
    h('h3', {}, title, ...(kind ? [' ', kindBadge(kind)] : [])),
    h('p', { class: 'value' }, value),
    h('p', { class: 'formula' }, h('code', { text: formula })),
    text ? h('p', { class: 'help', text }) : null);
  const lineNow = s.threshold;
  const nNow = s.count;
  // The analysis figures are one breaker's, at its share of the calls where callers keep their
  // own (three breakers: three times the false alarms of the one shown).
  // (From the callers, not the rates: a replayed trace has no nominal rate, and its calls are
  // split among the callers' breakers too.)
  const share = callers && Number(callers.count) > 1 && !callers.shared_state
    ? { short: ' (one breaker\'s share)', note: ' Each caller keeps its own breaker, at its share of the calls: the service sees the sum of their false alarms and trips.' }
    : { short: '', note: '' };
  replace(root,
    // The two settings as set (as their fields show them): 3 significant digits read 99.99% as
    // "100%", a rate p₁ cannot be.
    item('Two worlds', `fine p₀ = ${asSet(d.fine_rate)}, broken p₁ = ${asSet(d.broken_rate)}`,
      'each result: is it more likely in the broken world or the fine one?', 'setting',
      'The breaker never estimates the failure rate; it weighs the evidence for one world against the other.'),
    item('Weights', `failure ${signed(d.w_fail, 4)} nats = ${signed(d.w_fail / d.point, 3)} pt; success ${signed(d.w_ok, 4)} nats = ${signed(d.w_ok / d.point, 3)} pt`,
      'w_fail = ln(p₁/p₀),  w_ok = ln((1−p₁)/(1−p₀)),  1 pt = |w_ok|', 'exact',
      `Logs turn the likelihood ratio's product into a sum: one failure outweighs ${count(d.w_fail / d.point, 'success', 'successes', 3)}.`),
    item('Line at the current traffic', Number.isFinite(lineNow)
      ? `${fmt(lineNow / d.point, 4)} pt = ${fmt(lineNow, 4)} nats (N = ${fmt(nNow, 4)} calls per ${duration(d.false_alarm_period)})`
      : '—', 'line = max(ln N, floor),  N = rate × false-alarm period,  floor = max(A, w_fail + |w_ok|)', 'simulated',
      `The rate is the breaker's traffic meter at the cursor in the simulated run. Under p₀ a round from 0 reaches ln N with probability at most 1/N (Ville): on average at most one false alarm per ${duration(d.false_alarm_period)} at this traffic, a bound on the mean gap between them (Lorden), not on every gap.${meterStart(start)}`),
    Number.isFinite(d.nominal_line) ? item(`Line at the scenario's nominal traffic${d.half_open_rate === d.nominal_rate ? '' : ' (one breaker\'s share: each caller has its own)'}`, `${fmt(d.nominal_line / d.point, 4)} pt = ${fmt(d.nominal_line, 4)} nats`,
      `max(ln(${callsPerMin(d.half_open_rate * 60)} × ${duration(d.false_alarm_period)}), floor)`, 'exact',
      `${Math.log(d.half_open_rate * d.false_alarm_period) < d.line_floor
        ? `At this traffic ln N = ${fmt(Math.log(d.half_open_rate * d.false_alarm_period), 4)} nats is below the floor ${fmt(d.line_floor, 4)} nats (Wald's A, or one failure and one point if more, so a cold meter never opens on one failure), so the line is the floor. `
        : ''}From a score of 0 that is ${count(failuresTo(d.nominal_line, d.w_fail, d.point), 'failure', 'failures')} in a row.${sparseMeter(d, start)}`) : null,
    item('Wald\'s two lines (half-open)', `open again at A = ${signed(d.upper / d.point, 4)} pt (${fmt(d.upper, 4)} nats); close at B = ${signed(d.lower / d.point, 4)} pt (${fmt(d.lower, 4)} nats)`,
      'A = ln((1−b)/a),  B = ln(b/(1−a))', 'exact',
      `The trial score starts at 0 with no floor; Wald's error chances a and b hold approximately (overshoot ignored) for a test run to its end: half-open's time limit (below) can end it first, which moves both (\`breaker analyze trials\` gives them with it).${stat && stat.trial_wrongly_opens + stat.trial_wrongly_closes >= 0.4 ? ` At an a + b this large (${pct(stat.trial_wrongly_opens + stat.trial_wrongly_closes, 3)}) the approximation can be far off, as a test of so few trials overshoots its lines by much: the Analysis panel's half-open chart gives the exact chances.` : ''}`),
    item('Trials to close / to open again', `${count(d.trials_to_close, 'success', 'successes')} in a row close${d.trials_to_close === 1 ? 's' : ''}; ${count(d.trials_to_open, 'failure', 'failures')} in a row open${d.trials_to_open === 1 ? 's' : ''} again`,
      'ceil(B / w_ok),  ceil(A / w_fail)', 'exact'),
    Number.isFinite(d.half_open_limit) && Number.isFinite(d.trial_latency_floor) ? halfOpenLimit(item, d, callTimeout, stat) : null,
    item('Rate of zero drift', pct(d.zero_drift_rate, 4),
      'p* = −w_ok / (w_fail − w_ok)', 'exact',
      'At this failure rate the score neither rises nor falls on average: decisions near it are slow (the indifference zone).'),
    falseAlarmsItem(item, openDelay && openDelay.falseAlarms, share),
    openDelayItem(item, openDelay, share),
    Number.isFinite(d.drift_fine) ? item('Drift per call', `at p₀: ${signed(d.drift_fine / d.point, 3)} pt; at p₁: ${signed(d.drift_broken / d.point, 3)} pt`,
      'drift(p) = p·w_fail + (1−p)·w_ok', 'exact') : null,
    win ? windowMinimum(item, d, win, traffic) : null,
    win ? windowTripsItem(item, openDelay, win, share) : null,
    win ? windowOpenItem(item, openDelay, win, share) : null,
    win ? windowHalfOpen(item, win, callTimeout) : null);
}

/**
 * Traffic so light that the meter's time constant holds few calls: its reading, count / tau,
 * jumps by 1/tau at each call and decays between them, so the line the breaker uses is seldom
 * the nominal one (0.001 calls/min with tau 1 h: the meter reads about 0.017 calls/min just
 * after a call, and a line of 5 failures where the nominal one needs 4).
 */
function sparseMeter(d, start) {
  const tau = start && start.tau;
  const held = d.half_open_rate * tau;
  if (!Number.isFinite(held) || held >= 10) return '';
  return ` At this traffic the traffic meter's time constant (${duration(tau)}) holds about ${fmt(held, 3)} calls: its reading jumps at each call and decays between them, so the line the breaker uses, and half-open's time limit, swing away from these figures (the line at the current traffic, above, follows the meter).`;
}

/**
 * The meter's start against the traffic, when they differ by more than a tenth: a scenario whose
 * traffic was changed keeps the "Traffic assumed at start" it had, and its line started away
 * from the traffic's and moved for the first hour with nothing saying why.
 */
function meterStart(start) {
  if (!start || !Number.isFinite(start.cpm) || !Number.isFinite(start.assumed) || start.cpm <= 0) return '';
  if (Math.abs(start.assumed - start.cpm) <= 0.1 * start.cpm) return '';
  const from = start.assumed === 0 ? 'cold (0 calls/min assumed at start: the line starts at its floor)' : `at the ${callsPerMin(start.assumed)} of “Traffic assumed at start”`;
  return ` The meter started ${from}, not at the ${callsPerMin(start.cpm)} a breaker sees here: its line starts ${start.assumed < start.cpm ? 'lower' : 'higher'} than this traffic's and moves toward it over about ${duration(start.tau)} (the meter's time constant). Set “Traffic assumed at start” to the traffic to start at its line.`;
}

/**
 * A card of one `breaker analyze` report's exact average at the line for the nominal traffic
 * (`od` = {report, args} or {error, args}; null while it is computed): "computing…", or "—" with
 * why it was not computed, or what `show(point, calls a minute, command)` makes of it.
 */
function exactItem(item, od, title, formula, show) {
  // No kind while there is no number: a badge beside "—" would call nothing exact.
  if (!od) return busy(item(title, 'computing…', formula, null));
  const command = `breaker analyze ${od.args.join(' ')}`;
  if (od.error) return item(title, '—', formula, null, `Not computed: ${od.error} (${command}).`);
  const p = od.report.points[0];
  if (!p.calls.exact || p.calls.exact.value === null) {
    return item(title, '—', formula, null, `Not computed exactly: ${p.exact_note || 'see the command\'s JSON'} (${command}).`);
  }
  const [value, text] = show(p, callsPerMin(od.report.settings.calls_per_second * 60), command);
  return item(title, value, formula, 'exact', text);
}

/**
 * Calls (and time) to open at p₁ from a score of 0, at the line for the nominal traffic: the
 * exact average of `breaker analyze open-delay`. The question a service owner asks first ("how
 * soon does it stop calling a broken dependency?"), which the curves answered only at their own
 * rates.
 */
function openDelayItem(item, od, share) {
  return exactItem(item, od, 'Calls to open at p₁', 'ARL at p₁ from a score of 0, to the nominal line (renewal DP)', (p, rate, command) => {
    const wald = p.calls.approximation;
    return [`${fmt(p.calls.exact.value, 4)} calls, made in ${duration(p.seconds.exact.value)} at ${rate}${share.short}`,
      `The average, counted from a score of 0 as after a close; the breaker opens on their results, so later than the calls by the failures' latency (a hung call's answer comes at the call timeout): a breaker already above 0 when the failures begin opens a little sooner, and single runs vary. The time is the calls over that traffic, which for a replayed trace is its average over the run and with a daily swing the day's mean: where the traffic moves, the calls come sooner or later. At the line for the nominal traffic, ${fmt(p.line_points, 4)} pt; the traffic meter's line at the cursor (above) may differ. ${wald ? `Wald's approximation, which ignores the overshoot: ${fmt(wald.value, 4)} calls. ` : ''}${share.note} The same: ${command}.`.replace(/ {2,}/g, ' ')];
  });
}

/**
 * The calls (and time) between false alarms at p₀, at the line for the nominal traffic: the
 * exact average of `breaker analyze false-alarms`. The page gave only the bound (at most one per
 * period, on average).
 */
function falseAlarmsItem(item, fa, share) {
  return exactItem(item, fa, 'False alarms at p₀, on average', 'ARL at p₀ from a score of 0, to the nominal line (renewal DP)', (p, rate, command) => [
    `one per ${fmt(p.calls.exact.value, 4)} calls, ${duration(p.seconds.exact.value)} at ${rate}${share.short}`,
    `The average gap while every call fails with chance p₀ on its own, counted from a score of 0 (as after a close). ${p.seconds.bound ? `The setting's bound promises at most one per ${duration(p.seconds.bound.value)} on average at this line; the exact average is longer. ` : ''}Single gaps vary, many much shorter than the average. Where failures come in bursts (a call more likely to fail after one that did), alarms come sooner than either figure says (the walkthrough's step 5).${share.note} The same: ${command}.`]);
}

/** Whether window settings `w` are a TIME_BASED window (a link keeps the type as written). */
export function timeBased(w) {
  return String(w.sliding_window_type).toLowerCase() === 'time_based';
}

/** A card whose figure is still computed, so marked for assistive technology. */
function busy(el) {
  el.setAttribute('aria-busy', 'true');
  return el;
}

/**
 * The window breaker's `breaker analyze window` report (`od.window` = {report, args} or {error,
 * args}; undefined while it is computed, null when not asked: a TIME_BASED window holding fewer
 * calls than its minimum), as a card: "computing…", "—" with why, or what `show(report,
 * command, notes)` makes of it ([value, kind, text]). `notes`: what the analysis leaves out of
 * this breaker.
 */
function windowItem(item, od, w, title, formula, show) {
  const wo = od ? od.window : undefined;
  if (wo === null) return null;
  if (wo === undefined) return busy(item(title, 'computing…', formula, null));
  const command = `breaker analyze ${wo.args.join(' ')}`;
  const time = timeBased(w);
  // The calls the command was given (`--window`), as a refusal names them too.
  const calls = Number(wo.args[wo.args.indexOf('--window') + 1]);
  const held = time ? `The TIME_BASED window of ${duration(w.sliding_window_size)} is taken as the ${count(calls, 'call', 'calls', 9)} it holds on average at this traffic (an approximation: the calls in it vary).` : '';
  if (wo.error) return item(title, '—', formula, null, `Not computed: ${wo.error} (${command}). ${held}`.trim());
  const notes = [
    held,
    // Also at the default 100%: a window of slow calls opens it (an outage of hung calls).
    `On failures alone: the window breaker also opens when ${pct(w.slow_call_rate_threshold, 4)} of its window's calls are slow (slowCallRateThreshold), which these figures leave out.`,
  ].filter(Boolean).join(' ');
  const [value, kind, text] = show(wo.report, command, notes);
  // A TIME_BASED window's figures are its count-based stand-in's: approximations of its own.
  return item(title, value, formula, time && kind ? 'approximation' : kind, text);
}

/**
 * The window breaker's spurious trips a day at p₀ (the statistical breaker's false alarms'
 * counterpart): exact for a window of up to 18 calls (a Markov chain over the window's
 * contents), else simulated, beside the bound each call's window gives (n × back to back) and
 * the exact figure for windows back to back.
 */
function windowTripsItem(item, od, w, share) {
  return windowItem(item, od, w, 'Window breaker: spurious trips at p₀', 'trips per day spent closed of a window sliding one call at a time over calls failing at p₀: a Markov chain over the window (n ≤ 18), else simulated, or at most n × windows back to back', (r, command, notes) => {
    const p = r.points[0];
    const sliding = p.trips_per_day_sliding;
    const b2b = p.trips_per_day_back_to_back.value;
    // A chance under the smallest normal double is a bound, at most 2.2e-308 (a window of
    // 1,000 calls at 5% trips with chance 6.3e-363, which read "0 (exact)"); so are trips a day
    // under it, from an exact chance where fewer than one window fits in a day.
    const tiny = p.trip_probability_per_window.kind === 'bound';
    const bound = r.window * b2b;
    const sim = sliding.simulated;
    const perDay = (x, digits = 4) => `${fmt(x, digits)} a day`;
    const b2bText = p.trips_per_day_back_to_back.kind !== 'bound' ? `${perDay(b2b)} (exact)`
      : `at most ${perDay(b2b)} (a bound${tiny ? ', as the chance' : ': under the smallest normal double'})`;
    // n × back to back bounds the trips of full windows (one ending at each call). A window
    // judged before it is full (minimumNumberOfCalls below n) can also trip while it fills
    // again after each trip, which that does not bound.
    const proven = r.minimum_calls >= r.window;
    // The trips the simulation saw: its precision (13 trips gave 0.5616 a day to four digits,
    // where the rate is about 1.1: a 95% interval misses one time in twenty).
    const seen = sim ? Math.round((sim.value * sim.n) / (r.calls_per_second * 86400)) : 0;
    const digits = seen < 100 ? 2 : 3;
    const simText = sim ? `${perDay(sim.value, digits)} (95% interval ${fmt(sim.ci95[0], digits)} to ${fmt(sim.ci95[1], digits)}, from ${count(seen, 'trip', 'trips', 9)} in ${count(sim.n, 'simulated call', 'simulated calls', 9)})` : '';
    // With the mean gap, as the statistical breaker's false alarms are given ("one per 272 d"),
    // to the figure's digits where duration() writes a plain decimal ("42.7 h" as "43 h"); none
    // for a rate of 0 or one so small its gap is past a double ("one per ∞").
    const gap = (x, digits = 3) => {
      const t = duration(86400 / x);
      if (!(x > 0) || t === '∞') return '';
      const m = digits < 3 && /^([\d.]+)( [a-z]+)$/.exec(t);
      return `, one per ${m ? `${fmt(Number(m[1]), digits)}${m[2]}` : t}`;
    };
    // The tighter of the two leads: a simulation that saw no trip says "under 0.0005 a day"
    // where the bound says under 1e-34.
    const boundGap = gap(bound);
    const [value, kind] = sliding.exact ? [`${perDay(sliding.exact.value)}${gap(sliding.exact.value)}`, 'exact']
      : !proven || (sim && sim.ci95[1] < bound) ? [`${simText}${gap(sim.value, digits)}`, 'simulated'] : [`at most ${perDay(bound)}${boundGap}${boundGap ? ' or more' : ''}`, 'bound'];
    const also = [
      `windows back to back, ${b2bText}`,
      !proven ? `a full window ending at each call, at most ${perDay(bound)} (n times that; trips of a window judged from ${count(r.minimum_calls, 'call', 'calls', 9)} as it fills again after a trip come on top)`
        : kind !== 'bound' ? `a window ending at each call, at most ${perDay(bound)} (a bound: n times that)` : 'a window ending at each call, at most n times that (the bound above)',
      sim && kind !== 'simulated' ? `simulated, ${simText}` : '',
    ].filter(Boolean).join('; ');
    return [value, kind,
      `At p₀ = ${pct(p.baseline, 4)} and ${callsPerMin(r.calls_per_second * 60)}${share.short}, per day the breaker spends closed (the time each trip then keeps it open is not counted). A full window trips with chance ${tiny ? `at most ${fmt(p.trip_probability_per_window.value, 4)} (a bound: the exact chance is under the smallest normal double)` : `${fmt(p.trip_probability_per_window.value, 4)} (exact)`}; ${also}.${sliding.exact ? '' : ' Exact only for windows of up to 18 calls.'}${share.note} ${notes} The same: ${command}.`.replace(/ {2,}/g, ' ')];
  });
}

/**
 * The window breaker's calls (and time) to open at p₁, from a full window at p₀: exact for a
 * window of up to 18 calls or a total outage, else simulated; none when at p₁ a window trips
 * only by chance (the report's note says why).
 */
function windowOpenItem(item, od, w, share) {
  return windowItem(item, od, w, 'Window breaker: calls to open at p₁', 'calls at p₁ until a window reaches failureRateThreshold, from a full window at p₀ (Markov chain for n ≤ 18 or a total outage, else simulated)', (r, command, notes) => {
    const o = r.outage;
    const rate = callsPerMin(r.calls_per_second * 60);
    const calls = o.calls_to_open.exact || o.calls_to_open.simulated;
    const secs = o.seconds_to_open.exact || o.seconds_to_open.simulated;
    const after = `Counted from a full window at p₀ = ${pct(o.baseline, 4)} (as after a long fine stretch); the breaker opens on the results, so later than the calls by the failures' latency.${share.note} ${notes} The same: ${command}.`.replace(/ {2,}/g, ' ');
    // The report's note says why ("not simulated: ..."): its first word capitalized.
    const why = o.note ? `${o.note[0].toUpperCase()}${o.note.slice(1)}.` : 'Not computed: see the command\'s JSON.';
    // A window at p₁ that reaches the threshold only by chance q: each call's window does so
    // with chance at most q (one holding calls at p₀ less), so the first trip is by call N with
    // chance at most N·q, and the mean is at least N(1 − N·q), 1/(4q) at N = 1/(2q).
    // (q "at most" a number where the exact chance is under a double's least: 1/(4q) holds.)
    const q = o.note && /only by chance \(chance (at most )?([0-9.e+-]+)\)/.exec(o.note);
    if (!calls && q && Number(q[2]) > 0) {
      const least = 1 / (4 * Number(q[2]));
      const leastTime = least / r.calls_per_second;
      // "Practically never" only where the bound itself is a year or more: a window of 30,000
      // calls just under its threshold at p₁ has a bound of 0.68 calls, true and empty.
      const never = leastTime >= 365.25 * 86400 ? ': practically never' : '';
      return [`at least ${fmt(least, 3)} calls on average, ${duration(leastTime)} at ${rate}${share.short}${never}`, 'bound',
        `A full window at p₁ reaches the threshold with chance ${q[1] ? `at most ${fmt(Number(q[2]), 4)} (a bound: the exact chance is under the smallest normal double)` : `${fmt(Number(q[2]), 4)} (exact)`}, so the first that does comes after 1/(4 × that) calls on average at least (a union bound over the calls). Not simulated: the runs would outlast the ${fmt(20_000_000)} calls allowed. ${after}`];
    }
    if (!calls) return ['—', null, `${why} ${after}`];
    const value = calls.kind === 'exact'
      ? `${fmt(calls.value, 4)} calls, made in ${duration(secs.value)} at ${rate}${share.short}`
      // Runs that all agree give no interval (the report's ends are null: none from no spread).
      : `${fmt(calls.value, 4)} calls (${calls.ci95[0] === null ? `every one of ${count(calls.n, 'run', 'runs', 9)} took this: no spread for a 95% interval` : `95% interval ${fmt(calls.ci95[0], 4)} to ${fmt(calls.ci95[1], 4)}, ${count(calls.n, 'run', 'runs', 9)}`}), made in ${duration(secs.value)} at ${rate}${share.short}`;
    return [value, calls.kind, after];
  });
}

/**
 * The window breaker's half-open (design §3's pains): it waits for every probe's result, with no
 * limit unless maxWaitDurationInHalfOpenState is set, so a hung probe holds it; and results of
 * calls let in before it are judged with the probes' (resilience4j records them).
 */
function windowHalfOpen(item, w, callTimeout) {
  const permitted = w.permitted_number_of_calls_in_half_open_state;
  const n = count(permitted, 'probe', 'probes', 9);
  // Half-open's window is judged from min(minimumNumberOfCalls, permitted) results, late ones
  // included (resilience4j's HalfOpenState).
  const judged = count(Math.min(w.minimum_number_of_calls, permitted), 'result', 'results', 9);
  const max = w.max_wait_duration_in_half_open_state;
  const late = 'Results of calls let in before half-open that come back during it are judged with the probes\' (resilience4j records them): the metrics count them as late results judged in half-open.';
  if (max > 0) {
    const to = String(w.transition_to_state_after_wait_duration).toLowerCase() === 'closed' ? 'CLOSED' : 'OPEN';
    return item('Window breaker: half-open', `${n}, at most ${duration(max)}, then ${to}`,
      'permittedNumberOfCallsInHalfOpenState; maxWaitDurationInHalfOpenState', 'setting', late);
  }
  const el = item('Window breaker: half-open', `${n}, no time limit`,
    'maxWaitDurationInHalfOpenState = 0 (off)', 'setting',
    `Half-open decides once ${judged} are in (min(minimumNumberOfCalls, permittedNumberOfCallsInHalfOpenState), late ones included): until then a probe that hangs holds it until its call returns or times out${Number.isFinite(callTimeout) ? ` (the callers' call timeout: ${duration(callTimeout)})` : ''}, and meanwhile every other call goes to the fallback. ${late}`);
  el.classList.add('warn');
  return el;
}

/**
 * When the window breaker first judges its failure rate (design: a count window's minimum is
 * capped silently; a low-traffic service never reaches the minimum). A COUNT_BASED window is
 * judged from min(minimumNumberOfCalls, slidingWindowSize) calls; a TIME_BASED one holds about
 * rate × slidingWindowSize calls (an approximation: arrivals vary, and so may the traffic), at
 * the rate one breaker sees (`half_open_rate`: its share when callers do not share state; NaN for
 * a trace). Evenly spaced calls (`traffic.arrivals`) vary by no more than one a window: at most
 * floor(peak rate × size) + 1 arrive within it, the peak the daily swing's (it read "judged only
 * when more calls than usual come"). The window counts a call when its answer comes, so answers
 * that bunch up (latencies that vary) can still fill it.
 */
function windowMinimum(item, d, w, traffic) {
  const size = w.sliding_window_size;
  const min = w.minimum_number_of_calls;
  const r = d.half_open_rate;
  const rate = Number.isFinite(r) && r > 0;
  // The traffic's daily swing: without one, the scenario's rate holds all run long (a replayed
  // trace has no rate).
  const swing = Number(traffic?.daily_swing) || 0;
  const perMin = `${callsPerMin(r * 60)}${r === d.nominal_rate ? '' : ' (one breaker\'s share)'}`;
  // The simulator takes TIME_BASED too, and a link keeps a setting as written.
  if (!timeBased(w)) {
    const judged = Math.min(min, size);
    const capped = min > size;
    const el = item('Window breaker: judged from', count(judged, 'call', 'calls', 9),
      'min(minimumNumberOfCalls, slidingWindowSize) for a COUNT_BASED window', 'exact',
      capped
        ? `minimumNumberOfCalls (${fmt(min, 9)}) is capped at the window's ${count(size, 'call', 'calls', 9)}, as resilience4j caps it without a word: the failure rate is judged once the window is full, not after ${fmt(min, 9)} calls.`
        : `No failure rate is judged before ${count(judged, 'call', 'calls', 9)}${!rate ? '' : traffic && !(swing > 0)
          // As `breaker analyze window` gives it: calls over the traffic.
          ? `: ${duration(judged / r)} of traffic at ${perMin} (exact as calls over the traffic: for evenly spaced calls, and the mean for random ones)`
          : `: about ${duration(judged / r)} of traffic at ${perMin}, an approximation (the traffic varies)`}, after a start or a reset.`);
    if (capped) el.classList.add('warn');
    return el;
  }
  if (!rate) {
    return item('Window breaker: judged from', `${count(min, 'call', 'calls', 9)} within ${duration(size)}`,
      'minimumNumberOfCalls in the last slidingWindowSize seconds', 'exact', null);
  }
  const held = r * size;
  const few = held < min;
  const even = String(traffic?.arrivals).toLowerCase() === 'even';
  const most = Math.floor(r * (1 + swing) * size) + 1;
  const peak = swing > 0 ? ', at the daily swing\'s peak too' : '';
  const el = item('Window breaker: calls in its window', `about ${count(held, 'call', 'calls', 4)} in ${duration(size)}; judged from ${count(min, 'call', 'calls', 9)}`,
    'calls in the window ≈ rate × slidingWindowSize', 'approximation',
    !few ? `At ${perMin}, on average; a quieter stretch (the daily swing, an uneven hour) holds fewer.`
      : even && most < min
        ? `At ${perMin}, evenly spaced, at most ${count(most, 'call', 'calls', 9)} arrive within the window's ${duration(size)}${peak}, fewer than minimumNumberOfCalls: its failure rate is judged only where answers bunch up (the window counts a call when its answer comes: latencies that vary, answers that come late), so with steady answers the window breaker does not open however badly the dependency fails.`
        : even
          ? `At ${perMin} the window holds fewer calls than minimumNumberOfCalls on average; evenly spaced, at most ${count(most, 'call', 'calls', 9)} arrive within it${peak}, so it is judged only ${swing > 0 ? 'near the daily swing\'s peak' : 'when whole seconds fall so as to let one call more in'} or where answers bunch up (latencies that vary, answers that come late), and otherwise the window breaker does not open however badly the dependency fails.`
          : `At ${perMin} the window holds fewer calls than minimumNumberOfCalls on average: its failure rate is judged only when more calls than usual come (the further below the minimum, the more rarely), and until then the window breaker does not open however badly the dependency fails.`);
  if (few) el.classList.add('warn');
  return el;
}

/**
 * Half-open's time limit, if the breaker's traffic meter reads the scenario's traffic (per
 * breaker: callers that do not share state each have their own), beside the time the trials to
 * close take: one at a time, each at least the least latency of a successful answer (a bound),
 * and each also waiting for the next call, 1/rate on average (an approximation). Where the bound
 * is longer than the limit, half-open cannot close at Wald's lower line; where one trial's least
 * latency is, it cannot close at all.
 */
function halfOpenLimit(item, d, callTimeout = NaN, stat = null) {
  const n = d.trials_to_close;
  const r = d.half_open_rate;
  const L = d.trial_latency_floor;
  const limit0 = `${duration(d.half_open_limit)} when the breaker's traffic meter reads ${callsPerMin(r * 60)}${r === d.nominal_rate ? '' : ' (its share of the traffic)'}`;
  // No phase answers within a timeout (a latency at or over the callers' call timeout is a
  // timeout, a failure; an answer after the breaker's own call timeout is a lost trial): no
  // trial succeeds, and no time factor helps, which the factors below would have advised.
  const lost = stat ? stat.call_timeout : NaN;
  // Which timeout a trial's answer meets first: at the callers' it is a timeout, counted as a
  // failure if that comes within the breaker's own; past the breaker's it is lost.
  const lostFirst = Math.min(L, callTimeout) > lost;
  if (L >= callTimeout || lostFirst) {
    const el = item('Half-open time limit: no trial can succeed', limit0, 'limit = half-open time factor × trials to close / rate', 'exact',
      `${count(n, 'success', 'successes')} in a row close half-open, but no phase answers a call in less than ${duration(L)}, ${lostFirst
        ? `more than the breaker's call timeout (${duration(lost)}): every trial is lost, its answer not counted`
        : `the callers' call timeout (${duration(callTimeout)}) or more: every trial times out, a failure`}. Half-open cannot close at any time factor while that holds.`);
    el.classList.add('warn');
    return el;
  }
  // The approximations take a recovered (fine) phase's mean latency, its jitter's mean
  // included: with the fixed part alone a service answering in 30 ms + 20 ms on average was
  // said to fit a limit its half-opens all ran out in.
  const M = Number.isFinite(d.trial_latency_fine_mean) ? d.trial_latency_fine_mean : L;
  const limit = d.half_open_limit;
  const bound = n * L;
  const approx = n * (M + 1 / r);
  // At p0 not every trial succeeds: Wald's test takes this many trials on average (exact).
  const asn = d.trials_expected_fine;
  const avg = Number.isFinite(asn) ? asn * (M + 1 / r) : NaN;
  const mean = M === L ? '' : `answered in ${duration(M)} on average (a fine phase's latency and its jitter's mean) and `;
  const each = `${count(n, 'success', 'successes')} in a row, one trial at a time, each answered in at least ${duration(L)} (the least latency of any phase that answers successfully), take at least ${duration(bound)} (a bound), about ${duration(approx)} with each trial ${mean}waiting for the next call (an approximation). That is the best case`;
  const onAverage = Number.isFinite(avg)
    ? `; a recovered service (at p₀) needs ${count(asn, 'trial', 'trials', 4)} on average (exact, Wald's test run to its end), about ${duration(avg)} (an approximation), and a trial lost to the call timeout adds that wait`
    : '';
  const needed = [
    L > 0 ? `a half-open time factor above ${fmt(r * L, 3)} lets the trials fit (from the bound)` : null,
    `about ${fmt(r * M + 1, 3)} lets the best case finish (an approximation)`,
    Number.isFinite(avg) ? `about ${fmt(asn * (r * M + 1) / n, 3)} the average at p₀ (an approximation)` : null,
  ].filter(Boolean).join('; ');
  const factors = `${needed[0].toUpperCase()}${needed.slice(1)}.`;
  const endsAtLimit = 'closing if the trial score is below 0, rather than at Wald\'s lower line, so a and b hold only approximately';
  let title = 'Half-open time limit';
  let text;
  if (L > limit) {
    title += ': shorter than one trial';
    text = `${each}${onAverage}. No trial is answered within the limit, so every half-open ends at it with the trial score at 0 and opens again: at this rate the breaker never closes, even once the service has recovered (calls it rejects count as traffic, so the rate holds). ${factors}`;
  } else if (bound >= limit) {
    title += ': shorter than the trials';
    text = `${each}${onAverage}. Half-open cannot close at Wald's lower line: it ends at its limit, closing if the trial score is below 0, unless the trials reach A and open it again; b (a trial wrongly closes) does not hold. ${factors}`;
  } else if (approx >= 2 * limit) {
    title += ': much shorter than the trials take';
    text = `${each}${onAverage}: about ${fmt(approx / limit, 3)} times the limit (an approximation), so half-open will nearly always end at it, ${endsAtLimit}. ${factors}`;
  } else if (approx >= limit) {
    title += ': about as long as the trials';
    text = `${each}${onAverage}: about the limit, so half-open will often end at it, ${endsAtLimit}. ${factors}`;
  } else if (avg >= limit) {
    title += ': shorter than the trials take on average';
    text = `${each}${onAverage}: longer than the limit, so half-open will often end at it, ${endsAtLimit}. ${factors}`;
  } else {
    text = `${each}${onAverage}: within the limit. The limit shrinks as traffic grows (1/rate); the trials' time does not.`;
  }
  const el = item(title, limit0, 'limit = half-open time factor × trials to close / rate', 'exact', text);
  if (approx >= limit || avg >= limit) el.classList.add('warn');
  return el;
}

const VERDICTS = {
  admitted: 'admitted', trial: 'admitted as a trial', last_option: 'admitted uncounted (last option)',
  rejected_open: 'sent to the fallback (open)', rejected_busy: 'sent to the fallback (trial in flight)',
};
const outcomeText = (o) => String(o).replace(/_/g, ' ');

/**
 * One line about the most recent call: what it would get, and what each breaker did. A success
 * drawn and a failure got (only a phase's capacity does that, on each breaker's own copy of the
 * dependency) says why: "would give success" stood beside "→ overload" unexplained.
 */
export function describeCall(c) {
  const side = (name, d) => {
    const v = VERDICTS[d.verdict] || d.verdict;
    const shed = c.drawn === 'success' && d.outcome && d.outcome !== 'success' ? ' (over the dependency\u2019s capacity)' : '';
    return `${name} ${v}${d.outcome ? ` → ${outcomeText(d.outcome)}${shed}` : ''}`;
  };
  return `Call #${fmt(c.index, 9)} at ${clock(c.t_s)}${c.caller ? ` from caller ${c.caller}` : ''}: the dependency would give ${outcomeText(c.drawn)}; ${side('statistical', c.statistical)}; ${side('window', c.window)}.`;
}
