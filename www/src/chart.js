// The run's chart: three uPlot panels on one time axis with a shared cursor.
//   1. statistical breaker: closed score (drawn only while closed) and its moving line, trial
//      score and Wald's two lines, in points (hover shows nats), state as a coloured band;
//   2. window breaker: failure rate in the window, its threshold, state band;
//   3. calls per bucket (answered / failed / sent to the fallback) and each breaker's wait.
// The playback cursor is drawn on all three; clicking a panel seeks there; dragging zooms, which
// asks the owner for finer buckets of that range (the run is not recomputed); double-click zooms
// out. From the keyboard, with the charts focused (one tab stop for the three): + (or =) zooms
// in and - zooms out by 2 around the playback cursor, 0 or Escape shows the whole run.
// The runs' lines are simulated; Wald's lines A and B are exact, from the settings, and the
// window's threshold is a setting (the chart's note says so).

import uPlot from '../vendor/uPlot.min.js';
import { h, replace, uniqueId } from './dom.js';
import { fmt, clock, duration, stateName } from './format.js';

const COUNT_BINS = 60;
/** The narrowest span the keys zoom to, in seconds. */
const MIN_SPAN = 0.01;

/**
 * The view after a key's zoom by `factor` (0.5 in, 2 out) of `view` within [0, end]: the playback
 * cursor `c` stays where it is on the chart (the view's middle when the cursor is outside it),
 * and the view is moved back inside the run. `null` when it covers the whole run.
 */
export function zoomedView([a, b], c, factor, end) {
  const at = c >= a && c <= b ? c : (a + b) / 2;
  const span = Math.max(MIN_SPAN, (b - a) * factor);
  if (!(end > 0) || span >= end) return null;
  let lo = b > a ? at - (at - a) * (span / (b - a)) : at - span / 2;
  lo = Math.min(Math.max(0, lo), end - span);
  return [lo, lo + span];
}

// Colours come from CSS variables as seen from the chart's own element, so a chart inside a
// custom element's shadow root follows that element's styles (and dark mode), not the host page.
function palette(el) {
  const style = getComputedStyle(el && el.isConnected ? el : document.documentElement);
  const css = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  return {
    fg: css('--fg', '#222'), muted: css('--muted', '#666'), grid: css('--grid', 'rgba(0,0,0,.08)'),
    score: css('--c-score', '#2563eb'), line: css('--c-line', '#dc2626'), trial: css('--c-trial', '#9333ea'),
    upper: css('--c-upper', '#ea580c'), lower: css('--c-lower', '#16a34a'),
    closed: css('--c-closed', 'rgba(22,163,74,.10)'), half: css('--c-half', 'rgba(234,179,8,.22)'), open: css('--c-open', 'rgba(220,38,38,.18)'),
    closedS: css('--c-closed-strong', '#16a34a'), halfS: css('--c-half-strong', '#b45309'), openS: css('--c-open-strong', '#dc2626'),
    ok: css('--c-ok', '#16a34a'), fail: css('--c-fail', '#dc2626'), fallback: css('--c-fallback', '#6b7280'),
    rate: css('--c-rate', '#0891b2'), cursor: css('--c-cursor', '#111'), wait: css('--c-wait', '#a16207'),
  };
}

