// The walkthrough's ten steps ("How it works", www/learn.html).
//
// Each step is data plus a little prose:
//   title          the heading;
//   commands(S, r) `breaker analyze` argument lists, built from the reader's settings S (and, for
//                  later commands, the results r of earlier ones); the page runs them through the
//                  wasm `analyze()` and shows each as a command line the reader can run natively;
//   scenario(S, r)  the small run the step plays (simulator Scenario JSON, partial: the
//                  worker fills the defaults);
//   look           which panel the step points at, and what to look for in it;
//   seek           where to put the cursor after the run: 'first-opening', 'first-close', or seconds;
//                  with neither in the run, a note under `look` says the run shows none;
//   needs          [[expr, what], ...]: what else the run must show for `look` to find it, as
//                  expressions over the run ("run:statistical.totals.failed"); where one is 0
//                  the same note says the run shows `what` ("no failed call");
//   body(t)        the prose: `t.p(...)` paragraphs, `t.f(expr, opts)` live numbers (opts: kind,
//                  which a number must give unless its expression is a report's figure, which
//                  carries its own: one with neither reads "not computed"; unit, fmt; `none`:
//                  what to say for a figure with no value, e.g. a time to open of a breaker
//                  that did not open; without it, no value reads ∞, unless
//                  the report gives a note for it: then "not computed"; `missing`: why a figure
//                  can be absent from its report, where the report gives no note).
//
// A number's `expr` is evaluated against the results: a reference "c0:points.0.calls.exact" (command
// 0's JSON at that path; a figure object gives its value and its kind), "s:fine" (a setting),
// "run:statistical.metrics.openings" (this step's simulated run, the page's `metrics()`), a
// literal number, or [op, ...args] with op in OPS. The browser tests evaluate the same
// expressions against the native command line's output and compare.

/** The reader's settings: the form's fields and their ranges (shown as `value × scale`). */
export const FIELDS = [
  { key: 'fine', label: 'Fine failure rate p0', unit: '%', scale: 100, min: 0.001, max: 99.9 },
  { key: 'broken', label: 'Broken failure rate p1', unit: '%', scale: 100, min: 0.01, max: 99.99 },
  { key: 'a', label: 'Trial wrongly opens a', unit: '%', scale: 100, min: 0.001, max: 50 },
  { key: 'b', label: 'Trial wrongly closes b', unit: '%', scale: 100, min: 0.001, max: 50 },
  { key: 'period', label: 'At most one false alarm per', unit: 'days', scale: 1 / 86400, min: 0.0001, max: 3650 },
  { key: 'cpm', label: 'Traffic', unit: 'calls/min', scale: 1, min: 0.01, max: 100000 },
];

export const DEFAULTS = { fine: 0.05, broken: 0.2, a: 0.01, b: 0.05, period: 30 * 86400, cpm: 60 };

/** The operations numbers may use (also implemented by tests/e2e/learn.test.mjs). */
export const OPS = {
  add: (x, y) => x + y,
  sub: (x, y) => x - y,
  mul: (x, y) => x * y,
  div: (x, y) => x / y,
  neg: (x) => -x,
  abs: (x) => Math.abs(x),
  exp: (x) => Math.exp(x),
  // A count to reach a line (line / weight): a tie to rounding reaches it, as the breaker compares
  // (breaker::score::TIE, a relative 1e-12): two failures of ln 3 reach ln 9.
  ceil: (x) => Math.ceil(x - x * 1e-12),
  min: (x, y) => Math.min(x, y),
  max: (x, y) => Math.max(x, y),
  // 1 when x < y, else 0: for a sentence shown only when it holds (`t.when`).
  lt: (x, y) => (x < y ? 1 : 0),
  pow: (x, y) => x ** y,
  ln: (x) => Math.log(x),
};

/** Numbers as the command line reads them: the shortest text that parses back to the same double. */
export const arg = (x) => String(x);

/** The two failure rates: all that `analyze drift` reads (it refuses a flag it does not use). */
export function pair(S) {
  return ['--fine', arg(S.fine), '--broken', arg(S.broken)];
}

/** The flags `analyze trials` takes from the settings: the rates, Wald's a and b, the traffic. */
export function rates(S) {
  return [...pair(S), '--a', arg(S.a), '--b', arg(S.b), '--calls-per-minute', arg(S.cpm)];
}

/** The flags of the closed breaker's commands (false-alarms, open-delay): the rates and the false-alarm period. */
export function base(S) {
  return [...rates(S), '--period', arg(S.period)];
}

/** Every answer's latency in the steps' runs: the simulator's default (a phase's `latency`). */
const ANSWER_S = 0.05;
/** The breaker's default half-open time factor. */
const DEFAULT_TIME_FACTOR = 3;
/**
 * Half-open's time factor in the steps' runs. The default, 3, counts calls, not their latency:
 * answered one at a time, each in 50 ms plus the wait for the next call, the trials its limit
 * holds are 3 / (1 + latency × rate) times the trials to close, fewer than twice above 600
 * calls/min (twice at 600), and once one answer outlasts the whole limit none is answered within it and the
 * breaker never closes (`StatisticalSettings::half_open_time_factor`). From 600 calls/min the
 * runs take 2 × (1 + latency × rate): room for twice the trials to close, at any traffic.
 */
export const timeFactor = (cpm) => Math.max(DEFAULT_TIME_FACTOR, 2 * (1 + ANSWER_S * (cpm / 60)));

/**
 * Why Brook and Evans' chain can be absent from a report (valid settings), as the command line's
 * text says it: its grids past the work limit, or the one within it saying nothing.
 */
const CHAIN_MISSING = 'no chain figure at these settings: past its work limit, or the finest grid within it too coarse to say anything (an error not below its value, or a value below the bound)';
/** Why the chain's error estimate can be absent: no figure, or no coarser grid to set it beside. */
const CHAIN_ERROR_MISSING = 'no error estimate for the chain at these settings: it has no figure, or no coarser grid to compare its figure with';
/** Step 2's k: one call in k fails, evenly (p0 rounded, at least 2). */
const oneIn = (S) => Math.max(2, Math.round(1 / S.fine));
/**
 * A step's run length: `least` seconds, or long enough for `calls` calls at the reader's traffic
 * (whole minutes), up to 30 days: steps 2 and 3 show failures where p0 is small or traffic low.
 */
