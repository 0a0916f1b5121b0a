// The worker protocol after the wasm breaks, in node: www/dist/src/worker.js over the built
// wasm (www/dist/pkg) in a worker thread, and www/src/engine.js over a stand-in Worker.
//
// A Rust panic aborts the wasm with a trap (after the hook's message), as does an allocation that
// failed; a stack overflow inside it is a RangeError. Any of them leaves the wasm's stack pointer
// and its handles' borrow flags where they were: the Playground in use can no longer be freed.
// Before, the worker went on with that wasm: each later change of the settings was refused with
// "attempted to take ownership of Rust value while it was borrowed", then "null pointer passed to
// rust", shown beside the form as if the settings were at fault, until the page was reloaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker as Thread } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './helpers.mjs';

const DIST = join(ROOT, 'www/dist');

// The worker's module in a thread: `self` is the thread's port, the wasm is initialized from the
// file (the worker's `init` fetches it), and `Playground.advance` traps while `trap` is set.
const BOOT = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
(async () => {
  const listeners = [];
  globalThis.self = {
    postMessage: (m) => parentPort.postMessage(m),
    addEventListener: (type, f) => { if (type === 'message') listeners.push(f); },
  };
  const pkg = await import(workerData.pkgUrl);
  // Fetched by the worker's own start instead, late or not at all ('late', 'missing').
  if (workerData.fetch) {
    globalThis.fetch = async () => {
      if (workerData.fetch === 'missing') throw new TypeError('Failed to fetch');
      await new Promise((r) => setTimeout(r, 500));
      return fs.readFileSync(workerData.wasmPath);
    };
  } else pkg.initSync({ module: fs.readFileSync(workerData.wasmPath) });
  const advance = pkg.Playground.prototype.advance;
  let trap = false;
  pkg.Playground.prototype.advance = function (n) {
    if (trap) throw new WebAssembly.RuntimeError('unreachable');
    return advance.call(this, n);
  };
  await import(workerData.workerUrl);
  parentPort.on('message', (data) => {
    if ('trap' in data) { trap = data.trap; return; }
    for (const f of listeners) f({ data });
  });
  parentPort.postMessage({ booted: true });
})();`;

/** The page's worker.js over the built wasm, in a worker thread (BOOT). */
const boot = (fetch) => new Thread(BOOT, {
  eval: true,
  workerData: {
    fetch,
    pkgUrl: pathToFileURL(join(DIST, 'pkg/breaker_wasm.js')).href,
    wasmPath: join(DIST, 'pkg/breaker_wasm_bg.wasm'),
    workerUrl: pathToFileURL(join(DIST, 'src/worker.js')).href,
  },
});

test('a trap in the wasm is fatal: the worker says so once, and refuses every later request', { skip: !existsSync(join(DIST, 'src/worker.js')) && 'run `cargo xtask dist` first' }, async () => {
  const thread = boot();
  const got = [];
  const waiters = [];
  thread.on('message', (m) => { got.push(m); for (const w of waiters.splice(0)) w(); });
  const next = async (pred, what) => {
    const end = Date.now() + 20_000;
    for (;;) {
      const m = got.find(pred);
      if (m) return m;
      if (Date.now() > end) throw new Error(`no ${what}: ${JSON.stringify(got).slice(0, 500)}`);
      await new Promise((r) => { waiters.push(r); setTimeout(r, 100); });
    }
  };
  try {
    await next((m) => m.booted, 'boot');
    // As the page starts it (engine.js): every other request waits for this one.
    thread.postMessage({ id: 100, op: 'init' });
    const scenario = { seed: 3, duration: 60 };
    thread.postMessage({ id: 1, op: 'rerun', args: { scenario } });
    const ok = await next((m) => m.id === 1, 'reply 1');
    assert.equal(ok.ok, true, JSON.stringify(ok.error));
    assert.equal(ok.result.info.seed, 3);

    thread.postMessage({ trap: true });
    thread.postMessage({ id: 2, op: 'rerun', args: { scenario: { ...scenario, seed: 4 } } });
    const failed = await next((m) => m.id === 2, 'reply 2');
    assert.equal(failed.ok, false);
    assert.equal(failed.error.fatal, true, 'the reply says the wasm is broken');
    const fatal = got.filter((m) => 'fatal' in m && m.id === undefined);
    assert.deepEqual(fatal.map((m) => m.fatal), ['unreachable'], 'the page is told once, before the reply');
    assert.ok(got.indexOf(fatal[0]) < got.indexOf(failed));

    // Nothing more runs on that wasm, not even what needs no run.
    thread.postMessage({ trap: false });
    thread.postMessage({ id: 3, op: 'normalize', args: { scenario } });
    const later = await next((m) => m.id === 3, 'reply 3');
    assert.equal(later.ok, false);
    assert.equal(later.error.fatal, true);
    assert.match(later.error.message, /stopped on an earlier error: unreachable/);
    assert.equal(got.filter((m) => 'fatal' in m && m.id === undefined).length, 1);

    // A settings error is no such thing: the wasm is whole after it.
    assert.equal(ok.error, undefined);
  } finally {
    await thread.terminate();
  }
});

test('a settings error leaves the worker whole', { skip: !existsSync(join(DIST, 'src/worker.js')) && 'run `cargo xtask dist` first' }, async () => {
  const thread = boot();
  const got = new Map();
  thread.on('message', (m) => { if (m.id) got.set(m.id, m); if ('fatal' in m && !m.id) got.set('fatal', m); if (m.booted) got.set('booted', m); });
  const reply = async (id) => {
    const end = Date.now() + 20_000;
    while (!got.has(id)) {
      if (Date.now() > end) throw new Error(`no reply ${id}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return got.get(id);
  };
  try {
    await reply('booted');
    thread.postMessage({ id: 100, op: 'init' });
    const selfish = {};
    selfish.o = selfish;
    thread.postMessage({ id: 1, op: 'rerun', args: { scenario: { seed: 'x' } } });
    thread.postMessage({ id: 2, op: 'normalize', args: { scenario: { name: selfish } } });
    thread.postMessage({ id: 3, op: 'rerun', args: { scenario: { seed: 5, duration: 60 } } });
    const [a, b, c] = [await reply(1), await reply(2), await reply(3)];
    assert.equal(a.ok, false);
    assert.equal(a.error.field, 'seed');
    assert.equal(a.error.fatal, false);
    assert.equal(b.ok, false);
    assert.equal(b.error.field, 'name', b.error.message);
    assert.equal(b.error.fatal, false);
    assert.equal(c.ok, true, JSON.stringify(c.error));
    assert.equal(c.result.info.seed, 5);
    assert.equal(got.has('fatal'), false);
  } finally {
    await thread.terminate();
  }
});

