// The playground, mounted into any element: controls -> settings -> run -> view.
//
// `mountPlayground(root, options)` builds the whole instrument inside `root` and returns a handle.
// Several can live on one page (ids are unique, each has its own worker). Options:
//   url: true      read the settings from and write them to the page URL (the main page);
//   panels: [...]  which panels to show (default all): now, chart, verdict, trace, metrics,
//                  derived, analysis; and `controls` (the settings form; shown when `panels`
//                  is not given, else only when listed);
//   preset, scenario: start from this preset name or scenario object;
//   embedded: true  keyboard shortcuts act only while focus is inside `root`, or the pointer
//                  is over it (several playgrounds on one page; works inside a shadow root);
//   keysOnHover: false  not for the pointer over it alone (the custom element: a docs reader's
//                  Space or arrow keys scroll the page wherever the pointer rests);
//   onRun(state)   called after each run is computed (state.metrics, state.derived, state.info);
//   onError(message): where panics and worker failures go (default: a banner in `root`).
//   onNotice(message): where a notice goes when `scenario` does not validate and the preset is
//                  shown instead (default: the notice bar).
//
// Re-running only what an input touches:
//   scenario edit  -> validate + rerun (worker), rewind to 0, no autoplay; edits of the breaker
//                     settings or of the traffic one breaker sees also invalidate the analysis
//                     curves;
//   cursor moves   -> snapshot at t (small), no series;
//   zoom           -> series for the visible range only;
//   verdict targets -> re-read the metrics only.

import { h, replace, uniqueId } from './dom.js';
import { patch } from './morph.js';
import { clone, getPath, same } from './paths.js';
import { exactCopy, parseExact } from './whole.js';
import { Engine } from './engine.js';
import { createControls } from './controls.js';
import { createTransport, SPEEDS } from './transport.js';
import { createChart } from './chart.js';
import { renderNow, createTrace, renderMetrics, renderDerived, timeBased } from './panels.js';
import { createAnalysis } from './analysis.js';
import { createVerdict, DEFAULT_TARGETS, readTarget } from './verdict.js';
import { encode, decode, copyText } from './urlstate.js';
import { createBanner, catchUncaught } from './banner.js';
import { duration, clock, fmt, count, fileStem, clipped } from './format.js';
import { phasesNote, inFlightNote } from './tracenote.js';

const ALL_PANELS = ['now', 'chart', 'verdict', 'trace', 'metrics', 'derived', 'analysis'];
// What a `rerun` asks for (the bench page sends the same, bench.js).
export const BUCKETS = 600;
/** Chart cursor groups whose playground was destroyed, to be used again (mountPlayground). */
const FREE_SYNC_KEYS = [];
export const TRACE_LIMIT = 5000;

/**
 * The `analysis` request for a scenario's curves: its breaker settings at the traffic one
 * breaker sees (callers that do not share state each have their own, at their share of the
 * calls, round robin). With the run's `derived` numbers, their `curves_calls_per_minute`: the
 * simulator's own figure, a replayed trace's traffic included (at the traffic setting, a trace's
 * curves were drawn for a traffic it does not have).
 */
export function analysisRequest(scenario, derived) {
  const callers = scenario.callers || {};
  const share = callers.shared_state ? 1 : Math.max(1, callers.count || 1);
  const cpm = scenario.traffic && scenario.traffic.calls_per_minute;
  const perBreaker = derived && Number.isFinite(derived.curves_calls_per_minute) ? derived.curves_calls_per_minute
    : cpm === undefined ? cpm : cpm / share;
  return { statistical: scenario.statistical, window: scenario.window, what: { calls_per_minute: perBreaker } };
}
/**
 * `breaker analyze open-delay` for a scenario's statistical breaker at p₁, at the traffic one
 * breaker sees (as the curves take it): the calls (and time) to open from a score of 0, exact.
 * Every number written as JS writes it, the shortest text that reads back as the same double.
 */
export function openDelayArgs(scenario, derived) {
  const st = scenario.statistical;
  const cpm = analysisRequest(scenario, derived).what.calls_per_minute;
  return ['open-delay', '--fine', String(st.fine_rate), '--broken', String(st.broken_rate),
    '--a', String(st.trial_wrongly_opens), '--b', String(st.trial_wrongly_closes),
    '--calls-per-minute', String(cpm), '--period', `${st.false_alarm_period}s`];
}
/**
 * `breaker analyze window` for a scenario's window breaker, at the traffic one breaker sees:
 * spurious trips a day at p₀ and the calls to open at p₁ from a full window at p₀, on failures
 * alone. A COUNT_BASED window as set; a TIME_BASED one as the calls it holds at that traffic
 * (rate × size, rounded: an approximation, said beside it), or null when that is fewer than its
 * minimum (judged only when more calls than usual come: the "calls in its window" card says so).
 */
export function windowArgs(scenario, derived) {
  const st = scenario.statistical;
  const w = scenario.window;
  const cpm = analysisRequest(scenario, derived).what.calls_per_minute;
  let size = w.sliding_window_size;
  if (timeBased(w)) {
    size = Math.round((cpm / 60) * w.sliding_window_size);
    if (!(size >= w.minimum_number_of_calls)) return null;
  }
  return ['window', '--fine', String(st.fine_rate), '--broken', String(st.broken_rate),
    '--window', String(size), '--threshold', String(w.failure_rate_threshold),
    '--min-calls', String(w.minimum_number_of_calls), '--calls-per-minute', String(cpm)];
}
/**
 * The longest link the page writes or copies (characters): Firefox keeps no longer URL
 * (network.standard-url.max-length; history.replaceState throws past it), Chromium 2 MB.
 */
const LINK_MAX = 1048576;
/** Past this many characters a link is refused by many servers (nginx's and Apache's 8 KB). */
const LINK_SERVERS = 8000;
/** What the page says of settings whose link would be `n` characters, past LINK_MAX. */
const tooLong = (n) => `These settings make a link of ${fmt(n)} characters, more than ${n > LINK_MAX ? `browsers take (Firefox at most ${fmt(LINK_MAX)})` : 'this browser takes'}, so the address bar holds none of them. “Download scenario” keeps them in a file, which “Open scenario…” reads.`;
const TRACE_ROWS = 2000; // the most rows the trace panel draws (panels.js)
const INLINE_ROWS = 300; // a trace of at most this many rows is drawn in the same task as the chart

const NOT_VALID = 'The settings are not valid: the run shown is the last valid one.';
const STOPPED = 'The simulator stopped on an internal error (see the message above): the run shown is the last one computed. Change a setting to run again.';
const NOT_STARTED = 'The simulator could not start (see the message above), so no run can be shown. Reload the page to try again.';
/** The same, naming the field whose message says why (it may not be the one edited). */
const notValidAt = (where) => `The settings are not valid (see “${where}”): the run shown is the last valid one.`;

/**
 * The speed a run of `end` seconds plays at until the user picks one: the slowest that plays it
 * whole in at most 10 minutes, and no slower than 10× (at 10× a month took three days, and
 * Play on it seemed to do nothing).
 */
export function defaultSpeed(end) {
  const fit = SPEEDS.find(([v]) => v >= 10 && end / v <= 600);
  return fit ? fit[0] : SPEEDS[SPEEDS.length - 1][0];
}

/** Write text only when it differs: the same text written again is a new node to lay out. */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

// The next task, without setTimeout's clamping: a message to ourselves.
const wake = new MessageChannel();
const wakers = [];
wake.port1.onmessage = () => { const w = wakers.shift(); if (w) w(); };
const nextTask = () => new Promise((r) => { wakers.push(r); wake.port2.postMessage(0); });

