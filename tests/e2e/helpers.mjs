// Shared helpers for the end-to-end tests: where the page is, one browser session per test file
// and browser, waiting on the page, reading its errors, and running the simulator's own command
// line on the same settings to check what the page shows.
//
// PLAYGROUND_URL: the built page (`cargo xtask test` serves www/dist in-process and sets it).
// Unset, a small static server over www/dist is started here (run `cargo xtask dist` first).
// BREAKER_BIN: the `breaker` command line (xtask builds it); unset, `cargo run -q -p breaker-cli`.
// E2E_BROWSERS: comma-separated subset of chromium,firefox.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, extname, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { logging } from 'selenium-webdriver';
import { BROWSERS, launch } from './browsers.mjs';

export { BROWSERS };
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = join(ROOT, 'www/dist');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8', '.map': 'application/json',
};

let served = null;
/** A static server over www/dist on a free port of 127.0.0.1; resolves to its URL. */
function serveDist() {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(`${DIST}/index.html is missing: run \`cargo xtask dist\` first, or set PLAYGROUND_URL`);
  }
  // Links of up to 2 MB, as Chromium opens them (link.test.mjs) and `cargo xtask serve` takes:
  // at node's default of 16 KB the request was refused with 431.
  const server = createServer({ maxHeaderSize: 4 * 1024 * 1024 }, async (req, res) => {
    try {
      let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (path.endsWith('/')) path += 'index.html';
      const file = resolve(DIST, `.${path}`);
      if (file !== DIST && !file.startsWith(DIST + sep)) throw new Error('outside');
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      const body = await readFile(file);
      // With CORS, as `cargo xtask serve` sends it: the test of the files on another origin
      // (embed.test.mjs) failed without PLAYGROUND_URL.
      res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store', 'access-control-allow-origin': '*' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      ok(`http://127.0.0.1:${server.address().port}/`);
    });
  });
}

/** The page's base URL (ends with "/"). */
export async function baseUrl() {
  if (process.env.PLAYGROUND_URL) {
    const u = process.env.PLAYGROUND_URL;
    return u.endsWith('/') ? u : `${u}/`;
  }
  served ??= serveDist();
  return served;
}

/**
 * Register one browser session for the tests that follow in this file (per browser): returns a
 * getter for {driver, browser, url}. The session starts in `before` and quits in `after`.
 */
export function session(browser) {
  const s = { driver: null, browser, url: null };
  before(async () => {
    s.url = await baseUrl();
    s.driver = await launch(browser);
    await s.driver.manage().setTimeouts({ script: 60_000 });
  });
  after(async () => {
    if (s.driver) await s.driver.quit();
  });
  return s;
}

