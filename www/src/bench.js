// The bench page (www/bench.html) and, loaded as a module worker, its raw-wasm helper.
//
// On the page: (1) each preset through the page's own worker path (engine.js -> worker.js:
// one `rerun` request, as the playground sends on an input change: the run in chunks, then the
// whole view back), calls per second; (2) the same runs with
// one `advance` call in a worker of its own (raw wasm, no chunking); (3) the playground mounted
// as on the main page: time from an input change to the redrawn chart (default scenario), and the
// busy-service month picked from the preset list (time to the redrawn chart, longest main-thread
// task meanwhile: PerformanceObserver `longtask` where supported, else the longest gap between
// main-thread ticks); (4) with `figures=1`, on the bench's own site (`cargo xtask bench` puts
// the analysis figures' wasm, crates/figures, in `figures/` beside a copy of the page), each
// analysis figure of the native bench's list in a worker: its value and its median time;
// (5) the analysis panel's curves of each preset through the page's worker.
// Results land in `window.__bench` ({done, results | error}) and in #out.
// It measures and reports; it asserts nothing.

import init, * as wasm from '../pkg/breaker_wasm.js';

const IN_WORKER = typeof document === 'undefined';
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs.length });
const frame = () => new Promise((r) => requestAnimationFrame(() => r()));

/**
 * Each analysis figure (crates/figures, the native bench's list): `runs` samples, each the mean
 * time of as many calls as fill 5 ms (one call for a figure of 5 ms or more; several below,
 * where the clock's resolution, 0.1 ms in Chromium and 1 ms in Firefox, would read a fast one
 * as 0; natively a sample is one call), and the median of the samples; the value of the last
 * call.
 */
async function timeFigures(runs) {
  const mod = await import('../figures/figures.js');
  await mod.default({ module_or_path: new URL('../figures/figures_bg.wasm', import.meta.url) });
  const list = new mod.Figures();
  const out = [];
  for (let i = 0; i < list.count(); i++) {
    const samples = [];
    let value = NaN;
    for (let r = 0; r < runs; r++) {
      let n = 0;
      const t0 = performance.now();
      let dt = 0;
      do {
        value = list.run(i);
        n++;
        dt = performance.now() - t0;
      } while (dt < 5);
      samples.push(dt / n);
    }
    // The value as text (the shortest that reads back as the same double): geckodriver reads
    // the page's JSON with a parser that puts some doubles one unit in the last place off
    // (1817.5725284404768 came back as ...766), which read as a wasm/native difference.
    const m = median(samples);
    const spread = m > 0 ? (Math.max(...samples) - Math.min(...samples)) / m : 0;
    out.push({ name: list.name(i), kind: list.kind(i), ms: m, spread, value: String(value) });
  }
  list.free();
  return out;
}

if (IN_WORKER) {
  // Raw wasm: build the Playground and advance its full run in one call; or time the figures.
  let ready = null;
  self.addEventListener('message', async (e) => {
    const { id, scenario, minMs, figures } = e.data;
    if (figures) {
      try {
        self.postMessage({ id, figures: await timeFigures(figures) });
      } catch (err) {
        self.postMessage({ id, error: String(err && err.message ? err.message : err) });
      }
      return;
    }
    try {
      ready = ready || init({ module_or_path: new URL('../pkg/breaker_wasm_bg.wasm', import.meta.url) });
      await ready;
      let calls = 0;
      const t0 = performance.now();
      let dt = 0;
      do {
        const pg = new wasm.Playground(scenario);
        pg.advance(0xffffffff);
        calls += pg.metrics().calls;
        pg.free();
        dt = performance.now() - t0;
      } while (dt < minMs);
      self.postMessage({ id, calls, ms: dt });
    } catch (err) {
      self.postMessage({ id, error: String(err && err.message ? err.message : err) });
    }
  });
} else {
  main();
}

