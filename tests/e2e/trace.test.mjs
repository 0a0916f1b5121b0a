// A recorded trace replayed three ways gives one run, as a property in node (no browser): in
// the page's own wasm (the trace text in the settings), natively from a file
// (`breaker run --trace FILE`, read streaming) and natively from the settings
// (`breaker run --scenario FILE` with the trace text in it). Traces are drawn with equal times,
// every outcome form, units on latencies, comments, blank lines, a header, spaces, CRLF and a
// byte order mark; invalid ones must be refused by all three with the same message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { wasm } from './arbitrary.mjs';
import { ROOT } from './helpers.mjs';
import { reachTimeout } from '../../www/src/tracenote.js';

const OUTCOMES = ['success', 'ok', 'fail', 'timeout', 'refused', 'server_error', 'overload',
  'service_rate_limited', 'auth_rejected', 'input_rejected', 'user_rate_limited', '200', '301',
  '401', '404', '408', '429', '500', '503', '599', 'SUCCESS', ' ok '];

/** One trace line's fields, as text. */
const line = fc.record({
  gap: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 30, noNaN: true }), fc.constantFrom(1e-9, 0.1, 5)),
  outcome: fc.constantFrom(...OUTCOMES),
  latency: fc.oneof(
    fc.double({ min: 0, max: 40, noNaN: true }).map(String),
    fc.constantFrom('0', '0.05', '120ms', '2s', '30', '31', '1e-3', ' 0.2 '),
  ),
  before: fc.constantFrom('', '', '', '# a comment\n', '\n', '   \n'),
  // Now and then a line the reader must refuse, naming the line and the field.
  broken: fc.oneof({ weight: 30, arbitrary: fc.constant(null) }, {
    weight: 1,
    arbitrary: fc.constantFrom('teapot', '-1', 'back', 'four', 'empty', 'nan', '1e10', 'x s'),
  }),
});

const trace = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 200 }),
  header: fc.boolean(),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
}).map(({ lines, header, crlf, bom, finalNewline }) => {
  let t = 0;
  const rows = lines.map((l) => {
    t += l.gap;
    const [time, outcome, latency] = {
      teapot: [t, 'teapot', l.latency],
      '-1': [t, l.outcome, '-1'],
      back: [t - 1, l.outcome, l.latency],
      four: [t, l.outcome, `${l.latency},x`],
      empty: [t, '', l.latency],
      nan: ['NaN', l.outcome, l.latency],
      '1e10': [1e10, l.outcome, l.latency],
      'x s': [t, l.outcome, 'x s'],
    }[l.broken] || [t, l.outcome, l.latency];
    return `${l.before}${time},${outcome},${latency}`;
  });
  let text = `${header ? 'time_s,outcome,latency_s\n' : ''}${rows.join('\n')}${finalNewline ? '\n' : ''}`;
  if (crlf) text = text.replaceAll('\n', '\r\n');
  return bom ? `\uFEFF${text}` : text;
});

/** Settings to replay with: the defaults, or a few callers sharing state. */
const settings = fc.constantFrom({}, { callers: { count: 3 } }, { callers: { count: 2, shared_state: true }, window: { sliding_window_size: 5, minimum_number_of_calls: 3 } });

const [cmd, pre] = process.env.BREAKER_BIN ? [process.env.BREAKER_BIN, []] : ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
/** The command line's trace hash, or its error message (first line of stderr). */
function cli(args) {
  try {
    const out = execFileSync(cmd, [...pre, 'run', ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { hash: /trace ([0-9a-f]{16})/.exec(out)[1] };
  } catch (e) {
    // A trace's refusal starts with where it came from (the --trace file, or the --scenario
    // file holding it): the rest is the reader's message.
    const from = args.includes('--trace') ? args[args.indexOf('--trace') + 1] : `--scenario ${args[args.indexOf('--scenario') + 1]}`;
    const first = String(e.stderr).trim().split('\n')[0].replace(/^breaker: /, '');
    // It may end with a hint on mending a log's export (the command line's own, after '; '):
    // the reader's message is what comes before it.
    const hint = /; (times are seconds|a header, if any|sort the rows|times and latencies|fields are not quoted|a carriage return).*$/;
    return { error: first.startsWith(`${from}: `) ? first.slice(from.length + 2).replace(hint, '') : first };
  }
}

/** The command line's count of calls that took the call timeout, from its replay lines. */
function cliReach(args) {
  const out = execFileSync(cmd, [...pre, 'run', ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const m = /(\d+) of (\d+) calls not recorded as timeouts took the call timeout/.exec(out);
  const calls = Number(/: (\d+) calls? from/.exec(out)?.[1] ?? NaN);
  return m ? { calls: Number(m[2]), reach: Number(m[1]) } : { calls, reach: 0 };
}

test('a trace replays to the same run in the page\'s wasm, from a file and from the settings natively', () => {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-trace-'));
  let replayed = 0;
  let reaching = 0;
  try {
    fc.assert(fc.property(trace, settings, (text, base) => {
      const csv = join(dir, 'trace.csv');
      const json = join(dir, 'scenario.json');
      const withSettings = join(dir, 'settings.json');
      writeFileSync(csv, text);
      writeFileSync(json, JSON.stringify({ ...base, trace: text }));
      writeFileSync(withSettings, JSON.stringify(base));
      let page;
      try {
        const pg = new wasm.Playground({ ...base, trace: text });
        while (!pg.finished()) pg.advance(100_000);
        page = { hash: pg.traceHash().slice(0, 16) };
        pg.free();
      } catch (e) {
        page = { error: e.message };
      }
      const fromFile = cli(['--scenario', withSettings, '--trace', csv]);
      const fromSettings = cli(['--scenario', json]);
      if (page.hash) {
        replayed += 1;
        // The page's note on latencies at the call timeout counts what the command line does.
        const timeout = wasm.normalizeScenario({ ...base, trace: text }).callers.call_timeout;
        const want = cliReach(['--scenario', withSettings, '--trace', csv]);
        const got = reachTimeout(text, timeout);
        if (want.reach) assert.deepEqual(got, want, 'the page\'s count of calls at the call timeout');
        else assert.equal(got.reach, 0, 'no call at the call timeout');
        if (got.reach) reaching += 1;
      }
      assert.deepEqual(fromSettings, page, 'the settings natively and in wasm');
      assert.deepEqual(fromFile, page, 'the file natively (streaming) and the settings in wasm');
    }), { numRuns: 120 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(replayed >= 40 && replayed <= 118, `${replayed} of 120 traces replayed (the others refused)`);
  assert.ok(reaching >= 10, `${reaching} replayed traces had calls at the call timeout`);
});

test('a 408 written as the simulator reads a status ("+408", "0408") is a timeout to the page\'s note too', () => {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-trace-'));
  try {
    const text = '0,0408,40\n1,+408,40\n2,408,40\n3,ok,40\n4,ok,0.1\n';
    const csv = join(dir, 'trace.csv');
    writeFileSync(csv, text);
    // The page counted the first two as answers that took the call timeout (30 s).
    assert.deepEqual(reachTimeout(text, 30), { calls: 5, reach: 1 });
    assert.deepEqual(cliReach(['--trace', csv]), { calls: 5, reach: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
