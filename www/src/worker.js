// The module worker that owns the wasm `Playground`. It answers requests from engine.js one at a
// time; `run` computes the whole scenario in chunks, posting progress and yielding between chunks
// so a `cancel` message gets through.

import init, * as wasm from '../pkg/breaker_wasm.js';

let pg = null;
let cancelled = false;
let running = null; // the promise of the run in progress

// console_error_panic_hook writes the panic message to console.error: forward it to the page.
const consoleError = console.error.bind(console);
console.error = (...args) => {
  consoleError(...args);
  const text = args.map(String).join(' ');
  if (/panicked at/.test(text)) self.postMessage({ panic: text });
};

const yieldToMessages = () => new Promise((r) => setTimeout(r, 0));

function run() {
  running = runChunks().finally(() => { running = null; });
  return running;
}

async function runChunks() {
  cancelled = false;
  {
    // Chunks of about 20 ms keep the worker responsive to `cancel`.
    let chunk = 2000;
    for (;;) {
      const t0 = performance.now();
      const fraction = pg.advance(chunk);
      const reached = pg.reached();
      self.postMessage({ progress: { fraction, reached } });
      if (fraction >= 1) return { complete: true, reached };
      const dt = performance.now() - t0;
      if (dt > 0) chunk = Math.max(100, Math.min(1e6, Math.round(chunk * (20 / dt))));
      await yieldToMessages();
      if (cancelled) return { complete: false, reached };
    }
  }
}

function errorOf(e) {
  const message = e && e.message ? e.message : String(e);
  // Settings errors read "<field> = <value> is invalid: allowed <range>".
  const m = /^([\w.[\]]+) = ([\s\S]*?) is invalid: (?:allowed )?([\s\S]*)$/.exec(message);
  return { message, field: m ? m[1] : undefined, allowed: m ? m[3] : undefined };
}

const ops = {
  async init() {
    await init({ module_or_path: new URL('../pkg/breaker_wasm_bg.wasm', import.meta.url) });
    return { version: wasm.version(), presets: wasm.presets() };
  },
  async load({ scenario }) {
    // Stop a run in progress first; keep the old run if the new settings are invalid.
    if (running) { cancelled = true; await running; }
    const next = new wasm.Playground(scenario);
    if (pg) pg.free();
    pg = next;
    return pg.info();
  },
  run,
  restart() { return pg.seek(0); },
  seek({ t }) { return pg.seek(t); },
  snapshot() { return pg.snapshot(); },
  stepCall() { return pg.stepCall(); },
  nextEvent() { return pg.nextEvent(); },
  normalize({ scenario }) { return wasm.normalizeScenario(scenario); },
  series({ t0, t1, buckets }) { return pg.series(t0, t1, buckets); },
  events({ limit }) { return pg.events(limit); },
  metrics() { return pg.metrics(); },
  derived() { return pg.derived(); },
  traceHash() { return pg.traceHash(); },
  analysis({ statistical, window, what }) { return wasm.analysis(statistical, window, what); },
  analyze({ args }) { return wasm.analyze(args); },
};

self.addEventListener('message', async (e) => {
  const { id, op, args } = e.data;
  if (op === 'cancel') { if (running) cancelled = true; return; }
  try {
    if (!ops[op]) throw new Error(`unknown operation ${op}`);
    if (op !== 'init' && op !== 'analysis' && op !== 'analyze' && op !== 'load' && !pg) throw new Error('no scenario loaded');
    const result = await ops[op](args || {});
    const transfer = [];
    if (result && typeof result === 'object' && !Array.isArray(result)) {
      for (const v of Object.values(result)) if (v instanceof Float64Array) transfer.push(v.buffer);
    }
    self.postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    self.postMessage({ id, ok: false, error: errorOf(err) });
  }
});
