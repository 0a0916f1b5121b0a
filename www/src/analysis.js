// The analysis curves: calls between false alarms vs line (bound / exact / simulated), calls to
// open vs true failure rate, half-open OC and ASN (Wald's approximation beside the exact value),
// and the window breaker's spurious trips per day vs window size. Every series' legend says its
// kind. Curves depend on the breaker settings and on the traffic one breaker sees (the traffic
// and callers, or a replayed trace's rate: app.js's analysisRequest): the owner recomputes them
// only when those change, and only while the panel is open.

import uPlot from '../vendor/uPlot.min.js';
import { h, replace } from './dom.js';
import { fmt, kindBadge, KINDS } from './format.js';
import { markerDash } from './chart.js';

/**
 * A sentence for each approximation line of a curve that lies below the curve's bound somewhere:
 * a proven lower bound, so the approximation is plainly off there (Wald's at p0 = 0.001%,
 * p1 = 99%: 2.150e6 calls against a bound of 9.900e6). `breaker analyze curves` says the same.
 */
export function belowBound(c) {
  const bound = c.series.find((s) => s.kind === 'bound');
  if (!bound) return [];
  const bx = Array.from(bound.x);
  return c.series.filter((s) => s.kind === 'approximation').flatMap((s) => {
    const k = Array.from(s.x).filter((x, i) => { const j = bx.indexOf(x); return j >= 0 && s.y[i] < bound.y[j]; }).length;
    if (k === 0) return [];
    const why = s.label.startsWith('Wald')
      ? 'it leaves out how far the last failure carries the score past the line, which is large where one failure\'s step is a large part of the line'
      : 'it is off there';
    return [`${s.label} lies below the bound at ${k} of ${s.x.length} points: ${why}.`];
  });
}

/**
 * A sentence for each Wald line of a curve that is under half or over twice the exact line
 * somewhere (not counting points said as below the bound): 0.049 expected trials where every
 * test takes one. A chance (the chance to close) is compared by its complement too: 0.7
 * against 0.999 is 0.3 against 0.001. `breaker analyze curves` says the same.
 */
export function farFromExact(c) {
  const exact = c.series.find((s) => s.kind === 'exact');
  if (!exact) return [];
  const bound = c.series.find((s) => s.kind === 'bound');
  const chance = c.id === 'trials_oc';
  const at = (line, x) => { const j = Array.from(line.x).indexOf(x); return j >= 0 ? line.y[j] : NaN; };
  return c.series.filter((s) => s.kind === 'approximation' && s.label.startsWith('Wald')).flatMap((s) => {
    const k = Array.from(s.x).filter((x, i) => {
      const [a, e] = [s.y[i], at(exact, x)];
      // (Equal, 0 included, is not far; an exact 0 against Wald's above is.)
      if (!Number.isFinite(a) || !Number.isFinite(e) || a === e) return false;
      if (bound && a < at(bound, x)) return false;
      const far = (r) => r < 0.5 || r > 2;
      return far(a / e) || (chance && e < 1 && a < 1 && far((1 - a) / (1 - e)));
    }).length;
    if (k === 0) return [];
    const how = chance ? ' (a chance, or its complement)' : '';
    return [`${s.label} is under half or over twice the exact figure${how} at ${k} of ${s.x.length} points: it leaves out the overshoot past the line, large where one step is a large part of it.`];
  });
}

/** An axis's unit, from its label's last parentheses: "slidingWindowSize (calls)" gives "calls". */
const axisUnit = (label) => (/\(([^()]+)\)$/.exec(label) || [])[1];

/**
 * What a chart leaves out of each line, as sentences for under it. Where a line has no value
 * (y NaN: the exact sliding-window chain is computed up to 18 calls, its states doubling with
 * each), and on a log axis (`logY`) where a line is 0 or under the axis (`shown(y)` false: more
 * than 12 decades below the chart's largest value). A simulated 0 trips a day, undrawable on the
 * log axis, left only its 95% interval's high end on the chart, read as about 8 trips a day for
 * every window from 23 to 500 calls. The legend still reads each value.
 */
