// The module worker that owns the wasm `Playground`. It answers requests from engine.js as they
// come; while a run computes they are answered between its slices (a `cancel` or a new
// `rerun`/`load` stops it; the page sends nothing else that reads the run until it is back).
//
// `rerun` is what an input change costs: one request, one reply. The worker validates and loads
// the scenario, computes the run (a short one in one go; a long one in chunks of about 10 ms
// of work, posting progress and yielding between chunks so a cancel gets through) and replies
// with everything the view needs: info, derived numbers, events, metrics, the series of the
// current view (Float64Arrays, transferred) and the snapshot at the cursor.

import init, * as wasm from '../pkg/breaker_wasm.js';
import { timeoutNote } from './tracenote.js';

let pg = null;
let cancelled = false;
// The last trace note and what it was read from: a rerun that changes neither (a seed, a
// threshold) does not read the trace again.
let note = { trace: null, timeout: null, text: null };
let running = null; // the promise of the run in progress
let generation = 0; // bumped by every load/rerun: an older one stops and says it was superseded

// console_error_panic_hook writes the panic message to console.error: forward it to the page.
const consoleError = console.error.bind(console);
console.error = (...args) => {
  consoleError(...args);
  const text = args.map(String).join(' ');
  if (/panicked at/.test(text)) self.postMessage({ panic: text });
};

// Yield to the worker's message queue without setTimeout's clamping (4 ms after a few nested
// timeouts): a message to ourselves through a MessageChannel is a task queued behind any message
// the page has already sent (a cancel), with no delay of its own.
const channel = new MessageChannel();
const wakers = [];
channel.port1.onmessage = () => { const w = wakers.shift(); if (w) w(); };
const yieldToMessages = () => new Promise((r) => { wakers.push(r); channel.port2.postMessage(0); });

// Work per chunk, by time: long enough that yielding costs nothing, short enough that a cancel
// is seen at once. Progress goes to the page at most every PROGRESS_MS.
const SLICE_MS = 10;
const PROGRESS_MS = 50;
// The series so far go with a progress message at most this often (a month at 600 calls/min:
// about a dozen partial charts, each a copy of ~20 columns of 600 buckets and one chart draw).
const PARTIAL_MS = 250;
// The buckets of the full run's own series (crates/wasm `FULL_BUCKETS`): a copy of them is cheap.
const FULL_BUCKETS = 600;
let rate = 0; // calls per ms measured on the last run (a first guess for the next one)

/**
 * Compute the run in slices; progress at most every `progressMs` (Infinity: none). With
 * `partialBuckets`, a progress message carries, at most every PARTIAL_MS, the series computed so
 * far in that many buckets over the whole run (NaN after the time reached), so a long run can be
 * drawn as it goes.
 */
function run({ progressMs = PROGRESS_MS, partialBuckets = 0 } = {}, id = undefined) {
  const partial = partialBuckets > 0 ? { buckets: partialBuckets, point: pg.derived().point } : null;
  running = runChunks(progressMs, partial, id).finally(() => { running = null; });
  return running;
}

async function runChunks(progressMs, partial, id) {
  cancelled = false;
  let lastProgress = performance.now();
  let lastPartial = lastProgress;
  for (;;) {
    // One slice: advance in steps sized from the measured speed until SLICE_MS have passed.
    const start = performance.now();
    let fraction = 0;
    for (;;) {
      const t0 = performance.now();
      const left = SLICE_MS - (t0 - start);
      const chunk = rate > 0 ? Math.max(200, Math.min(5e6, Math.round(rate * left))) : 2000;
      fraction = pg.advance(chunk);
      const t1 = performance.now();
      if (t1 - t0 > 0.5) rate = chunk / (t1 - t0);
      if (fraction >= 1 || t1 - start >= SLICE_MS * 0.8) break;
    }
    const reached = pg.reached();
    if (fraction >= 1) return { complete: true, reached };
    const now = performance.now();
    if (now - lastProgress >= progressMs) {
      lastProgress = now;
      const progress = { fraction, reached };
      if (partial && now - lastPartial >= PARTIAL_MS) {
        lastPartial = now;
        progress.series = seriesOf(0, Infinity, partial.buckets);
        progress.point = partial.point;
      }
      // `id`: the request computing (the page drops progress of a request it has replaced).
      self.postMessage({ id, progress }, progress.series ? transferables(progress.series) : []);
    }
    await yieldToMessages();
    if (cancelled) return { complete: false, reached };
  }
}

/**
 * The wasm's series (`Playground.series`) with `t`, the bucket starts, added: `t0 + i x bucket`,
 * the simulator's own arithmetic (the same doubles), made here rather than in the wasm.
 */
function seriesOf(t0, t1, buckets) {
  const s = pg.series(t0, t1, buckets);
  const n = s.s_level_min.length;
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = s.t0 + i * s.bucket;
  s.t = t;
  return s;
}

/** Stop a run in progress (it keeps the part computed) and wait until it has stopped. */
async function stopRunning() {
  if (running) { cancelled = true; await running; }
}

/** Replace the playground by one for `scenario`; an invalid one throws and keeps the old one. */
function replacePlayground(scenario) {
  const next = new wasm.Playground(scenario);
  if (pg) pg.free();
  pg = next;
}

function errorOf(e) {
  const message = e && e.message ? e.message : String(e);
  // Settings errors read "<field> = <value> is invalid: allowed <range>".
  const m = /^([\w.[\]]+) = ([\s\S]*?) is invalid: (?:allowed )?([\s\S]*)$/.exec(message);
  return { message, field: m ? m[1] : undefined, allowed: m ? m[3] : undefined };
}

