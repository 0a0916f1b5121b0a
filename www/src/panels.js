// The read-only panels: the state at the cursor, the event trace, the metrics side by side and the
// derived numbers. Each takes plain results from the worker and renders them with textContent.

import { h, replace } from './dom.js';
import { fmt, signed, pct, duration, clock, stateName, kindBadge } from './format.js';

const pt = (nats, point) => (Number.isFinite(nats) ? `${fmt(nats / point, 3)} pt` : '—');
const nat = (nats) => (Number.isFinite(nats) ? `${fmt(nats, 4)} nats` : '—');

function row(label, value, detail) {
  return h('tr', {}, h('th', { scope: 'row', text: label }), h('td', {}, value), h('td', { class: 'muted' }, detail ?? ''));
}

/** The state of both breakers at the cursor. */
export function renderNow(root, snap, point) {
  if (!snap) { replace(root, h('p', { class: 'muted', text: 'No run yet.' })); return; }
  const s = snap.statistical || {};
  const w = snap.window || {};
  const badge = (st) => h('span', { class: `state state-${String(st).replace('_', '-')}`, text: stateName(st) });
  const last = snap.last_call;
  replace(root,
    h('div', { class: 'now-head' },
      h('span', { text: `t = ${clock(snap.t)}` }),
      snap.calls !== undefined ? h('span', { text: ` · call ${fmt(snap.calls, 6)}` }) : null,
      ' ', kindBadge('simulated')),
    last ? h('p', { class: 'lastcall', text: `Last call at ${clock(last.t)}: ${last.text || last.outcome}` }) : null,
    h('div', { class: 'two' },
      h('table', { class: 'kv' }, h('caption', {}, 'Statistical ', badge(s.state)),
        h('tbody', {},
          row('closed score', pt(s.level, point), nat(s.level)),
          row('line', pt(s.threshold, point), `${nat(s.threshold)}; N = ${fmt(s.count, 4)} calls per period`),
          row('trial score', pt(s.trial, point), nat(s.trial)),
          row('wait', duration(s.wait), s.state === 'closed' ? 'next opening' : 'in force'),
          row('traffic estimate', Number.isFinite(s.rate) ? `${fmt(s.rate * 60, 4)} calls/min` : '—', 'damped count / τ'),
          row('generation', String(s.generation ?? '—')))),
      h('table', { class: 'kv' }, h('caption', {}, 'Window ', badge(w.state)),
        h('tbody', {},
          row('failure rate', pct(w.level), Number.isFinite(w.level) ? 'in the window' : 'below minimumNumberOfCalls'),
          row('threshold', pct(w.threshold)),
          row('probes\' failure rate', pct(w.trial)),
          row('calls in window', fmt(w.count, 6)),
          row('wait', duration(w.wait)),
          row('generation', String(w.generation ?? '—'))))));
}

/** The event trace; `onJump(t)` when a row is chosen. `now` highlights the latest event <= now. */
export function createTrace(root, onJump) {
  const summary = h('p', { class: 'help' });
  const body = h('tbody');
  const table = h('table', { class: 'trace' },
    h('thead', {}, h('tr', {}, ['time', 'breaker', 'change', 'generation', 'reason'].map((c) => h('th', { scope: 'col', text: c })))),
    body);
  replace(root, summary, h('div', { class: 'scroll' }, table));
  let events = [];
  const LIMIT = 2000;
  return {
    set(list, total) {
      events = list || [];
      const n = total ?? events.length;
      summary.textContent = n > events.length
        ? `${n} state changes (simulated); the first ${events.length} are listed. Choose one to jump there.`
        : `${n} state change${n === 1 ? '' : 's'} (simulated). Choose one to jump there.`;
      replace(body, events.slice(0, LIMIT).map((e, i) => {
        const b = h('button', { type: 'button', class: 'link', text: clock(e.at), on: { click: () => onJump(e.at, i) } });
        return h('tr', { dataset: { i: String(i) } },
          h('td', {}, b), h('td', { text: e.breaker }),
          h('td', {}, h('span', { class: `state state-${String(e.from).replace('_', '-')}`, text: stateName(e.from) }), ' → ',
            h('span', { class: `state state-${String(e.to).replace('_', '-')}`, text: stateName(e.to) })),
          h('td', { text: String(e.generation ?? '') }),
          h('td', { text: e.reason_text || '' }));
      }));
    },
    highlight(t) {
      let cur = -1;
      for (let i = 0; i < events.length && i < LIMIT; i++) if (events[i].at <= t + 1e-9) cur = i;
      for (const tr of body.children) tr.classList.toggle('current', Number(tr.dataset.i) === cur);
    },
  };
}

