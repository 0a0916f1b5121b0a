// The wasm package's API as an npm user calls it from JS (crates/wasm/README.md), in node, on the
// page's own wasm: the counts its methods take are JS numbers, whatever number is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wasm } from './arbitrary.mjs';
import { ROOT } from './helpers.mjs';

/** A one-minute run of 300 calls with state changes (the page's default preset). */
function playground() {
  return new wasm.Playground(wasm.presets().find((p) => p.name === 'recovery-warmup').scenario);
}

test('advance: any number computes at least one call, Infinity and 2^32 the rest of the run', () => {
  // Taken as a u32, 2^32 and Infinity wrapped to 0 calls and NaN was 0: `while (pg.advance(n) < 1)`
  // never ended. -1 wrapped to 2^32 - 1.
  for (const n of [Infinity, 2 ** 32, 2 ** 53, 1e300]) {
    const pg = playground();
    assert.equal(pg.advance(n), 1, `advance(${n})`);
    pg.free();
  }
  for (const n of [NaN, 0, -1, 0.5, -Infinity]) {
    const pg = playground();
    let rounds = 0;
    let last = 0;
    for (let f = 0; f < 1; rounds++) {
      f = pg.advance(n);
      assert.ok(f >= last, `advance(${n}): ${f} after ${last}`);
      last = f;
      assert.ok(rounds < 10000, `advance(${n}): no end`);
    }
    // One call at a time: a round per call of the run.
    const calls = pg.metrics().calls;
    assert.ok(calls > 250 && rounds >= calls, `advance(${n}): ${rounds} rounds for ${calls} calls`);
    pg.free();
  }
  // Rounded down: 100.9 computes as far as 100, short of 101.
  const reached = (n) => {
    const pg = playground();
    pg.advance(n);
    const t = pg.reached();
    pg.free();
    return t;
  };
  assert.equal(reached(100.9), reached(100));
  assert.ok(reached(101) > reached(100));
});

test('events and series: a count past 2^32 is not wrapped', () => {
  const pg = playground();
  pg.advance(Infinity);
  const all = pg.events(Infinity);
  assert.ok(all.total > 2 && all.list.length === all.total, JSON.stringify(all.total));
  assert.equal(pg.events(2 ** 32).list.length, all.total, 'events(2^32) lists all (it listed none)');
  assert.equal(pg.events(2 ** 32 + 2).list.length, all.total, 'events(2^32 + 2) lists all (it listed 2)');
  assert.equal(pg.events(2.9).list.length, 2);
  for (const n of [NaN, -1, 0.5, -Infinity]) assert.equal(pg.events(n).list.length, 0, `events(${n})`);
  assert.equal(pg.events().list.length, Math.min(5000, all.total));
  const width = (buckets) => pg.series(0, 60, buckets).s_level_max.length;
  assert.equal(width(2 ** 32 + 10), 20000, 'series(2^32 + 10 buckets): the cap (it gave 10)');
  assert.equal(width(Infinity), 20000);
  assert.equal(width(NaN), 1);
  assert.equal(width(-5), 1);
  assert.equal(width(10.7), 10);
  pg.free();
});

test('analysis: the options may be left out, to TypeScript as to the code (60 calls/min)', () => {
  const dts = readFileSync(join(ROOT, 'www/dist/pkg/breaker_wasm.d.ts'), 'utf8');
  // It was `options: any`: `analysis(st, win)`, as the API README writes it, did not compile.
  assert.match(dts, /export function analysis\(statistical: StatisticalInput, window: WindowInput, options\?: \{ calls_per_minute\?: number \} \| null\): Curve\[\];/);
  const { statistical, window } = wasm.defaultScenario();
  const titles = (curves) => curves.map((c) => `${c.id} ${c.note}`);
  const left = wasm.analysis(statistical, window);
  assert.deepEqual(titles(left), titles(wasm.analysis(statistical, window, { calls_per_minute: 60 })));
  assert.notDeepEqual(titles(left), titles(wasm.analysis(statistical, window, { calls_per_minute: 600 })));
});

