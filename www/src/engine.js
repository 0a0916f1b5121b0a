// The page's side of the worker: every call into the simulator goes through a module Web Worker
// (worker.js), so a long run never freezes the page. Each request is a promise; a long run
// reports progress and can be cancelled.
//
// An input change is one request: `call('rerun', {scenario, view, buckets, t, limit})` loads,
// computes and resolves with everything the view needs ({info, complete, reached, derived,
// events, metrics, series, view, snapshot}, or {superseded: true} when a newer rerun replaced
// it). The other operations (seek, stepCall, nextEvent, series, events, metrics, ...) ask the
// run already loaded.

export class Engine {
  /**
   * `onProgress(fraction, reachedSeconds, partial)` during runs, for the latest run requested
   * only; `partial` is {series, point} now and then on a `rerun` of the whole run (the series
   * computed so far, NaN after `reachedSeconds`; `point` one point in nats), else undefined.
   * `onFatal(message)` when the worker dies or the Rust side panics or traps (the message is
   * shown in the page's banner); after a panic or a trap the worker is replaced by a new one
   * with no run loaded (`restart`): the page loads its settings again before it asks for a run.
   */
  constructor({ onProgress = () => {}, onFatal = () => {} } = {}) {
    this.onProgress = onProgress;
    this.onFatal = onFatal;
    this.nextId = 1;
    this.latestRun = 0; // the id of the latest `rerun`/`run` request: older ones' progress is stale
    this.pending = new Map();
    this.worker = null;
    this.ready = this.start();
  }

  start() {
    let worker;
    try {
      worker = spawn(new URL('./worker.js', import.meta.url));
    } catch (e) {
      // No worker at all (a Content-Security-Policy without worker-src for these files, or a
      // browser refusing the blob): `ready` is refused with the reason (the page says it), and
      // so is every request.
      this.worker = null;
      this.dead = `its worker was refused (${e && e.message ? e.message : e})`;
      return Promise.reject(fatal(this.dead));
    }
    this.worker = worker;
    // Only the current worker is heard: one taken down by `restart` may still have messages
    // on their way.
    const current = () => worker === this.worker;
    worker.addEventListener('message', (e) => { if (current()) this.receive(e.data); });
    let started = false;
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      if (!current()) return;
      const message = `The simulator's worker failed: ${e.message || (started ? 'unknown error' : 'its script did not load')}`;
      if (!started) {
        // Its script never ran (not found, not JavaScript, cut short): no answer will come, so
        // every request from now on is refused at once, not left waiting for good.
        this.worker = null;
        this.dead = message;
      }
      this.fail(message);
    });
    worker.addEventListener('messageerror', () => { if (current()) this.fail('The simulator sent a message the page could not read.'); });
    return this.call('init').then((info) => { started = true; return info; });
  }

  /**
   * Take the worker down and start a new one, with a fresh wasm and no run loaded: after a
   * panic or a trap the old one's wasm is unusable. `ready` is the new one's.
   */
  restart() {
    this.worker.terminate();
    this.latestRun = 0;
    this.ready = this.start();
    this.ready.catch(() => {}); // a failure to start is reported through onFatal
  }

  fail(message) {
    this.onFatal(message);
    this.refuseWaiting(message);
  }

  /** Refuse every request waiting, as the worker is gone: a bug or a stop, not the settings. */
  refuseWaiting(message) {
    for (const { reject } of this.pending.values()) reject(fatal(message));
    this.pending.clear();
  }

  receive(msg) {
    // The wasm is unusable after a panic (the hook's message comes first) or a trap: every
    // request waiting is failed, and the next goes to a new worker, which has no run loaded
    // until the page loads one (`onFatal` is told so).
    if (msg.panic || msg.fatal) {
      this.fail(msg.panic ? `The simulator panicked: ${msg.panic}` : `The simulator stopped on an internal error: ${msg.fatal}`);
      this.restart();
      return;
    }
    if (msg.progress) {
      if (msg.id !== this.latestRun) return;
      const { fraction, reached, series, point } = msg.progress;
      this.onProgress(fraction, reached, series ? { series, point } : undefined);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else {
      const err = new Error(msg.error.message);
      err.field = msg.error.field;
      err.allowed = msg.error.allowed;
      if (msg.error.fatal) err.fatal = true;
      p.reject(err);
    }
  }

  /** Call `op` in the worker with `args`; resolves with its result. */
  call(op, args = {}) {
    if (!this.worker) return Promise.reject(fatal(this.dead));
    const id = this.nextId++;
    if (op === 'rerun' || op === 'run') this.latestRun = id;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }

  /** Stop a long run at the next chunk boundary (the run computed so far stays viewable). */
  cancel() {
    if (this.worker) this.worker.postMessage({ op: 'cancel' });
  }

  /**
   * End the worker (an embedded playground removed from the page). Every request waiting is
   * refused, and so is every later one, as when the worker dies: a host's `load` awaited meanwhile
   * resolved never.
   */
  terminate() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.dead = 'the playground was stopped (its element left the page)';
    this.refuseWaiting(this.dead);
  }
}

/** An error the page reports as the simulator's, not the settings' (app.js: `e.fatal`). */
function fatal(message) {
  const err = new Error(message);
  err.fatal = true;
  return err;
}

/**
 * A module worker running `url`. A page may not start a worker from another origin's script (a
 * docs site serving the playground's files from a CDN): Chromium throws, Firefox fails the
 * worker later. So for another origin a worker of the page's own origin (a blob) imports it,
 * which works when the files are served with CORS, as module scripts from another origin must be
 * anyway. (The worker finds the wasm from its own module's URL.)
 */
function spawn(url) {
  // (No page, no origin to compare: node, whose tests give the engine a worker of their own.)
  const here = globalThis.location && globalThis.location.origin;
  if (!here || url.origin === here) return new Worker(url, { type: 'module' });
  // One blob per script for the page's life, whatever the workers started and replaced.
  let blob = blobs.get(url.href);
  if (!blob) {
    blob = URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};\n`], { type: 'text/javascript' }));
    blobs.set(url.href, blob);
  }
  return new Worker(blob, { type: 'module' });
}
const blobs = new Map();
