// The wasm package's API as an npm user calls it from JS (crates/wasm/README.md), in node, on the
// page's own wasm: the counts its methods take are JS numbers, whatever number is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
  assert.match(dts, /export function analysis\(statistical: any, window: any, options\?: \{ calls_per_minute\?: number \} \| null\): any;/);
  const { statistical, window } = wasm.defaultScenario();
  const titles = (curves) => curves.map((c) => `${c.id} ${c.note}`);
  const left = wasm.analysis(statistical, window);
  assert.deepEqual(titles(left), titles(wasm.analysis(statistical, window, { calls_per_minute: 60 })));
  assert.notDeepEqual(titles(left), titles(wasm.analysis(statistical, window, { calls_per_minute: 600 })));
});