/**
 * The `.d.ts`'s own interfaces and type aliases: {name: {field: type}} and {name: type}, and
 * {name: [the fields declared optional]}.
 */
function declared(dts) {
  const interfaces = {};
  const optional = {};
  for (const m of dts.matchAll(/^export interface (\w+) \{\n([\s\S]*?)\n\}/gm)) {
    const fields = [...m[2].matchAll(/^\s+(\w+)(\?)?: (.+);$/gm)];
    interfaces[m[1]] = Object.fromEntries(fields.map((f) => [f[1], f[3]]));
    optional[m[1]] = fields.filter((f) => f[2]).map((f) => f[1]);
  }
  const aliases = Object.fromEntries([...dts.matchAll(/^export type (\w+) = (.+);$/gm)].map((m) => [m[1], m[2]]));
  return { interfaces, aliases, optional };
}

/** Unions split at their top level (not inside braces or brackets). */
function alternatives(type) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    if ('{['.includes(type[i])) depth++;
    else if ('}]'.includes(type[i])) depth--;
    else if (depth === 0 && type.startsWith(' | ', i)) { out.push(type.slice(start, i)); start = i + 3; }
  }
  return [...out, type.slice(start)];
}

/** Whether `value` is of the declared `type` (the forms the `.d.ts`'s shapes use); a reason if not. */
function mismatch(value, type, decl, path) {
  const fails = [];
  for (const alt of alternatives(type.trim())) {
    let why = null;
    if (alt === 'any') return null;
    if (alt === 'null') why = value === null ? null : 'not null';
    else if (['number', 'string', 'boolean'].includes(alt)) why = typeof value === alt ? null : `not a ${alt}`;
    else if (alt === 'Float64Array') why = value instanceof Float64Array ? null : 'not a Float64Array';
    else if (/^".*"$/.test(alt)) why = value === JSON.parse(alt) ? null : `not ${alt}`;
    else if (alt === '`${number}`') why = typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? null : 'not a number as text';
    else if (alt.endsWith('[]')) {
      why = Array.isArray(value) ? value.map((v, i) => mismatch(v, alt.slice(0, -2), decl, `${path}[${i}]`)).find(Boolean) ?? null : 'not an array';
    } else if (alt.startsWith('[')) {
      const items = alt.slice(1, -1).split(', ');
      why = Array.isArray(value) && value.length === items.length
        ? items.map((t, i) => mismatch(value[i], t, decl, `${path}[${i}]`)).find(Boolean) ?? null : 'not a tuple';
    } else if (alt.startsWith('{ kind: string; [key: string]: ')) {
      const each = alt.slice('{ kind: string; [key: string]: '.length, -2);
      why = value && typeof value === 'object' && typeof value.kind === 'string'
        ? Object.entries(value).map(([k, v]) => mismatch(v, each, decl, `${path}.${k}`)).find(Boolean) ?? null : 'not a detail';
    } else if (decl.aliases[alt]) why = mismatch(value, decl.aliases[alt], decl, path);
    else if (decl.interfaces[alt] || alt.startsWith('{ ')) {
      // An interface, or an object written inline: `{ list: BreakerEvent[]; total: number }`.
      const fields = decl.interfaces[alt] || Object.fromEntries(alt.slice(2, -2).split('; ').map((f) => f.split(/: (.*)/s).slice(0, 2)));
      // A field declared optional (`n?: number`) may be absent; one present is checked.
      const optional = decl.optional[alt] || [];
      if (!value || typeof value !== 'object') why = `not an object (${alt})`;
      else {
        const keys = Object.keys(value);
        const missing = Object.keys(fields).filter((k) => !optional.includes(k) && !keys.includes(k));
        const extra = keys.filter((k) => !(k in fields));
        why = missing.length || extra.length ? `missing ${missing}, not declared ${extra} (${alt})`
          : keys.map((k) => mismatch(value[k], fields[k], decl, `${path}.${k}`)).find(Boolean) ?? null;
      }
    } else throw new Error(`a type this check does not read: ${alt}`);
    if (why === null) return null;
    fails.push(why);
  }
  return `${path}: ${JSON.stringify(value)?.slice(0, 200)} is ${type}? ${fails.join('; ')}`;
}