// The wasm's start, which every other request waits for: one sent while the wasm is still on
// its way ran into a module not yet there ("Cannot read properties of undefined"), shown as if
// the settings were at fault. A failed start fails every request after it, as the simulator's.
let started = null;
let broken = null; // the message of the error that broke the wasm: every request fails with it

const ops = {
  async init() {
    started ??= init({ module_or_path: new URL('../pkg/breaker_wasm_bg.wasm', import.meta.url) })
      .catch((err) => { broken = `it could not start: ${errorOf(err).message}`; throw err; });
    await started;
    return { version: wasm.version(), presets: wasm.presets() };
  },
  async load({ scenario }) {
    // Stop a run in progress first; keep the old run if the new settings are invalid.
    const gen = ++generation;
    await stopRunning();
    if (gen !== generation) return { superseded: true };
    replacePlayground(scenario);
    return pg.info();
  },
  /**
   * Load `scenario`, compute it, and return the whole view in one reply:
   * {info, complete, reached, derived, events, metrics, series, snapshot, traceNote}
   * (`traceNote`: a replayed trace's calls at the call timeout, tracenote.js; read here, off
   * the page's thread: 200,000 rows took 0.2-0.3 s). `view` [t0, t1] or
   * null (the whole run), `buckets`, `t` the cursor, `limit` the most events listed. A newer
   * `load`/`rerun` stops this one: it then resolves {superseded: true}. Invalid settings reject
   * and keep the run loaded before (cut short if it was still being computed: the page then asks
   * for it again).
   */
  async rerun({ scenario, view = null, buckets = FULL_BUCKETS, t = 0, limit = 5000, progressMs }, id) {
    const gen = ++generation;
    await stopRunning();
    if (gen !== generation) return { superseded: true };
    replacePlayground(scenario);
    const info = pg.info();
    // Partial series only as the whole run's: other buckets or a range would be a new run
    // computed from a checkpoint (crates/wasm `Playground::series`), not a copy of this one's.
    const res = await run({ progressMs, partialBuckets: !view && buckets === FULL_BUCKETS ? buckets : 0 }, id);
    if (gen !== generation) return { superseded: true };
    const end = info.duration;
    const [t0, t1] = view ? [Math.max(0, view[0]), Math.min(end, view[1])] : [0, end];
    const events = pg.events(limit);
    const timeout = scenario.callers && scenario.callers.call_timeout;
    if (note.trace !== scenario.trace || note.timeout !== timeout) {
      const text = scenario.trace && Number.isFinite(timeout) ? timeoutNote(scenario.trace, timeout) : null;
      note = { trace: scenario.trace, timeout, text };
    }
    return {
      traceNote: note.text,
      info,
      complete: res.complete,
      reached: res.reached,
      derived: pg.derived(),
      events,
      metrics: pg.metrics(),
      series: seriesOf(t0, t1, buckets),
      view: [t0, t1],
      snapshot: pg.seek(Math.min(Math.max(0, t), end)),
    };
  },
  run,
  restart() { return pg.seek(0); },
  seek({ t }) { return pg.seek(t); },
  snapshot() { return pg.snapshot(); },
  stepCall() { return pg.stepCall(); },
  stepBack() { return pg.stepBack(); },
  nextEvent({ until }) { return pg.nextEvent(until); },
  normalize({ scenario }) { return wasm.normalizeScenario(scenario); },
  series({ t0, t1, buckets }) { return seriesOf(t0, t1, buckets); },
  events({ limit }) { return pg.events(limit); },
  metrics() { return pg.metrics(); },
  derived() { return pg.derived(); },
  traceHash() { return pg.traceHash(); },
  analysis({ statistical, window, what }) { return wasm.analysis(statistical, window, what); },
  analyze({ args }) { return wasm.analyze(args); },
};

const NO_PLAYGROUND_NEEDED = new Set(['init', 'analysis', 'analyze', 'load', 'rerun', 'normalize']);

/** The buffers of the Float64Arrays in `result` and in its `series`, to transfer (not copy). */
function transferables(result) {
  const out = [];
  const scan = (o) => {
    if (!o || typeof o !== 'object' || Array.isArray(o)) return;
    for (const v of Object.values(o)) if (v instanceof Float64Array) out.push(v.buffer);
  };
  scan(result);
  if (result && typeof result === 'object') scan(result.series);
  return out;
}

/**
 * Whether `err` left the wasm unusable: a trap (a panic aborts with one, as does a failed
 * allocation) or a stack overflow in it. The `Playground` in use stays borrowed: replacing it
 * threw "attempted to take ownership of Rust value while it was borrowed", then "null pointer
 * passed to rust" on every later change, shown as if the settings were at fault.
 */
function brokenBy(err) {
  return err instanceof WebAssembly.RuntimeError
    || (err instanceof RangeError && /call stack/i.test(err.message))
    || (err && err.name === 'InternalError' && /recursion/i.test(err.message));
}

self.addEventListener('message', async (e) => {
  const { id, op, args } = e.data;
  if (op === 'cancel') { if (running) cancelled = true; return; }
  try {
    if (op !== 'init') {
      if (!started) throw new Error('the simulator was not started');
      await started.catch(() => {});
    }
    if (broken) throw new Error(`the simulator stopped on an earlier error: ${broken}`);
    if (!ops[op]) throw new Error(`unknown operation ${op}`);
    if (!NO_PLAYGROUND_NEEDED.has(op) && !pg) throw new Error('no scenario loaded');
    const result = await ops[op](args || {}, id);
    self.postMessage({ id, ok: true, result }, transferables(result));
  } catch (err) {
    if (!broken && brokenBy(err)) {
      // The page takes this worker down and starts a new one (engine.js).
      broken = errorOf(err).message;
      self.postMessage({ fatal: broken });
    }
    self.postMessage({ id, ok: false, error: { ...errorOf(err), fatal: Boolean(broken) } });
  }
});