const lasting = (least, calls, S) => Math.min(30 * 86400, Math.max(least, Math.ceil(calls / S.cpm) * 60));

/** The statistical settings of a scenario, from the reader's settings. */
function statistical(S, over = {}) {
  return {
    fine_rate: S.fine, broken_rate: S.broken, false_alarm_period: S.period,
    trial_wrongly_opens: S.a, trial_wrongly_closes: S.b, expected_calls_per_minute: S.cpm,
    half_open_time_factor: timeFactor(S.cpm), ...over,
  };
}

// Step 5's bursts: a burst starts at a call with chance BURST_ENTER × p0 and ends with chance
// BURST_LEAVE (every call in it fails), so a share enter / (enter + leave) of calls is in one:
// about 0.15 p0, and with the usual rate p0 / 5 outside them the service fails at most 0.35 p0.
const BURST_ENTER = 0.06;
const BURST_LEAVE = 0.4;
const IN_BURST = ['div', ['mul', BURST_ENTER, 's:fine'], ['add', ['mul', BURST_ENTER, 's:fine'], BURST_LEAVE]];
/**
 * Step 5's run: six hours, or where bursts that reach the line on their own are rarer (a small
 * p0, little traffic, a line of many failures) long enough for about five of them, in whole
 * hours, at most 30 days. A burst starts about once in 1 / (BURST_ENTER × p0) calls and lasts m
 * calls or more with chance (1 − BURST_LEAVE)^(m − 1), m the failures in a row that reach the
 * line set at the usual rate (`line`, `wFail`: the step's second report). At p0 = 0.1%,
 * p1 = 0.5% and 60 calls/min, ten bursts in all (the rule before) held about 1.3 that reach the
 * line (5 in a row), and the run showed no opening; now it is 7 days 11 hours long. Where p1 is
 * near p0 (many failures in a row) it reaches the 30 days: 2.6M calls at 0.1%/0.15%. It also
 * holds at most 1e8 calls, in whole hours: at 60,000 calls/min the 30 days were 2.6e9 calls,
 * past the simulator's 1e9, and the step could not compute; 1e8 take seconds in a browser.
 */
function burstyDuration(S, line, wFail) {
  const m = OPS.ceil(line / wFail);
  const bursts = 5 / (1 - BURST_LEAVE) ** (m - 1);
  const calls = bursts / (BURST_ENTER * S.fine);
  const most = Math.min(30 * 86400, Math.floor(1e8 / (S.cpm / 60) / SECONDS_PER_HOUR) * SECONDS_PER_HOUR);
  return Math.min(most, Math.max(6 * SECONDS_PER_HOUR, Math.ceil(calls / (S.cpm / 60) / SECONDS_PER_HOUR) * SECONDS_PER_HOUR));
}
/** Half-open's time limit at the user's traffic with time factor `factor`: factor × trials to close / rate. */
const limitWith = (factor) => ['div', ['mul', factor, 'c0:trials_to_close'], 'c0:settings.calls_per_second'];
/** The limit in the step's run (steps 8 and 9). */
const HALF_OPEN_LIMIT = limitWith('sc:statistical.half_open_time_factor');
/** The same with the breaker's default factor (step 8, where the runs take a larger one). */
const DEFAULT_LIMIT = limitWith(DEFAULT_TIME_FACTOR);

/** Step 5's long-run failure rate: in a burst, or at p0 / 5 outside one. */
const BURSTY_RATE = ['add', IN_BURST, ['mul', ['sub', 1, IN_BURST], ['div', 's:fine', 5]]];
/**
 * Step 8's recovered service: it fails at p0 in all, as the closed score sees it (a hung call
 * times out, a failure), and up to 5% of calls hang (half-open loses those trials).
 */
function recovered(S) {
  const hang = Math.min(0.05, S.fine);
  return { start: 900, condition: 'fine', failure_rate: (S.fine - hang) / (1 - hang), hang_rate: hang, label: 'recovered (p0 in all), some calls hang' };
}
const fine = (S, start, over = {}) => ({ start, condition: 'fine', failure_rate: S.fine, label: 'fine (p0)', ...over });
const SECONDS_PER_HOUR = 3600;
/** The k-th reopening's wait: min(cap, first × factor^k). */
const WAIT = (k) => ['min', 'sc:statistical.wait_cap', ['mul', 'sc:statistical.first_wait', ['pow', 'sc:statistical.backoff_factor', k]]];
// Shorthands for the prose.
const pct = { fmt: 'pct' };
const setting = { kind: 'setting' };