/** Poll `fn` (async, in node) until it returns a truthy value; that value, or throw `what`. */
export async function until(fn, what, timeout = 20_000, every = 50) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Evaluate `fn(...args)` in the page (sync or async) and return its value. */
export async function page(driver, fn, ...args) {
  return driver.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
     Promise.resolve().then(() => (${fn})(...Array.from(arguments).slice(0, -1)))
       .then((v) => done({ ok: true, v }), (e) => done({ ok: false, e: String(e && e.stack || e) }));`,
    ...args,
  ).then((r) => {
    if (!r.ok) throw new Error(`in the page: ${r.e}`);
    return r.v;
  });
}

/** Open the page with `query` ("" or "?v=1&...") and wait until the first run is shown. */
export async function open(s, query = '', { waitReady = true } = {}) {
  await s.driver.get(`${s.url}${query}`);
  if (waitReady) await waitSettled(s.driver);
}

/** The number of runs the page has computed and shown so far (`window.__playground.runs`). */
export async function runsShown(driver) {
  return page(driver, () => (window.__playground ? window.__playground.runs : 0));
}

/**
 * Wait until the page has shown more than `after` runs (computed, drawn and rewound; the hook
 * counts them) and is ready.
 */
export async function waitSettled(driver, after = 0, timeout = 30_000) {
  await until(() => page(driver, (n) => {
    const hook = window.__playground;
    const pg = window.playground;
    return Boolean(hook && hook.ready && hook.runs > n && pg && pg.state.snap && pg.state.metrics);
  }, after), after ? `run ${after + 1} to be shown` : 'the page to show its first run', timeout);
}

/** The page's own error list (uncaught errors, rejections, console.error, banner) plus, in
 * Chromium, the browser log's SEVERE entries. */
export async function pageErrors(s) {
  const out = await page(s.driver, () => {
    const errs = [...((window.__playground && window.__playground.errors) || [])];
    if (!window.__playground) errs.push('no window.__playground hook: did src/main.js run?');
    for (const b of document.querySelectorAll('.banner')) {
      if (!b.hidden && b.textContent.trim() && b.querySelector('li')) errs.push(`banner: ${b.textContent.trim()}`);
    }
    return errs;
  });
  if (s.browser === 'chromium') {
    const entries = await s.driver.manage().logs().get(logging.Type.BROWSER);
    for (const e of entries) if (e.level.value >= logging.Level.SEVERE.value) out.push(`console (${e.level.name}): ${e.message}`);
  }
  return out;
}

/** Drain Chromium's browser log (so a later check only sees new entries). */
export async function clearLogs(s) {
  if (s.browser === 'chromium') await s.driver.manage().logs().get(logging.Type.BROWSER);
}

/** The page's state in plain numbers: time, calls, both breakers, trace hash, trace rows, URL. */
export async function pageState(driver, { hash = false } = {}) {
  return page(driver, async (withHash) => {
    const pg = window.playground;
    const S = pg.state;
    const root = document.getElementById('playground');
    const stateText = [...root.querySelectorAll('.panel-now caption .state')].map((e) => e.textContent.trim());
    const rows = [...root.querySelectorAll('.panel-trace tbody tr')];
    return {
      t: S.snap ? S.snap.t_s : null,
      calls: S.snap ? S.snap.calls : null,
      lastCall: S.snap && S.snap.last_call ? { index: S.snap.last_call.index, t_s: S.snap.last_call.t_s } : null,
      statistical: S.snap ? { state: S.snap.statistical.state, generation: S.snap.statistical.generation } : null,
      window: S.snap ? { state: S.snap.window.state, generation: S.snap.window.generation } : null,
      shownStates: stateText,
      nowHead: (root.querySelector('.panel-now .now-head') || {}).textContent || '',
      lastCallText: (root.querySelector('.panel-now .lastcall') || {}).textContent || '',
      timeText: (root.querySelector('.transport output.time') || {}).textContent || '',
      scrub: Number((root.querySelector('.transport input[type=range]') || {}).value),
      traceRows: rows.length,
      currentRow: rows.findIndex((r) => r.classList.contains('current')),
      runInfo: (root.querySelector('.runinfo') || {}).textContent || '',
      scenario: S.scenario,
      end: S.end,
      hash: withHash ? await pg.engine.call('traceHash') : null,
      href: location.href,
    };
  }, hash);
}

let cliCache = new Map();
/**
 * Run the simulator's command line on `scenario` (an object, as the page holds it):
 * `breaker run --scenario file.json --format json`, plus the trace hash from the text format.
 * Returns {result, hash, events} with `events` both breakers' events merged by time (a stable
 * sort: statistical before window at equal times, as the page's list).
 */
export function simulate(scenario) {
  const key = JSON.stringify(scenario);
  if (cliCache.has(key)) return cliCache.get(key);
  const dir = mkdtempSync(join(tmpdir(), 'e2e-scenario-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, key);
  const [cmd, pre] = process.env.BREAKER_BIN
    ? [process.env.BREAKER_BIN, []]
    : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
  const run = (fmt) => execFileSync(cmd, [...pre, 'run', '--scenario', file, '--format', fmt], {
    cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const result = JSON.parse(run('json'));
    const m = /trace ([0-9a-f]{16})/.exec(run('text'));
    const events = [...result.breakers.statistical.events, ...result.breakers.window.events]
      .sort((a, b) => a.t_s - b.t_s);
    const out = { result, hash: m ? m[1] : null, events };
    cliCache.set(key, out);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Set an input of the settings form by its scenario path and commit it (the `change` a user's
 * Enter or leaving the field fires). Only `change`: the form also commits 400 ms after the last
 * `input` event (debounced typing), which would rerun and rewind once more, later.
 */
export async function setField(driver, path, value) {
  await page(driver, (p, v) => {
    const wrap = document.querySelector(`#playground .controls .field[data-path="${p}"]`);
    if (!wrap) throw new Error(`no field for ${p}`);
    const input = wrap.querySelector('input, select, textarea');
    input.focus();
    input.value = v;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    input.blur();
  }, path, String(value));
}