async function main() {
  const out = document.getElementById('out');
  const params = new URLSearchParams(location.search);
  const runs = Math.max(1, Number(params.get('runs') || 3));
  const names = (params.get('presets') || 'quiet-service,busy-service,recovery-warmup').split(',');
  const withPage = params.get('page') !== '0';
  const log = (line) => { out.textContent += `\n${line}`; };
  window.__bench = { done: false };
  try {
    out.textContent = `${navigator.userAgent}`;
    const results = { userAgent: navigator.userAgent, runs, worker: {}, raw: {}, page: null };
    const { Engine } = await import('./engine.js');
    const { BUCKETS, TRACE_LIMIT, analysisRequest } = await import('./app.js');
    const engine = new Engine({ onFatal: (m) => log(`fatal: ${m}`) });
    const info = await engine.ready;
    const byName = Object.fromEntries(info.presets.map((p) => [p.name, p.scenario]));
    const raw = new Worker(new URL('./bench.js', import.meta.url), { type: 'module' });
    let rawId = 0;
    const ask = (msg) => new Promise((resolve, reject) => {
      const id = ++rawId;
      const on = (e) => {
        if (e.data.id !== id) return;
        raw.removeEventListener('message', on);
        if (e.data.error) reject(new Error(e.data.error)); else resolve(e.data);
      };
      raw.addEventListener('message', on);
      raw.postMessage({ id, ...msg });
    });
    const rawRun = (scenario, minMs) => ask({ scenario, minMs });
    // One run of the first preset each way first, not measured: the engines compile the wasm
    // in tiers, and with one run (`--quick`) a figure read the code before its optimized tier
    // (the quiet month at 1.6M calls/s in Chromium's worker against 4.2M warm).
    if (byName[names[0]]) {
      await engine.call('rerun', { scenario: byName[names[0]], t: 0, buckets: BUCKETS, limit: TRACE_LIMIT });
      await rawRun(byName[names[0]], 0);
    }
    for (const name of names) {
      const scenario = byName[name];
      if (!scenario) { log(`unknown preset ${name}`); continue; }
      const w = [];
      const r = [];
      let calls = 0;
      let busyMs = [];
      for (let i = 0; i < runs; i++) {
        // The page's path: the one `rerun` request an input change sends (app.js: the run
        // computed in chunks with progress and partial series, then the whole view sent back:
        // series, events, metrics, snapshot), repeated to >= 200 ms.
        let n = 0;
        const t0 = performance.now();
        let dt = 0;
        do {
          const res = await engine.call('rerun', { scenario, t: 0, buckets: BUCKETS, limit: TRACE_LIMIT });
          if (res.superseded || !res.complete) throw new Error(`${name}: run not complete`);
          calls = res.metrics.calls;
          n += calls;
          dt = performance.now() - t0;
        } while (dt < 200);
        w.push(n / (dt / 1000));
        if (n === calls) busyMs.push(dt);
        const rr = await rawRun(scenario, 200);
        r.push(rr.calls / (rr.ms / 1000));
      }
      results.worker[name] = { calls, calls_per_s: stats(w), one_run_ms: busyMs.length ? stats(busyMs) : null };
      results.raw[name] = { calls, calls_per_s: stats(r) };
      log(`${name}: ${calls} calls (exact); measured, median of ${runs} run(s): worker path ${Math.round(median(w))} calls/s; raw wasm ${Math.round(median(r))} calls/s`);
    }
    // (5) The analysis panel's curves for each preset (app.js `refreshAnalysis`: one `analysis`
    // request through the page's worker, at the traffic one breaker sees).
    results.curves = {};
    for (const name of names) {
      if (!byName[name]) continue;
      const request = analysisRequest(byName[name]);
      const ms = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await engine.call('analysis', request);
        ms.push(performance.now() - t0);
      }
      results.curves[name] = stats(ms);
      log(`${name}: analysis panel's curves, measured, median of ${runs}: ${median(ms).toFixed(0)} ms`);
    }
    if (params.get('figures') === '1') {
      // The native bench's median is of 5 runs: so is this one's, whatever `runs` says.
      const { figures } = await ask({ figures: 5 });
      results.figures = { runs: 5, list: figures };
      const slow = figures.reduce((a, b) => (b.ms > a.ms ? b : a));
      log(`analysis figures in wasm: ${figures.length}, measured, median of 5 each; slowest ${slow.ms.toFixed(1)} ms (${slow.name})`);
    }
    raw.terminate();
    engine.terminate();
    if (withPage) results.page = await pageTimings(log, runs);
    window.__bench = { done: true, results };
    log('done');
  } catch (e) {
    window.__bench = { done: true, error: String(e && e.stack ? e.stack : e) };
    log(`error: ${e && e.stack ? e.stack : e}`);
  }
}