test('the .d.ts shapes of the settings, the cursor, the events, the run, its metrics, derived numbers and series, and the presets are what the calls return', () => {
  const dts = readFileSync(join(ROOT, 'www/dist/pkg/breaker_wasm.d.ts'), 'utf8');
  const decl = declared(dts);
  assert.ok(['Snapshot', 'Observation', 'CallReport', 'Decided', 'BreakerEvent', 'Info', 'Preset', 'RunMetrics', 'Derived', 'Series', 'Scenario', 'Phase', 'WindowSettings'].every((n) => decl.interfaces[n]), Object.keys(decl.interfaces).join());
  const returns = (method) => new RegExp(`^ {4}${method}\\([^)]*\\): (.+);$`, 'm').exec(dts)?.[1];
  const check = (value, type, path) => { const why = mismatch(value, type, decl, path); assert.equal(why, null); };
  const presets = wasm.presets();
  check(presets, /^export function presets\(\): (.+);$/m.exec(dts)[1], 'presets()');
  let seen = 0;
  // The settings as given back: the default, each preset's (checked with presets() above) read
  // again, one with a trace and one with time-based windows and even arrivals.
  check(wasm.defaultScenario(), /^export function defaultScenario\(\): (.+);$/m.exec(dts)[1], 'defaultScenario()');
  const normalized = /^export function normalizeScenario\(scenario: ScenarioInput\): (.+);$/m.exec(dts)[1];
  for (const p of presets) check(wasm.normalizeScenario(p.scenario), normalized, `normalizeScenario(${p.name})`);
  const traced = wasm.normalizeScenario({ trace: 'time_s,outcome,latency_s\n0.5,success,0.01\n', traffic: { arrivals: 'even' }, window: { sliding_window_type: 'TIME_BASED', transition_to_state_after_wait_duration: 'CLOSED' } });
  assert.equal(typeof traced.trace, 'string');
  check(traced, normalized, 'normalizeScenario(a trace, TIME_BASED, even arrivals)');
  // The default scenario: no state change, no outage (nulls where there is nothing to time).
  const quiet = new wasm.Playground(wasm.defaultScenario());
  quiet.advance(Infinity);
  check(quiet.metrics(), returns('metrics'), 'default metrics()');
  quiet.free();
  for (const name of ['late-results', 'recovery-warmup', 'bursty-failures']) {
    const pg = new wasm.Playground(presets.find((p) => p.name === name).scenario);
    check(pg.metrics(), returns('metrics'), `${name} metrics() before advance`);
    pg.advance(Infinity);
    check(pg.scenario(), returns('scenario'), `${name} scenario()`);
    check(pg.metrics(), returns('metrics'), `${name} metrics()`);
    check(pg.derived(), returns('derived'), `${name} derived()`);
    check(pg.series(0, pg.info().duration, 50), returns('series'), `${name} series()`);
    check(pg.info(), returns('info'), `${name} info()`);
    check(pg.snapshot(), returns('snapshot'), `${name} snapshot()`);
    for (let t = 0; t <= pg.info().duration; t += pg.info().duration / 40) check(pg.seek(t), returns('seek'), `${name} seek(${t})`);
    pg.seek(0);
    for (let i = 0; i < 30; i++) check(pg.stepCall(), returns('stepCall'), `${name} stepCall()`);
    for (let i = 0; i < 5; i++) check(pg.stepBack(), returns('stepBack'), `${name} stepBack()`);
    for (let i = 0; i < 500; i++) {
      const r = pg.nextEvent();
      check(r, returns('nextEvent'), `${name} nextEvent()`);
      seen += r.event ? 1 : 0;
      if (!r.event) break;
    }
    check(pg.events(Infinity), returns('events'), `${name} events()`);
    pg.free();
  }
  assert.ok(seen > 50, `${seen} events checked`);
  // analysis(): the page's curves at the defaults, at every preset's settings and traffic, and
  // with time-based windows; simulated lines (with their intervals) and marks among them.
  const analysisType = /^export function analysis\([^)]*\): (.+);$/m.exec(dts)[1];
  const lines = { simulated: 0, other: 0, marks: 0, unmarked: 0 };
  const settings = [wasm.defaultScenario(), ...presets.map((p) => p.scenario), wasm.normalizeScenario({ window: { sliding_window_type: 'time_based', sliding_window_size: 10 } })];
  for (const s of settings) {
    const curves = wasm.analysis(s.statistical, s.window, { calls_per_minute: s.traffic.calls_per_minute });
    check(curves, analysisType, `analysis(${s.name || 'default'})`);
    for (const c of curves) {
      for (const l of c.series) lines[l.kind === 'simulated' && 'ci95_lo' in l ? 'simulated' : 'other']++;
      lines[c.mark ? 'marks' : 'unmarked']++;
    }
  }
  assert.ok(Object.values(lines).every((n) => n > 0), JSON.stringify(lines));
});