export const STEPS = [
  {
    id: 'two-worlds',
    title: 'Fine or broken? Two worlds, two failure rates',
    commands: (S) => [['drift', ...pair(S)]],
    scenario: (S) => ({
      name: 'Learn 1: two worlds', seed: 1, duration: 20 * 60,
      traffic: { calls_per_minute: S.cpm, arrivals: 'poisson' },
      dependency: [fine(S, 0), { start: 600, condition: 'degraded', failure_rate: S.broken, label: 'broken (p1)' }],
      statistical: statistical(S),
    }),
    look: { panel: 'chart', text: 'the bottom chart: answered (green) and failed (red) calls per bucket. The first ten minutes are the fine world, the last ten the broken one. Once the breaker opens there, its calls go to the fallback (grey line) instead of the bars.' },
    seek: 20 * 60,
    needs: [['run:statistical.totals.failed', 'no failed call']],
    body: (t) => [
      t.p('After every call the breaker asks one question: is this service ', t.em('fine'), ' or ', t.em('broken'),
        '? It does not guess a failure rate; you name two worlds. In the fine world calls fail at p0 = ',
        t.f('s:fine', { ...pct, ...setting }), ', a rate you can live with. In the broken world they fail at p1 = ',
        t.f('s:broken', { ...pct, ...setting }), ', a rate worth skipping the service for.'),
      t.p('Per 100 calls that is ', t.f(['mul', 's:fine', 100], { kind: 'exact', unit: 'failures' }), ' against ',
        t.f(['mul', 's:broken', 100], { kind: 'exact', unit: 'failures' }),
        ' on average. Between the two rates lies the indifference zone: the breaker promises nothing for a service failing at, say, ',
        t.f('c0:points.1.true_rate', { ...pct, kind: 'exact' }), ', and decides slowly there (step 4).'),
      t.p('The run below plays ten minutes of each world at ', t.f('s:cpm', { ...setting, unit: 'calls/min' }),
        '. Both worlds produce failures; only their frequency tells them apart. The breaker weighs every result as evidence for one world against the other.'),
    ],
  },
  {
    id: 'likelihood-ratio',
    title: 'Each result is evidence: likelihood ratios, logs and points',
    commands: (S) => [['drift', ...pair(S)]],
    scenario: (S) => ({
      name: 'Learn 2: one call in k fails', seed: 1, duration: lasting(180, 3 * oneIn(S) + 1, S),
      traffic: { calls_per_minute: S.cpm, arrivals: 'even' },
      dependency: [{ start: 0, condition: 'fine', one_in: oneIn(S), label: `1 call in ${oneIn(S)} fails` }],
      statistical: statistical(S),
    }),
    look: { panel: 'chart', text: 'the score (blue) in the top chart: a jump up at each failure, a small step down at each success. Press “Step one call” to go call by call, and read the score in “Now”.' },
    seek: 0,
    needs: [['run:statistical.totals.failed', 'no failed call']],
    body: (t) => [
      t.p('How much more likely is a failure in the broken world than in the fine one? p1 / p0 = ',
        t.f(['div', 's:broken', 's:fine'], { kind: 'exact', unit: '×' }), '. A success: (1 − p1) / (1 − p0) = ',
        t.f(['div', ['sub', 1, 's:broken'], ['sub', 1, 's:fine']], { kind: 'exact', unit: '×' }),
        '. Multiplying these ratios over many calls gives the evidence for “broken”; taking logs turns the product into a sum.'),
      t.p('So every failure adds w_fail = ln(p1/p0) = ', t.f('c0:settings.w_fail', { kind: 'exact', unit: 'nats', fmt: 'signed' }),
        ' to a score, every success adds w_ok = ln((1−p1)/(1−p0)) = ', t.f('c0:settings.w_ok', { kind: 'exact', unit: 'nats', fmt: 'signed' }),
        ' (nats: the unit of natural logs, ln).'),
      t.p('Counting in units of one success (a point = |w_ok| = ', t.f('c0:settings.point', { kind: 'exact', unit: 'nats' }),
        '), a failure is ', t.f(['div', 'c0:settings.w_fail', 'c0:settings.point'], { kind: 'exact', unit: 'points', fmt: 'signed' }),
        ' and a success −1 point: it takes ', t.f(['ceil', ['div', 'c0:settings.w_fail', 'c0:settings.point']], { kind: 'exact', unit: 'successes' }),
        ' to undo one failure. The breaker keeps the real logs; points are only for reading.'),
      t.p('In this run one call in ', t.f('sc:dependency.0.one_in', { kind: 'setting' }),
        ' fails, evenly: watch the score jump and slide back.'),
    ],
  },
  {
    id: 'score-floor',
    title: 'The score and its floor: Wald’s test becomes Page’s CUSUM',
    commands: (S) => [['drift', ...pair(S)]],
    scenario: (S) => ({
      name: 'Learn 3: a fine service', seed: 3, duration: lasting(15 * 60, 3 / S.fine, S),
      traffic: { calls_per_minute: S.cpm, arrivals: 'poisson' },
      dependency: [fine(S, 0)],
      statistical: statistical(S),
    }),
    look: { panel: 'chart', text: 'the score (blue) resting on 0 between failures: it never goes below the floor. Step through a few calls with “Step one call” or the → key while hovering the run.' },
    seek: 0,
    needs: [['run:statistical.totals.failed', 'no failed call']],
    body: (t) => [
      t.p('Wald’s sequential test adds the weights until the sum crosses one of two lines, then stops: it decides once. A breaker watches for hours, and a sum that only adds would sink ever lower while the service is fine: at p0 it sinks on average by ',
        t.f(['neg', 'c0:points.0.points_per_call'], { kind: 'exact', unit: 'points per call' }), ', ',
        t.f(['neg', ['mul', 'c0:points.0.points_per_call', ['mul', 's:cpm', 60]]], { kind: 'exact', unit: 'points per hour' }),
        ' at your traffic, and a deep hole would hide the start of an outage.'),
      t.p('So the closed breaker floors the score: score = max(0, score + w). This is Page’s CUSUM: a Wald test that restarts whenever the evidence says “fine” more strongly than at the start. A failure at the floor lifts the score to ',
        t.f(['div', 'c0:settings.w_fail', 'c0:settings.point'], { kind: 'exact', unit: 'points' }),
        ' and it takes ', t.f(['ceil', ['div', 'c0:settings.w_fail', 'c0:settings.point']], { kind: 'exact', unit: 'successes' }),
        ' in a row to bring it back to the floor; a failure arriving before that stacks on what is left.'),
      t.p('Only a run of failures closer together than the fine rate explains can climb far. How far is far enough is the line (step 6).'),
    ],
  },
  {
    id: 'drift',
    title: 'The gap between the rates: drift, the zero-drift rate, slow decisions',
    commands: (S) => [['drift', ...pair(S)], ['open-delay', ...base(S)],
      (S2, r) => ['open-delay', ...base(S2), '--true-rate', arg(r[0].zero_drift_rate.value)]],
    scenario: (S, r) => ({
      name: 'Learn 4: p0, the zero-drift rate, p1', seed: 4, duration: 3 * SECONDS_PER_HOUR,
      traffic: { calls_per_minute: S.cpm },
      dependency: [fine(S, 0), { start: SECONDS_PER_HOUR, condition: 'degraded', failure_rate: r[0].zero_drift_rate.value, label: 'zero drift' },
        { start: 2 * SECONDS_PER_HOUR, condition: 'outage', failure_rate: S.broken, label: 'broken (p1)' }],
      statistical: statistical(S),
    }),
    look: { panel: 'chart', text: 'the score (blue) in the three hours: it hugs 0 at p0; at the zero-drift rate it wanders, and luck alone can carry it to the line (red): on average in the time given above, which at little traffic is longer than the hour; at p1 it climbs straight to the line. The cursor is at the first opening.' },
    seek: 'first-opening',
    body: (t) => [
      t.p('The drift is the expected weight per call: the score’s expected change while it is well above the floor (near 0 the floor cuts a success short). At p0 it is ',
        t.f('c0:points.0.nats_per_call', { unit: 'nats', fmt: 'signed' }), ' (', t.f('c0:points.0.points_per_call', { unit: 'points', fmt: 'signed' }),
        ') per call: the score sinks to the floor. At p1 it is ', t.f('c0:points.2.nats_per_call', { unit: 'nats', fmt: 'signed' }),
        ' (', t.f('c0:points.2.points_per_call', { unit: 'points', fmt: 'signed' }), '): it climbs.'),
      t.p('In between is the rate of zero drift, ', t.f('c0:zero_drift_rate', pct),
        '. There the weights add up to nothing on average and only luck moves the score (the floor, which stops it sinking, lets it creep up). The breaker opens when the score reaches its line, ',
        t.f('c1:points.0.line', { kind: 'exact', unit: 'nats' }), ' (', t.f('c1:points.0.line_points', { kind: 'exact', unit: 'points' }), ' on the chart) with your settings (step 6 explains that height). At p1 it opens after ',
        t.f('c1:points.0.calls.exact', { unit: 'calls' }), ' on average (', t.f('c1:points.0.seconds.exact', { fmt: 'dur' }),
        ' at your traffic); at the zero-drift rate it takes ', t.f('c2:points.0.calls.exact', { unit: 'calls' }),
        ' (', t.f('c2:points.0.seconds.exact', { fmt: 'dur' }), '), both counted from a score of 0. Wald’s formula, which ignores the overshoot (how far the last failure carries the score past the line, and the part of a success’s step the floor cuts off at 0), says ',
        t.f('c1:points.0.calls.approximation', { unit: 'calls' }), ' at p1.'),
      t.p('A narrow gap between p0 and p1 makes both weights small and every decision slow; a wide gap decides fast but is indifferent over a wider range. Change the rates in your settings and watch these numbers move.'),
    ],
  },
  {
    id: 'fine-rate',
    title: 'The fine rate is a rate you can live with, not the usual rate',
    commands: (S) => [['false-alarms', ...base(S)], ['false-alarms', ...base({ ...S, fine: S.fine / 5 })]],
    scenario: (S, r) => ({
      name: 'Learn 5: p0 set to the usual rate', seed: 5, duration: burstyDuration(S, r[1].points[0].line, r[1].settings.w_fail),
      traffic: { calls_per_minute: S.cpm },
      dependency: [{ start: 0, condition: 'fine', failure_rate: S.fine / 5, burst: { enter: BURST_ENTER * S.fine, leave: BURST_LEAVE, failure_rate: 1 }, label: 'usual rate with short bursts' }],
      statistical: statistical(S, { fine_rate: S.fine / 5 }),
    }),
    look: { panel: 'chart', text: 'the state band: red stripes are openings of a service that was fine all along (see “Metrics”: openings while fine).' },
    seek: 'first-opening',
    body: (t) => [
      t.p('Suppose the service usually fails ', t.f('c1:settings.fine', { ...pct, kind: 'setting' }),
        ' of calls, and you set p0 to that usual rate instead of the ', t.f('s:fine', { ...pct, ...setting }), ' you can live with.'),
      t.p('Then a failure weighs ', t.f('c1:settings.w_fail', { kind: 'exact', unit: 'nats' }),
        ' instead of ', t.f('c0:settings.w_fail', { kind: 'exact', unit: 'nats' }),
        ' (', t.f(['div', 'c1:settings.w_fail', 'c1:settings.point'], { kind: 'exact', unit: 'of its own successes' }), ' instead of ',
        t.f(['div', 'c0:settings.w_fail', 'c0:settings.point'], { kind: 'exact' }), '), and its line (', t.f('c1:points.0.line', { kind: 'exact', unit: 'nats' }), ') is reached by ',
        t.f(['ceil', ['div', 'c1:points.0.line', 'c1:settings.w_fail']], { kind: 'exact', unit: 'failures in a row' }),
        ', where yours (', t.f('c0:points.0.line', { kind: 'exact', unit: 'nats' }), ') takes ', t.f(['ceil', ['div', 'c0:points.0.line', 'c0:settings.w_fail']], { kind: 'exact', unit: 'failures in a row' }), '.'),
      t.p('The line is set so that a service failing at p0 reaches it only rarely (step 6 works out how rarely). That promise holds while each call fails with a chance of at most p0, whatever the calls before it did (Ville’s fair bet, step 6, needs no more). Set to the usual rate, p0 leaves no room: a few close failures, normal for any real service, now look like proof of an outage. In this run of ', t.f('sc:duration', { fmt: 'dur', ...setting }),
        ' (six hours, or, where bursts long enough to reach the line are rarer, long enough for about five of those, up to 30 days and 100 million calls) of a service within your tolerance (its failures come in short bursts; on average it fails ',
        t.f(BURSTY_RATE, { ...pct, kind: 'exact' }), ' of calls) the breaker opened ',
        t.f('run:statistical.metrics.false_openings', { kind: 'simulated', unit: 'times' }),
        ' (the window breaker, same calls: ', t.f('run:window.metrics.false_openings', { kind: 'simulated', unit: 'times' }),
        '). Set p0 to what you can live with; p1 to what is worth skipping. A higher p0 makes such alarms rarer, but inside a burst a call fails with a chance of 100% once the burst has begun, above any p0, so no p0 restores the bound for them.'),
    ],
  },
  {
    id: 'line',
    title: 'The line: Wald’s single round, rounds adding up, and ln N with Ville’s inequality',
    commands: (S) => [['false-alarms', ...base(S)],
      ['false-alarms', ...rates(S), '--line-calls', '1000', '--simulate', '200', '--seed', '1'],
      ['false-alarms', ...rates(S), '--line-calls', arg((1 - S.b) / S.a)]],
    scenario: (S) => ({
      name: 'Learn 6: a short line (N = 1000 calls)', seed: 6, duration: 24 * SECONDS_PER_HOUR,
      traffic: { calls_per_minute: S.cpm },
      dependency: [fine(S, 0)],
      statistical: statistical(S, { false_alarm_period: 1000 / (S.cpm / 60) }),
    }),
    look: { panel: 'chart', text: 'the score (blue) against the line (red): the line of this run is short (N = 1,000 calls, or the floor where that is higher), so a fine service may reach it within the day, about as often as the text expects (the day’s calls over the exact ARL), which is well below once at low traffic or with p0 and p1 close together; each time is a false alarm (state band).' },
    seek: 'first-opening',
    body: (t) => [
      t.p('Wald’s test for one round needs two lines, set by the two mistakes you allow: a, calling a fine service broken (',
        t.f('s:a', { ...pct, ...setting }), '), and b, calling a broken service fine (', t.f('s:b', { ...pct, ...setting }),
        '). Open at A = ln((1−b)/a) = ', t.f('c0:settings.upper', { kind: 'exact', unit: 'nats' }),
        ', call it fine at B = ln(b/(1−a)) = ', t.f('c0:settings.lower', { kind: 'exact', unit: 'nats' }),
        '; the test then makes those mistakes with chances of about a and b (Wald’s approximation: it ignores the overshoot). Under p0 the likelihood ratio is a fair bet: on average each call multiplies it by 1. Ville’s inequality says a fair bet that starts at 1 and cannot go below 0 ever reaches x with probability at most 1/x, so one round from 0 reaches A with probability at most e^−A = ',
        t.f(['exp', ['neg', 'c0:settings.upper']], { kind: 'bound', fmt: 'pct' }), '.'),
      t.p('But the floored score starts a new round at each failure it meets at 0. At p0 your traffic brings ',
        t.f(['mul', 's:fine', ['mul', 's:cpm', 60]], { kind: 'exact', unit: 'failures per hour' }),
        ' on average, and fewer of them start a round (a failure that comes while the score is above 0 carries on the round it is in), so at most that many rounds an hour. A round starts one failure up, at w_fail = ', t.f('c0:settings.w_fail', { kind: 'exact', unit: 'nats' }),
        ', so it reaches A with probability at most min(1, e^(w_fail − A)) = ', t.f(['min', 1, ['exp', ['sub', 'c0:settings.w_fail', 'c0:settings.upper']]], { kind: 'bound', fmt: 'pct' }),
        ' (1 where one failure alone crosses A: the line’s floor, step 7, is there for that): with line A, at most ', t.f(['mul', ['mul', 's:fine', ['mul', 's:cpm', 60]], ['min', 1, ['exp', ['sub', 'c0:settings.w_fail', 'c0:settings.upper']]]], { kind: 'bound', unit: 'false alarms per hour' }),
        ' on average. Exactly, from the average run length (ARL: the mean number of calls from a score of 0 to an alarm) for a line of ',
        t.f('c2:points.0.line', { kind: 'exact', unit: 'nats' }), ' (A, or the floor where that is higher): one every ',
        t.f('c2:points.0.seconds.exact', { fmt: 'dur' }), ', ', t.f(['div', 3600, 'c2:points.0.seconds.exact'], { kind: 'exact', unit: 'false alarms per hour' }), '.'),
      t.p('So the closed line is set by traffic instead: ln N, N = the calls expected in the false-alarm period (', t.f('s:period', { fmt: 'dur', ...setting }),
        ' at ', t.f('s:cpm', { ...setting, unit: 'calls/min' }), '): N = ', t.f(['mul', ['div', 's:cpm', 60], 's:period'], { kind: 'exact', unit: 'calls' }),
        ', line = ', t.f('c0:points.0.line', { kind: 'exact', unit: 'nats' }), ' = ', t.f('c0:points.0.line_points', { kind: 'exact', unit: 'points' }),
        ' (never below a minimum, step 7). Lorden (1971) carries Ville’s inequality over to the score that keeps restarting: at p0 the ARL is at least ', t.f('c0:points.0.calls.bound', { unit: 'calls' }),
        ' (e^line). That bounds the average gap between false alarms, not every gap: single gaps vary, roughly geometrically, and a short one is possible. The exact ARL at p0 is ', t.f('c0:points.0.calls.exact', { unit: 'calls' }),
        ' (', t.f('c0:points.0.seconds.exact', { fmt: 'dur' }), '); a second method, Brook and Evans’ chain on a grid of scores, gives ', t.f('c0:points.0.calls.markov_chain', { unit: 'calls', keep: true, missing: CHAIN_MISSING }),
        ' (± ', t.f('c0:points.0.markov_chain_error', { kind: 'approximation', unit: 'calls', missing: CHAIN_ERROR_MISSING }),
        ', its error estimate: the gap to a coarser grid, an estimate, not a bound; it lies ', t.f(['abs', ['sub', 'c0:points.0.calls.markov_chain', 'c0:points.0.calls.exact']], { kind: 'approximation', unit: 'calls' }),
        ' from the exact value, itself good to about ± ', t.f('c0:points.0.exact_error', { kind: 'approximation', unit: 'calls' }),
        ', its own error estimate: a gap below that says only that the two agree), Wald’s formula ', t.f('c0:points.0.calls.approximation', { unit: 'calls' }), ' (it ignores how far the score overshoots the line, and what the floor cuts off at 0).',
        t.when(['lt', 'c0:points.0.calls.approximation', 'c0:points.0.calls.bound'], ' Here it falls below the bound itself, so it is plainly off: one failure carries the score ',
          t.f(['div', 'c0:settings.w_fail', 'c0:points.0.line'], { kind: 'exact', fmt: 'pct' }), ' of the way to the line, and one success takes it down by |w_ok| = ',
          t.f(['abs', 'c0:settings.w_ok'], { kind: 'exact', unit: 'nats' }), ', much of which the floor cuts off at 0: the formula leaves out both, the overshoot past the line and what the floor cuts off, and they weigh most where steps are large beside the line or the drift per call is steep.')),
      t.p('To watch false alarms happen in a day’s run, take a short line, N = ', t.f(1000, { ...setting, unit: 'calls' }), ', a line of ', t.f('c1:points.0.line', { kind: 'exact', unit: 'nats' }),
        ' (ln N, or the floor, step 7, where that is higher): bound ', t.f('c1:points.0.calls.bound', { unit: 'calls' }),
        ', exact ', t.f('c1:points.0.calls.exact', { unit: 'calls' }), ', simulated ', t.f('c1:points.0.calls.simulated', { unit: 'calls' }),
        ' (95% interval ', t.f('c1:points.0.calls.simulated.ci95.0', { kind: 'simulated' }), ' to ', t.f('c1:points.0.calls.simulated.ci95.1', { kind: 'simulated' }),
        ', ', t.f('c1:points.0.calls.simulated.n', { kind: 'setting', unit: 'runs' }), ').',
        t.when(['add', ['lt', 'c1:points.0.calls.exact', 'c1:points.0.calls.simulated.ci95.0'], ['lt', 'c1:points.0.calls.simulated.ci95.1', 'c1:points.0.calls.exact']],
          ' This interval misses the exact value: a 95% interval does so about once in twenty, and these runs are always the same ones (seed 1).'),
        ' This day-long run uses that short line: ',
        t.f('run:statistical.metrics.false_openings', { kind: 'simulated', unit: 'false alarms' }), ' in ',
        t.f('run:calls', { kind: 'simulated', unit: 'calls' }), ' (one run; the closed breaker judged ',
        t.f(['sub', 'run:statistical.totals.admitted', 'run:statistical.totals.trials'], { kind: 'simulated', unit: 'calls' }),
        ' of them (any others came while it was open or half-open after an alarm), and over the exact ARL those give ',
        t.f(['div', ['sub', 'run:statistical.totals.admitted', 'run:statistical.totals.trials'], 'c1:points.0.calls.exact'], { kind: 'approximation' }),
        ', the count to expect, as the score starts again from 0 at each close).'),
    ],
  },
  {
    id: 'traffic',
    title: 'Traffic sets N: the damped count, and the line rising with traffic',
    commands: (S) => [['false-alarms', ...base({ ...S, cpm: 1 })], ['false-alarms', ...base(S)], ['false-alarms', ...base({ ...S, cpm: 600 })]],
    scenario: (S) => ({
      name: 'Learn 7: a daily swing', seed: 7, duration: 86400,
      traffic: { calls_per_minute: S.cpm, daily_swing: 0.9 },
      dependency: [fine(S, 0)],
      statistical: statistical(S),
    }),
    look: { panel: 'chart', text: 'the line (red) over a day whose traffic swings from a tenth of the mean at midnight to nearly twice it at noon (calls per bucket below): the line follows the traffic, except where its floor holds it up.' },
    seek: 43200,
    body: (t) => [
      t.p('N counts calls, so the line depends on traffic. The breaker meters it with a damped count: every call adds 1, the count decays by a factor e per time constant τ (', t.f('sc:statistical.traffic_time_constant', { fmt: 'dur', ...setting }), '), rate = count / τ. Two numbers, the count and when it was last touched; rejected calls count too, so the line does not sink while the breaker is open.'),
      t.p('At 1 call/min: N = ', t.f(['mul', ['div', 1, 60], 's:period'], { kind: 'exact', unit: 'calls' }), ', line ',
        t.f('c0:points.0.line', { kind: 'exact', unit: 'nats' }), ' (', t.f('c0:points.0.line_points', { kind: 'exact', unit: 'points' }), '). Yours, ',
        t.f('s:cpm', { ...setting, unit: 'calls/min' }), ': N = ', t.f(['mul', ['div', 's:cpm', 60], 's:period'], { kind: 'exact', unit: 'calls' }), ', line ',
        t.f('c1:points.0.line', { kind: 'exact', unit: 'nats' }), '. At 600 calls/min: N = ', t.f(['mul', ['div', 600, 60], 's:period'], { kind: 'exact', unit: 'calls' }),
        ', line ', t.f('c2:points.0.line', { kind: 'exact', unit: 'nats' }), ' (', t.f('c2:points.0.line_points', { kind: 'exact', unit: 'points' }), ').'),
      t.p('Above the line’s floor (below), a tenfold busier service raises it by only ln 10 = ', t.f(['ln', 10], { kind: 'exact', unit: 'nats' }), ', yet keeps the same promise: on average at most one false alarm per ',
        t.f('s:period', { fmt: 'dur', ...setting }), ' (bound, for steady traffic). The line is ln N, but never below a minimum, ',
        t.f('c1:settings.line_floor', { kind: 'exact', unit: 'nats' }), ': the larger of Wald’s A (', t.f('c1:settings.upper', { kind: 'exact', unit: 'nats' }),
        ', step 6) and one failure plus one point (w_fail + |w_ok|), so a cold meter cannot open on the first failure. From 0, a quiet service needs ',
        t.f(['ceil', ['div', 'c0:points.0.line', 'c0:settings.w_fail']], { kind: 'exact', unit: 'failures in a row' }),
        ', a busy one ', t.f(['ceil', ['div', 'c2:points.0.line', 'c2:settings.w_fail']], { kind: 'exact', unit: 'failures in a row' }), '.',
        t.when(['mul', ['lt', 'c1:points.0.line', ['add', 'c1:settings.line_floor', 1e-9]], ['lt', 'c2:points.0.line', ['add', 'c2:settings.line_floor', 1e-9]]],
          ' At your settings all three lines above are the floor (ln N is below it: a short period, or failures that weigh much): traffic moves the line only once ln N passes it.')),
    ],
  },
  {
    id: 'half-open',
    title: 'Half-open: Wald’s two lines, one trial at a time, lost trials, a time limit',
    commands: (S) => [['trials', ...rates(S)]],
    scenario: (S) => ({
      name: 'Learn 8: an outage, then a recovery with hung calls', seed: 8, duration: 40 * 60,
      traffic: { calls_per_minute: S.cpm },
      dependency: [fine(S, 0), { start: 600, condition: 'outage', failure_rate: 1, label: 'outage' },
        recovered(S)],
      callers: { call_timeout: 30 },
      statistical: statistical(S, { call_timeout: 10 }),
    }),
    look: { panel: 'chart', text: 'the trial score (purple) between its two lines (orange above, green below) after each wait; the state band turns yellow while half-open.' },
    seek: 'first-close',
    body: (t) => [
      t.p('After a wait (', t.f('sc:statistical.first_wait', { kind: 'setting', fmt: 'dur' }), ' at first) the breaker lets one call through as a trial. A new trial score starts from 0, with no floor and the same weights, between Wald’s two lines: open again at A = ',
        t.f('c0:settings.upper', { kind: 'exact', unit: 'nats' }), ' (', t.f(['div', 'c0:settings.upper', 'c0:settings.point'], { kind: 'exact', unit: 'points' }),
        '), close at B = ', t.f('c0:settings.lower', { kind: 'exact', unit: 'nats' }), ' (', t.f(['div', 'c0:settings.lower', 'c0:settings.point'], { kind: 'exact', unit: 'points' }), ').'),
      t.p('From 0, it takes ', t.f('c0:trials_to_close', { kind: 'exact', unit: 'successes' }), ' in a row to close it and ',
        t.f('c0:trials_to_open', { kind: 'exact', unit: 'failures' }), ' in a row to open it again. A recovered service (at p0) closes with probability ',
        t.f('c0:points.0.close_probability.exact', pct), ' (Wald: about 1 − a = ', t.f('c0:points.0.close_probability.approximation', pct), '), and the test decides, one way or the other, after ',
        t.f('c0:points.0.expected_trials.exact', { unit: 'trials' }), ' on average (Wald: ', t.f('c0:points.0.expected_trials.approximation', { unit: 'trials' }),
        '). A still-broken one (at p1) closes with probability ', t.f('c0:points.2.close_probability.exact', pct), ' (Wald: about b = ',
        t.f('c0:points.2.close_probability.approximation', pct), '). These are exact for Wald’s test run to its end, every trial answered.'),
      t.p('One trial is in flight at a time; other calls go to the fallback. A trial with no answer within the breaker’s call timeout (', t.f('sc:statistical.call_timeout', { kind: 'setting', fmt: 'dur' }),
        ' in this run, while hung calls take ', t.f('sc:callers.call_timeout', { kind: 'setting', fmt: 'dur' }),
        ') is lost: its slot frees and the score does not move. Half-open has a time limit: the time factor ', t.f('sc:statistical.half_open_time_factor', { kind: 'setting', unit: '×' }), ' ',
        t.f('c0:trials_to_close', { kind: 'exact', unit: 'trials' }), ' / the traffic rate (calls/s) = ',
        t.f(HALF_OPEN_LIMIT, { kind: 'exact', fmt: 'dur' }),
        ' at your traffic; then it closes if the trial score is below 0, else opens again.',
        t.when(['sub', 1, ['lt', 's:cpm', 600]], ' The breaker’s default factor, ', t.f(DEFAULT_TIME_FACTOR, { kind: 'setting', unit: '×' }),
          ', counts calls, not their latency: at your traffic it gives ', t.f(DEFAULT_LIMIT, { kind: 'exact', fmt: 'dur' }), ', room for about ',
          t.f(['div', DEFAULT_LIMIT, ['add', ANSWER_S, ['div', 1, 'c0:settings.calls_per_second']]], { kind: 'approximation', unit: 'trials' }),
          ' answered one at a time, each in this run’s ', t.f(ANSWER_S, { kind: 'setting', fmt: 'dur' }),
          ' plus the wait for the next call, against ', t.f('c0:trials_to_close', { kind: 'exact', unit: 'successes' }),
          ' in a row to close; once one answer outlasts the whole limit, half-open never closes. So from 600 calls/min this walkthrough’s runs take 2 × (1 + latency × rate), room for twice the trials to close (the playground’s derived numbers give the factor each setting needs). The chances that follow take the default factor with answers that take no time and no trial lost, about three times the trials to close.'),
        ' This limit can stop the test before either line, which moves both chances: with trials as a Poisson stream (',
        t.f('c0:points.0.time_limit.mean_trials', { kind: 'approximation', unit: 'trials' }),
        ' by the limit on average, answers fast, none lost), a recovered service closes with probability ', t.f('c0:points.0.time_limit.close_probability', pct),
        ' and a still-broken one ', t.f('c0:points.2.time_limit.close_probability', pct), ' instead; a larger time factor brings them closer to those of the test run to its end.',
        t.when(['lt', HALF_OPEN_LIMIT, 'sc:statistical.call_timeout'], ' In this run a hung trial is lost only after the breaker’s call timeout (', t.f('sc:statistical.call_timeout', { kind: 'setting', fmt: 'dur' }),
          '), longer than the whole limit, so a half-open with one ends at its limit, which these chances do not count (the event trace says how each ended).'),
        ' This run: ',
        t.f('run:statistical.metrics.openings', { kind: 'simulated', unit: 'openings from closed' }), ', ',
        t.f('run:statistical.metrics.late_results_ignored', { kind: 'simulated', unit: 'results ignored (late or lost)' }), '.'),
    ],
  },
  {
    id: 'backoff',
    title: 'Backoff, generations and late results; what counts as a failure',
    commands: (S) => [['trials', ...rates(S)]],
    scenario: (S) => ({
      name: 'Learn 9: hung calls during an outage', seed: 9, duration: 50 * 60,
      traffic: { calls_per_minute: S.cpm },
      dependency: [fine(S, 0), { start: 600, condition: 'outage', failure_rate: 0, hang_rate: 1, label: 'outage: calls hang' },
        { start: 1800, condition: 'fine', failure_rate: S.fine, label: 'recovered' }],
      callers: { call_timeout: 60 },
      statistical: statistical(S),
    }),
    look: { panel: 'trace', text: 'the event trace: how each half-open ended, and the longer wait after each reopening; the metrics show late results the statistical breaker ignored and the window breaker recorded.' },
    seek: 'first-opening',
    body: (t) => [
      t.p('Open means: send calls to the fallback for a wait. The first wait is ', t.f('sc:statistical.first_wait', { kind: 'setting', fmt: 'dur' }),
        '; each time half-open ends without closing it grows by ', t.f('sc:statistical.backoff_factor', { kind: 'setting', unit: '×' }), ' — ',
        ...[1, 2, 3].flatMap((k) => [t.f(WAIT(k), { kind: 'exact', fmt: 'dur' }), ', ']),
        '… — capped at ', t.f('sc:statistical.wait_cap', { kind: 'setting', fmt: 'dur' }),
        '. After a close the next wait starts at the first again. Half-open ends without closing when the trial score reaches A, or when its time limit (step 8) runs out with the trial score not below 0. In this run’s outage (20 minutes) every trial hangs past the breaker’s call timeout (', t.f('sc:statistical.call_timeout', { kind: 'setting', fmt: 'dur' }), '), so no trial’s answer counts',
        t.when(['lt', HALF_OPEN_LIMIT, 600], ': a half-open that ends within it ends at its limit (', t.f(HALF_OPEN_LIMIT, { kind: 'exact', fmt: 'dur' }), ') with the trial score at 0, and opens again for a longer wait; one still open when the outage ends may end otherwise, on the answers that come then (the event trace says how each ended).'),
        t.when(['sub', 1, ['lt', HALF_OPEN_LIMIT, 600]], '; but at your traffic half-open’s limit (', t.f(HALF_OPEN_LIMIT, { kind: 'exact', fmt: 'dur' }),
          ') is long beside the outage, so a half-open may outlast it and end at a line once the service answers again, with no wait doubled (the event trace says how each ended).')),
      t.p('Every state change increments a generation. An admitted call carries the generation it was let in with; its result counts only if the breaker is still in that generation. In this run calls hang for ', t.f('sc:callers.call_timeout', { fmt: 'dur', ...setting }), ' during the outage, so a call let in before an opening fails only after it, late: the statistical breaker ignored ',
        t.f('run:statistical.metrics.late_results_ignored', { kind: 'simulated', unit: 'results' }), '; the window breaker (resilience4j records them) saw ',
        t.f('run:window.metrics.late_results_ignored', { kind: 'simulated', unit: 'results' }), ' arrive while open. Statistical openings from closed: ',
        t.f('run:statistical.metrics.openings', { kind: 'simulated' }), '; calls that waited on the failing service: ',
        t.f('run:statistical.metrics.calls_waited_on_failure', { kind: 'simulated', unit: 'calls' }), ' (window: ', t.f('run:window.metrics.calls_waited_on_failure', { kind: 'simulated', unit: 'calls' }), ').'),
      t.p('What counts: only failures that mean the service is failing — timeouts, refused connections, 5xx, 429 from the service, the service rejecting our own key. A call rejected for its own input (other 4xx) or a user’s own rate limit moves nothing. A failure adds ',
        t.f(['div', 'c0:settings.w_fail', 'c0:settings.point'], { kind: 'exact', unit: 'points' }), ' whichever kind it is.'),
    ],
  },
  {
    id: 'window',
    title: 'The same calls through the window breaker',
    commands: (S) => {
      const w = (size) => ['window', '--window', String(size), '--threshold', '0.5', '--min-calls', String(size),
        '--baseline', arg(S.fine), '--true-rate', '1', '--calls-per-minute', arg(S.cpm)];
      return [w(10), w(100), ['open-delay', ...base(S), '--true-rate', '1'], ['open-delay', ...base(S)]];
    },
    scenario: (S) => ({
      name: 'Learn 10: noise, then an outage', seed: 10, duration: 48 * SECONDS_PER_HOUR,
      traffic: { calls_per_minute: S.cpm },
      dependency: [fine(S, 0), { start: 36 * SECONDS_PER_HOUR, condition: 'outage', failure_rate: 1, label: 'outage' },
        { start: 36.5 * SECONDS_PER_HOUR, condition: 'fine', failure_rate: S.fine, label: 'fine again' }],
      statistical: statistical(S),
      window: { sliding_window_size: 10, minimum_number_of_calls: 10, failure_rate_threshold: 0.5 },
    }),
    look: { panel: 'chart', text: 'the window chart: the window’s failure rate (cyan) against its threshold (red). With 10 calls it jumps on noise; compare the two state bands, and the openings in the metrics.' },
    seek: 'first-opening',
    body: (t) => [
      t.p('The textbook breaker opens when the failure rate of the last n calls reaches a threshold (here ', t.f('c0:threshold', { ...pct, kind: 'setting' }),
        '). Take n = ', t.f('c0:window', { kind: 'setting' }), ' calls and a fine service (p0 = ', t.f('s:fine', { ...pct, ...setting }), '): ',
        t.f('c0:failures_to_trip', { kind: 'exact', unit: 'failures' }), ' or more in a full window trip it, which happens to a given window with probability ',
        t.f('c0:points.0.trip_probability_per_window', {}), '. Counting windows back to back that is ',
        t.f('c0:points.0.trips_per_day_back_to_back', { unit: 'trips per day' }),
        ' at your traffic. But the window slides one call at a time, and overlapping windows give more chances: ',
        t.f('c0:points.0.trips_per_day_sliding.exact', { unit: 'trips per day' }), ' (',
        t.f(['div', 'c0:points.0.trips_per_day_sliding.exact', 'c0:points.0.trips_per_day_back_to_back'], { kind: 'exact', unit: '×' }),
        '; both count a day of calls to a closed breaker: the time each trip then spends open is not taken off).'),
      t.p('A large window is quiet but slow. With n = ', t.f('c1:window', { kind: 'setting' }), ': ',
        t.f('c1:points.0.trips_per_day_sliding.simulated', { unit: 'spurious trips per day' }), ' (95% interval ',
        t.f('c1:points.0.trips_per_day_sliding.simulated.ci95.0', { kind: 'simulated' }), ' to ',
        t.f('c1:points.0.trips_per_day_sliding.simulated.ci95.1', { kind: 'simulated' }), ', ',
        t.f('c1:points.0.trips_per_day_sliding.simulated.n', { kind: 'setting', unit: 'calls' }), '; at most ',
        t.f(['mul', 'c1:window', 'c1:points.0.trips_per_day_back_to_back'], { kind: 'bound', unit: 'trips per day' }),
        ': a trip needs a full window at or over the threshold, and a given window is so with probability ',
        t.f('c1:points.0.trip_probability_per_window', {}), '), but in a total outage it needs on average ',
        t.f('c1:outage.calls_to_open.exact', { unit: 'calls' }), ' (',
        t.f('c1:outage.seconds_to_open.exact', { fmt: 'dur' }), ') to open; n = ',
        t.f('c0:window', { kind: 'setting' }), ' needs on average ', t.f('c0:outage.calls_to_open.exact', { unit: 'calls' }),
        '. The statistical breaker needs ', t.f('c2:points.0.calls.exact', { unit: 'calls' }), ' in a total outage (that many failures in a row, every time) and on average ',
        t.f('c3:points.0.calls.exact', { unit: 'calls' }), ' at p1 = ', t.f('s:broken', { ...pct, ...setting }),
        ' (both from a score of 0; a score that recent failures left above 0 opens a little sooner), with on average at most one false alarm per ', t.f('s:period', { fmt: 'dur', ...setting }), ' (bound).'),
      t.p('This two-day run plays both on the same calls with a window of ', t.f('sc:window.sliding_window_size', { ...setting, unit: 'calls' }), ' and a 30-minute total outage. Openings while the service was fine: window ',
        t.f('run:window.metrics.false_openings', { kind: 'simulated' }), ', statistical ', t.f('run:statistical.metrics.false_openings', { kind: 'simulated' }),
        '. Time to open after the outage starts: window ', t.f('run:window.metrics.time_to_open_s', { kind: 'simulated', fmt: 'dur', none: 'did not open in the outage' }),
        ', statistical ', t.f('run:statistical.metrics.time_to_open_s', { kind: 'simulated', fmt: 'dur', none: 'did not open in the outage' }), '.'),
    ],
  },
];