export function leftOut(c, logY, shown) {
  const unit = axisUnit(c.x_label);
  const at = (xs) => {
    const x = (v) => fmt(v, 4);
    const u = unit ? ` ${unit}` : '';
    return xs.length === 1 ? `at ${x(xs[0])}${u}` : `at ${xs.length} points from ${x(xs[0])} to ${x(xs[xs.length - 1])}${u}`;
  };
  return c.series.flatMap((s) => {
    const xs = Array.from(s.x);
    const ys = Array.from(s.y);
    const where = (test) => xs.filter((x, i) => test(ys[i]));
    const label = withKind(s.label, s.kind);
    const out = [];
    // Why a point has no value, where it is a limit of the way (crates/curves's MAX_EXACT and
    // SIM_MAX_LINE_CALLS; its tests hold these numbers to them); else the curves' work budget
    // left it out. Each reason with its own points: a line can have both.
    const chain = /exact chain/.test(s.label);
    const sim = s.kind === 'simulated' && /^line/.test(c.x_label);
    const whys = [
      [(x) => chain && x > 18, 'the chain\'s states double with each call of the window: it is computed up to 18 calls'],
      [(x) => sim && x > 3000, 'lines above 3,000 calls are not simulated here'],
      [() => true, 'left out for the curves\' work budget'],
    ];
    const none = where((y) => Number.isNaN(y));
    for (const [k, [limit, why]] of whys.entries()) {
      const xs = none.filter((x) => limit(x) && !whys.slice(0, k).some(([l]) => l(x)));
      if (xs.length) out.push(`${label}: no value ${at(xs)} (${why}).`);
    }
    if (logY) {
      const zero = where((y) => y === 0);
      if (zero.length) {
        const hi = s.ci95_hi ? Array.from(s.ci95_hi).filter((v, i) => ys[i] === 0) : [];
        const band = hi.length ? `; only its 95% interval's high end (up to ${fmt(Math.max(...hi), 4)}) is drawn there, an upper limit, not a value seen` : '';
        // A computed chance that small is not impossible: under about 1e-308 a double holds 0
        // (a window of 180 calls at p0 0.001% trips with chance about 1e-397). The value itself
        // may be larger: trips a day at 1e7 calls/min are a chance of 3.7e-312 times windows a
        // day, about 1e-304, which the analysis can only bound.
        const tiny = s.kind === 'simulated' ? '' : ' (the value, or a chance it is made of, is under about 1e-308, too small for a double: it reads 0)';
        out.push(`${label}: 0 ${at(zero)}${tiny}, which a log axis cannot show${band}.`);
      }
      const isUnder = (y) => y > 0 && Number.isFinite(y) && !shown(y);
      const under = where(isUnder);
      if (under.length) {
        const least = Math.min(...ys.filter(isUnder));
        out.push(`${label}: under the chart ${at(under)}, more than 12 decades below its largest value (down to ${fmt(least, 4)}); the legend reads each.`);
      }
    }
    return out;
  });
}

/**
 * A line's legend label with its kind after it, unless the label says it already: "simulated",
 * "Lorden/Ville bound", "Wald's approximation" (the legend read "simulated (simulated)").
 */
export function withKind(label, kind) {
  const word = kind === 'approximation' ? 'approx' : kind;
  if (new RegExp(`\\b${word}`, 'i').test(label)) return label;
  return `${label} (${(KINDS[kind] || { label: kind }).label})`;
}

// Colours from CSS variables as seen from the panel's own element: inside a custom element's
// shadow root they are defined on the host, not on the document (whose root has none of them on
// a documentation page, and every line came out the same fallback grey).
const cssOf = (el) => {
  const style = getComputedStyle(el && el.isConnected ? el : document.documentElement);
  return (name, fb) => style.getPropertyValue(name).trim() || fb;
};
const KIND_STYLE = {
  bound: { dash: [6, 4], color: '--c-line' },
  exact: { dash: undefined, color: '--c-score' },
  approximation: { dash: [2, 3], color: '--c-upper' },
  simulated: { dash: undefined, color: '--c-trial', points: true },
};

// Each line of a chart gets its own colour (a line's 95% interval takes its line's): the first
// line its kind's colour, the others the first of these not yet used in that chart.
const COLOURS = ['--c-score', '--c-line', '--c-upper', '--c-trial', '--c-lower', '--c-rate', '--c-wait'];

/** The colour variable of each of `series`, none used twice. */
function colourVars(series) {
  const used = new Set();
  return series.map((s, i) => {
    let v = i === 0 ? (KIND_STYLE[s.kind] || KIND_STYLE.exact).color : null;
    if (!v || used.has(v)) v = COLOURS.find((c) => !used.has(c)) || COLOURS[i % COLOURS.length];
    used.add(v);
    return v;
  });
}