/**
 * Add `<breaker-playground>` elements as a docs page's script would (a module script tag, run in
 * the page itself, not in the WebDriver sandbox): it imports the element and puts each
 * `{id, attrs}` (attribute name -> value, set in order) at the top of the body, in order.
 */
export async function addPlaygrounds(driver, elements) {
  await page(driver, (list) => {
    const script = document.createElement('script');
    script.type = 'module';
    script.textContent = `import './embed/breaker-playground.js';
      for (const { id, attrs } of ${JSON.stringify(list)}) {
        const el = document.createElement('breaker-playground');
        el.id = id;
        for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
        document.body.prepend(el);
      }`;
    document.head.append(script);
  }, elements);
}

/** A transport button by its text. */
export const button = (s, text) => s.driver.findElement({ xpath: `//div[@class='transport']//button[normalize-space(.)='${text}']` });

/** The page's clock format, m:ss.cc (as format.js `clock` for runs under an hour). */
export const clock = (t) => `${Math.floor(t / 60)}:${(t % 60).toFixed(2).padStart(5, '0')}`;

/**
 * Do `act` (async) and wait for the page to show a new cursor snapshot. On a timeout the error
 * says what the page was doing (a run loaded, requests to the worker unanswered, the analysis
 * figures, the clicks it saw since `act`): a run of the whole suite once waited 20 s here after
 * a click on a trace row and said only "false".
 */
export async function newSnap(s, act, what) {
  await page(s.driver, () => {
    window.__e2eSnap = window.playground.state.snap;
    window.__e2eClicks = [];
    if (!window.__e2eClickHook) {
      window.__e2eClickHook = true;
      document.addEventListener('click', (e) => {
        const el = e.target;
        const at = `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).trim().replace(/\s+/g, '.')}` : ''}`;
        if (window.__e2eClicks) window.__e2eClicks.push(`${at} "${(el.textContent || '').trim().slice(0, 30)}" at (${e.clientX}, ${e.clientY})`);
      }, true);
    }
  });
  await act();
  await until(() => page(s.driver, () => {
    const pg = window.playground;
    const S = pg.state;
    if (S.snap !== window.__e2eSnap) return true;
    const od = S.openDelay;
    return {
      loaded: S.loaded,
      t: S.snap ? S.snap.t_s : null,
      playing: S.playing,
      unanswered: pg.engine.pending ? pg.engine.pending.size : null,
      analysis: od ? (od.window === undefined ? 'window figures computing' : 'done') : 'computing',
      clicks: window.__e2eClicks,
    };
  }).then((r) => r === true || Promise.reject(new Error(JSON.stringify(r)))), what);
  return pageState(s.driver);
}

/** Change a setting and wait until the page has recomputed, drawn and rewound the new run. */
export async function change(s, path, value) {
  const n = await runsShown(s.driver);
  await setField(s.driver, path, value);
  await waitSettled(s.driver, n);
}

/** The field's inline message and whether it is marked invalid. */
export async function fieldMessage(driver, path) {
  return page(driver, (p) => {
    const wrap = document.querySelector(`#playground .controls .field[data-path="${p}"]`);
    const input = wrap.querySelector('input, select, textarea');
    return {
      text: wrap.querySelector('.msg').textContent,
      invalid: wrap.classList.contains('invalid') && input.getAttribute('aria-invalid') === 'true',
      describedBy: (input.getAttribute('aria-describedby') || '').split(' ').includes(wrap.querySelector('.msg').id),
      value: input.value,
    };
  }, path);
}