async function pageTimings(log, runs) {
  const { mountPlayground } = await import('./app.js');
  const root = document.getElementById('playground');
  let onRun = null;
  const pg = mountPlayground(root, { onRun: () => { if (onRun) onRun(); } });
  const ran = () => new Promise((r) => { onRun = () => { onRun = null; r(); }; });
  const until = async (cond, ms = 60000) => {
    const t0 = performance.now();
    while (!cond()) {
      if (performance.now() - t0 > ms) throw new Error('timed out waiting for the playground');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await until(() => pg.state && pg.state.loaded);
  await frame();
  const seed = root.querySelector('[data-path="seed"] input');
  if (!seed) throw new Error('no seed input on the page');
  const change = (el, value) => {
    // `change` commits at once (typing would be debounced).
    el.value = String(value);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  };
  // (a) An input change to the redrawn chart, default scenario (the first preset). The clock
  // starts inside an animation frame, so the chart can be on screen one frame later at the
  // earliest: the figure is also given in frames (the idle frame interval is measured here).
  const frameGaps = [];
  let prev = performance.now();
  for (let i = 0; i < 31; i++) {
    await frame();
    const now = performance.now();
    if (i > 0) frameGaps.push(now - prev);
    prev = now;
  }
  const frameMs = median(frameGaps);
  const inputMs = [];
  const drawnMs = [];
  const frames = [];
  for (let i = 0; i < Math.max(15, runs * 5); i++) {
    const done = ran();
    const t0 = performance.now();
    change(seed, 100 + i);
    await done;
    drawnMs.push(performance.now() - t0);
    await frame();
    const ms = performance.now() - t0;
    inputMs.push(ms);
    // Frame intervals, rounded up (a tenth of one spared for the timers' jitter): 19 ms of
    // 16.7 ms frames is two frames, not one.
    frames.push(Math.ceil(ms / frameMs - 0.1));
  }
  log(`input change -> redrawn chart (${pg.state.info && pg.state.info.name}), measured, median of ${inputMs.length}: ${median(inputMs).toFixed(1)} ms, ${median(frames)} frame(s) of ${frameMs.toFixed(1)} ms; run drawn after ${median(drawnMs).toFixed(1)} ms`);
  // (b) The busy-service month picked from the preset list; the longest main-thread task meanwhile.
  const select = [...root.querySelectorAll('select')].find((s) => [...s.options].some((o) => o.value === 'busy-service'));
  if (!select) throw new Error('no preset list with busy-service');
  let longest = 0;
  let longtask = false;
  let obs = null;
  if (typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes || []).includes('longtask')) {
    longtask = true;
    obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) longest = Math.max(longest, e.duration); });
    obs.observe({ type: 'longtask' });
  }
  // Tick monitor (every browser): the longest gap between main-thread turns.
  let gap = 0;
  let last = performance.now();
  let ticking = true;
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
    if (ticking) setTimeout(() => ch.port2.postMessage(0), 0);
  };
  const done = ran();
  const t0 = performance.now();
  last = t0;
  ch.port2.postMessage(0);
  select.value = 'busy-service';
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await done;
  await frame();
  const busyMs = performance.now() - t0;
  ticking = false;
  if (obs) { await new Promise((r) => setTimeout(r, 50)); obs.disconnect(); }
  log(`busy-service month on the page (preset change -> redrawn chart), measured once: ${busyMs.toFixed(0)} ms; longest task ${longtask ? `${longest.toFixed(0)} ms` : 'n/a'}; longest tick gap ${gap.toFixed(0)} ms`);
  return {
    input_to_chart_ms: stats(inputMs),
    input_to_drawn_ms: stats(drawnMs),
    input_to_chart_frames: stats(frames),
    frame_ms: frameMs,
    default_scenario: pg.state.presets && pg.state.presets[0] ? pg.state.presets[0].name : null,
    busy_page_ms: busyMs,
    longest_task_ms: longtask ? longest : null,
    longest_tick_gap_ms: gap,
  };
}