test('a key with a dot in it is an unknown field under its own name, as natively (it was blamed on the field its path named)', () => {
  for (const [given, key] of [
    [{ 'statistical.fine_rate': 'abc' }, 'statistical.fine_rate'],
    [{ statistical: { 'fine_rate.x': 1 } }, 'fine_rate.x'],
    [{ window: { 'x.y': 2 } }, 'x.y'],
    [{ dependency: [{}, { start: 10, 'burst.enter': 0.5 }] }, 'burst.enter'],
  ]) {
    assert.throws(() => wasm.normalizeScenario(given), (e) => e.message.startsWith(`scenario is invalid: unknown field \`${key}\`, expected one of`), JSON.stringify(given));
  }
});

/** Each settings type the calls take, beside the one they give back. */
const INPUTS = {
  ScenarioInput: 'Scenario', CallersInput: 'Callers', PhaseInput: 'Phase', BurstInput: 'Burst',
  StatisticalInput: 'StatisticalSettings', TrafficInput: 'Traffic', WindowInput: 'WindowSettings',
};

test('the .d.ts settings taken: every field of the settings given back, optional, and text exactly where the reader takes text', () => {
  const dts = readFileSync(join(ROOT, 'www/dist/pkg/breaker_wasm.d.ts'), 'utf8');
  const decl = declared(dts);
  assert.match(dts, /^ {4}constructor\(scenario: ScenarioInput\);$/m);
  assert.match(dts, /^export function normalizeScenario\(scenario: ScenarioInput\): Scenario;$/m);
  assert.equal(decl.aliases.Seconds, 'number | string');
  assert.equal(decl.aliases.Fraction, 'number | string');
  // Field by field: a number given back is taken as a number, or as text where the field is
  // Seconds or a Fraction; a part's type is its input type; anything else is taken as given back.
  const kinds = {};
  for (const [input, output] of Object.entries(INPUTS)) {
    const [i, o] = [decl.interfaces[input], decl.interfaces[output]];
    assert.ok(i && o, `${input} and ${output} declared`);
    assert.deepEqual(Object.keys(i).sort(), Object.keys(o).sort(), `${input}'s fields are ${output}'s`);
    assert.deepEqual(decl.optional[input].sort(), Object.keys(i).sort(), `every field of ${input} optional`);
    assert.deepEqual(decl.optional[output], [], `${output} has every field`);
    for (const [k, t] of Object.entries(i)) {
      const back = o[k];
      const part = Object.entries(INPUTS).find(([, out]) => back === out || back === `${out}[]`);
      if (back === 'number') assert.ok(['number', 'Seconds', 'Fraction'].includes(t), `${input}.${k}: ${t}`);
      else if (part) assert.equal(t, back.replace(part[1], part[0]), `${input}.${k}`);
      // Names taken in more forms than they are given back in: checked against the reader below.
      else if (t !== back) assert.ok(/^"|^FailureInput$/.test(t), `${input}.${k}: ${t} for ${back}`);
      kinds[`${output}.${k}`] = t;
    }
  }
  // Against the reader: every field of a scenario with a phase, its default value written as
  // text, with its unit, as another unit, as null.
  const d = wasm.defaultScenario();
  const leaves = [];
  const walk = (o, type, path) => {
    for (const [k, v] of Object.entries(o)) {
      const t = decl.interfaces[type][k];
      const part = Object.values(INPUTS).find((out) => t === out || t === `${out}[]`);
      if (part) (Array.isArray(v) ? v : [v]).slice(0, 1).forEach((x) => walk(x, part, Array.isArray(v) ? [...path, k, 0] : [...path, k]));
      else leaves.push({ path: [...path, k], value: v, kind: kinds[`${type}.${k}`], back: t });
    }
  };
  walk(d, 'Scenario', []);
  assert.ok(leaves.length > 50 && leaves.some((l) => l.path.join('.') === 'dependency.0.burst.enter'), `${leaves.length} fields`);
  const read = (path, x) => {
    const s = structuredClone(d);
    path.slice(0, -1).reduce((o, k) => o[k], s)[path.at(-1)] = x;
    try { return { value: path.reduce((o, k) => o[k], wasm.normalizeScenario(s)) }; } catch (e) { return { error: e.message }; }
  };
  const near = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));
  let texts = 0;
  for (const { path, value, kind } of leaves) {
    const at = path.join('.');
    assert.deepEqual(read(path, value), { value }, `${at} = its default`);
    const nullable = alternatives(kind).includes('null');
    assert.equal('value' in read(path, null), nullable, `${at} = null: taken only where the type is nullable (${kind})`);
    if (typeof value !== 'number') continue;
    const plain = read(path, String(value));
    if (kind === 'number') {
      assert.match(plain.error ?? '', new RegExp(`^${at.replaceAll('.', '\\.')} = "${value}" is invalid: allowed a (whole )?number`), `${at} = "${value}": refused, as the type says (${kind})`);
      continue;
    }
    assert.deepEqual(plain, { value }, `${at} = "${value}" (${kind})`);
    const [unit, other] = kind === 'Seconds' ? [`${value * 1000}ms`, '5%'] : [`${value * 100}%`, '1m'];
    const r = read(path, unit);
    assert.ok('value' in r && near(r.value, value), `${at} = "${unit}": ${JSON.stringify(r)}`);
    assert.ok('error' in read(path, other), `${at} = "${other}" refused (${kind})`);
    texts++;
  }
  assert.ok(texts >= 30, `${texts} fields taken as text`);
  // Names (an outcome, a condition, a window's kind...): the type admits none the reader
  // refuses, among the names given back, their upper case, "success", another name, HTTP
  // statuses as numbers and as text; and every name given back that the reader takes, it admits.
  let names = 0;
  for (const { path, kind, back } of leaves) {
    if (['number', 'Seconds', 'Fraction', 'string', 'boolean', 'string | null'].includes(kind)) continue;
    const given = alternatives(decl.aliases[back] ?? back).map((a) => JSON.parse(a));
    const probes = [...given, ...given.map((g) => g.toUpperCase()), 'success', 'half_open', 'bogus', 503, '503'];
    const at = path.join('.');
    for (const v of probes) {
      const admitted = mismatch(v, kind, decl, at) === null;
      const taken = 'value' in read(path, v);
      if (admitted) assert.ok(taken, `${at} = ${JSON.stringify(v)}: the type (${kind}) admits it, the reader refuses it`);
      if (given.includes(v)) assert.equal(admitted, taken, `${at} = ${JSON.stringify(v)}: given back; taken ${taken}, admitted ${admitted}`);
    }
    names++;
  }
  assert.equal(names, 5, 'failure, condition, arrivals, the window\'s kind and its state after the wait');
  // analysis() takes the breakers' inputs, text as numbers.
  assert.deepEqual(wasm.analysis({ fine_rate: '2%', first_wait: '1m' }, { wait_duration_in_open_state: '30s' }),
    wasm.analysis({ fine_rate: 0.02, first_wait: 60 }, { wait_duration_in_open_state: 30 }));
});