// `landmark`: the panel is a named region (the page's own playground). Embedded (several on one
// page, or beside a walkthrough's text) it is not: two elements' regions "Now" could not be told
// apart, and the host's page has its own landmarks.
function section(id, title, panels, landmark, open = true) {
  const body = h('div', { class: 'panel-body' });
  const el = h('section', { class: `panel panel-${id}` });
  const hid = uniqueId(`${id}-h`);
  if (landmark) el.setAttribute('aria-labelledby', hid);
  el.append(h('h2', { id: hid, text: title }), body);
  el.hidden = !panels.includes(id);
  if (!open) el.classList.add('collapsed');
  return { el, body };
}

export function mountPlayground(root, options = {}) {
  // Panel names asked for (in any case: "NOW" is now) that do not exist are named in a notice;
  // with none left, the default panels (the page's all, the element's now and chart); the form
  // as the options say, else shown on the page and hidden in the element.
  const asked = options.panels ? options.panels.map((p) => p.toLowerCase()) : null;
  // Named as they were written ("Unknown panel “Nowe”", not "“nowe”").
  const unknownPanels = options.panels ? options.panels.filter((_, i) => asked[i] !== 'controls' && !ALL_PANELS.includes(asked[i])) : [];
  let panels = asked ? asked.filter((p) => ALL_PANELS.includes(p)) : ALL_PANELS;
  const fellBack = Boolean(asked) && !panels.length && !asked.includes('controls');
  if (fellBack) panels = options.embedded ? ['now', 'chart'] : ALL_PANELS;
  const panelNotice = unknownPanels.length
    ? `Unknown panel${unknownPanels.length > 1 ? 's' : ''} ${unknownPanels.map((p) => `“${p}”`).join(', ')} left out${fellBack ? ', so the default panels are shown' : ''}; the panels are ${[...ALL_PANELS, 'controls'].join(', ')}.`
    : null;
  const showControls = options.controls ?? (!asked || asked.includes('controls') || fellBack);
  const bannerEl = h('div', { class: 'banner' });
  const banner = createBanner(bannerEl);
  const report = options.onError || ((m) => banner.show(m));
  if (options.url) catchUncaught(banner);

  const notice = h('p', { class: 'notice', hidden: true, attrs: { role: 'status' } });
  const copyBtn = h('button', { type: 'button', text: 'Copy link', on: { click: copyLink } });
  const saveBtn = h('button', { type: 'button', text: 'Download scenario', on: { click: saveScenario } });
  const openInput = h('input', { type: 'file', hidden: true, attrs: { accept: '.json,.csv,application/json,text/csv' }, on: { change: openScenario } });
  const openBtn = h('button', { type: 'button', text: 'Open scenario…', on: { click: () => openInput.click() } });
  const copyMsg = h('span', { class: 'muted', attrs: { 'aria-live': 'polite' } });
  let copyMsgTimer = null;
  // Said while the settings are too long for the address bar (writeUrl); empty otherwise (not
  // hidden: a live region shown and filled at once is often not read out).
  const linkMsg = h('span', { class: 'muted link-note', attrs: { 'aria-live': 'polite' } });
  /** Take down the message of a saved file (it is about the run shown when it was saved). */
  const clearSaved = () => { if (copyMsg.querySelector('code')) copyMsg.textContent = ''; };
  /**
   * Take down the message of an opened file: at the next run asked for (an edit, a preset, a
   * load), not at the end of a run already under way, which would take a refusal down unseen.
   */
  const clearOpened = () => { if (copyMsg.querySelector('.opened')) copyMsg.textContent = ''; };
  // A form landmark made of several small <form>s (see controls.js: autofill's cost per edit).
  const controlsEl = h('div', { class: 'controls', attrs: { role: 'form', 'aria-label': 'Settings' } });
  const transportEl = h('div', { class: 'transport' });
  const progress = h('progress', { max: '1', value: '0', attrs: { 'aria-label': 'Part of the run computed' } });
  const progressText = h('span', { class: 'muted' });
  const cancelBtn = h('button', { type: 'button', class: 'small', text: 'Cancel', on: { click: () => engine.cancel() } });
  // Not a live region: its figures change every 50 ms, and a screen reader would read each one.
  // The run line below (live) says once that the run is being computed, and again when it is
  // done; the bar's value is there for whoever asks for it.
  const progressRow = h('div', { class: 'progress', hidden: true }, h('span', { text: 'Computing the run… ' }), progress, progressText, cancelBtn);
  const runInfo = h('p', { class: 'runinfo muted', attrs: { 'aria-live': 'polite' } });
  /**
   * Hides the progress row. True when it held the focus (its Cancel): the caller then gives it to
   * Play once Play is enabled again, rather than leave it on the page's body.
   */
  const hideProgress = () => {
    const had = progressRow.contains(progressRow.getRootNode().activeElement);
    progressRow.hidden = true;
    return had;
  };

  const P = {
    now: section('now', 'Now', panels, !options.embedded),
    chart: section('chart', 'The run', panels, !options.embedded),
    verdict: section('verdict', 'Verdict', panels, !options.embedded),
    trace: section('trace', 'Event trace', panels, !options.embedded),
    metrics: section('metrics', 'Metrics, side by side', panels, !options.embedded),
    derived: section('derived', 'Derived numbers', panels, !options.embedded),
    analysis: section('analysis', 'Analysis curves', panels, !options.embedded),
  };
  const analysisToggle = h('details', { class: 'analysis-details' }, h('summary', { text: 'Show the analysis curves (computed from the breaker settings and the traffic)' }));
  P.analysis.body.append(analysisToggle);
  const analysisBody = h('div');
  analysisToggle.append(analysisBody);

  replace(root,
    bannerEl,
    h('div', { class: 'topbar' }, notice, h('div', { class: 'copy', hidden: !options.url }, copyBtn, ' ', saveBtn, ' ', openBtn, openInput, ' ', copyMsg, ' ', linkMsg)),
    h('div', { class: showControls ? 'layout' : 'layout no-side' },
      h('aside', { class: 'side', hidden: !showControls }, controlsEl),
      // The page's main landmark, but only on a page of its own: embedded, the host's page has
      // its main (a second one, or one per element, is not allowed).
      h(options.embedded ? 'div' : 'main', { class: 'stage', id: options.url ? 'run' : undefined, tabIndex: options.url ? -1 : undefined },
        h('div', { class: 'sticky' }, transportEl, progressRow, runInfo),
        P.now.el, P.chart.el, P.verdict.el, P.derived.el, P.trace.el, P.metrics.el, P.analysis.el)));

  // Keyboard focus must not land under the sticky transport bar (WCAG 2.4.11): the document
  // scrolls a focused element into view below the bar, whose height changes with the width.
  // Only where the bar sticks to the document's viewport (not in a custom element's shadow root,
  // where it is static).
  // On a small or short viewport the bar does not stick (style.css), and nothing is padded.
  const stickyEl = root.querySelector('.sticky');
  const syncPad = () => {
    if (root.getRootNode() !== document) return;
    const px = getComputedStyle(stickyEl).position === 'sticky' ? `${Math.ceil(stickyEl.getBoundingClientRect().height)}px` : '';
    if (document.documentElement.style.scrollPaddingTop !== px) document.documentElement.style.scrollPaddingTop = px;
  };
  const stickyRo = new ResizeObserver(syncPad);
  stickyRo.observe(stickyEl);
  // A change of the viewport's height alone (the media query below) does not resize the bar.
  window.addEventListener('resize', syncPad);

  // The "Now" panel only grows while a run is shown at one width: its rows' notes differ in
  // length from one state to the next (closed, open, half-open), and the panel went from 347 to
  // 493, 400 and 508 px as a run of the default preset played, moving the chart below it up and
  // down by up to 160 px under the reader's eyes. A held height is let go for a new run (a step
  // of the walkthrough kept an earlier one's 80 px of blank) and when the width changes (the
  // notes wrap anew), in the next frame: resizing an observed box from its own observer's
  // callback is a "ResizeObserver loop" error. Sizes are the layout's (the entry's border box),
  // as min-height is: a host page's scale(1.5) made a measured height a hold half as tall again,
  // grown frame after frame.
  let nowWidth = -1;
  let nowHeld = 0;
  let nowFrame = 0;
  const nowBody = P.now.body;
  const nowRo = new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].borderBoxSize[0];
    if (box.inlineSize !== nowWidth) {
      nowWidth = box.inlineSize;
      cancelAnimationFrame(nowFrame);
      nowFrame = requestAnimationFrame(releaseNow);
    } else if (box.blockSize > nowHeld) {
      // The box is this tall already: holding it changes no size (no new observation).
      nowHeld = box.blockSize;
      nowBody.style.minHeight = `${nowHeld}px`;
    }
  });
  /** Let the held height go; observing anew reports the panel's own size, which is held. */
  function releaseNow() {
    nowBody.style.removeProperty('min-height');
    nowHeld = 0;
    nowRo.unobserve(nowBody);
    nowRo.observe(nowBody);
  }
  nowRo.observe(nowBody);

  // The run line names the simulated panels shown (an embed's panels=chart,metrics has no trace
  // or verdict to speak of).
  const simulatedPanels = ['chart', 'trace', 'metrics', 'verdict'].filter((p) => panels.includes(p));
  const SIMULATED_SHOWN = simulatedPanels.length
    ? ` The ${simulatedPanels.length > 1 ? `${simulatedPanels.slice(0, -1).join(', ')} and ${simulatedPanels.at(-1)}` : simulatedPanels[0]} ${simulatedPanels.length > 1 || simulatedPanels[0] === 'metrics' ? 'are' : 'is'} simulated.`
    : '';

  // What the page shows now, to skip writing the same again (see setText, showSnap).
  const shown = { end: null, t: null, now: null, derived: null, events: 0, playing: false };

  // ---- state ----
  // `byName` has no prototype: a host's preset="constructor" or "toString" is no preset.
  const S = {
    scenario: null, preset: null, presets: [], byName: Object.create(null), info: null, derived: null,
    t: 0, end: 0, playing: false, speed: 10, view: null, snap: null, runId: 0, asked: 0, lastFatal: false, lastAnalysis: null, curves: null,
    targets: { ...DEFAULT_TARGETS }, loaded: false, cut: false, started: false,
  };

  /** Settings that keep a preset's name (as an edit of the preset does) but not its values. */
  const editedPreset = (sc) => Boolean(S.preset && S.byName[S.preset] && sc.name === S.preset && !same(sc, S.byName[S.preset]));

  const engine = new Engine({
    onProgress: (f, reached, partial) => {
      progress.value = f;
      progressText.textContent = ` ${Math.round(f * 100)}% (${clock(reached)})`;
      // A long run is drawn as it goes: the part computed so far over the whole run's time
      // axis, nothing after it (the series are NaN there). Only while the progress bar is up:
      // a run quick enough not to show it is drawn once, at its end.
      if (partial && !progressRow.hidden) chart.setData(partial.series, partial.point, partial.series.t0, partial.series.t1);
    },
    onFatal: (message) => {
      report(message);
      // The worker is replaced by a new one with no run loaded (engine.js): nothing asks for the
      // run shown (a seek, a step, a zoom) until settings run again.
      S.loaded = false;
      pause();
      clearTimeout(zoomTimer);
      transport.setEnabled(false);
      root.classList.add('stale');
      setText(runInfo, S.started ? STOPPED : NOT_STARTED);
    },
  });

  // Until the simulator has started and the form holds the settings: an edit before then was
  // refused with an internal error, then lost to the settings the start put in.
  controlsEl.inert = true;
  setText(runInfo, 'Loading the simulator…');
  const controls = createControls(controlsEl, {
    // An edit shows "custom", or the preset again when it brings back the preset's settings.
    onChange: (sc) => { clearOpened(); controls.showPreset(S.preset && same(sc, S.byName[S.preset]) ? S.preset : '', Boolean(S.preset)); setScenario(sc, false); },
    // A field the form itself refuses (empty, past its max) is as invalid as one the simulator
    // refuses: the run shown is the last valid one, and the page says so.
    onLocal: (invalid) => {
      if (invalid) {
        root.classList.add('stale');
        setText(runInfo, NOT_VALID);
      } else if (!S.errorShown) {
        root.classList.remove('stale');
        if (S.runText) setText(runInfo, S.runText);
      } else if (S.notValid) {
        // The simulator's refusal still stands: the run line names its field again.
        setText(runInfo, S.notValid);
      }
    },
    // What a field allows, said by the simulator for a field the form refuses (empty): the
    // settings with a value far out of every range at `path` come back refused, naming it.
    rangeOf: (path, probe) => engine.call('normalize', { scenario: probe }).then(() => null,
      (err) => (String(err.field || '').replace(/\[(\d+)\]/g, '.$1') === path ? err.allowed || null : null)),
    onPreset: (name) => {
      clearOpened();
      if (!name || !S.byName[name]) return;
      S.preset = name;
      controls.set(S.byName[name], name);
      setScenario(clone(S.byName[name]), false);
    },
  });
  const transport = createTransport(transportEl, {
    togglePlay: () => (S.playing ? pause() : play()),
    step: () => cursorOp('stepCall'),
    back: () => cursorOp('stepBack'),
    nextEvent: () => cursorOp('nextEvent'),
    restart: () => { pause(); seek(0); },
    speed: (v) => { S.speed = v; S.speedChosen = true; },
    seek: (t) => { pause(); seek(t); },
    keysActive: () => !options.embedded || root.contains(root.getRootNode().activeElement)
      || (options.keysOnHover !== false && root.matches(':hover')),
  });
  transport.setSpeed(S.speed);
  transport.setEnabled(false);
  // One cursor group per playground, its charts moving together. uPlot keeps a group for the
  // page's life, so a removed element's key goes to the next one made (a docs page adding and
  // removing elements kept one more group each, about 0.4 kB).
  let syncKey = FREE_SYNC_KEYS.pop() || uniqueId('sync');
  const chart = createChart(P.chart.body, {
    syncKey,
    onSeek: (t) => { pause(); seek(t); },
    onZoom: (t0, t1) => zoom(t0, t1),
    // While a run computes the chart is its part so far: no range of it can be fetched yet.
    canZoom: () => S.loaded,
  });
  const trace = createTrace(P.trace.body, (t) => { pause(); seek(t); });
  // The metrics' scroll box (a tab stop, panels.js) is taller than the window below the sticky
  // bar on a short screen: reached from below (Shift+Tab), a browser showed its bottom and left
  // its top under the bar. Show its top, as the chart's box does (chart.js).
  P.metrics.body.addEventListener('focusin', (e) => {
    if (!e.target.classList || !e.target.classList.contains('scroll-x')) return;
    const bar = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
    if (e.target.getBoundingClientRect().top < bar) e.target.scrollIntoView({ block: 'start' });
  });
  const verdict = createVerdict(P.verdict.body, (t) => { S.targets = t; writeUrl(); });
  const analysis = createAnalysis(analysisBody);
  analysisToggle.addEventListener('toggle', () => { if (analysisToggle.open) refreshAnalysis(); });

  // ---- flow ----
  async function start() {
    let initInfo;
    try {
      initInfo = await engine.ready;
    } catch (e) {
      // Stopped by `destroy` (an element taken out of the page, or given another preset, while
      // it loaded): not a start that failed. It said "error" to its host, on an element gone on.
      if (S.destroyed) return;
      report(`The simulator could not start: ${e.message}`);
      setText(runInfo, NOT_STARTED);
      // An embed's host is told (its data-state would say "loading" for good).
      if (options.onStartError) options.onStartError(e.message);
      return;
    }
    S.started = true;
    S.presets = initInfo.presets;
    for (const p of S.presets) S.byName[p.name] = p.scenario;
    const def = options.preset && S.byName[options.preset] ? options.preset : S.presets[0].name;
    let scenario = clone(S.byName[def]);
    let preset = def;
    let t = 0;
    let rawT = null;
    // The simulator's refusal of a link's settings, read before they reach the form: a refused
    // "abc" is not put into a number field (which warns that it cannot parse it).
    let refused = null;
    if (options.url) {
      const d = decode(location.search, S.byName, def);
      scenario = d.scenario; preset = d.preset; t = d.t; rawT = d.params.t ?? null;
      // A list (the phases) comes from the link as written, perhaps by hand: phases without a
      // condition, starts as "2h". Every other setting is read against the preset's own type.
      // Defaults filled and units read, as the simulator reads it, so the form, the verdict
      // (which phase is unhealthy) and the link written back are of the run shown.
      // A number written with its unit ("2h", "5%") is read the same way (d.text).
      // (Also beside a notice on the link's time alone: the settings are still the link's.)
      if (d.fromLink && (d.text || Object.keys(d.params).some((k) => Array.isArray(getPath(scenario, k))))) {
        try { scenario = await engine.call('normalize', { scenario }); } catch (e) { refused = e.message; }
      }
      const badGoals = [];
      for (const k of Object.keys(DEFAULT_TARGETS)) {
        const raw = d.params[`goal.${k}`];
        if (raw === undefined) continue;
        const r = readTarget(k, raw);
        if (r.ok) S.targets[k] = r.value;
        else badGoals.push(`goal.${k}`);
      }
      verdict.setTargets(S.targets);
      if (d.notice) showNotice(d.notice);
      if (badGoals.length) {
        showNotice(`This link's ${badGoals.map((g) => `“${g}”`).join(', ')} ${badGoals.length === 1 ? 'is' : 'are'} not valid (a whole number ≥ 0 of calls, a duration ≥ 0 for goal.close_within, or true/false); using the default ${badGoals.length === 1 ? 'target' : 'targets'}.`);
      }
      // A target the page does not know (a misspelt one) is said, as an unknown setting is.
      const unknownGoals = Object.keys(d.params).filter((k) => k.startsWith('goal.') && !Object.hasOwn(DEFAULT_TARGETS, k.slice(5)));
      if (unknownGoals.length) {
        showNotice(`This link's ${unknownGoals.map((g) => `“${g}”`).join(', ')} ${unknownGoals.length === 1 ? 'is not a target' : 'are not targets'} (the targets are ${Object.keys(DEFAULT_TARGETS).map((k) => `goal.${k}`).join(', ')}); ignored.`);
      }
      S.rewriteUrl = Boolean(d.notice) || badGoals.length > 0 || unknownGoals.length > 0;
    } else if (options.scenario) {
      // A host's scenario is often partial ("2h", a traffic and nothing else): the form shows
      // only fields that are there, so it gets the whole scenario, defaults filled and units
      // read. One that does not read goes on as given, to fail below with its field named.
      scenario = clone(options.scenario);
      try {
        scenario = await engine.call('normalize', { scenario });
      } catch { /* reported by setScenario below */ }
      preset = null;
    }
    if (panelNotice) (options.url ? showNotice : (options.onNotice || showNotice))(panelNotice);
    if (options.notice) showNotice(options.notice);
    // A host's preset that is not one (a typo in an embed's attribute) is named, not run silently
    // as another: when it is shown, that is, not beside a scenario that replaces it.
    const unknownPreset = options.preset && !S.byName[options.preset]
      ? () => (options.onNotice || showNotice)(`Unknown preset “${options.preset}”; showing ${def}. The presets are ${S.presets.map((p) => p.name).join(', ')}.`)
      : () => {};
    if (!options.scenario) unknownPreset();
    S.preset = preset;
    controls.setPresets(S.presets, preset);
    controlsEl.inert = false;
    let ok = false;
    if (refused === null) {
      controls.set(scenario, preset && same(scenario, S.byName[preset]) ? preset : '', Boolean(preset));
      ok = await setScenario(scenario, !S.rewriteUrl, t);
      // A link's time past the run's end is shown at its end, and said so. (Past the part of
      // a run computed when it is cancelled, the cursor stays at the time asked for.)
      if (ok && rawT !== null && t > S.end) showNotice(`This link's time “t” = ${clipped(rawT.trim())} s is past the run's end (${clock(S.end)}); showing its end.`);
    } else S.lastError = refused;
    if (!ok && (options.url || options.scenario)) {
      // A link, or a host's scenario (an embed's attribute), whose settings do not validate:
      // the preset, and a notice naming the field (an embed has no notice bar: its host shows it).
      const why = S.lastError || '';
      if (options.url) showNotice(`This link's settings were not valid (${why}); showing the default settings.`);
      else {
        (options.onNotice || showNotice)(`The scenario's settings are not valid (${why}); showing the preset instead.`);
        unknownPreset();
      }
      S.preset = def;
      controls.set(S.byName[def], def);
      await setScenario(clone(S.byName[def]), false);
    }
  }

  function showNotice(text) {
    // A second notice (a bad panel name and a bad setting in one link) is added to the first.
    notice.textContent = notice.hidden || !notice.textContent ? text : `${notice.textContent} ${text}`;
    notice.hidden = false;
  }

  /**
   * Validate and run `sc`; rewind to `t0` without autoplay. Returns false if invalid.
   * One request, one reply: the worker loads, computes and returns everything the view needs
   * (info, derived, events, metrics, the series, the snapshot at `t0`). A run that takes longer
   * than 50 ms shows the progress bar (and disables the transport) until it is done.
   */
  async function setScenario(sc, initial, t0 = 0, { keepError = false } = {}) {
    pause();
    const id = ++S.runId;
    // Runs asked for from outside (an edit, a preset, a file); not this function's own retry
    // below, which keeps the message of the run it follows (openScenario compares them).
    if (!keepError) S.asked += 1;
    // A message about the run saved is not about the run to come.
    clearSaved();
    // Nothing reads the worker's run until this one is back: it is replaced at once, and a
    // seek, step or zoom sent now would be answered from the new run while it is computed.
    S.loaded = false;
    clearTimeout(zoomTimer);
    // A seek waiting behind one in flight (a frame of play, a drag) is of the run replaced: sent
    // when that one comes back, it would land after this rerun and move the new run away from t0.
    seekNext = null;
    // S.scenario is the last valid run's settings until this one is accepted, so the URL and
    // "Copy link" never carry settings the simulator refused.
    const previous = S.scenario;
    S.scenario = sc;
    // Clearing touches every field: only when a message is shown.
    if (!keepError && (S.errorShown || S.refusedShown || controlsEl.querySelector('.invalid'))) {
      controls.clearErrors();
      S.errorShown = false;
      S.refusedShown = false;
    }
    // This run's progress from nothing: the row showed the last run's ("33% (9 d)", a
    // cancelled one's) until this one's first report.
    progress.value = 0;
    progressText.textContent = '';
    const timer = setTimeout(() => {
      if (id !== S.runId) return;
      progressRow.hidden = false;
      // The chart fills in as the run is computed (onProgress); the other panels keep the last
      // run until this one is done, marked "earlier run", and the run line says so.
      root.classList.add('computing');
      setText(runInfo, 'The chart fills in as the run is computed; the other panels show the last run until it is done.');
      transport.setEnabled(false);
    }, 50);
    let res;
    try {
      res = await engine.call('rerun', { scenario: sc, t: t0, buckets: BUCKETS, limit: TRACE_LIMIT });
    } catch (e) {
      clearTimeout(timer);
      if (id !== S.runId) return false;
      S.scenario = previous;
      // The settings before were still being computed: the worker stopped that run for these,
      // so it holds a run cut short, computed again below. The progress row stays for it, and
      // so does a focus on its Cancel (hidden and shown again, the focus went to the body).
      const again = !e.fatal && previous && previous !== S.shownScenario ? (keepError ? S.shownScenario : previous) : null;
      const hadFocus = !again && hideProgress();
      if (!again) root.classList.remove('computing');
      S.lastError = e.message;
      S.lastFatal = Boolean(e.fatal);
      if (e.fatal) {
        // The simulator stopped on a bug (the banner shows it): not a fault of the settings.
        setText(runInfo, S.started ? STOPPED : NOT_STARTED);
        root.classList.add('stale');
        return false;
      }
      // A trace's error ("trace line 3, field outcome: ...") goes next to the trace's text.
      const where = controls.showError(e.field || (/^trace line \d+/.test(e.message) ? 'trace' : undefined), e.message);
      S.errorShown = true;
      S.pastLastEvent = false;
      S.notValid = where ? notValidAt(where) : NOT_VALID;
      runInfo.textContent = S.notValid;
      root.classList.add('stale');
      if (again) {
        // Computed again, keeping this message; if they fail too (they had not been checked
        // yet), the run shown before (checked, so this ends).
        setScenario(again, false, 0, { keepError: true });
        return false;
      }
      // The worker keeps the last valid run.
      if (S.info) {
        S.loaded = true;
        transport.setEnabled(true);
        if (hadFocus) transport.focus();
        chart.zoomable();
      }
      return false;
    }
    clearTimeout(timer);
    if (id !== S.runId || res.superseded) return true;
    // The host's `state.lastError` is of the settings shown: gone with a run of new ones (kept
    // with the message when the run is of the settings before them).
    if (!keepError) S.lastError = null;
    // Not the first run's (the link opened stays as given), unless the address bar cannot
    // keep it: a link past LINK_MAX (one Chromium wrote before) loses its settings there and
    // says so.
    if (!initial || location.href.length > LINK_MAX) writeUrl();
    // A file saved while this run was computed holds the run shown before it: its message goes.
    if (S.shownScenario !== sc) clearSaved();
    S.shownScenario = sc;
    const hadFocus = hideProgress();
    root.classList.remove('computing');
    // Kept marked as an earlier run while the settings shown are not the run's: a refused value
    // (this call keeps the error), or a field the form itself refuses.
    const notValid = keepError || controls.hasLocal();
    if (!notValid) root.classList.remove('stale');
    const { info, metrics, events, derived } = res;
    S.info = info;
    S.end = info.duration;
    S.reached = res.reached;
    S.complete = res.complete;
    S.cut = metrics.cut_at_s != null;
    S.derived = derived;
    // What the traffic meter assumed at the start, against the traffic one breaker sees: of the
    // run, so worked out here once, not at each cursor move.
    S.meterStart = derived ? { assumed: sc.statistical.expected_calls_per_minute, cpm: analysisRequest(sc, derived).what.calls_per_minute, tau: sc.statistical.traffic_time_constant } : null;
    S.metrics = metrics;
    S.view = null;
    if (shown.end !== S.end) {
      shown.end = S.end;
      transport.setRange(S.end);
      const speed = defaultSpeed(S.end);
      if (!S.speedChosen && S.speed !== speed) { S.speed = speed; transport.setSpeed(speed); }
    }
    chart.setPhases(sc.dependency);
    chart.setData(res.series, derived ? derived.point : 1, res.view[0], res.view[1], S.end);
    chart.newRun();
    chart.setCursor(res.snapshot.t_s);
    // A long trace (up to 2000 rows to build and patch) waits for the next task, so no one task
    // holds the page for long; a short one is shown in this task, with the chart: one frame
    // shows the whole run, and no frame is rendered in between with the old panels.
    if (Math.max(events.list.length, shown.events) > INLINE_ROWS) {
      await nextTask();
      if (id !== S.runId) return true;
    }
    // A preset's name stays in the settings when they are edited: say the run is not the preset's.
    const edited = editedPreset(sc);
    const title = `${info.name || 'Custom scenario'}${edited ? ' (edited)' : ''}`;
    // A run is cut short when a breaker changed state 2^20 times (sim::MAX_EVENTS): waits of a
    // millisecond through a long outage change state about once a call.
    S.runText = metrics.cut_at_s != null
      ? `${title}: cut short at ${clock(metrics.cut_at_s)} of ${clock(info.duration)}: a breaker changed state over a million times, the most a run keeps (longer waits let a run go further). ${count(metrics.calls, 'call', 'calls')} simulated, seed ${info.seed}; the panels show that part.`
      : res.complete
        ? `${title}: ${duration(info.duration)} simulated, ${count(metrics.calls, 'call', 'calls')}, seed ${info.seed}.${SIMULATED_SHOWN}`
        : `Cancelled: computed up to ${clock(res.reached)} of ${clock(info.duration)} (${count(metrics.calls, 'call', 'calls')} simulated); the panels show that part.`;
    S.pastLastEvent = false;
    setText(runInfo, notValid ? (keepError && S.notValid) || NOT_VALID : S.runText);
    trace.set(events.list, events.total, derived && derived.point);
    S.eventsTotal = events.total;
    shown.events = Math.min(events.list.length, TRACE_ROWS);
    // A replayed trace's health is the phases' to say: with none but fine, its openings cannot
    // be told false from true.
    // (A phase that starts after the trace's last call judges nothing: the run ends there.)
    const unjudged = Boolean(sc.trace) && !(sc.dependency || []).some((p) => p.condition && p.condition !== 'fine' && (p.start || 0) <= info.duration);
    // Latencies at the call timeout, most of them likely milliseconds written bare (read in the
    // worker: tracenote.js).
    const judgedBy = sc.trace ? [phasesNote(sc.dependency, info.duration, clock), res.complete ? inFlightNote(metrics) : null].filter(Boolean).join(' ') || null : null;
    patch(P.metrics.body, (el) => renderMetrics(el, metrics, unjudged, res.traceNote, judgedBy));
    verdict.setRun(metrics, sc, res.complete ? info.duration : res.reached);
    transport.setEnabled(true);
    if (hadFocus) transport.focus();
    S.loaded = true;
    chart.zoomable();
    seekNext = null;
    // Only for the derived panel shown (an embed of the chart alone asked for its figures, the
    // window breaker's simulations too, and showed none). Before the run is shown: new settings'
    // figures are "computing…" there at once (the last settings' stayed up some 20 ms).
    if (panels.includes('derived')) refreshOpenDelay(sc, derived);
    releaseNow();
    showSnap(res.snapshot);
    if (analysisToggle.open) refreshAnalysis();
    if (options.onRun) options.onRun(S);
    return true;
  }

  /**
   * The derived panel's analysis figures, in the worker: `analyze open-delay` (calls to open at
   * p₁) and `false-alarms` for the statistical breaker, then `analyze window` for the window
   * breaker; asked again only when their arguments change (the breakers' rates, a, b, period,
   * window, or traffic), or after the worker failed.
   */
  async function refreshOpenDelay(sc, derived) {
    let args;
    let wargs;
    try { args = openDelayArgs(sc, derived); wargs = windowArgs(sc, derived); } catch { return; }
    const key = JSON.stringify([args, wargs]);
    if (key === S.openDelayKey) return;
    S.openDelayKey = key;
    S.openDelay = null;
    const ask = async (a) => {
      try {
        return { report: await engine.call('analyze', { args: a }), args: a };
      } catch (e) {
        return { error: e.message, fatal: Boolean(e.fatal), args: a };
      }
    };
    const value = await ask(args);
    // The false alarms' exact average at p₀, to the same line (the same flags): the playground
    // gave only their bound, and a reader went to the walkthrough for it.
    if (key === S.openDelayKey) value.falseAlarms = await ask(['false-alarms', ...args.slice(1)]);
    // The window breaker's after the statistical breaker's are shown: its simulations take up to
    // half a second in the worker, which seeks wait behind.
    if (key === S.openDelayKey) { S.openDelay = { ...value, window: wargs ? undefined : null }; if (S.snap && S.loaded) showSnap(S.snap); }
    if (key === S.openDelayKey) value.window = wargs ? await ask(wargs) : null;
    if (key !== S.openDelayKey) return;
    S.openDelay = value;
    // Asked again at the next run when the worker failed (one restarted after a panic refuses
    // what was waiting), rather than kept as not computed for these settings; a refusal of the
    // settings is theirs, and asked again it said the same after every run.
    if (value.fatal || value.falseAlarms.fatal || value.window?.fatal) S.openDelayKey = null;
    if (S.snap && S.loaded) showSnap(S.snap);
  }

  async function refreshSeries() {
    if (!S.loaded) return;
    const [t0, t1] = S.view || [0, S.end];
    const id = S.runId;
    // A cancelled run: only the part computed (the wasm would compute a range past it anew).
    let s;
    try {
      s = await engine.call('series', { t0, t1: Math.min(t1, S.reached ?? t1), buckets: BUCKETS });
    } catch (e) {
      if (e.fatal) return; // said by onFatal
      throw e;
    }
    if (id !== S.runId) return;
    chart.setData(s, S.derived ? S.derived.point : 1, t0, t1, S.end);
    chart.setCursor(S.t);
  }

  let zoomTimer = 0;
  function zoom(t0, t1) {
    // While a long run computes, the chart is its part so far, redrawn whole with each progress:
    // a zoom would fetch a range of a run not computed yet (from its checkpoints, in one go).
    if (!S.loaded) return;
    if (t0 === null) S.view = null;
    else S.view = [Math.max(0, t0), Math.min(S.end, t1)];
    clearTimeout(zoomTimer);
    zoomTimer = setTimeout(() => { refreshSeries(); }, 120);
  }

  function showSnap(snap) {
    S.snap = snap;
    S.t = snap.t_s;
    if (!Object.is(shown.t, snap.t_s)) { shown.t = snap.t_s; transport.setTime(snap.t_s); }
    chart.setCursor(snap.t_s);
    trace.highlight(snap.t_s);
    // Patched in place (only changed text is laid out again): this runs on every cursor move.
    // A panel whose inputs are the same as last time (a new seed rewound to 0, a seek to where the
    // cursor is) is not rendered at all.
    const point = S.derived ? S.derived.point : 1;
    const period = S.derived ? S.derived.false_alarm_period : NaN;
    const changes = trace.at(snap.t_s);
    const nowKey = JSON.stringify([snap, point, period, changes]);
    if (nowKey !== shown.now) { shown.now = nowKey; patch(P.now.body, (el) => renderNow(el, snap, point, period, changes)); }
    const s = snap.statistical || {};
    const win = S.shownScenario ? S.shownScenario.window : null;
    const callTimeout = S.shownScenario?.callers?.call_timeout ?? NaN;
    const traffic = S.shownScenario ? S.shownScenario.traffic : null;
    const stat = S.shownScenario ? S.shownScenario.statistical : null;
    const callers = S.shownScenario ? S.shownScenario.callers : null;
    const derivedKey = JSON.stringify([S.derived, s.threshold, s.count, win, callTimeout, S.openDelay, S.meterStart, traffic, stat, callers]);
    if (derivedKey !== shown.derived) {
      shown.derived = derivedKey;
      // While the analysis figures are computed, their cards keep the height they had, so the
      // panel does not fold by some 450 px for the 50-200 ms after an edit of a rate and unfold
      // again (the panels below moved with it, under a reader's pointer). The heights are read
      // once, from the cards with figures, not again at each render (a frame of play) meanwhile.
      const computing = !(S.openDelay && S.openDelay.window !== undefined);
      if (!computing) cardHold = null;
      else if (!cardHold) cardHold = cardHeights(P.derived.body);
      patch(P.derived.body, (el) => renderDerived(el, S.derived, snap, win, callTimeout, S.openDelay, S.meterStart, traffic, stat, callers));
      if (cardHold) holdHeights(P.derived.body, cardHold);
      if (panels.includes('derived') && !S.destroyed) observeCards(P.derived.body);
    }
  }

  // The derived cards' heights with their figures, held while new figures are computed.
  let cardHold = null;

  // Each card's height with its figures, as the browser last laid it out: the entry's border
  // box, in layout px as min-height is (not scaled by a host page's transform, which grew a hold
  // at every render). Read from the observer, not from offsetHeight when the figures are asked
  // again: that comes after a new run has rewritten the panels, and laid the page out in the
  // middle of the task (15 ms of the 39 ms task that shows the busy month, the page's longest,
  // in Chromium on a slow machine).
  const cardHeight = new WeakMap();
  const cardBusy = new WeakMap();
  const cardsObserved = new Set();
  const cardRo = new ResizeObserver((entries) => {
    for (const { target: c, borderBoxSize } of entries) {
      const busy = c.getAttribute('aria-busy') === 'true';
      if (c.isConnected && !busy) cardHeight.set(c, borderBoxSize[0].blockSize);
    }
  });

  /**
   * Observe the cards shown, a card anew when it starts or stops computing (an observer reports
   * a change of size only, and figures can come back at the height held for them), and no
   * longer the cards gone.
   */
  function observeCards(body) {
    for (const c of cardsObserved) {
      if (!c.isConnected) { cardRo.unobserve(c); cardsObserved.delete(c); }
    }
    for (const c of body.querySelectorAll('.derived-item')) {
      const busy = c.getAttribute('aria-busy') === 'true';
      if (cardBusy.get(c) === busy) continue;
      cardBusy.set(c, busy);
      cardRo.unobserve(c);
      cardRo.observe(c);
      cardsObserved.add(c);
    }
  }

  /** The heights with their figures of the derived panel's cards shown now, by title. */
  function cardHeights(body) {
    const out = new Map();
    for (const c of body.querySelectorAll('.derived-item')) {
      const title = c.querySelector('h3')?.firstChild?.textContent;
      if (title && cardHeight.has(c)) out.set(title, cardHeight.get(c));
    }
    return out;
  }

  /** A card still computed ("computing…") at least as tall as it was with its figures. */
  function holdHeights(body, heights) {
    for (const c of body.querySelectorAll('.derived-item')) {
      const height = heights.get(c.querySelector('h3')?.firstChild?.textContent);
      if (c.getAttribute('aria-busy') === 'true' && height > 0) c.style.minHeight = `${height}px`;
      else if (c.style.minHeight) c.style.removeProperty('min-height');
    }
  }

  let seekBusy = false;
  let seekNext = null;
  // The time of the seek sent and not yet answered: play's next frame goes on from it, not from
  // the cursor shown (a frame on a slow machine went back from 0.333 s to 0.166 s).
  let seekSent = null;
  async function seek(t) {
    if (!S.loaded) return;
    // A cancelled run can be played and sought only over the part computed.
    seekNext = Math.min(t, S.reached ?? t);
    if (seekBusy) return;
    seekBusy = true;
    try {
      while (seekNext !== null) {
        const target = seekNext;
        seekNext = null;
        seekSent = target;
        showSnap(await engine.call('seek', { t: target }));
        leftLastEvent();
      }
    } catch (e) {
      // The simulator stopped on a bug: onFatal has said so (a second report would repeat it).
      if (!e.fatal) throw e;
    } finally {
      seekBusy = false;
      seekSent = null;
    }
  }

  async function cursorOp(op) {
    if (!S.loaded) return;
    pause();
    // Play's seek not yet sent goes with it: sent after this step, it undid the step.
    seekNext = null;
    // "Next event" looks no further than the part computed (a cancelled run's), so it never
    // computes past what the panels show.
    const id = S.runId;
    let res;
    try {
      res = await engine.call(op, op === 'nextEvent' ? { until: S.reached ?? undefined } : {});
    } catch (e) {
      if (e.fatal) return; // said by onFatal
      throw e;
    }
    // Of a run replaced meanwhile (a setting changed): the new run's line and cursor stand.
    if (id !== S.runId) return;
    const snap = op === 'nextEvent' ? res.snapshot : res;
    if (S.reached != null && snap.t_s > S.reached) {
      // A cancelled run: a step went past the part the panels show; stay within it.
      await seek(S.reached);
    } else if (op === 'nextEvent' && !res.event) {
      showSnap(res.snapshot);
      S.pastLastEvent = true;
      setText(runInfo, S.complete === false || S.cut
        ? 'No more state changes in the part computed.'
        : 'No more state changes in this run.');
    } else {
      showSnap(op === 'nextEvent' ? res.snapshot : res);
      leftLastEvent();
    }
  }

  // "No more state changes" holds only where "Next event" found none: any other move of the
  // cursor (restart, a seek, a step, a trace row) shows the run's own line again.
  function leftLastEvent() {
    if (!S.pastLastEvent) return;
    S.pastLastEvent = false;
    // While the settings shown are refused (the panels marked as an earlier run), that is the line to show.
    if (root.classList.contains('stale')) setText(runInfo, (!controls.hasLocal() && S.errorShown && S.notValid) || NOT_VALID);
    else if (S.runText) setText(runInfo, S.runText);
  }

  let raf = 0;
  function play() {
    if (!S.loaded) return;
    // At the end (of the part computed, for a cancelled run) play starts again from 0: the
    // cursor is set now, since the seek's snapshot comes back only after the first frame.
    // The end as the cursor will be once the seeks on their way are answered (Play clicked
    // while play's own last seek to the end was on its way did nothing).
    if ((seekNext ?? seekSent ?? S.t) >= (S.reached ?? S.end) - 1e-9) { S.t = 0; seek(0); }
    S.playing = true;
    shown.playing = true;
    transport.setPlaying(true);
    let last = performance.now();
    const frame = (now) => {
      if (!S.playing) return;
      // Not below 0: the first frame's time can be before the click's (the cursor went back up
      // to 20 minutes at 1 d/s).
      const dt = Math.max(0, Math.min(0.25, (now - last) / 1000));
      last = now;
      const t = Math.min(S.reached ?? S.end, (seekNext ?? seekSent ?? S.t) + dt * S.speed);
      seek(t);
      if (t >= (S.reached ?? S.end)) { pause(); return; }
      raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
  }
  function pause() {
    S.playing = false;
    cancelAnimationFrame(raf);
    // Every input change pauses: rewrite the button only when it shows playing.
    if (shown.playing) { shown.playing = false; transport.setPlaying(false); }
  }

  async function refreshAnalysis() {
    if (!S.scenario) return;
    // The derived numbers of the run shown, when they are of these settings.
    const request = analysisRequest(S.scenario, S.shownScenario === S.scenario ? S.derived : null);
    const key = JSON.stringify(request);
    if (key === S.lastAnalysis) return;
    S.lastAnalysis = key;
    analysis.busy('Computing the curves…');
    try {
      const curves = await engine.call('analysis', request);
      // Shown, and kept with the settings they are of (`breaker analyze curves` prints them).
      if (key === S.lastAnalysis) { S.curves = curves; analysis.set(curves); }
    } catch (e) {
      S.lastAnalysis = null;
      // Only a replayed trace's traffic can be past the curves' range (the traffic setting's,
      // shared among callers, is inside it): said as the trace's, not as an option's name.
      const range = /^options\.calls_per_minute = .* is invalid: allowed (.*)$/.exec(e.message);
      analysis.error(range
        ? `The curves could not be computed: the replayed trace's calls come at ${fmt(request.what.calls_per_minute)} calls/min to one breaker (its calls over its run), past what the curves take (${range[1]} calls/min), as \`breaker analyze curves\` says too.`
        : `The curves could not be computed: ${e.message}`);
    }
  }

  function urlQuery() {
    const goals = {};
    for (const [k, v] of Object.entries(S.targets)) if (v !== DEFAULT_TARGETS[k]) goals[`goal.${k}`] = v === null ? '' : v;
    return encode(S.scenario, S.preset, S.byName[S.preset], goals);
  }
  /**
   * The settings into the address bar. Past LINK_MAX characters (a long trace, thousands of
   * phases) the address bar holds none of them, in every browser, and the page says so: Firefox
   * threw on such a link (history.replaceState), which left the run unshown.
   */
  function writeUrl() {
    if (!options.url || !S.scenario) return;
    // The page's own form (`embed=1`, `panels=`) stays in its address: an iframe whose reader
    // edited a setting and then came back (Back, a reload) showed the whole page in its box.
    const kept = new URLSearchParams();
    const here = new URLSearchParams(location.search);
    for (const k of ['embed', 'panels']) if (here.has(k)) kept.set(k, here.get(k));
    const form = kept.toString();
    const path = `${location.pathname}?${urlQuery()}${form ? `&${form}` : ''}${location.hash}`;
    const length = location.origin.length + path.length;
    let written = false;
    if (length <= LINK_MAX) {
      try {
        history.replaceState(null, '', path);
        written = true;
      } catch { /* a browser whose limit is lower: as too long */ }
    }
    if (!written) {
      // Not the last settings' link left in place: a reload would show other settings unsaid.
      try { history.replaceState(null, '', `${location.pathname}${form ? `?${form}` : ''}${location.hash}`); } catch { /* kept */ }
    }
    const say = written ? '' : tooLong(length);
    if (linkMsg.textContent !== say) linkMsg.textContent = say;
  }
  async function copyLink() {
    const q = S.scenario ? urlQuery() : '';
    // Full precision: rounded to the millisecond, a link could open on the call before (calls
    // are not on a 1 ms grid).
    const t = S.t > 0 ? `&t=${S.t}` : '';
    const href = `${location.origin}${location.pathname}?${q}${t}`;
    const n = href.length;
    let text;
    if (n > LINK_MAX) {
      text = `Not copied. ${tooLong(n)}`;
    } else {
      const ok = await copyText(href);
      const long = n > LINK_SERVERS
        ? ` It is ${fmt(n)} characters long: many web servers refuse a link longer than ${fmt(LINK_SERVERS)}; “Download scenario” keeps the settings in a file.`
        : '';
      text = ok ? `Link copied.${long}`
        : n > LINK_SERVERS ? `The link could not be copied; the address bar holds it, without the cursor's time.${long}`
          : `Copy this link: ${href}`;
    }
    copyMsg.textContent = text;
    // Cleared here, after the copy: a click while another's copy was pending would otherwise
    // leave that one's timer to take this message down early.
    clearTimeout(copyMsgTimer);
    copyMsgTimer = setTimeout(() => { copyMsg.textContent = ''; }, text.length > 40 ? 12000 : 4000);
  }

  /**
   * Save the settings of the run shown as a JSON file, the simulator's own scenario format:
   * `breaker run --scenario FILE` replays the same run natively, call for call (the same trace
   * hash, which the message gives when the run shown is whole and the worker holds it).
   */
  async function saveScenario() {
    // The run shown: its settings were checked (S.scenario may be a run still being computed,
    // which the simulator can yet refuse).
    const sc = S.shownScenario;
    if (!sc) return;
    // An edited preset keeps the preset's name in its settings, but not as its file's name: saved
    // beside the preset's own file, it would pass for (or overwrite) the preset.
    const name = `${fileStem(sc.name || S.preset || 'scenario')}${editedPreset(sc) ? '-edited' : ''}.json`;
    const url = URL.createObjectURL(new Blob([`${JSON.stringify(sc, null, 2)}\n`], { type: 'application/json' }));
    // In the document while clicked: a detached link's click saves nothing in some browsers.
    const a = h('a', { href: url, download: name, hidden: true });
    root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    const runId = S.runId;
    let hash = null;
    if (S.loaded && S.complete) {
      try { hash = (await engine.call('traceHash')).slice(0, 16); } catch { hash = null; }
    }
    if (runId !== S.runId) return;
    clearTimeout(copyMsgTimer);
    // The hash is of the state changes only (a run with none has the hash of nothing, as many
    // runs do): the calls with it, as the command line's first line prints both.
    const what = hash ? ` replays this run (${S.metrics.calls} ${S.metrics.calls === 1 ? 'call' : 'calls'}, trace ${hash}${S.eventsTotal === 0 ? ': no state changes, the hash of none' : ''}).`
      : S.loaded && !S.complete ? ' replays this run whole (the page computed part of it).'
        : ' replays the run shown.';
    // And the way into a service (a usability review's reader found none on the page).
    replace(copyMsg, `Saved ${name}. `, h('code', { text: `breaker run --scenario ${name}` }), what,
      ' Its “statistical” and “window” settings are the breaker crate\'s ', h('code', { text: 'StatisticalSettings' }), ' and ',
      h('code', { text: 'WindowSettings' }), ' as serde reads them, for a Rust service\'s configuration.');
  }

  /**
   * Read `scenario` (a copy, BigInts exact, defaults filled and units read, as a host's
   * `scenario` attribute is) and, when the simulator takes it, show its run rewound to `t`:
   * {ok: true}. Refused as read: {ok: false, message} naming the field, and nothing on the page
   * has changed: not the form, not the run, not the URL. (Set into the form first, a partial
   * scenario refused hid every field it did not hold, and an edit then ran and linked the
   * partial settings.) Refused when run (a trace is read only then): {ok: false, message,
   * shown: true}, the settings in the form with the message by their field, as after an edit.
   */
  async function read(scenario, t) {
    clearOpened();
    await engine.ready;
    const copy = exactCopy(scenario);
    if (!copy.ok) return copy;
    let sc;
    try {
      sc = await engine.call('normalize', { scenario: copy.value });
    } catch (e) {
      if (e.fatal) {
        // The simulator stopped on a bug (the banner shows it), as setScenario says it.
        setText(runInfo, S.started ? STOPPED : NOT_STARTED);
        root.classList.add('stale');
        S.lastError = e.message;
        return { ok: false, message: e.message, shown: true, fatal: true };
      }
      return { ok: false, message: e.message };
    }
    // Settings named as a preset (a preset's file saved here, perhaps edited) are that preset's,
    // as they are from a link: the list shows it (or "custom"), the run line says "(edited)",
    // and the link is written against it. Before, they were no preset's: a preset's own file
    // showed "custom", and an edited one saved under the preset's name.
    S.preset = typeof sc.name === 'string' && S.byName[sc.name] ? sc.name : null;
    controls.set(sc, S.preset && same(sc, S.byName[S.preset]) ? S.preset : '', Boolean(S.preset));
    // Refused here (a trace is read only when run), the form holds the settings and their
    // field shows why, as after an edit.
    const ok = await setScenario(sc, false, t);
    // Refused, or stopped by a bug of the simulator while it ran (not the settings' fault).
    return { ok, message: S.lastError, shown: true, fatal: !ok && S.lastFatal };
  }

  /** A host's cursor time, checked: NaN, a string or undefined moved the cursor to the end. */
  function cursorTime(t, call) {
    if (typeof t !== 'number' || Number.isNaN(t)) {
      throw new TypeError(`${call}: t is seconds from the run's start, a number; got ${typeof t === 'number' ? t : typeof t}`);
    }
    return t;
  }

  /**
   * Show `scenario` (validated, run, rewound to `t`); resolves false if it is invalid, with the
   * simulator's message naming the field above the settings, and the page as it was. A seed or
   * count may be a BigInt: read exactly, or refused like a typed value.
   */
  async function load(scenario, t = 0) {
    const r = await read(scenario, t);
    if (!r.ok && !r.shown) refused(r.message);
    return r.ok;
  }

  /**
   * Open a scenario file (as "Download scenario" saves, or as `breaker run --scenario` reads:
   * units such as "7d" allowed) and show its run. Whole numbers are read from the text exactly
   * (a seed past 2^53 − 1 is refused, not rounded); a file that is no JSON says so. The message
   * beside the button goes with the next run asked for (clearOpened).
   */
  async function openScenario() {
    const file = openInput.files[0];
    openInput.value = '';
    if (!file) return;
    clearTimeout(copyMsgTimer);
    let parsed;
    let text = '';
    let trace = false;
    try {
      text = await file.text();
      parsed = parseExact(text);
    } catch (e) {
      // A recorded trace (rows of time,outcome,latency, or its header) is no scenario: it is
      // replayed with the settings shown, as if pasted into “Replay a recorded trace” (a long
      // one is held beside that box, not laid out in it).
      trace = /\.csv$/i.test(file.name) || /^\s*(time_s\s*,|[+-]?(\d|\.\d)[^,\n]*,)/.test(text);
      if (!trace) {
        opened(`${file.name} was not opened: it is not JSON (${e.message}).`);
        return;
      }
      parsed = { ok: true, value: { ...clone(S.shownScenario || S.scenario), trace: text } };
    }
    const asked = S.asked;
    const r = parsed.ok ? await read(parsed.value, 0) : { ...parsed, shown: false };
    // Another file or an edit came while this one ran: its own message (or none) stands. (A
    // retry of the run before, after this one was refused, is not another: it keeps this one's
    // message, and nothing was said beside the button. A crash while the file was read asked
    // for no run: it is said.)
    if (r.shown && !r.fatal && S.asked !== asked + 1) return;
    opened(r.ok ? (trace ? `Opened ${file.name} as a trace to replay with these settings (their phases still judge it: see under the metrics).` : `Opened ${file.name}.`)
      : r.shown && !r.fatal ? `${file.name} was not run: ${r.message} (${trace ? '' : 'its settings are in the form; '}the run shown is the last valid one)`
        : `${file.name} was not opened: ${r.message}`);
  }

  /** Settings refused before they reached the form: said above it until the next run. */
  function refused(message) {
    controls.showError(null, message);
    S.lastError = message;
    S.refusedShown = true;
  }

  /** A message about an opened file, taken down with the next run asked for (clearOpened). */
  function opened(text) {
    replace(copyMsg, h('span', { class: 'opened', text }));
  }

  start();
  return {
    engine,
    state: S,
    chart,
    /** Move the cursor to `t` seconds (past the end: the end); not a number: a TypeError. */
    seek: (t) => seek(cursorTime(t, 'seek(t)')),
    /** See `load` above: show `scenario`'s run, or resolve false with the page as it was. */
    load: async (scenario, t = 0) => load(scenario, cursorTime(t, 'load(scenario, t)')),
    destroy() { S.destroyed = true; pause(); stickyRo.disconnect(); nowRo.disconnect(); cardRo.disconnect(); cancelAnimationFrame(nowFrame); window.removeEventListener('resize', syncPad); transport.destroy(); chart.destroy(); if (syncKey) FREE_SYNC_KEYS.push(syncKey); syncKey = null; analysis.destroy(); engine.terminate(); },
  };
}