/**
 * An axis tick: grouped digits below 10^5, else a power of ten's short form ("1e6", "2.5e7"),
 * so a log axis's large ticks fit the axis (a grouped "100,000,000" was cut to "00,000,000").
 */
export function tick(v) {
  if (v == null) return '';
  const a = Math.abs(v);
  if (a < 1e5) return fmt(v, 2);
  const [m, e] = v.toExponential(1).split('e');
  return `${m.replace(/\.0$/, '')}e${Number(e)}`.replace(/-/g, '−');
}

/** `#rrggbb` with an alpha, for a band's fill (other colour forms are returned as they are). */
const alpha = (hex, a) => (/^#[0-9a-f]{6}$/i.test(hex) ? hex + Math.round(a * 255).toString(16).padStart(2, '0') : hex);

/** A dashed vertical line at `x` across the plot; false when `x` is off the plot. */
function markLine(u, x, colour) {
  const px = u.valToPos(x, 'x', true);
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  if (!(px >= left && px <= left + width)) return false;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = devicePixelRatio;
  ctx.setLineDash([5 * devicePixelRatio, 4 * devicePixelRatio]);
  ctx.beginPath();
  ctx.moveTo(px, top);
  ctx.lineTo(px, top + height);
  ctx.stroke();
  ctx.restore();
  return true;
}

export function createAnalysis(root) {
  let plots = [];
  let shown = null;
  const status = h('p', { class: 'help', attrs: { 'aria-live': 'polite' } });
  const grid = h('div', { class: 'analysis-grid' });
  replace(root, status, grid);

  function destroy() { for (const p of plots) p.destroy(); plots = []; }

  // Each chart as wide as its figure, also after the window (or a phone's orientation) changed:
  // made at 1280 px and then shown at 360, a chart kept its 414 px and its right part (the
  // largest ticks, the end of every line) was cut off, out of reach. A closed panel (width 0) waits.
  const ro = new ResizeObserver(() => {
    for (const p of plots) {
      const w = p.root.parentElement ? p.root.parentElement.clientWidth : 0;
      if (w > 0 && Math.abs(p.width - Math.max(240, w)) > 1) p.setSize({ width: Math.max(240, w), height: p.height });
    }
  });
  ro.observe(grid);
  // Colours follow the colour scheme, as the run's charts do: the axes and grid drawn for a light
  // page stayed (muted grey at 3:1, a grid too faint to see) when the system turned dark.
  const mq = matchMedia('(prefers-color-scheme: dark)');
  const onScheme = () => { if (shown) api.set(shown); };
  mq.addEventListener('change', onScheme);

  const api = {
    busy(text) { status.textContent = text; },
    /** `curves` = [{id, title, x_label, y_label, log_x, log_y, note, series: [{label, kind, x, y, ci95_lo?, ci95_hi?, n?}], mark?: {label, kind, x: [x]}}]. */
    set(curves) {
      destroy();
      shown = curves;
      status.textContent = '';
      const css = cssOf(root);
      const muted = css('--muted', '#666');
      const gridc = css('--grid', 'rgba(0,0,0,.1)');
      const figs = (curves || []).map((c) => [c, h('figure', { class: 'plot small' })]);
      replace(grid, figs.map(([, fig]) => fig));
      for (const [c, fig] of figs) {
        const kinds = [...new Set(c.series.map((s) => s.kind))];
        const cap = h('figcaption', {}, c.title, ' ', kinds.map((k) => [kindBadge(k), ' ']));
        fig.append(cap);
        // Log scales take positive values only: drop the rest (a log axis with none falls back to linear).
        // and keep 12 decades below the largest (trips per day can be 1e-100: far off any chart).
        // The largest of every line drawn, a 95% interval's too: from a simulated 0 trips its high
        // end (7.97 a day) sat 31 decades above trips of 3.8e-30, and uPlot's log ticks threw
        // ("Invalid array length") over that span.
        const maxY = Math.max(...c.series.flatMap((s) => [s.y, s.ci95_hi || []].flatMap((ys) => Array.from(ys).filter(Number.isFinite))));
        const okY = (v) => Number.isFinite(v) && (!c.log_y || (v > 0 && v >= maxY * 1e-12));
        // A log axis over one value threw in uPlot's ticks ("Invalid array length": every point
        // at one x, or one trip rate above 0 on the window chart at p0 = 1e-9): linear then.
        // A simulated line brings its 95% interval: two thin lines after it, the band between them shaded.
        const lines = c.series.flatMap((s, i) => [{ s, i, ys: s.y },
          ...(s.ci95_lo && s.ci95_lo.length ? [{ s, i, ys: s.ci95_hi, end: 'high' }, { s, i, ys: s.ci95_lo, end: 'low' }] : [])]);
        // The values as computed, on one x axis (raw[0]): the chart draws those it keeps, and the
        // legend reads them all, also where the chart leaves one out (0 or far below the rest on
        // a log axis): "—" stood where the command line gives 9.192e-13.
        const raw = uPlot.join(lines.map((l) => [Array.from(l.s.x), Array.from(l.ys)]));
        const spread = (vs) => vs.length > 0 && Math.min(...vs) < Math.max(...vs);
        const logY = c.log_y && spread(c.series.flatMap((s) => Array.from(s.y).filter(okY)));
        const logX = c.log_x && raw[0].every((v) => v > 0) && spread(raw[0]);
        // Dash by kind (so the kind shows in the line itself), colour by line.
        const vars = colourVars(c.series);
        const colourOf = (s, i) => css(vars[i], '#333');
        const keep = (ys) => Array.from(ys, (v) => (okY(v) || (!logY && Number.isFinite(v)) ? v : null));
        const data = raw.map((col, i) => (i === 0 ? col : keep(col)));
        const value = (u, v, si, idx) => fmt(idx === null || idx === undefined ? v : raw[si][idx], 4);
        const width = Math.max(240, fig.clientWidth || 300);
        const ax = { stroke: muted, grid: { stroke: gridc }, ticks: { stroke: gridc } };
        const opts = {
          width, height: 220,
          scales: { x: { time: false, distr: logX ? 3 : 1 }, y: { distr: logY ? 3 : 1 } },
          axes: [{ ...ax, label: c.x_label, labelSize: 18, values: (u, s) => s.map(tick) },
            { ...ax, label: c.y_label, labelSize: 18, size: 64, values: (u, s) => s.map(tick) }],
          series: [{ label: c.x_label, value: (u, v) => fmt(v, 4) }, ...lines.map(({ s, i, end }) => {
            const st = KIND_STYLE[s.kind] || KIND_STYLE.exact;
            const colour = colourOf(s, i);
            const kind = (KINDS[s.kind] || { label: s.kind }).label;
            if (end) {
              return {
                label: `95% interval, ${end} (${kind})`, stroke: colour, width: 1, dash: [1, 3],
                spanGaps: true, points: { show: false }, value,
              };
            }
            return {
              label: withKind(s.label, s.kind),
              stroke: colour, width: 2, dash: st.dash, spanGaps: true,
              points: { show: Boolean(st.points), size: 5 },
              value,
            };
          })],
          // Shade between each interval's high and low line (series indices count the x axis as 0).
          bands: lines.flatMap((l, k) => (l.end === 'high' ? [{ series: [k + 1, k + 2], fill: alpha(colourOf(l.s, l.i), 0.15) }] : [])),
          legend: { live: true, markers: { dash: markerDash } },
        };
        // A marked place on the x axis (the user's own window on the window curve): a dashed
        // vertical line, and a line of text under the note saying what it is and its kind.
        // Each draw says whether the line is on the chart.
        const mark = c.mark && Number.isFinite(c.mark.x[0]) ? c.mark : null;
        const where = h('span');
        if (mark) {
          opts.hooks = {
            draw: [(u) => {
              const on = markLine(u, mark.x[0], css('--fg', '#222'));
              const text = on ? 'Dashed vertical line: ' : 'Off this chart\'s range: ';
              if (where.textContent !== text) where.textContent = text;
            }],
          };
        }
        plots.push(new uPlot(opts, data, fig));
        const note = [c.note, ...belowBound(c), ...farFromExact(c), ...leftOut(c, logY, okY)].filter(Boolean).join(' ');
        if (note) fig.append(h('p', { class: 'help', text: note }));
        if (mark) {
          const approx = mark.kind === 'approximation' ? 'about ' : '';
          fig.dataset.markX = String(mark.x[0]);
          const unit = axisUnit(c.x_label);
          fig.append(h('p', { class: 'help mark' }, where,
            `${mark.label}, ${approx}${fmt(mark.x[0], 3)}${unit ? ` ${unit}` : ''} `, kindBadge(mark.kind)));
        }
      }
    },
    error(message) { destroy(); shown = null; status.textContent = message; replace(grid); },
    destroy() { destroy(); shown = null; ro.disconnect(); mq.removeEventListener('change', onScheme); },
  };
  return api;
}