/** Metrics for both breakers, side by side. `metrics` = {rows: [{key, label, unit, statistical, window, kind}]}. */
export function renderMetrics(root, metrics) {
  if (!metrics || !metrics.rows) { replace(root, h('p', { class: 'muted', text: 'No run yet.' })); return; }
  const val = (v, unit) => {
    if (v === null || v === undefined || Number.isNaN(v)) return '—';
    if (unit === 's') return duration(v);
    if (unit === '%') return pct(v);
    return fmt(v, 6);
  };
  replace(root, h('table', { class: 'metrics' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'on the same calls' }), h('th', { scope: 'col', text: 'statistical' }), h('th', { scope: 'col', text: 'window' }), h('th', { scope: 'col', text: 'kind' }))),
    h('tbody', {}, metrics.rows.map((r) => {
      const better = r.better && Number.isFinite(r.statistical) && Number.isFinite(r.window) && r.statistical !== r.window
        ? ((r.better === 'lower') === (r.statistical < r.window) ? 's' : 'w') : '';
      return h('tr', {}, h('th', { scope: 'row', text: r.label, title: r.help || '' }),
        h('td', { class: better === 's' ? 'better' : '', text: val(r.statistical, r.unit) }),
        h('td', { class: better === 'w' ? 'better' : '', text: val(r.window, r.unit) }),
        h('td', {}, kindBadge(r.kind || 'simulated')));
    }))),
  metrics.note ? h('p', { class: 'help', text: metrics.note }) : null);
}

/**
 * The derived-numbers panel that teaches: the two worlds, weights and points, the line in points at
 * the current traffic, Wald's lines, trials to close, the zero-drift rate, each with its formula.
 * `d` comes from the wasm `derived()`, `snap` is the state at the cursor (traffic, line).
 */
export function renderDerived(root, d, snap) {
  if (!d) { replace(root, h('p', { class: 'muted', text: 'No settings yet.' })); return; }
  const s = (snap && snap.statistical) || {};
  const item = (title, value, formula, kind, text) => h('div', { class: 'derived-item' },
    h('h4', {}, title, ' ', kindBadge(kind)),
    h('p', { class: 'value' }, value),
    h('p', { class: 'formula' }, h('code', { text: formula })),
    text ? h('p', { class: 'help', text }) : null);
  const lineNow = s.threshold;
  const nNow = s.count;
  replace(root,
    item('Two worlds', `fine p₀ = ${pct(d.fine_rate)}, broken p₁ = ${pct(d.broken_rate)}`,
      'each result: is it more likely in the broken world or the fine one?', 'exact',
      'The breaker never estimates the failure rate; it weighs the evidence for one world against the other.'),
    item('Weights', `failure ${signed(d.w_fail, 4)} nats = ${signed(d.w_fail / d.point, 3)} pt; success ${signed(d.w_ok, 4)} nats = ${signed(d.w_ok / d.point, 3)} pt`,
      'w_fail = ln(p₁/p₀),  w_ok = ln((1−p₁)/(1−p₀)),  1 pt = |w_ok|', 'exact',
      `Logs turn the likelihood ratio's product into a sum: one failure outweighs ${fmt(d.w_fail / d.point, 3)} successes.`),
    item('Line at the current traffic', Number.isFinite(lineNow)
      ? `${fmt(lineNow / d.point, 4)} pt = ${fmt(lineNow, 4)} nats (N = ${fmt(nNow, 4)} calls per ${duration(d.false_alarm_period)})`
      : '—', 'line = max(ln N, A),  N = rate × false-alarm period', 'bound',
      `Under p₀ a round from 0 reaches ln N with probability at most 1/N (Ville): at most one false alarm per ${duration(d.false_alarm_period)} at this traffic. The value is exact; the false-alarm rate it guarantees is a bound.`),
    Number.isFinite(d.nominal_line) ? item('Line at the scenario\'s nominal traffic', `${fmt(d.nominal_line / d.point, 4)} pt = ${fmt(d.nominal_line, 4)} nats`,
      `ln(${fmt(d.nominal_rate * 60, 4)} calls/min × ${duration(d.false_alarm_period)})`, 'exact',
      `From a score of 0 that is ${fmt(Math.ceil(d.nominal_line / d.w_fail), 3)} failures in a row.`) : null,
    item('Wald\'s two lines (half-open)', `open again at A = ${signed(d.upper / d.point, 4)} pt (${fmt(d.upper, 4)} nats); close at B = ${signed(d.lower / d.point, 4)} pt (${fmt(d.lower, 4)} nats)`,
      'A = ln((1−b)/a),  B = ln(b/(1−a))', 'exact',
      'The trial score starts at 0 with no floor; Wald\'s error chances a and b hold approximately (overshoot ignored).'),
    item('Trials to close / to open again', `${d.trials_to_close} successes in a row close; ${d.trials_to_open} failures in a row open again`,
      'ceil(B / w_ok),  ceil(A / w_fail)', 'exact'),
    item('Rate of zero drift', pct(d.zero_drift_rate, 4),
      'p* = −w_ok / (w_fail − w_ok)', 'exact',
      'At this failure rate the score neither rises nor falls on average: decisions near it are slow (the indifference zone).'),
    Number.isFinite(d.drift_fine) ? item('Drift per call', `at p₀: ${signed(d.drift_fine / d.point, 3)} pt; at p₁: ${signed(d.drift_broken / d.point, 3)} pt`,
      'drift(p) = p·w_fail + (1−p)·w_ok', 'exact') : null);
}