test('TypeScript (tsc --strict) compiles a program using the .d.ts as the API README does, and refuses wrong settings', () => {
  // Each `@ts-expect-error` fails the compile if its line compiles: with settings typed `any`,
  // none of the wrong settings below was caught.
  const program = `
import init, { Playground, presets, normalizeScenario, defaultScenario, analysis, type ScenarioInput, type Snapshot } from ${JSON.stringify(join(ROOT, 'www/dist/pkg/breaker_wasm.js'))};
await init();
const pg = new Playground({ duration: '2h', statistical: { fine_rate: '2%', first_wait: 30 }, dependency: [{ failure_rate: 0.01 }, { start: '1h', condition: 'outage', failure_rate: '50%' }] });
while (pg.advance(5000) < 1) { /* the rest of the run */ }
const snap: Snapshot = pg.seek(12.5);
const level: number = snap.statistical.level;
console.log(level, pg.events().list[0]?.reason, pg.metrics().statistical.metrics.openings, pg.series(0, 60, 600).s_level_max[0]);
const back: ScenarioInput = normalizeScenario(presets()[0].scenario);
const d = defaultScenario();
analysis(d.statistical, d.window);
const curves = analysis({ fine_rate: '1%' }, { sliding_window_size: 50 }, { calls_per_minute: 600 });
const simulated = curves.flatMap((c) => c.series).filter((l) => l.kind === 'simulated').map((l) => [l.n, l.ci95_lo?.[0]]);
console.log(simulated, curves[0].mark?.x[0]);
// @ts-expect-error: no such kind of figure
console.log(curves[0].series[0].kind === 'guess');
new Playground(back).free();
normalizeScenario({ dependency: [{ failure: 503 }, { start: '1h', failure: '429' }, { start: '2h', failure: 'fail' }], window: { sliding_window_type: 'COUNT_BASED' } });
// @ts-expect-error: a phase's failure is not a success
normalizeScenario({ dependency: [{ failure: 'success' }] });
// @ts-expect-error: a misspelt setting
new Playground({ statistical: { fine_rat: 0.05 } });
// @ts-expect-error: the seed is a number
new Playground({ seed: '7' });
// @ts-expect-error: a count is a number, not text
new Playground({ callers: { count: '3' } });
// @ts-expect-error: no such arrivals
new Playground({ traffic: { arrivals: 'uniform' } });
// @ts-expect-error: a phase list, not one phase
normalizeScenario({ dependency: { failure_rate: 0.5 } });
// @ts-expect-error: the window breaker's settings are not the statistical one's
analysis(d.statistical, { fine_rate: 0.05 });
// @ts-expect-error: a snapshot's time is t_s
console.log(snap.time_s);
pg.free();
`;
  const dir = mkdtempSync(join(tmpdir(), 'breaker-tsc-'));
  try {
    writeFileSync(join(dir, 'use.ts'), program);
    const tsc = join(ROOT, 'tests/e2e/node_modules/typescript/bin/tsc');
    let out = '';
    try {
      execFileSync(process.execPath, [tsc, '--strict', '--noEmit', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'bundler',
        '--lib', 'es2022,dom,esnext.disposable', join(dir, 'use.ts')], { encoding: 'utf8' });
    } catch (e) { out = `${e.stdout}${e.stderr}`; }
    assert.equal(out, '', 'tsc reports nothing');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