/** Draw the state band (tint + strip at the bottom) from a state series (0 closed, 1 half, 2 open). */
function stateBand(stateIdx, pal) {
  return (u) => {
    const xs = u.data[0];
    const st = u.data[stateIdx];
    if (!xs || xs.length < 1) return;
    const { ctx } = u;
    const { left, top, width, height } = u.bbox;
    const fills = [pal.closed, pal.half, pal.open];
    const strips = [pal.closedS, pal.halfS, pal.openS];
    const strip = Math.max(4, Math.round(6 * devicePixelRatio));
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    ctx.font = `${Math.round(11 * devicePixelRatio)}px system-ui, sans-serif`;
    ctx.textBaseline = 'bottom';
    // Set, not inherited: the axes leave it 'right', which wrote a name over the stretch before.
    ctx.textAlign = 'left';
    const step = xs.length > 1 ? xs[1] - xs[0] : 1;
    // One rectangle per run of buckets in the same state (not one per bucket).
    for (let i = 0; i < xs.length;) {
      const s = st[i];
      if (s == null || Number.isNaN(s)) { i++; continue; }
      const k = Math.max(0, Math.min(2, Math.round(s)));
      let j = i + 1;
      while (j < xs.length && st[j] != null && !Number.isNaN(st[j]) && Math.max(0, Math.min(2, Math.round(st[j]))) === k) j++;
      const x0 = u.valToPos(xs[i], 'x', true);
      const x1 = u.valToPos(j < xs.length ? xs[j] : xs[j - 1] + step, 'x', true);
      if (k > 0) { ctx.fillStyle = fills[k]; ctx.fillRect(x0, top, x1 - x0 + 0.5, height); }
      ctx.fillStyle = strips[k];
      ctx.fillRect(x0, top + height - strip, x1 - x0 + 0.5, strip);
      // Colour is not the only carrier of the state (WCAG 1.4.1): a stretch of half-open or open
      // wide enough for its name has the name written above its strip.
      if (k > 0) {
        const name = k === 1 ? 'half-open' : 'open';
        if (ctx.measureText(name).width + 6 * devicePixelRatio <= x1 - x0) {
          ctx.fillStyle = pal.fg;
          ctx.fillText(name, x0 + 3 * devicePixelRatio, top + height - strip - 3 * devicePixelRatio);
        }
      }
      i = j;
    }
    ctx.restore();
  };
}

/**
 * The dependency's phases that are not fine (an outage, a degraded stretch), marked on every
 * chart: a thin solid line where each starts and ends and its label along the top, so the time
 * a breaker took to open can be read against the outage's start (the state band shows the
 * breakers, not the dependency). `get()` = [{start, end, label}], end Infinity for the last.
 */
function phaseMarks(get, pal) {
  return (u) => {
    const marks = get();
    if (!marks.length) return;
    const { ctx } = u;
    const { left, top, width, height } = u.bbox;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    ctx.strokeStyle = pal.muted;
    ctx.fillStyle = pal.muted;
    ctx.lineWidth = Math.max(1, devicePixelRatio);
    ctx.font = `${Math.round(10 * devicePixelRatio)}px system-ui, sans-serif`;
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    for (const m of marks) {
      const x0 = u.valToPos(m.start, 'x', true);
      const x1 = Number.isFinite(m.end) ? u.valToPos(m.end, 'x', true) : left + width;
      if (x1 < left || x0 > left + width) continue;
      ctx.beginPath();
      for (const x of [x0, Number.isFinite(m.end) ? x1 : null]) {
        if (x === null || x < left || x > left + width) continue;
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
      }
      ctx.stroke();
      const from = Math.max(x0, left);
      if (ctx.measureText(m.label).width + 6 * devicePixelRatio <= Math.min(x1, left + width) - from) {
        ctx.fillText(m.label, from + 3 * devicePixelRatio, top + 2 * devicePixelRatio);
      }
    }
    ctx.restore();
  };
}

function cursorLine(get, pal) {
  return (u) => {
    const t = get();
    if (t == null || !Number.isFinite(t)) return;
    const x = u.valToPos(t, 'x', true);
    if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
    const { ctx } = u;
    ctx.save();
    ctx.strokeStyle = pal.cursor;
    ctx.lineWidth = Math.max(1, devicePixelRatio * 1.5);
    ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.restore();
  };
}

/** Said when a zoom is asked for while the owner cannot show one. */
const BUSY = 'The run is still being computed: zoom once it is done.';

/**
 * Steps between the time axis's ticks, in seconds: steps of a clock (15 s, 5 min, 6 h, a day),
 * not uPlot's default 1-2-5 steps of a plain number (500,000 s put a month's ticks at
 * 5 d 18:53:20). Ticks fall on multiples of the step, so at round times.
 */
export const TIME_STEPS = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30,
  60, 120, 300, 600, 900, 1800,
  3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600,
  ...[1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000].map((d) => d * 86400),
];

/**
 * A count or points axis tick: grouped digits below 10,000, else short (12k, 1.5M), so the
 * ticks fit the axis beside its title (a grouped 400,000 ran into "calls").
 */
export function countTick(v) {
  if (v == null) return '';
  const a = Math.abs(v);
  if (a < 1e4) return fmt(v, 4);
  const [d, unit] = a >= 1e9 ? [1e9, 'G'] : a >= 1e6 ? [1e6, 'M'] : [1e3, 'k'];
  return `${fmt(v / d, 3)}${unit}`;
}

