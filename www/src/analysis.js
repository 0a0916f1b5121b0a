// The analysis curves: calls between false alarms vs line (bound / exact / simulated), calls to
// open vs true failure rate, half-open OC and ASN (Wald's approximation beside the exact value),
// and the window breaker's spurious trips per day vs window size. Every series' legend says its
// kind. Curves depend only on the breaker settings: the owner recomputes them only when those
// change, and only while the panel is open.

import uPlot from '../vendor/uPlot.esm.js';
import { h, replace } from './dom.js';
import { fmt, kindBadge, KINDS } from './format.js';

const css = (name, fb) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fb;
const KIND_STYLE = {
  bound: { dash: [6, 4], color: '--c-line' },
  exact: { dash: undefined, color: '--c-score' },
  approximation: { dash: [2, 3], color: '--c-upper' },
  simulated: { dash: undefined, color: '--c-trial', points: true },
};

export function createAnalysis(root) {
  let plots = [];
  const status = h('p', { class: 'help', attrs: { 'aria-live': 'polite' } });
  const grid = h('div', { class: 'analysis-grid' });
  replace(root, status, grid);

  function destroy() { for (const p of plots) p.destroy(); plots = []; }

  return {
    busy(text) { status.textContent = text; },
    /** `curves` = [{id, title, x_label, y_label, log_x, log_y, note, series: [{label, kind, x, y}]}]. */
    set(curves) {
      destroy();
      status.textContent = '';
      const muted = css('--muted', '#666');
      const gridc = css('--grid', 'rgba(0,0,0,.1)');
      replace(grid, (curves || []).map((c) => {
        const fig = h('figure', { class: 'plot small' });
        const kinds = [...new Set(c.series.map((s) => s.kind))];
        const cap = h('figcaption', {}, c.title, ' ', kinds.map((k) => [kindBadge(k), ' ']));
        fig.append(cap);
        const xs = c.series.map((s) => [Float64Array.from(s.x), Float64Array.from(s.y, (v) => (Number.isFinite(v) ? v : null))]);
        const data = uPlot.join(xs.map(([x, y]) => [x, y]));
        const width = Math.max(260, Math.min(560, (root.clientWidth || 600) / (root.clientWidth > 900 ? 2 : 1) - 16));
        const ax = { stroke: muted, grid: { stroke: gridc }, ticks: { stroke: gridc } };
        const opts = {
          width, height: 220,
          scales: { x: { time: false, distr: c.log_x ? 3 : 1 }, y: { distr: c.log_y ? 3 : 1 } },
          axes: [{ ...ax, label: c.x_label, labelSize: 18, values: (u, s) => s.map((v) => fmt(v, 3)) },
            { ...ax, label: c.y_label, labelSize: 18, size: 56, values: (u, s) => s.map((v) => fmt(v, 3)) }],
          series: [{ label: c.x_label, value: (u, v) => fmt(v, 4) }, ...c.series.map((s) => {
            const st = KIND_STYLE[s.kind] || KIND_STYLE.exact;
            return {
              label: `${s.label} (${(KINDS[s.kind] || { label: s.kind }).label})`,
              stroke: css(st.color, '#333'), width: 2, dash: st.dash, spanGaps: true,
              points: { show: Boolean(st.points), size: 5 },
              value: (u, v) => fmt(v, 4),
            };
          })],
          legend: { live: true },
        };
        const p = new uPlot(opts, data, fig);
        plots.push(p);
        if (c.note) fig.append(h('p', { class: 'help', text: c.note }));
        return fig;
      }));
    },
    error(message) { destroy(); status.textContent = message; replace(grid); },
    destroy,
  };
}