/** The replies of `thread` by id, awaited. */
function replies(thread) {
  const got = new Map();
  thread.on('message', (m) => { if (m.id) got.set(m.id, m); if (m.booted) got.set('booted', m); });
  return async (id) => {
    const end = Date.now() + 20_000;
    while (!got.has(id)) {
      if (Date.now() > end) throw new Error(`no reply ${id}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return got.get(id);
  };
}

test('a request sent while the wasm is on its way waits for it', { skip: !existsSync(join(DIST, 'src/worker.js')) && 'run `cargo xtask dist` first' }, async () => {
  // Before, it ran into the module not yet there: "Cannot read properties of undefined
  // (reading 'playground_new')", shown beside the form as if the settings were at fault.
  const thread = boot('late');
  const reply = replies(thread);
  try {
    await reply('booted');
    thread.postMessage({ id: 1, op: 'init' });
    thread.postMessage({ id: 2, op: 'rerun', args: { scenario: { seed: 6, duration: 60 } } });
    thread.postMessage({ id: 3, op: 'normalize', args: { scenario: { duration: '2h' } } });
    const [a, b, c] = [await reply(1), await reply(2), await reply(3)];
    assert.equal(a.ok, true, JSON.stringify(a.error));
    assert.equal(b.ok, true, JSON.stringify(b.error));
    assert.equal(b.result.info.seed, 6);
    assert.equal(c.ok, true, JSON.stringify(c.error));
    assert.equal(c.result.duration, 7200);
  } finally {
    await thread.terminate();
  }
});

test('a wasm that did not load fails every request as the simulator\'s, not the settings\'', { skip: !existsSync(join(DIST, 'src/worker.js')) && 'run `cargo xtask dist` first' }, async () => {
  const thread = boot('missing');
  const reply = replies(thread);
  try {
    await reply('booted');
    thread.postMessage({ id: 1, op: 'init' });
    thread.postMessage({ id: 2, op: 'rerun', args: { scenario: { seed: 6, duration: 60 } } });
    const [a, b] = [await reply(1), await reply(2)];
    assert.equal(a.ok, false);
    assert.equal(a.error.fatal, true);
    assert.match(a.error.message, /Failed to fetch/);
    thread.postMessage({ id: 3, op: 'normalize', args: { scenario: {} } });
    for (const r of [b, await reply(3)]) {
      assert.equal(r.ok, false);
      assert.equal(r.error.fatal, true, 'not shown beside the form');
      assert.match(r.error.message, /^the simulator stopped on an earlier error: it could not start: .*Failed to fetch/);
    }
  } finally {
    await thread.terminate();
  }
});

test('a worker whose script did not load: the start and every request after it are refused at once', async () => {
  globalThis.Worker = FakeWorker;
  try {
    const { Engine } = await import('../../www/src/engine.js');
    FakeWorker.all = [];
    const fatal = [];
    const engine = new Engine({ onFatal: (m) => fatal.push(m) });
    const w = FakeWorker.all[0];
    // A 404 or a script that is not JavaScript: an error event, no message ever.
    for (const f of w.listeners.error) f({ message: '', preventDefault() {} });
    await assert.rejects(engine.ready, (e) => e.fatal === true);
    assert.deepEqual(fatal, ["The simulator's worker failed: its script did not load"]);
    // Before, this waited for good ("Computing the run…" up, no answer coming).
    const late = await Promise.race([
      engine.call('rerun', { scenario: {} }).then(() => 'resolved', (e) => (e.fatal ? e.message : 'not fatal')),
      new Promise((r) => setTimeout(() => r('waiting'), 1000)),
    ]);
    assert.equal(late, "The simulator's worker failed: its script did not load");
    assert.equal(FakeWorker.all.length, 1, 'not started again (it would fail again)');
  } finally {
    delete globalThis.Worker;
  }
});

/** A stand-in for the page's Worker: records what it is sent; `reply` plays the worker. */
class FakeWorker {
  static all = [];
  constructor(url, options) {
    this.url = String(url);
    this.options = options;
    this.sent = [];
    this.terminated = false;
    this.listeners = {};
    FakeWorker.all.push(this);
  }
  addEventListener(type, f) { (this.listeners[type] ||= []).push(f); }
  postMessage(m) { this.sent.push(m); }
  terminate() { this.terminated = true; }
  reply(data) { for (const f of this.listeners.message || []) f({ data }); }
}

test('the engine replaces a worker whose wasm panicked or trapped, and hears no more from it', async () => {
  globalThis.Worker = FakeWorker;
  try {
    const { Engine } = await import('../../www/src/engine.js');
    for (const broken of [{ panic: 'panicked at src/lib.rs:1:1:\nboom' }, { fatal: 'unreachable' }]) {
      FakeWorker.all = [];
      const fatal = [];
      const engine = new Engine({ onFatal: (m) => fatal.push(m) });
      const first = FakeWorker.all[0];
      assert.equal(first.sent[0].op, 'init');
      first.reply({ id: first.sent[0].id, ok: true, result: { version: '0', presets: [] } });
      await engine.ready;

      const run = engine.call('rerun', { scenario: {} });
      const seek = engine.call('seek', { t: 1 });
      first.reply(broken);
      await assert.rejects(run, (e) => e.fatal === true);
      await assert.rejects(seek, (e) => e.fatal === true);
      assert.equal(fatal.length, 1);
      assert.match(fatal[0], broken.panic ? /panicked: panicked at src\/lib.rs/ : /internal error: unreachable/);
      assert.equal(first.terminated, true, 'the broken worker is taken down');
      assert.equal(FakeWorker.all.length, 2, 'a new one is started');
      const second = FakeWorker.all[1];
      assert.equal(second.sent[0].op, 'init');

      // What the old one still had on its way is not heard (its replies, its own fatal).
      first.reply({ fatal: 'unreachable' });
      first.reply({ id: 2, ok: false, error: { message: 'unreachable', fatal: true } });
      assert.equal(fatal.length, 1);

      // The next request goes to the new worker, once it is ready.
      second.reply({ id: second.sent[0].id, ok: true, result: { version: '0', presets: [] } });
      await engine.ready;
      const again = engine.call('rerun', { scenario: { seed: 2 } });
      const msg = second.sent.at(-1);
      assert.equal(msg.op, 'rerun');
      second.reply({ id: msg.id, ok: true, result: { info: { seed: 2 } } });
      assert.deepEqual(await again, { info: { seed: 2 } });
      assert.equal(first.sent.length, 3, 'nothing more was sent to the old worker');
    }
  } finally {
    delete globalThis.Worker;
  }
});