/** A wait axis tick: a duration, and 0 as "0" (not "0 ms" under "10 min"). */
export function waitTick(v) {
  return v === 0 ? '0' : duration(v);
}

// The widths of the y axes' ticks, the same on the three charts (the calls panel's wait axis on
// the right is matched by as much padding on the other two), so their plot areas, and so their
// time axes, line up: the cursor and a time are at one x on all three.
const LEFT_AXIS = 56;
const RIGHT_AXIS = 60;
const AXIS_LABEL = 18;
// The narrowest chart: a custom element in a docs page's column at 320 px (1280 px at 400 %) has
// about 250 px; a chart kept at 280 px there was cut off at the right (its wait axis, the run's end).
const MIN_WIDTH = 200;

/** A time axis tick: the clock without zero hundredths, whole days as "5 d". */
export function timeTick(v) {
  if (v == null) return '';
  if (v !== 0 && v % 86400 === 0) return `${v < 0 ? '−' : ''}${Math.abs(v) / 86400} d`;
  return clock(v).replace(/\.00$/, '');
}

/**
 * A legend marker dotted when its line is dashed or dotted, solid when the line is: the two
 * breakers' fallback and wait lines share a colour and differ by dash alone, which uPlot's solid
 * markers did not show. (A dashed border on the marker's small square draws as a solid one.)
 */
export function markerDash(u, i) {
  const d = u.series[i] && u.series[i].dash;
  return d && d.length > 0 ? 'dotted' : 'solid';
}

/**
 * Create the chart in `root`. Options: onSeek(t), onZoom(t0, t1), syncKey, canZoom() (false
 * while the owner cannot show a zoomed range: the keys and a drag then leave the view as it is).
 * Returns {setData(series, point, t0, t1, end), setPhases(list), phaseMarks(), zoomable(),
 * shown(), setCursor(t), xScales(), plotBoxes(), xTicks(), destroy()}.
 */
export function createChart(root, { onSeek, onZoom, syncKey, canZoom = () => true }) {
  let pal = palette(root);
  let point = 1;
  let cursorT = 0;
  let phases = [];
  let plots = [];
  const ticks = new WeakMap();
  let series = null;
  let syncing = false;
  let view = [0, 1];
  let end = 1; // the run's length: the whole view
  let group = 1; // fine buckets per bin in the calls panel
  const bodies = [
    h('figure', { class: 'plot' }, h('figcaption', { text: 'Statistical breaker: score in points (hover or tap for nats)' })),
    h('figure', { class: 'plot' }, h('figcaption', { text: 'Window breaker: failure rate in the window' })),
    h('figure', { class: 'plot' }, h('figcaption', { text: 'Calls per bucket, and the open-state wait' })),
  ];
  const note = h('p', { class: 'chart-note help' });
  const key = h('p', { class: 'band-key help' }, 'State band: ',
    h('span', { class: 'swatch closed' }), ' closed ', h('span', { class: 'swatch half' }), ' half-open ',
    h('span', { class: 'swatch open' }), ' open (a stretch wide enough has its state written on it); the dashed vertical line is the playback cursor; thin grey lines, labelled at the top, mark where the dependency’s outage and degraded phases start and end.');
  const keysHelp = h('p', { id: uniqueId('chart-keys'), class: 'help chart-keys' },
    'Zoom keys, with the charts focused (Tab to them): + zoom in, − zoom out (around the playback cursor), 0 or Escape the whole run.');
  // The same by a button: a drag zooms with a mouse only, so on a touch screen the charts could
  // not be zoomed at all.
  const zoomButton = (text, act) => h('button', {
    type: 'button', class: 'small', text,
    on: { click: () => { if (canZoom()) act(); else sayBusy(); } },
  });
  const zoomRow = h('div', { class: 'chart-zoom', attrs: { role: 'group', 'aria-label': 'Zoom the charts' } },
    zoomButton('Zoom in', () => zoomBy(0.5)), zoomButton('Zoom out', () => zoomBy(2)), zoomButton('Whole run', () => setView(null)),
    h('span', { class: 'help', text: ' around the playback cursor' }));
  // The keys' help sits inside the focusable box, so it shows when the box scrolls into view on
  // focus. The range shown is read out when the keys (or a drag) change it.
  const shownRange = h('p', { class: 'sr-only', attrs: { 'aria-live': 'polite' } });
  const plotsBox = h('div', {
    class: 'chart-plots',
    attrs: { tabindex: '0', role: 'group', 'aria-label': 'The run\'s charts', 'aria-describedby': keysHelp.id, 'aria-keyshortcuts': '+ - 0 Escape' },
  }, keysHelp, bodies);
  plotsBox.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key;
    const zoomKey = ['+', '=', '-', '_', '0', 'Escape'].includes(k);
    if (!zoomKey) return;
    e.preventDefault();
    if (!canZoom()) {
      sayBusy();
      return;
    }
    if (k === '+' || k === '=') zoomBy(0.5);
    else if (k === '-' || k === '_') zoomBy(2);
    else setView(null);
  });
  // Taller than the window below the sticky transport bar, the box came into view from below
  // (Shift+Tab) with its top, and the keys' help, under the bar: show its top instead. Only the
  // box's own focus by the keyboard (Tab): a click or a tap on an axis focuses the box too
  // (not a plot), and scrolled the page 150-270 px from under the finger.
  plotsBox.addEventListener('focus', () => {
    if (!plotsBox.matches(':focus-visible')) return;
    const bar = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
    if (plotsBox.getBoundingClientRect().top < bar) plotsBox.scrollIntoView({ block: 'start' });
  });
  // The same words where a sighted user looks (the live region above is read out only), for a
  // few seconds or until the run is whole.
  const busyNote = h('p', { class: 'chart-busy help', text: BUSY, attrs: { 'aria-hidden': 'true' } });
  busyNote.hidden = true;
  let busyTimer = 0;
  function sayBusy() {
    shownRange.textContent = BUSY;
    busyNote.hidden = false;
    clearTimeout(busyTimer);
    busyTimer = setTimeout(() => { busyNote.hidden = true; }, 4000);
  }
  replace(root, key, zoomRow, busyNote, plotsBox, shownRange, note);

  /** Show [t0, t1] (null: the whole run) at once, and ask the owner for its buckets. */
  function setView(v) {
    view = v || [0, end];
    applyView();
    sayRange();
    if (v) onZoom(v[0], v[1]);
    else onZoom(null, null);
  }

  function zoomBy(factor) {
    const v = zoomedView(view, cursorT, factor, end);
    // Out from the whole run, or in past the narrowest span: nothing changes.
    if (!v ? view[0] <= 0 && view[1] >= end : Math.abs(v[1] - v[0] - (view[1] - view[0])) < 1e-9) return;
    setView(v);
  }

  const pts = (v) => (v == null || Number.isNaN(v) ? '—' : `${fmt(v, 3)} pt (${fmt(v * point, 4)} nats)`);
  const pctv = (v) => (v == null || Number.isNaN(v) ? '—' : `${fmt(v * 100, 3)}%`);
  const cnt = (v) => (v == null || Number.isNaN(v) ? '—' : fmt(v, 4));
  const stv = (v) => (v == null || Number.isNaN(v) ? '—' : stateName(Math.round(v)));

  function common(height, stateIdx) {
    return {
      width: Math.max(MIN_WIDTH, root.clientWidth || 600),
      height,
      cursor: {
        sync: { key: syncKey },
        drag: { x: true, y: false, setScale: true },
        points: { size: 6 },
      },
      select: { show: true },
      scales: { x: { time: false } },
      legend: { live: true, markers: { dash: markerDash } },
      hooks: {
        drawClear: stateIdx ? [stateBand(stateIdx, pal)] : [],
        draw: [phaseMarks(() => phases, pal), cursorLine(() => cursorT, pal)],
        setScale: [(u, key) => {
          if (key !== 'x' || syncing) return;
          const { min, max } = u.scales.x;
          if (min == null || max == null) return;
          if (Math.abs(min - view[0]) < 1e-9 && Math.abs(max - view[1]) < 1e-9) return;
          // A drag while the owner cannot zoom: put the view back (after this hook returns).
          if (!canZoom()) { queueMicrotask(applyView); sayBusy(); return; }
          syncing = true;
          for (const p of plots) if (p !== u) p.setScale('x', { min, max });
          syncing = false;
          view = [min, max];
          sayRange();
          onZoom(min, max);
        }],
      },
    };
  }

  const axisStyle = () => ({ stroke: pal.muted, grid: { stroke: pal.grid, width: 1 }, ticks: { stroke: pal.grid } });

  function build() {
    for (const p of plots) p.destroy();
    pal = palette(root);
    const ax = axisStyle();
    const xAxis = {
      ...ax, incrs: TIME_STEPS, label: 'time', labelSize: AXIS_LABEL, space: 90,
      values: (u, splits) => { const v = splits.map(timeTick); ticks.set(u, v); return v; },
    };
    const o1 = {
      ...common(240, 7),
      series: [
        { label: 'time', value: (u, v) => (v == null ? '—' : clock(v)) },
        { label: 'closed score', stroke: pal.score, width: 2, value: (u, v) => pts(v) },
        { label: 'line', stroke: pal.line, width: 2, dash: [6, 4], value: (u, v) => pts(v) },
        { label: 'trial score (high)', stroke: pal.trial, width: 2, value: (u, v) => pts(v) },
        { label: 'trial score (low)', stroke: pal.trial, width: 1, value: (u, v) => pts(v) },
        { label: 'open again (A)', stroke: pal.upper, width: 1.5, dash: [3, 3], value: (u, v) => pts(v) },
        { label: 'close (B)', stroke: pal.lower, width: 1.5, dash: [3, 3], value: (u, v) => pts(v) },
        { label: 'state', show: true, stroke: 'transparent', width: 0, points: { show: false }, value: (u, v) => stv(v) },
      ],
      padding: [null, RIGHT_AXIS + AXIS_LABEL, null, null],
      axes: [xAxis, { ...ax, label: 'points', labelSize: AXIS_LABEL, size: LEFT_AXIS, values: (u, s) => s.map(countTick) }],
      scales: { x: { time: false }, y: { range: (u, min, max) => { const lo = Math.min(min ?? 0, -1); const hi = Math.max(max ?? 1, 1); const pad = (hi - lo) * 0.06; return [lo - pad, hi + pad]; } } },
    };
    o1.series[7].scale = 'state';
    o1.scales.state = { range: [0, 2] };
    const o2 = {
      ...common(170, 4),
      series: [
        { label: 'time', value: (u, v) => (v == null ? '—' : clock(v)) },
        { label: 'failure rate', stroke: pal.rate, width: 2, value: (u, v) => pctv(v) },
        { label: 'threshold', stroke: pal.line, width: 2, dash: [6, 4], value: (u, v) => pctv(v) },
        { label: 'probes\' failure rate', stroke: pal.trial, width: 1.5, value: (u, v) => pctv(v) },
        { label: 'state', stroke: 'transparent', width: 0, points: { show: false }, scale: 'state', value: (u, v) => stv(v) },
      ],
      padding: [null, RIGHT_AXIS + AXIS_LABEL, null, null],
      axes: [xAxis, { ...ax, label: 'failure rate', labelSize: AXIS_LABEL, size: LEFT_AXIS, values: (u, s) => s.map((v) => `${fmt(v * 100, 3)}%`) }],
      scales: { x: { time: false }, y: { range: [0, 1] }, state: { range: [0, 2] } },
    };
    const bars = uPlot.paths.bars ? uPlot.paths.bars({ size: [0.9, 40] }) : undefined;
    const o3 = {
      ...common(170, 0),
      series: [
        { label: 'time', value: (u, v) => (v == null ? '—' : clock(v)) },
        { label: 'answered (statistical)', stroke: pal.ok, fill: pal.ok + '55', paths: bars, width: 1, value: (u, v) => cnt(v) },
        { label: 'failed (statistical)', stroke: pal.fail, fill: pal.fail + '88', paths: bars, width: 1, value: (u, v) => cnt(v) },
        { label: 'fallback (statistical)', points: { show: false }, stroke: pal.fallback, width: 2, value: (u, v) => cnt(v) },
        { label: 'fallback (window)', points: { show: false }, stroke: pal.fallback, width: 1.5, dash: [5, 4], value: (u, v) => cnt(v) },
        { label: 'wait (statistical)', points: { show: false }, stroke: pal.wait, width: 1.5, scale: 'wait', value: (u, v) => (v == null || Number.isNaN(v) ? '—' : duration(v)) },
        { label: 'wait (window)', points: { show: false }, stroke: pal.wait, width: 1, dash: [2, 3], scale: 'wait', value: (u, v) => (v == null || Number.isNaN(v) ? '—' : duration(v)) },
      ],
      axes: [xAxis, { ...ax, label: 'calls', labelSize: AXIS_LABEL, size: LEFT_AXIS, values: (u, s) => s.map(countTick) },
        // Ticks at a clock's steps (5 min, not 4.17 min).
        { ...ax, side: 1, scale: 'wait', label: 'wait', labelSize: AXIS_LABEL, size: RIGHT_AXIS, incrs: TIME_STEPS, grid: { show: false }, values: (u, s) => s.map(waitTick) }],
      scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(1, max ?? 1)] }, wait: { range: (u, min, max) => [0, Math.max(1, max ?? 1)] } },
    };
    const data = toData(series);
    plots = [o1, o2, o3].map((o, i) => {
      const u = new uPlot(o, data[i], bodies[i]);
      u.over.addEventListener('click', () => {
        if (u.select.width > 2) return; // a drag, not a click
        const left = u.cursor.left;
        if (left == null || left < 0) return;
        onSeek(u.posToVal(left, 'x'));
      });
      // The whole run again, as 0 and Escape give it (the range said too).
      u.over.addEventListener('dblclick', (e) => {
        e.stopImmediatePropagation();
        e.preventDefault();
        if (canZoom()) setView(null);
        else sayBusy();
      }, true);
      u.over.tabIndex = -1;
      return u;
    });
    applyView();
  }

  function applyView() {
    syncing = true;
    for (const p of plots) p.setScale('x', { min: view[0], max: view[1] });
    syncing = false;
  }

  // Said only when the user changes the range (not on every new run).
  function sayRange() {
    const text = rangeText();
    if (shownRange.textContent !== text) shownRange.textContent = text;
  }
  function rangeText() {
    return view[0] <= 0 && view[1] >= end ? `Showing the whole run, ${clock(end)}.` : `Showing ${clock(view[0])} to ${clock(view[1])} of ${clock(end)}.`;
  }

  // uPlot wants plain arrays with null for a gap. Plain loops: this runs on every rerun and zoom
  // (about 20 columns of 600 buckets), and Array.from with a mapping callback was most of its cost.
  function column(a, div = 1) {
    const n = a.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const v = div === 1 ? a[i] : a[i] / div;
      out[i] = Number.isFinite(v) ? v : null;
    }
    return out;
  }

  function toData(s) {
    const n = s && s.t ? s.t.length : 0;
    const empty = () => new Float64Array(n).fill(NaN);
    const g = (k) => (s && s[k] ? s[k] : empty());
    const t = s && s.t ? s.t : new Float64Array(0);
    const p = (arr) => column(arr, point);
    const x = column(t);
    const counts = grouped(t, [g('s_answered'), g('s_failed'), g('s_fallback'), g('w_fallback')], [g('s_wait_max'), g('w_wait_max')]);
    return [
      [x, p(g('s_level_max')), p(g('s_threshold_max')), p(g('s_trial_max')), p(g('s_trial_min')), p(g('s_trial_upper_max')), p(g('s_trial_lower_min')), column(g('s_state_max'))],
      [x, column(g('w_level_max')), column(g('w_threshold_max')), column(g('w_trial_max')), column(g('w_state_max'))],
      counts.map((a) => column(a)),
    ];
  }

  // Counts per fine bucket are mostly 0 or 1 on a short run (a call every 0.2 s, 100 ms buckets),
  // which draws as noise. The calls panel sums them into at most COUNT_BINS bins (whole buckets,
  // so every count is exact) and keeps each bin's largest wait.
  function grouped(t, sums, maxes) {
    const n = t.length;
    const k = Math.max(1, Math.ceil(n / COUNT_BINS));
    group = k;
    if (k === 1) return [t, ...sums, ...maxes];
    const m = Math.ceil(n / k);
    const x = new Float64Array(m);
    const cols = [...sums, ...maxes];
    const out = cols.map(() => new Float64Array(m).fill(NaN));
    for (let j = 0; j < m; j++) x[j] = t[j * k];
    for (let c = 0; c < cols.length; c++) {
      const a = cols[c];
      const o = out[c];
      const isSum = c < sums.length;
      for (let j = 0; j < m; j++) {
        let acc = NaN;
        for (let i = j * k, end = Math.min(n, (j + 1) * k); i < end; i++) {
          const v = a[i];
          // A count is NaN only past the time a run reached: a bin with any such bucket would
          // be a part of a bin drawn as a whole one, so it is left out.
          if (!Number.isFinite(v)) { if (isSum) { acc = NaN; break; } continue; }
          acc = Number.isFinite(acc) ? (isSum ? acc + v : Math.max(acc, v)) : v;
        }
        o[j] = acc;
      }
    }
    return [x, ...out];
  }

  const ro = new ResizeObserver(() => {
    const w = Math.max(MIN_WIDTH, root.clientWidth);
    for (const p of plots) if (Math.abs(p.width - w) > 1) p.setSize({ width: w, height: p.height });
  });
  ro.observe(root);
  const mq = matchMedia('(prefers-color-scheme: dark)');
  const onScheme = () => build();
  mq.addEventListener('change', onScheme);

  build();

  return {
    /**
     * New series (from the worker) for the range [t0, t1] of a run of length `runEnd` (the
     * whole view; t1 when not given); `pointNats` = one point in nats.
     */
    setData(s, pointNats, t0, t1, runEnd = t1) {
      series = s;
      point = pointNats || 1;
      end = runEnd;
      view = [t0, t1];
      const data = toData(s);
      syncing = true;
      plots.forEach((p, i) => p.setData(data[i], false));
      syncing = false;
      applyView();
      const text = s && s.bucket
        ? `${s.t.length} buckets of ${duration(s.bucket)}${group > 1 ? ` (calls counted per ${duration(s.bucket * group)})` : ''}; each bucket shows a score's highest value (the trial score: highest and lowest) and the most open state; the closed score is drawn only where the breaker is closed (open and half-open hold it unused, and a close restarts it from 0), the trial score only where it is half-open. Drag to zoom, double-click to zoom out, click or tap to move the cursor; or zoom with the buttons or the keys above. Scores, lines at the traffic, rates, states and counts are simulated; Wald's lines A and B are exact constants of the settings, and the window's threshold is a setting.`
        : '';
      // The same text is not written again (a new text node would be laid out again).
      if (note.textContent !== text) note.textContent = text;
    },
    /**
     * The dependency's phases of the run shown ([{start, condition, label}], in order): those
     * not fine are marked on the charts, consecutive ones of one condition as one stretch.
     */
    setPhases(list) {
      const marks = [];
      (list || []).forEach((p, i) => {
        const end = i + 1 < list.length ? list[i + 1].start : Infinity;
        if (!p || p.condition === 'fine') return;
        const last = marks[marks.length - 1];
        if (last && last.condition === p.condition && last.end === p.start) { last.end = end; return; }
        marks.push({ start: p.start, end, condition: p.condition, label: p.condition });
      });
      if (JSON.stringify(marks) === JSON.stringify(phases)) return;
      phases = marks;
      for (const p of plots) p.redraw(false, false);
    },
    /** The marks drawn for the phases (for tests): [{start, end, condition, label}]. */
    phaseMarks() { return phases; },
    /** The run is whole (or cut short): zooming works again, so the busy note goes. */
    zoomable() {
      clearTimeout(busyTimer);
      busyNote.hidden = true;
      if (shownRange.textContent === BUSY) shownRange.textContent = '';
    },
    /**
     * A new run is shown (after its setData): a range said before (a zoom) that is no longer
     * the one shown goes, not said again (a new run is not the user changing the range). Not
     * on a zoom's own buckets, whose reply may be an earlier zoom's.
     */
    newRun() {
      if (shownRange.textContent && shownRange.textContent !== BUSY && shownRange.textContent !== rangeText()) shownRange.textContent = '';
    },
    /** The series last given to setData (for tests). */
    shown() { return series; },
    /** Move the playback cursor; the same time again draws nothing (setData already drew it). */
    setCursor(t) {
      if (Object.is(t, cursorT)) return;
      cursorT = t;
      for (const p of plots) p.redraw(false, false);
    },
    /** Each plot's x scale as drawn: [[min, max], ...]. */
    xScales() { return plots.map((p) => [p.scales.x.min, p.scales.x.max]); },
    /** Each plot's drawing area in CSS pixels: [[left, width], ...]. */
    plotBoxes() { return plots.map((p) => [p.bbox.left / devicePixelRatio, p.bbox.width / devicePixelRatio]); },
    /** Each chart's time ticks as last drawn. */
    xTicks() { return plots.map((p) => ticks.get(p) ?? []); },
    destroy() {
      ro.disconnect();
      mq.removeEventListener('change', onScheme);
      for (const p of plots) p.destroy();
    },
  };
}
